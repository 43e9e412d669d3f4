"""The cover game's texts as a person reads them (issue #15): each side named with its own
figures, plural forms from the catalogs, the trump change said on the table, lines that fit a
phone, and Russian words in Russian («Отбой», «Игра», «картой»)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from kozelbot.core.cards import DECK_36, parse_cards
from kozelbot.core.i18n import translator
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.core.texts import LINE, card_label, visible
from kozelbot.families.cover import FAMILY, render
from kozelbot.families.cover.board import Round
from kozelbot.families.cover.render import deal_over_text
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import (
    Beat,
    Discard,
    IllegalMove,
    Lead,
    Level,
    NotYourTurn,
    Otboy,
    Phase,
    TrumpChanged,
)
from tests.cover_positions import position

RU, UK, EN = translator("ru"), translator("uk"), translator("en")
NAMES = ("Аня", "Борис", "Вера", "Глеб")
PAIRS: dict[str, Any] = {"mode": "pairs", "players": 4}


def _self(players: int) -> dict[str, Any]:
    return {"mode": "self", "players": players}


def _table(state: CoverState, chat_title: str | None = None) -> Table:
    seats = [Player(user_id=100 + s, name=NAMES[s]) for s in range(state.players)]
    return Table(
        game_id=7,
        chat_id=-1,
        chat_title=chat_title,
        variant="cover",
        options=state.options,
        creator_id=100,
        seed=1,
        seats=seats,
        status=TableStatus.PLAYING,
    )


def _finish(state: CoverState, points: list[int]) -> list[Any]:
    """End the current game with these card points per side: seat 0 leads 6♥ (no points,
    nobody beats it), the others discard a card each, the talon is empty."""
    game = state.current
    assert game is not None
    filler = iter(parse_cards("7C 8C 9C"))
    game.hands = [[] for _ in range(state.players)]
    for seat in state.in_play():
        game.hands[seat] = list(parse_cards("6H")) if seat == 0 else [next(filler)]
    game.talon, game.points = [], list(points)
    game.round = Round(leader=0, first_leader=0, last_beater=0)
    state.phase = Phase.LEAD
    events = state.apply(0, Lead(parse_cards("6H")))
    while state.phase is Phase.ANSWER:
        (seat,) = state.to_act()
        events += state.apply(seat, Discard((state.view_for(seat).hand[0],)))
    return events


def _scored(events: list[Any]) -> DealScored:
    (result,) = [e for e in events if isinstance(e, DealScored)]
    return result


def _result(
    points: tuple[int, ...],
    award: tuple[int, ...],
    score: tuple[int, ...],
    *,
    deal_no: int = 0,
    outcome: str = "normal",
    multiplier: int = 1,
    out: tuple[int, ...] = (),
) -> DealScored:
    return DealScored(
        deal_no=deal_no,
        outcome=outcome,
        points=points,
        tricks_won=tuple(1 for _ in points),
        award=award,
        multiplier=multiplier,
        score=score,
        side=None,
        details={"trump": "D", "out": list(out), "last_taker": 0},
    )


# -- 1. results name every side with its own figures ---------------------------------------


def test_a_pairs_game_result_names_both_sides_with_their_points_and_loser_points() -> None:
    state = CoverState("cover", PAIRS)
    state.deal_deck(list(DECK_36))
    table = _table(state)
    result = _scored(_finish(state, [81, 39]))
    assert render.result_text(table, result, RU) == "\n".join(
        [
            "Игра 1:",
            "Аня+Вера: 81 — Борис+Глеб: 39",
            "Штрафные:",
            "Аня+Вера: 0 — Борис+Глеб: 2 (+2)",
        ]
    )
    assert render.result_text(table, result, UK) == "\n".join(
        [
            "Гра 1:",
            "Аня+Вера: 81 — Борис+Глеб: 39",
            "Програшні:",
            "Аня+Вера: 0 — Борис+Глеб: 2 (+2)",
        ]
    )
    assert render.result_text(table, result, EN) == "\n".join(
        [
            "Game 1:",
            "Аня+Вера: 81 — Борис+Глеб: 39",
            "Loser points:",
            "Аня+Вера: 0 — Борис+Глеб: 2 (+2)",
        ]
    )
    assert render.final_table_text(table, result, RU) == "\n".join(
        [
            "🐐 Игра 1 · козырь ♦",
            "Козёл с прикупом",
            "Последняя взятка — Аня: 6♥ · 🂠×3",
            "Очки в игре:",
            "Аня+Вера: 81 — Борис+Глеб: 39",
            "Игра закончена.",
        ]
    )
    assert render.final_table_text(table, result, UK).splitlines()[2:5] == [
        "Остання взятка — Аня: 6♥ · 🂠×3",
        "Очки в грі:",
        "Аня+Вера: 81 — Борис+Глеб: 39",
    ]


def test_the_final_table_shows_the_last_trick_as_it_lay_face_down_cards_counted() -> None:
    """Issue #15 item 7 in the cover game: who took the last trick, its stacks (lead → beat)
    and how many cards lay face down, never which; a result stored before the stacks were
    kept shows none."""
    state = position(PAIRS, ["6H 6C", "7H 7C", "8D 8C", "9S 9C"])
    table = _table(state)
    events = state.apply(0, Lead(parse_cards("6H")))
    for seat, action in [
        (1, Beat(parse_cards("7H"))),
        (2, Beat(parse_cards("8D"))),
        (3, Discard(parse_cards("9S"))),
        (2, Lead(parse_cards("8C"))),
        (3, Beat(parse_cards("9C"))),
        (0, Discard(parse_cards("6C"))),
        (1, Discard(parse_cards("7C"))),
    ]:
        assert state.to_act() == (seat,)
        events += state.apply(seat, action)
    final = render.final_table_text(table, _scored(events), RU).splitlines()
    assert final[2:4] == ["Последняя взятка — Глеб:", "8♣→9♣ · 🂠×2"]
    old = render.final_table_text(table, _result((50, 70), (2, 0), (2, 0)), RU)
    assert "взятка" not in old


def test_on_your_answer_the_hand_says_who_takes_the_trick_so_far() -> None:
    """Issue #15 item 8 in the cover game: once someone beat, the seat to answer is told who
    takes the trick now (the last beater), and whether that is the partner."""
    state = position(PAIRS, ["6H 6C", "7H 7C", "8D 8C", "9S 9C"])
    table = _table(state)
    state.apply(0, Lead(parse_cards("6H")))
    assert "берёт" not in render.hand_text(table, state, 1, RU)  # the lead alone
    state.apply(1, Beat(parse_cards("7H")))
    assert render.hand_text(table, state, 2, RU).splitlines()[-2] == "Пока берёт Борис."
    state.apply(2, Discard(parse_cards("8C")))
    assert render.hand_text(table, state, 3, RU).splitlines()[-2] == (
        "Пока берёт Борис — ваш партнёр."
    )
    assert "берёт" not in render.hand_text(table, state, 0, RU)  # not Аня's turn


def test_the_running_loser_points_name_everybody_even_a_side_with_none() -> None:
    state = CoverState("cover", PAIRS)
    table = _table(state)
    result = _result((39, 81), (2, 0), (6, 0), deal_no=2)
    assert render.result_text(table, result, RU) == "\n".join(
        [
            "Игра 3:",
            "Аня+Вера: 39 — Борис+Глеб: 81",
            "Штрафные:",
            "Аня+Вера: 6 (+2) — Борис+Глеб: 0",
        ]
    )


def test_each_for_self_every_player_is_named_with_their_own_figures() -> None:
    state = CoverState("cover", _self(3))
    state.deal_deck(list(DECK_36))
    table = _table(state)
    result = _scored(_finish(state, [7, 51, 62]))
    assert render.result_text(table, result, RU) == "\n".join(
        [
            "Игра 1:",
            "Аня: 7 · Борис: 51 · Вера: 62",
            "Штрафные:",
            "Аня: 4 (+4) · Борис: 2 (+2)",
            "Вера: 0",
        ]
    )
    assert render.final_table_text(table, result, RU).splitlines()[2:] == [
        "Последняя взятка — Аня: 6♥ · 🂠×2",
        "Очки в игре:",
        "Аня: 7 · Борис: 51 · Вера: 62",
        "Игра закончена.",
    ]


def test_a_player_out_before_the_game_is_not_among_its_points_but_keeps_a_score() -> None:
    state = CoverState("cover", _self(4))
    table = _table(state)
    # Глеб went out earlier; Борис reaches 12 in this game and goes out.
    result = _result((20, 30, 70, 0), (4, 4, 0, 0), (10, 12, 2, 12), deal_no=4, out=(1, 3))
    assert render.result_text(table, result, RU) == "\n".join(
        [
            "Игра 5:",
            "Аня: 20 · Борис: 30 · Вера: 70",
            "Штрафные:",
            "Аня: 10 (+4) · Борис: 12 (+4) 🚪",
            "Вера: 2 · Глеб: 12 🚪",
        ]
    )


def test_eggs_and_the_doubled_game_after_them() -> None:
    state = CoverState("cover", PAIRS)
    table = _table(state)
    eggs = _result((60, 60), (0, 0), (4, 2), deal_no=1, outcome="eggs")
    assert render.result_text(table, eggs, RU) == "\n".join(
        [
            "Игра 2: яйца, 60 : 60.",
            "В следующей игре штрафные ×2.",
            "Штрафные:",
            "Аня+Вера: 4 — Борис+Глеб: 2",
        ]
    )
    doubled = _result((50, 70), (4, 0), (8, 2), deal_no=2, multiplier=2)
    assert render.result_text(table, doubled, RU) == "\n".join(
        [
            "Игра 3:",
            "Аня+Вера: 50 — Борис+Глеб: 70",
            "Штрафные ×2 после яиц.",
            "Штрафные:",
            "Аня+Вера: 8 (+4) — Борис+Глеб: 2",
        ]
    )


def test_the_table_names_the_sides_in_its_loser_points_and_open_card_points() -> None:
    state = position(PAIRS, ["KC 6H", "AS 7H", "10C 8H", "AC 9H"], "6S 7S 8S 9S")
    table = _table(state)
    state.apply(0, Lead(parse_cards("KC")))
    state.apply(1, Discard(parse_cards("AS")))  # face down: not in the open points
    assert "1 карта рубашкой вверх 🂠" in render.table_text(table, state, RU).splitlines()
    state.apply(2, Beat(parse_cards("10C")))
    state.apply(3, Discard(parse_cards("AC")))
    text = render.table_text(table, state, RU)
    assert "Штрафные:\nАня+Вера: 0 — Борис+Глеб: 0\n" in text
    assert text.endswith("Очки открытых карт:\nАня+Вера: 14 — Борис+Глеб: 0")
    assert render.table_text(table, state, UK).endswith(
        "Очки відкритих карт:\nАня+Вера: 14 — Борис+Глеб: 0"
    )


# -- 2. the match's end: singular for one player, gender-free ------------------------------


@pytest.mark.parametrize(
    ("options", "winner", "ru", "uk", "en"),
    [
        (PAIRS, 1, "Аня+Вера — козлы 🐐", "Аня+Вера — козли 🐐", "Аня+Вера are the kozly 🐐"),
        (_self(2), 1, "Аня — козёл 🐐", "Аня — козел 🐐", "Аня is the kozel 🐐"),
        (
            _self(3),
            1,
            "Аня и Вера — козлы 🐐",
            "Аня і Вера — козли 🐐",
            "Аня and Вера are the kozly 🐐",
        ),
        (
            _self(4),
            2,
            "Аня, Борис и Глеб — козлы 🐐",
            "Аня, Борис і Глеб — козли 🐐",
            "Аня, Борис and Глеб are the kozly 🐐",
        ),
    ],
    ids=["pairs", "duel", "three", "four"],
)
def test_the_match_over_names_the_winner_then_the_kozly_in_their_number(
    options: dict[str, Any], winner: int, ru: str, uk: str, en: str
) -> None:
    state = CoverState("cover", options)
    table = _table(state)
    over = MatchOver(winner, tuple(12 for _ in range(state.rules.sides)))
    name = "Борис+Глеб" if state.rules.pairs else NAMES[winner]
    assert render.match_over_text(table, over, RU) == f"🏆 Победа в партии: {name}.\n{ru}"
    assert render.match_over_text(table, over, UK) == f"🏆 Перемога в партії: {name}.\n{uk}"
    assert render.match_over_text(table, over, EN) == f"🏆 {name} won the match.\n{en}"


def test_four_aces_win_in_the_winners_number() -> None:
    table = _table(CoverState("cover", _self(3)))
    result = _result((0, 0, 0), (12, 12, 0), (12, 14, 4), deal_no=1, outcome="aces")
    assert render.result_text(table, result, RU) == "\n".join(
        [
            "Игра 2: четыре туза на одной руке!",
            "Вера выигрывает партию.",
            "Штрафные:",
            "Аня: 12 (+12) · Борис: 14 (+12)",
            "Вера: 4",
        ]
    )
    pairs = _table(CoverState("cover", PAIRS))
    sixes = _result((0, 0), (12, 0), (12, 0), outcome="sixes")
    assert render.result_text(pairs, sixes, RU).splitlines()[:2] == [
        "Игра 1: четыре шестёрки на одной руке!",
        "Борис+Глеб выигрывают партию.",
    ]
    assert render.result_text(pairs, sixes, UK).splitlines()[1] == "Борис+Глеб виграють партію."


# -- 9. the trump change at the last draw is said on the table -----------------------------


def _bottom_drawn(bottom: str) -> tuple[CoverState, Table, list[Any]]:
    """Two players; Аня leads К♣, Борис discards, Аня takes and draws the talon's only
    card, its bottom one."""
    state = position(_self(2), ["KC 6H", "AS 7H"], bottom)
    table = _table(state)
    state.apply(0, Lead(parse_cards("KC")))
    return state, table, state.apply(1, Discard(parse_cards("7H")))


def test_the_drawn_bottom_card_changes_the_trump_and_the_table_says_so() -> None:
    state, table, events = _bottom_drawn("9S")
    assert [e for e in events if isinstance(e, TrumpChanged)] == [TrumpChanged(*parse_cards("9S"))]
    assert render.table_text(table, state, RU) == "\n".join(
        [
            "🐐 Игра 1 · козырь ♠",
            "Козёл с прикупом",
            "Штрафные: Аня: 0 — Борис: 0",
            "Прикуп закончился.",
            "Козырь сменился: ♠",
            "(нижняя карта 9♠)",
            "Заходит <b>Аня</b>",
            "Карт на руках: Аня: 2 · Борис: 1",
            "Очки открытых карт:",
            "Аня: 4 — Борис: 0",
        ]
    )
    assert "Козир змінився: ♠\n(нижня карта 9♠)" in render.table_text(table, state, UK)
    # Two suits count two letters each (texts.visible): the bracket goes on a line of its own.
    assert "Trump changed: ♠\n(bottom card 9♠)" in render.table_text(table, state, EN)
    assert "Козырь сменился: ♠\n(нижняя карта 9♠)" in render.hand_text(table, state, 1, RU)


def test_the_trump_change_stays_on_the_table_for_the_rest_of_the_game_only() -> None:
    state, table, _ = _bottom_drawn("9S")
    state.apply(0, Lead(parse_cards("6H")))  # Борис cannot beat: the game goes on
    assert state.phase is not Phase.DEALING
    assert "Козырь сменился: ♠\n(нижняя карта 9♠)" in render.table_text(table, state, RU)
    while state.phase is not Phase.DEALING:
        seat = state.to_act()[0]
        state.apply(seat, FAMILY.players.choose(state, seat))
    state.deal_deck(list(DECK_36))
    text = render.table_text(table, state, RU)
    assert text.startswith("🐐 Игра 2 · козырь ♠\n") and "Козырь сменился" not in text


def test_a_bottom_card_of_the_trump_suit_leaves_the_trump_as_it_was() -> None:
    state, table, _ = _bottom_drawn("9D")
    assert "Козырь не сменился: ♦\n(нижняя карта 9♦)" in render.table_text(table, state, RU)


def test_the_seed_000_cut_card_shows_with_the_talon_and_changes_nothing() -> None:
    state = CoverState("cover", {**_self(2), "opening": "seed000"})
    state.deal_deck(list(DECK_36))
    table = _table(state)
    assert state.current is not None and state.current.bottom is not None
    bottom = state.current.bottom
    lines = f"В прикупе: 24 карты\nнижняя карта {card_label(bottom, RU)}\n"
    text = render.table_text(table, state, RU)
    assert lines in text and "Козырь" not in text


# -- 10. lines that fit a phone --------------------------------------------------------------


def test_cards_in_hand_wrap_between_players() -> None:
    state = CoverState("cover", PAIRS)
    state.deal_deck(list(DECK_36))
    text = render.table_text(_table(state), state, RU)
    assert "Карт на руках:\nАня: 6 · Борис: 6 · Вера: 6\nГлеб: 6" in text


def test_a_long_list_wraps_between_items_never_inside_one() -> None:
    parts = [f"Игрок{n} {n}" for n in range(7)]
    text = render.fit(lambda s: RU("Cards in hand: {sizes}", sizes=s), parts)
    assert text.splitlines() == [
        "Карт на руках:",
        "Игрок0 0 · Игрок1 1 · Игрок2 2",
        "Игрок3 3 · Игрок4 4 · Игрок5 5",
        "Игрок6 6",
    ]
    assert render.fit(lambda s: s, ["a", "b"]) == "a · b"


PROSE = ("👉", "Можно заявить")
"""Sentences: the phone wraps them between words, as it should."""


@pytest.mark.parametrize(
    "options",
    [PAIRS, _self(3), _self(4), {**PAIRS, "opening": "seed000"}],
    ids=["pairs", "self-3", "self-4", "seed000"],
)
def test_every_list_line_of_a_whole_match_fits_a_phone(options: dict[str, Any]) -> None:
    """Over a seeded computer match (names as long as «Борис+Глеб», the group «Козлятня»),
    no line of the table, the hands, the results or the match's end is wider than
    ``LINE``, sentences of the hands' hints apart."""
    state = CoverState("cover", dict(options))
    table = _table(state, chat_title="Козлятня")
    rng = random.Random(3)
    texts: list[str] = []
    while not state.over:
        if state.needs_chance:
            state.chance(rng)
            continue
        texts.append(render.table_text(table, state, RU))
        texts += [render.hand_text(table, state, s, RU) for s in state.in_play()]
        seat = state.to_act()[0]
        for event in state.apply(seat, FAMILY.players.choose(state, seat)):
            if isinstance(event, DealScored):
                texts += [
                    render.result_text(table, event, RU),
                    render.final_table_text(table, event, RU),
                ]
            elif isinstance(event, MatchOver):
                texts.append(render.match_over_text(table, event, RU))
    long = {
        line
        for text in texts
        for line in text.splitlines()
        if visible(line) > LINE and not line.startswith(PROSE)
    }
    assert not long


