"""The cover game's texts and multi-select keyboard, rendered from views."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest

from kozelbot.core.callbacks import parse
from kozelbot.core.cards import DECK_36, Card, parse_cards
from kozelbot.core.i18n import translator
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.cover import FAMILY, render
from kozelbot.families.cover.buttons import ChosenButton, SelectButton
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import (
    Acted,
    Beat,
    Discard,
    GameDealt,
    IllegalMove,
    Lead,
    Phase,
    RoundTaken,
)
from tests.cover_positions import position

EN = translator("en")
PAIRS: dict[str, Any] = {"mode": "pairs", "players": 4}


def _table(state: CoverState) -> Table:
    seats = [Player(user_id=100 + s, name=f"P{s}") for s in range(state.players)]
    return Table(
        game_id=7,
        chat_id=-1,
        variant="cover",
        options=state.options,
        creator_id=100,
        seed=1,
        seats=seats,
        status=TableStatus.PLAYING,
    )


def _dealt() -> CoverState:
    state = CoverState("cover", {"mode": "self", "players": 3})
    state.deal_deck(list(DECK_36))
    return state


def test_the_leader_sees_card_toggles_and_a_lead_verb_others_do_not() -> None:
    state = _dealt()
    table = _table(state)
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    keyboard = render.hand_keyboard(table, state, leader, EN, frozenset(hand[:1]))
    toggles = [b for row in keyboard for b in row if b.data and b.data.startswith("x:")]
    assert len(toggles) == len(hand)
    assert sum(b.text.startswith(render.SELECTED) for b in toggles) == 1
    assert all(isinstance(parse(b.data), SelectButton) for b in toggles)
    verbs = [parse(b.data) for row in keyboard for b in row if b.data and b.data.startswith("y:")]
    assert ChosenButton(7, 0, "lead") in verbs
    other = (leader + 1) % 3
    assert not [
        b
        for row in render.hand_keyboard(table, state, other, EN)
        for b in row
        if b.data and b.data.startswith("y:")
    ]


def test_a_selection_becomes_the_move_and_the_engine_finds_the_stacks() -> None:
    state = _dealt()
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    suit = max({c.suit for c in hand}, key=lambda s: sum(c.suit is s for c in hand))
    chosen = frozenset(c for c in hand if c.suit is suit)
    action = render.from_selection("lead", chosen)
    assert isinstance(action, Lead) and set(action.cards) == chosen
    state.apply(leader, action)
    assert state.phase is Phase.ANSWER
    assert sorted(len(s) for s in state.view_for(None).stacks) == [1] * len(chosen)


def test_an_impossible_selection_is_refused_with_its_reason() -> None:
    state = _dealt()
    table = _table(state)
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    mixed = (hand[0], next(c for c in hand if c.suit is not hand[0].suit))
    try:
        state.verify(leader, Lead(mixed))
    except IllegalMove as error:
        assert render.error_text(error, table, EN) == "A lead is of one suit."
    else:
        raise AssertionError("a lead of two suits was accepted")
    error = IllegalMove("does not beat every stack")
    assert "every stack" in render.error_text(error, table, EN)
    assert render.error_text(IllegalMove("discard exactly", 2), table, EN) == (
        "Discard exactly 2 cards."
    )
    assert render.done_text(Beat((Card.parse("10H"),)), EN) == "You beat it with 10♥."


def test_the_table_shows_stacks_discards_talon_trump_and_who_acts() -> None:
    state = _dealt()
    table = _table(state)
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    state.apply(leader, Lead((hand[0],)))
    text = render.table_text(table, state, EN)
    assert "trump ♦" in text and "Talon: 18 cards" in text
    assert "On the table:" in text and "answers" in text
    assert "Loser points:\nP0: 0 · P1: 0 · P2: 0" in text


# -- the points line shows only face-up cards until the game is scored ----------------------


def _points_line(text: str) -> str:
    """The points line, joined back into one if it wrapped (its label then the figures)."""
    lines = text.splitlines()
    (at,) = [i for i, line in enumerate(lines) if line.startswith(("Open card", "Points this"))]
    return " ".join(lines[at : at + 2]) if lines[at].endswith(":") else lines[at]


def _open_points(names: list[str], points: list[int]) -> str:
    """The table's open points, each side named with its figure."""
    parts = [f"{name}: {p}" for name, p in zip(names, points, strict=True)]
    return " — ".join(parts) if len(parts) == 2 else " · ".join(parts)


