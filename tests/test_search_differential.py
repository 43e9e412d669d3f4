"""The search representation against the engine, position by position (issue #17 item 2).

Random matches of each follow-suit preset are played through the engine with uniformly
random legal actions (options drawn per match from the preset's option space; redeals,
hand-offs, calls and kryuk's blind trick go through the engine's own steps). From the first
card-play position of a deal a ``Position`` follows the engine card by card, and:

- at every card-play position its seat to play and legal cards equal the engine's
  (``MatchState.legal_cards``); now and then a ``Position`` built afresh from the state
  (``Position.of_state``, mid-trick included) and one from the seat's view with the hidden
  hands filled in (``Position.of_view``) equal the followed one, and a random legal card
  made and unmade leaves it as it was;
- at every trick's end its winner, points and next leader are the engine's (``TrickTaken``),
  and with two players the talon's refill gives the engine's hands;
- at every deal's end its outcome, side, per-side card points and tricks, and the
  settlement (award, multiplier, zeroed side, whether the match ends) are the engine's
  (``DealScored``, ``MatchOver``).

Each preset is checked on ``KOZEL_DIFF_POSITIONS`` card-play positions (default
``DEFAULT_POSITIONS``, 10⁵: about 2 s a preset, 10 s for the five on one core); set the
variable lower for a quick look (``KOZEL_DIFF_POSITIONS=5000``) or higher for a deeper run
(``KOZEL_DIFF_POSITIONS=1000000``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

from kozelbot.core.cards import Card
from kozelbot.core.protocol import DealScored, MatchOver, shuffle_rng
from kozelbot.families.follow.search import OVER, REFILL, TRICK, Position
from kozelbot.families.follow.search.bits import INDEX, cards_of, indices
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import PLAY, Outcome, PlayCard, TrickTaken

DEFAULT_POSITIONS = 100_000
POSITIONS = int(os.environ.get("KOZEL_DIFF_POSITIONS", DEFAULT_POSITIONS))

OPTION_SPACES: dict[str, tuple[str, dict[str, list[Any]]]] = {
    "hvalenyi": (
        "hvalenyi",
        {
            "players": [4],
            "deck": [36, 32],
            "six_clubs": ["top", "ordinary"],
            "lyusya": ["win", "zero"],
        },
    ),
    "hvalenyi-2": (
        "hvalenyi",
        {
            "players": [2],
            "deck": [36, 32],
            "six_clubs": ["top", "ordinary"],
            "lyusya": ["win", "zero"],
        },
    ),
    "kryuk": ("kryuk", {}),
    "sixes": (
        "sixes",
        {"no_shamok": [False, True], "ace_discard_ban": [False, True], "royal": [False, True]},
    ),
    "belka": ("belka", {"deck": [32, 36], "ace_discard_ban": [False, True]}),
}
"""Each checked preset: the variant and the values each option is drawn from per match."""


def same_position(a: Position, b: Position) -> bool:
    return a.key() == b.key()


def check_deal_end(
    position: Position, state: MatchState, before: tuple[int, int], events: list[Any]
) -> Outcome:
    """The ended deal: outcome, side, points, tricks and settlement are the engine's."""
    scored = next(e for e in events if isinstance(e, DealScored))
    assert position.outcome is not None and position.outcome.value == scored.outcome
    assert position.outcome_side == scored.side
    assert tuple(position.points) == scored.points
    assert tuple(position.won) == scored.tricks_won
    settled = position.settlement()
    assert settled.award == scored.award
    assert settled.multiplier == scored.multiplier
    assert settled.zeroed == scored.zeroed
    score = list(before)
    if settled.zeroed is not None:
        score[settled.zeroed] = 0
    score = [score[0] + settled.award[0], score[1] + settled.award[1]]
    assert tuple(score) == scored.score
    side = scored.side
    ends = side is not None and (settled.ends_match or score[side] >= state.rules.target)
    assert ends == any(isinstance(e, MatchOver) for e in events)
    return position.outcome