# -- 13. Russian in Russian, plurals through the catalogs ----------------------------------


def _rebeat() -> tuple[CoverState, Table]:
    """Аня leads 6♣, Борис beats with 7♣, Аня cannot answer: Борис may beat his own stack
    again (8♣) or end the round."""
    state = position(_self(2), ["6C 9H", "7C 8C"], "6S 7S 8S 9S")
    state.apply(0, Lead(parse_cards("6C")))
    state.apply(1, Beat(parse_cards("7C")))
    assert state.phase is Phase.REBEAT and state.to_act() == (1,)
    return state, _table(state)


@pytest.mark.parametrize(
    ("language", "button", "prompt", "toast"),
    [
        ("ru", "Отбой", "Побейте свою стопку ещё раз или нажмите «Отбой».", "Отбой!"),
        ("uk", "Відбій", "Побийте свою стопку ще раз або натисніть «Відбій».", "Відбій!"),
        ("en", "Done", "Beat your stack again, or press Done.", "Done: the round is over."),
    ],
)
def test_the_round_ending_call_is_each_languages_own_word(
    language: str, button: str, prompt: str, toast: str
) -> None:
    """Seed 000 says «отбой» in Russian, seed 003 «Відбій» in Ukrainian; in English the
    button ends the round, so it says Done."""
    t = translator(language)
    state, table = _rebeat()
    keyboard = render.hand_keyboard(table, state, 1, t)
    assert [b.text for b in keyboard[-1]] == ["▶ " + t("Beat"), button]
    assert f"👉 {prompt}" in render.hand_text(table, state, 1, t).splitlines()
    assert render.done_text(Otboy(), t) == toast


