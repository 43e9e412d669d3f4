"""The translation layer: gettext catalogs (``kozelbot/locale/<lang>/LC_MESSAGES/kozelbot.po``).

Message ids are English; Russian is the default language. Catalogs are read with Babel and
compiled in memory on first use, so the repository holds only the editable ``.po`` files.
Every user-facing string of the bot goes through ``Translator``.
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES: tuple[str, ...] = ("ru", "en", "uk")
DEFAULT_LANGUAGE = "ru"
DOMAIN = "kozelbot"


def supported(language: str | None) -> str | None:
    """The supported language a Telegram ``language_code`` (``en-GB``, ``ru``) names, if any."""
    if not language:
        return None
    base = language.lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def pick_language(*candidates: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The first supported language among ``candidates``, else ``default``."""
    for candidate in candidates:
        found = supported(candidate)
        if found is not None:
            return found
    return default


@cache
def _catalog(language: str) -> gettext.NullTranslations:
    path = resources.files("kozelbot") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@dataclass(frozen=True)
class Translator:
    """Translations for one language: ``t("Deal {n}", n=3)``, ``t.n(one, many, count)``."""

    language: str

    def __call__(self, message: str, /, **values: object) -> str:
        text = _catalog(self.language).gettext(message)
        return text.format(**values) if values else text

    def n(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """Plural-aware translation; ``{count}`` is available in the text."""
        text = _catalog(self.language).ngettext(singular, plural, count)
        return text.format(count=count, **values)

    def decimal(self, value: float) -> str:
        """A number with one decimal, as the language writes it (``1,2`` in Russian)."""
        return format_decimal(round(value, 1), format="0.0", locale=self.language)

    def p(self, context: str, message: str, /) -> str:
        """Translation with a context (``p("rank", "Q")`` → ``Д`` in Russian)."""
        return _catalog(self.language).pgettext(context, message)


@cache
def translator(language: str | None) -> Translator:
    """The translator of a language (unsupported → the default language)."""
    return Translator(pick_language(language))
