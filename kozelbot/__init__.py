"""KozelBot's game core: cards, variants, the rules engine, computer players, texts.

No Telegram and no SQL here, except the composition root ``kozelbot.app``.
"""

__version__ = "0.1.0"