def test_the_russian_table_and_alerts_say_otboy() -> None:
    state, table = _rebeat()
    assert "<b>Борис</b>: побить ещё раз или «Отбой»" in render.table_text(table, state, RU)
    assert "<b>Борис</b>: побити ще раз або «Відбій»" in render.table_text(table, state, UK)
    assert render.error_text(IllegalMove("no Відбій now"), table, RU) == "Сейчас «Отбой» нельзя."
    rules = render.rules_text(RU)
    assert "сказать «Отбой»" in rules and "Відбій" not in rules
    assert "«Відбій»" in render.rules_text(UK)


UKRAINIAN_LETTERS = re.compile("[іїєґІЇЄҐ']")


@pytest.mark.parametrize("options", [PAIRS, _self(3), {**_self(2), "hand": 4}])
def test_no_ukrainian_word_in_any_russian_text_of_a_match(options: dict[str, Any]) -> None:
    state = CoverState("cover", dict(options))
    table = _table(state, chat_title="Козлятня")
    rng = random.Random(5)
    texts = [render.rules_text(RU), *render.option_labels(state.options, RU).values()]
    while not state.over:
        if state.needs_chance:
            state.chance(rng)
            continue
        texts.append(render.table_text(table, state, RU))
        for seat in state.in_play():
            texts.append(render.hand_text(table, state, seat, RU))
            texts += [b.text for row in render.hand_keyboard(table, state, seat, RU) for b in row]
        seat = state.to_act()[0]
        action = FAMILY.players.choose(state, seat)
        texts.append(render.done_text(action, RU))
        for event in state.apply(seat, action):
            if isinstance(event, DealScored):
                texts.append(render.result_text(table, event, RU))
            elif isinstance(event, MatchOver):
                texts.append(render.match_over_text(table, event, RU))
    assert not [text for text in texts if UKRAINIAN_LETTERS.search(text)]


