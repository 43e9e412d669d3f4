"""Every catalog has every plural form its language needs for each plural message the code
uses (Russian and Ukrainian: one, few, many — «1 глаз», «2 глаза», «5 глаз»), and no
translation guesses a gender Telegram never gives (issue #15)."""

from __future__ import annotations

import re

import pytest

from kozelbot.core.i18n import translator
from tests.test_i18n_render import MESSAGES, TRANSLATED, load_catalog, placeholders

PLURALS = sorted({m[2] for m in MESSAGES if isinstance(m[2], tuple)})
GUESSED_GENDER = re.compile(r"\w\((?:а|ла|-ла|ла)\)")
"""«вышел(а)», «вийшов(-ла)»: a name's gender guessed both ways."""


def test_the_code_uses_plural_messages() -> None:
    assert len(PLURALS) > 10


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("ids", PLURALS, ids=lambda ids: ids[0])
def test_every_plural_message_has_each_form_of_the_language(
    language: str, ids: tuple[str, str]
) -> None:
    catalog = load_catalog(language)
    entry = catalog.get(ids[0])
    assert entry is not None, ids
    forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
    assert len(forms) == catalog.num_plurals == 3, (ids, forms)
    assert all(form.strip() for form in forms), (ids, forms)
    t = translator(language)
    others = {field: "X" for field in (placeholders(ids[0]) | placeholders(ids[1])) - {"count"}}
    rendered = {t.n(ids[0], ids[1], n, **others) for n in (1, 2, 5)}
    assert len(rendered) == 3 or "{count}" not in ids[0], (ids, rendered)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_translation_guesses_a_gender(language: str) -> None:
    guessed = []
    for message in load_catalog(language):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        guessed += [form for form in forms if form and GUESSED_GENDER.search(form)]
    assert guessed == []