def test_during_play_the_table_counts_only_face_up_cards_in_the_tricks_taken() -> None:
    """Issue #14: the face-down discards (A♠, A♣ here) stay out of the table's points line,
    and out of the public view, until the game is scored; then the true totals show."""
    state = position(PAIRS, ["KC 6H", "AS 7H", "10C 8H", "AC 9H"])
    table = _table(state)
    state.apply(0, Lead(parse_cards("KC")))
    state.apply(1, Discard(parse_cards("AS")))  # 11 points, face down
    state.apply(2, Beat(parse_cards("10C")))
    state.apply(3, Discard(parse_cards("AC")))  # 11 points, face down
    assert state.phase is Phase.LEAD and state.to_act() == (2,)  # seat 2 took the trick
    assert state.current is not None and state.current.points == [4 + 10 + 22, 0]
    text = render.table_text(table, state, EN)
    assert _points_line(text) == "Open card points: P0+P2: 14 — P1+P3: 0"
    assert "36" not in text and "Points this game" not in text
    for seat in (None, 0, 1, 2, 3):  # no view carries the true totals
        view = state.view_for(seat)
        assert view.open_points == (14, 0)
        assert "points" not in {f.name for f in fields(view)}
    while state.phase is not Phase.DEALING:  # the hearts left are worth nothing
        seat = state.to_act()[0]
        state.apply(seat, FAMILY.players.choose(state, seat))
    result = state.last_result
    assert result is not None and result.points == (36, 0)
    text = render.table_text(table, state, EN)
    assert _points_line(text) == "Points this game: P0+P2: 36 — P1+P3: 0"
    assert _points_line(render.final_table_text(table, result, EN)) == _points_line(text)
    assert "Game 1: P0+P2: 36 — P1+P3: 0" in render.result_text(table, result, EN)


COVER_SETTINGS: list[dict[str, Any]] = [
    PAIRS,
    {**PAIRS, "hand": 4},
    {"mode": "self", "players": 2},
    {"mode": "self", "players": 3},
    {"mode": "self", "players": 4, "save": 21},
    {"mode": "self", "players": 3, "hand": 4},
    {**PAIRS, "poshka": True},
    {**PAIRS, "opening": "seed000"},
    {"mode": "self", "players": 2, "hand": 4, "poshka": True, "opening": "seed000"},
    {"mode": "self", "players": 3, "opening": "seed000", "poshka": True},
]


def _relabelled(data: Any, swap: dict[str, str]) -> Any:
    """A state dump with two cards' names exchanged everywhere (hands, deck, talon, trace)."""
    if isinstance(data, str):
        return swap.get(data, data)
    if isinstance(data, list):
        return [_relabelled(item, swap) for item in data]
    if isinstance(data, dict):
        return {key: _relabelled(value, swap) for key, value in data.items()}
    return data


def _shown(state: CoverState) -> set[str]:
    """Cards of this game the table has seen: the shown bottom card, and every lead and beat
    (a claim may take some back into a hand)."""
    game = state.current
    assert game is not None
    shown = {str(game.bottom)} if game.bottom is not None else set()
    shown |= {str(c) for m in game.round.log for c in m.cards if m.kind in ("lead", "beat")}
    for rnd in game.rounds:
        shown |= {c for m in rnd["sequence"] if m["type"] in ("lead", "beat") for c in m["cards"]}
    return shown