def test_a_finished_games_hand_says_game_not_deal() -> None:
    assert render.deal_over_text(0, RU) == "Игра 1 закончена."
    assert deal_over_text(2, UK) == "Гру 3 завершено."
    assert deal_over_text(0, EN) == "Game 1 is over."


@pytest.mark.parametrize(
    ("cards", "ru", "uk", "en"),
    [
        ("QD", "Вы побили картой Д♦.", "Ви побили картою Д♦.", "You beat it with Q♦."),
        (
            "QD 10D",
            "Вы побили картами Д♦ 10♦.",
            "Ви побили картами Д♦ 10♦.",
            "You beat them with Q♦ 10♦.",
        ),
    ],
)
def test_a_beat_says_card_or_cards_by_their_number(cards: str, ru: str, uk: str, en: str) -> None:
    beat = Beat(parse_cards(cards))
    assert [render.done_text(beat, t) for t in (RU, UK, EN)] == [ru, uk, en]


@pytest.mark.parametrize(("count", "noun"), [(1, "карту"), (2, "карты"), (4, "карты"), (5, "карт")])
def test_face_down_counts_name_their_cards_in_the_right_form(count: int, noun: str) -> None:
    cards = tuple(DECK_36[:count])
    assert render.done_text(Discard(cards), RU) == f"Вы скинули {count} {noun} рубашкой вверх."
    assert render.done_text(Level(cards), RU) == f"Вы доложили {count} {noun} рубашкой вверх."
    table = _table(CoverState("cover", PAIRS))
    assert render.error_text(IllegalMove("discard exactly", count), table, RU) == (
        f"Скиньте ровно {count} {noun}."
    )
    assert render.error_text(IllegalMove("beat or discard exactly", count), table, RU) == (
        f"Побейте все стопки или скиньте {count} {noun} рубашкой вверх."
    )


