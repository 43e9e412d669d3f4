"""Issue #30 item 11, "Words": the lobby's options read with one kind of capitals, the cover
table says who led, a finished hand says one thing, and /rules names options in words."""

from __future__ import annotations

import pytest

from kozelbot.cards import parse_cards
from kozelbot.cover.board import Round
from kozelbot.cover.render.table import table_text as cover_table_text
from kozelbot.cover.vocabulary import Lead
from kozelbot.games import TABLE_PRESETS
from kozelbot.i18n import LANGUAGES, translator
from kozelbot.render import lobby_keyboard, option_labels, options_line
from tests.cover_positions import position
from tests.test_cover_texts import PAIRS
from tests.test_cover_texts import _table as _cover_table
from tests.test_texts_core import _table

RU = translator("ru")


def _variants_and_options() -> list[tuple[str, dict[str, object]]]:
    cases: list[tuple[str, dict[str, object]]] = []
    for variant in TABLE_PRESETS:
        cases.append((variant, {}))
        cases.append((variant, {"move_time": 0}))
    cases += [("hvalenyi", {"players": 2}), ("cover", {"mode": "self", "players": 3})]
    return cases


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("variant", "options"), _variants_and_options())
def test_every_option_of_the_lobby_starts_with_a_capital(
    language: str, variant: str, options: dict[str, object]
) -> None:
    """«игроков: 4 · Колода 36 · ход 60 с» mixed the case of one line's items: each item (and
    its ⚙ button) now starts with a capital, or a figure («4 players», «6♣ …»)."""
    t = translator(language)
    table = _table(variant, **options)
    labels = list(option_labels(table, t).values())
    items = [item for row in options_line(table, t).splitlines() for item in row.split(" · ")]
    buttons = [b.text.removeprefix("⚙ ") for row in lobby_keyboard(table, t) for b in row
               if b.text.startswith("⚙ ")]  # fmt: skip
    assert items and buttons
    for label in [*labels, *items, *buttons]:
        assert not label[:1].islower(), (variant, label)


def test_the_lobby_line_reads_in_russian() -> None:
    assert options_line(_table("hvalenyi"), RU).splitlines()[0] == "Игроков: 4 · Колода 36"
    assert "Ход 60 с" in options_line(_table("hvalenyi"), RU)
    assert "Без лимита на ход" in options_line(_table("kryuk", move_time=0), RU)
    assert options_line(_table("hvalenyi"), translator("uk")).startswith("Гравців: 4 · ")


# -- the cover table says who led -------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "led"), [("ru", "Заход: Вера"), ("uk", "Захід: Вера"), ("en", "Led by Вера")]
)
def test_the_cover_table_says_who_led_the_stacks(language: str, led: str) -> None:
    """Вера leads two hearts, Глеб beats one: the table names her as the leader under the
    stacks, and says nothing of a leader before anyone led."""
    t = translator(language)
    state = position(PAIRS, ["6C 7C", "8C 9C", "6H 7H QS", "8H AS KD"], "6S 7S 8S 9S")
    game = state.current
    assert game is not None
    game.round = Round(leader=2, first_leader=2, last_beater=2)
    table = _cover_table(state)
    assert not any(line.startswith(led.split()[0]) for line in cover_table_text(table, state, t)
                   .splitlines())  # fmt: skip
    state.apply(2, Lead(parse_cards("6H 7H")))
    lines = cover_table_text(table, state, t).splitlines()
    stacks = next(i for i, line in enumerate(lines) if "6♥" in line)
    assert lines[stacks + 1] == led, lines
