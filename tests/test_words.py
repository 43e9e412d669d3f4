"""Issue #30 item 11, "Words": the lobby's options read with one kind of capitals, the cover
table says who led, a finished hand says one thing, and /rules names options in words."""

from __future__ import annotations

import re

import pytest

from kozelbot.core.cards import DECK_36, parse_cards
from kozelbot.core.i18n import LANGUAGES, translator
from kozelbot.core.table import TableStatus
from kozelbot.families.cover.board import Round
from kozelbot.families.cover.render.hand import hand_text as cover_hand
from kozelbot.families.cover.render.table import table_text as cover_table_text
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import Lead, Phase
from kozelbot.families.follow.render import hand_text as follow_hand
from kozelbot.families.registry import TABLE_PRESETS, preset, reader_of
from kozelbot.views.general import lobby_keyboard, option_labels, options_line, rules_text
from tests.cover_positions import position
from tests.scripted import ROWS_92_28, new_match, play_deal, playing_table
from tests.test_cover_texts import PAIRS, _finish
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
    buttons = [
        b.text.removeprefix("⚙ ")
        for row in lobby_keyboard(table, t)
        for b in row
        if b.text.startswith("⚙ ")
    ]
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
    assert not any(
        line.startswith(led.split()[0]) for line in cover_table_text(table, state, t).splitlines()
    )
    state.apply(2, Lead(parse_cards("6H 7H")))
    lines = cover_table_text(table, state, t).splitlines()
    stacks = next(i for i, line in enumerate(lines) if "6♥" in line)
    assert lines[stacks + 1] == led, lines


# -- a finished hand says one thing ------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "deal", "last", "stopped"),
    [
        (
            "ru",
            "Сдача 1 закончена.",
            "Сдача 3, последняя в партии, закончена.",
            "Партия остановлена.",
        ),
        ("uk", "Здачу 1 завершено.", "Здачу 3, останню в партії, завершено.", "Партію зупинено."),
        ("en", "Deal 1 is over.", "Deal 3, the match's last, is over.", "The match was stopped."),
    ],
)
def test_a_finished_follow_hand_says_one_thing(
    language: str, deal: str, last: str, stopped: str
) -> None:
    """A scored deal's hand was its header («Хвалёный козёл · сдача 1 / козырь ♦») over «Сдача
    закончена.», then «Сдача 1 закончена.» once the next was dealt, and the match's end was
    not said: now one line, the same before and after the next deal, the match's end in it."""
    t = translator(language)
    state = new_match()
    play_deal(state, ROWS_92_28)  # 4 eyes a deal: three deals make the match
    table = playing_table(state)
    assert follow_hand(table, state, 0, t) == deal == reader_of("hvalenyi").deal_over_text(0, t)
    stopping = table.model_copy(update={"status": TableStatus.STOPPED})
    assert follow_hand(stopping, state, 0, t) == stopped
    for _ in range(2):
        play_deal(state, ROWS_92_28)
    assert state.over
    assert [follow_hand(table, state, seat, t) for seat in range(4)] == [last] * 4


def test_a_finished_cover_hand_says_one_thing() -> None:
    state = CoverState("cover", dict(PAIRS))
    state.deal_deck(list(DECK_36))
    table = _cover_table(state)
    _finish(state, [81, 39])
    assert state.phase is Phase.DEALING
    assert (
        cover_hand(table, state, 1, RU)
        == "Игра 1 закончена."
        == reader_of("cover").deal_over_text(0, RU)
    )
    state.phase = Phase.OVER  # as after the match's last game
    assert cover_hand(table, state, 1, RU) == "Игра 1, последняя в партии, закончена."
    assert cover_hand(table, state, 1, translator("uk")) == "Гру 1, останню в партії, завершено."
    assert cover_hand(table, state, 1, translator("en")) == "Game 1, the match's last, is over."


# -- /rules names options in words ---------------------------------------------------------------


CODE = re.compile(r"<code>.*?</code>")


def raw_option(text: str, variant: str = "sixes") -> str | None:
    """An option written by its key outside a code span («players=2:», «no_shamok:»,
    «ace_discard_ban (…)»), or ``None``: ``key=value``, a key before a colon, or a key of
    two words joined by ``_`` anywhere (the keys of ``variant``, and ``players``)."""
    plain = CODE.sub("", text)
    keys = {"players", *preset(variant).options_model.model_fields}
    found = re.search(r"(?<![\w/])[a-z_]+=\w+", plain)
    for key in sorted(keys):
        after = "" if "_" in key else "(?=:)"
        found = found or re.search(rf"(?<![\w/]){re.escape(key)}\b{after}", plain)
    return None if found is None else found.group(0)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", list(TABLE_PRESETS))
def test_rules_name_options_in_words_and_commands_only_as_code(variant: str, language: str) -> None:
    text = rules_text(variant, translator(language))
    assert raw_option(text, variant) is None, text
    # A variant by its key («как в хвалёном (hvalenyi)»); in English «sixes» is a word.
    keys = "|".join(k for k in TABLE_PRESETS if language != "en" or k not in ("sixes", "cover"))
    assert re.search(rf"(?<![\w/])(?:{keys})\b", CODE.sub("", text)) is None, text


def test_the_rules_name_the_lobby_s_buttons() -> None:
    hvalenyi = rules_text("hvalenyi", RU).splitlines()
    assert hvalenyi[-2].startswith("Вдвоём (кнопка «⚙ Игроков: 2» в наборе): каждый за себя")
    assert hvalenyi[-1] == "Стол на двоих: наберите <code>/newgame hvalenyi players=2</code>"
    sixes = rules_text("sixes", RU)
    assert "(с настройкой «⚙ Без шамка»: дамы, валеты, затем бубны)" in sixes
    assert "«⚙ Запрет сноса туза: да» — нельзя сносить туза" in sixes
    assert raw_option("players=2: каждый за себя") == "players=2"
    assert raw_option("Параметры: ace_discard_ban (нельзя …), royal (…)") is not None