def test_english_counts_agree_too() -> None:
    one = (DECK_36[0],)
    assert render.done_text(Discard(one), EN) == "You discarded 1 card face down."
    assert render.done_text(Discard(DECK_36[:3]), EN) == "You discarded 3 cards face down."


def test_the_answering_hand_is_told_what_it_may_do_with_how_many_cards() -> None:
    """Three players: Аня leads 6♠ 9♠, Борис beats both (10♠ Д♠); Вера, two cards over him,
    may beat both stacks or discard two; without the cards to beat, only discard."""
    state = position(_self(3), ["6S 9S 7C", "10S QS 8C", "KS AS 7H"], "6D 7D 8D 9D")
    table = _table(state)
    state.apply(0, Lead(parse_cards("6S 9S")))
    state.apply(1, Beat(parse_cards("10S QS")))
    text = render.table_text(table, state, RU)
    assert "На столе: 6♠→10♠ · 9♠→Д♠" in text.splitlines()
    hand = render.hand_text(table, state, 2, RU).splitlines()
    assert hand[-3:] == [
        "Побить: 10♠ Д♠",
        "Пока берёт Борис.",
        "👉 Побейте все стопки или скиньте 2 карты рубашкой вверх.",
    ]
    assert state.current is not None
    state.current.hands[2] = list(parse_cards("7H 8H 9H"))
    assert render.hand_text(table, state, 2, RU).splitlines()[-1] == (
        "👉 Скиньте 2 карты рубашкой вверх."
    )


