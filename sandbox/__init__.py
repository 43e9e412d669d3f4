"""The sandbox: KozelBot without Telegram, played from a web page on 127.0.0.1.

``kozelbot`` without a token (or ``kozelbot sandbox``) runs the real bot — the same
``Application``, handlers and storage as in production — against ``botapi_emulator`` in one
process, with one group chat and four people whom the page (``sandbox/static``) lets you play
as, and a watch mode in which they play a match by themselves (``sandbox.watch``). Modules:
``server`` (lifecycle and ``run``), ``bot`` (the bot in this event loop), ``world`` (the group,
the people and the chats file), ``api`` (the page's HTTP API and event stream), ``miniapp``,
``watch``; below them ``hub`` (the event hub) and ``host`` (what ``api`` and ``miniapp`` ask of
the running sandbox), so ``server`` imports the page's modules and never the reverse.
"""

from .server import Sandbox, run

__all__ = ["Sandbox", "run"]