def _face_down(state: CoverState) -> list[tuple[Card, int | None]]:
    """The cards put face down this game whose names the table never saw, each with the side
    whose counted points hold it (``None`` while its trick is not yet counted: the round or
    its levelling goes on)."""
    game = state.current
    assert game is not None
    shown = _shown(state)
    found: list[tuple[Card, int | None]] = []
    for number, rnd in enumerate(game.rounds):
        counted = not (state.phase is Phase.LEVEL and number == len(game.rounds) - 1)
        side = state.side_of(rnd["taker"]) if counted else None
        hidden = [c for a in rnd["actions"] if a["type"] == "discard" for c in a["cards"]]
        hidden += [c for lv in rnd["levelling"] for c in lv["cards"]]
        found += [(Card.parse(c), side) for c in hidden]
    if state.phase is not Phase.LEVEL:
        found += [(c, None) for c in game.round.discards]
    return [(c, side) for c, side in found if str(c) not in shown]


def _unseen(state: CoverState) -> list[Card]:
    """Cards in hands or the talon whose names the table never saw."""
    game = state.current
    assert game is not None
    shown = _shown(state)
    return [c for c in [*(c for h in game.hands for c in h), *game.talon] if str(c) not in shown]


@pytest.mark.parametrize(
    "options", COVER_SETTINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("seed", [14, 15])
def test_the_public_table_is_the_same_whichever_cards_lie_face_down(
    options: dict[str, Any], seed: int
) -> None:
    """Over seeded computer matches, at every state in play: exchanging a face-down card with
    a card nobody has seen (in a hand or the talon) changes the true points but neither the
    public view nor the table text; and the table's points equal the face-up cards of the
    tricks taken, counted from the public events alone."""
    state = CoverState("cover", dict(options))
    table = _table(state)
    rng = random.Random(seed)
    checked = changed = 0
    open_points = [0] * state.rules.sides
    on_table: list[Card] = []

    def follow(events: list[Any]) -> None:
        for event in events:
            if isinstance(event, GameDealt):
                open_points[:] = [0] * state.rules.sides
                on_table.clear()
            elif isinstance(event, Acted):
                verb, _, arg = event.action.partition(":")
                if verb == "claim":
                    on_table.clear()  # the lead and its answers go back to the hands
                elif verb in ("lead", "beat"):
                    on_table.extend(Card.parse(c) for c in arg.split(","))
            elif isinstance(event, RoundTaken):
                open_points[state.side_of(event.taker)] += sum(c.points for c in on_table)
                on_table.clear()

    while not state.over:
        if state.needs_chance:
            follow(state.chance(rng))
            continue
        public = state.view_for(None)
        text = render.table_text(table, state, EN)
        if state.phase is not Phase.DEALING:
            assert public.open_points == tuple(open_points)
            sides = [s for s in range(state.rules.sides) if state.rules.pairs or s not in state.out]
            names = [f"P{s}+P{s + 2}" if state.rules.pairs else f"P{s}" for s in sides]
            points = _open_points(names, [open_points[s] for s in sides])
            assert f"Open card points: {points}" in " ".join(text.splitlines())
            face_down, unseen = _face_down(state), _unseen(state)
            if face_down and unseen:
                card, side = rng.choice(face_down)
                other = next((c for c in unseen if c.points != card.points), rng.choice(unseen))
                swap = {str(card): str(other), str(other): str(card)}
                dumped = state.dump()  # the game before is over: its cards are other cards
                twin = CoverState.load(
                    {**_relabelled(dumped, swap), "last_result": dumped["last_result"]}
                )
                assert twin.current is not None and state.current is not None
                if side is not None:
                    twin.current.points[side] += other.points - card.points
                changed += twin.current.points != state.current.points
                assert twin.view_for(None) == public
                assert render.table_text(table, twin, EN) == text
                checked += 1
        seat = state.to_act()[0]
        follow(state.apply(seat, FAMILY.players.choose(state, seat)))
    assert checked > 50 and changed > 10