def test_one_stack_is_the_stack_and_the_talon_counts_its_cards() -> None:
    state = position(_self(2), ["KC 6H", "AS 7H"], "6S")
    table = _table(state)
    assert "В прикупе: 1 карта" in render.table_text(table, state, RU).splitlines()
    state.apply(0, Lead(parse_cards("KC")))
    assert render.hand_text(table, state, 1, RU).splitlines()[-1] == (
        "👉 Скиньте 1 карту рубашкой вверх."
    )
    state = position(_self(2), ["KC 6H", "AC 7H"], "6S 7S")
    table = _table(state)
    assert "В прикупе: 2 карты" in render.table_text(table, state, RU).splitlines()
    state.apply(0, Lead(parse_cards("KC")))
    assert render.hand_text(table, state, 1, RU).splitlines()[-1] == (
        "👉 Побейте стопку или скиньте 1 карту рубашкой вверх."
    )
    assert render.hand_text(table, state, 1, EN).splitlines()[-1] == (
        "👉 Beat the stack, or discard 1 card face down."
    )


def test_several_players_to_act_are_named_together() -> None:
    table = _table(CoverState("cover", _self(3)))
    assert render.error_text(NotYourTurn((1,)), table, RU) == "Сейчас ходит Борис."
    assert render.error_text(NotYourTurn((0, 2)), table, RU) == "Сейчас ходят Аня и Вера."


# -- issue #14: nothing face down on the public table --------------------------------------


def test_after_the_last_trick_the_table_shows_no_stacks_of_it() -> None:
    """The last trick holds the face-down discards too: once it is taken the view and the
    table show none of its cards, only the scored points."""
    state = position(PAIRS, ["AC", "10H", "KH", "QH"])
    table = _table(state)
    state.apply(0, Lead(parse_cards("AC")))
    while state.phase is Phase.ANSWER:
        (seat,) = state.to_act()
        state.apply(seat, Discard(state.view_for(seat).hand))
    assert state.phase is Phase.DEALING
    assert state.view_for(None).stacks == ()
    text = render.table_text(table, state, RU)
    assert "На столе" not in text and "10♥" not in text and "К♥" not in text
    assert text.endswith("Очки в игре:\nАня+Вера: 28 — Борис+Глеб: 0")