def check_preset(name: str, positions: int, seed: int) -> Counter[str]:
    """Play random matches of the preset until ``positions`` card-play positions were
    compared; return what was seen."""
    variant, space = OPTION_SPACES[name]
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    match = 0
    while seen["positions"] < positions:
        options = {key: rng.choice(values) for key, values in space.items()}
        state = MatchState(variant, options)
        match += 1
        followed: Position | None = None
        while not state.over and seen["positions"] < positions:
            if state.needs_chance:
                state.chance(shuffle_rng(seed * 7919 + match, state.shuffles))
                continue
            seat = state.to_act()[0]
            if state.phase is not PLAY:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                continue
            if followed is None or rng.random() < 0.05:
                fresh = Position.of_state(state)
                assert followed is None or same_position(fresh, followed)
                followed = fresh
                seen["built"] += 1
            position = followed
            legal = state.legal_cards(seat)
            assert position.turn == seat
            assert set(cards_of(position.legal())) == set(legal)
            seen["positions"] += 1
            seen[restriction(state, seat, legal)] += 1
            if rng.random() < 0.05:
                check_view_and_unmake(state, position, rng)
                seen["views"] += 1
            card = rng.choice(legal)
            before = (state.score[0], state.score[1])
            events = state.apply(seat, PlayCard(card))
            done = position.make(INDEX[card])
            taken = [e for e in events if isinstance(e, TrickTaken)]
            assert bool(done & TRICK) == bool(taken)
            if taken:
                seen["tricks"] += 1
                record = position.last_trick()
                assert record == (taken[0].leader, taken[0].winner, taken[0].points)
            if done & REFILL:
                seen["refills"] += 1
                deal = state.current
                assert deal is not None and deal.refills
                assert [cards_of(h) for h in position.hands] == [
                    cards_of(sum(1 << INDEX[c] for c in hand)) for hand in deal.hands
                ]
            if done & OVER:
                seen[check_deal_end(position, state, before, events).value] += 1
                seen["deals"] += 1
                followed = None
            else:
                assert not any(isinstance(e, DealScored) for e in events)
    seen["matches"] = match
    return seen


def restriction(state: MatchState, seat: int, legal: tuple[Card, ...]) -> str:
    """What limits the legal cards here: ``free``, ``follow`` (the led suit), ``lead`` (kryuk's
    A♦ or trump-lead rule) or ``discard`` (the ace-discard ban)."""
    deal = state.current
    assert deal is not None
    if len(legal) == len(deal.hands[seat]):
        return "free"
    if not deal.trick:
        return "lead"
    suit_of = state.strength.suit_of
    led = suit_of[deal.trick[0][1]]
    return "follow" if any(suit_of[card] is led for card in legal) else "discard"


def check_view_and_unmake(state: MatchState, position: Position, rng: random.Random) -> None:
    """The seat's view with the true hidden hands gives the same position; a random legal
    card made and unmade (and a whole random line to the end, unmade) leaves it as it was."""
    deal = state.current
    assert deal is not None
    seat = state.to_act()[0]
    viewed = Position.of_view(state.view_for(seat), deal.hands, deal.talon)
    assert same_position(viewed, position)
    key = position.key()
    made = 0
    while not position.over:
        choices = indices(position.legal())
        position.make(rng.choice(choices))
        made += 1
    for _ in range(made):
        position.unmake()
    assert position.key() == key


@pytest.mark.parametrize("name", sorted(OPTION_SPACES))
def test_search_position_matches_the_engine(name: str) -> None:
    """RULES.md §1 as the engine plays it: legal cards, tricks, refills, deal ends and
    awards of the search representation equal the engine's at every position."""
    seen = check_preset(name, POSITIONS, seed=17)
    assert seen["positions"] >= POSITIONS
    assert seen["deals"] > 0 and seen["tricks"] > 0
