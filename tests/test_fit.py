"""Texts cut to Telegram's limits (``kozelbot.core.fit``): whole characters, closed tags."""

from __future__ import annotations

import html
import random
import re

from kozelbot.core.fit import ANSWER_LIMIT, MESSAGE_LIMIT, fit_html, fit_plain, units


def _shown(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]*>", "", text))


def test_a_short_answer_is_left_as_it_is() -> None:
    assert fit_plain("Сейчас ходит Борис") == "Сейчас ходит Борис"


def test_a_long_answer_is_cut_to_200_utf16_units_with_an_ellipsis() -> None:
    text = "🐐" * 150  # 300 UTF-16 units
    fitted = fit_plain(text)
    assert units(fitted) <= ANSWER_LIMIT and fitted.endswith("…")
    assert fitted[:-1] == "🐐" * len(fitted[:-1])  # no half of a surrogate pair


def test_a_long_message_keeps_its_tags_balanced_and_its_entities_whole() -> None:
    text = "<b>" + "Д&amp;Т " * 1000 + '</b><a href="https://t.me/x">ссылка</a>'
    fitted = fit_html(text)
    assert units(_shown(fitted)) <= MESSAGE_LIMIT
    assert fitted.count("<b>") == fitted.count("</b>") == 1
    assert not re.search(r"&[a-z]*…", fitted)  # an entity is never cut in half


def test_a_message_under_the_limit_is_unchanged_even_if_its_markup_is_long() -> None:
    text = '<a href="' + "x" * 5000 + '">короткий</a>'
    assert fit_html(text) == text


def test_any_cut_fits_and_shows_a_start_of_the_original() -> None:
    rng = random.Random(14)
    pieces = ["<b>", "</b>", "<i>", "</i>", "Д", "🐐", "&lt;", " ", "ab"]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 1500)))
        fitted = fit_html(text, limit=300)
        assert units(_shown(fitted)) <= 300
        if fitted != text:
            kept = _shown(re.sub(r"…(</[a-z]+>)*$", "", fitted)).rstrip()
            assert _shown(text).startswith(kept)
