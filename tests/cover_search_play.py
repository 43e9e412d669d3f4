"""Playing the cover engine and its search representation side by side (issue #17 item 2):
random matches through the engine, a search position kept in step by ``make``, and every
position, round end and game end compared (``Differential``). Used by
``tests/test_cover_search.py``."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from kozelbot.core.cards import DECK_36, Card, Rank, Suit
from kozelbot.core.protocol import DealScored
from kozelbot.families.cover import FAMILY
from kozelbot.families.cover.board import Round
from kozelbot.families.cover.search import cards as bits
from kozelbot.families.cover.search.build import from_public, from_state
from kozelbot.families.cover.search.cards import mask_of
from kozelbot.families.cover.search.moves import CLAIM, describe, kind_of, move_of, seat_of
from kozelbot.families.cover.search.outcome import result
from kozelbot.families.cover.search.position import Position
from kozelbot.families.cover.search.public import hidden_cards, public_facts
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import Claim, Level, Phase, RoundTaken, TrumpChanged

OPTION_SETS: dict[str, dict[str, Any]] = {
    "pairs-classic": {},
    "self3-classic": {"mode": "self", "players": 3},
    "pairs-quick": {"hand": 4},
    "seed000-poshka": {"opening": "seed000", "poshka": True},
    "self2-classic": {"mode": "self", "players": 2},
    "self4-quick-poshka": {"mode": "self", "players": 4, "hand": 4, "poshka": True},
    "self3-quick-seed000-save21": {
        "mode": "self",
        "players": 3,
        "hand": 4,
        "opening": "seed000",
        "save": 21,
    },
    "pairs-classic-poshka": {"poshka": True},
    "self2-quick-seed000": {"mode": "self", "players": 2, "hand": 4, "opening": "seed000"},
}
"""Every option the cover preset has, in the sets the differential test plays."""
MAIN = ("pairs-classic", "self3-classic", "pairs-quick", "seed000-poshka")
"""The option sets the brief names; the others play a quarter as many positions."""
ENV = "KOZEL_DIFF_POSITIONS"


def positions_wanted(name: str, default: int) -> int:
    """How many positions to compare for an option set: ``KOZEL_DIFF_POSITIONS`` if set
    (every set), else ``default`` for the main sets and a quarter of it for the others."""
    wanted = os.environ.get(ENV)
    if wanted:
        return int(wanted)
    return default if name in MAIN else max(1, default // 4)


def engine_moves(state: CoverState, seat: int) -> list[int]:
    """The engine's legal actions for ``seat``, as search moves."""
    return [move_of(seat, action) for action in state.legal_actions(seat)]


def scrambled(options: dict[str, Any], rng: random.Random) -> CoverState:
    """A first game with uneven hands (0 to a full hand each), a short talon, a random
    trump and the rest of the deck already taken (one made-up round per side), so that
    levelling, the short draw and empty hands come up. Seat order, leader: random."""
    state = FAMILY.rules.new_state("cover", options)
    state.deal_deck(list(DECK_36))
    game = state.current
    assert game is not None
    rules = state.rules
    deck = list(DECK_36)
    rng.shuffle(deck)
    seats = state.in_play()
    game.hands = [[] for _ in range(rules.players)]
    for seat in seats:
        game.hands[seat] = [deck.pop() for _ in range(rng.randint(0, rules.hand))]
    leader = rng.choice(seats)
    if not game.hands[leader]:
        game.hands[leader].append(deck.pop())
    game.talon = [deck.pop() for _ in range(min(len(deck), rng.choice((0, 1, 2, 3, 5, 9))))]
    if rng.random() < 0.5:  # four of a kind in a hand, or three and the fourth on the talon
        _plant(
            [*game.hands, game.talon, deck],
            rng.choice(seats),
            rng.choice((Rank.ACE, Rank.SIX)),
            rng.choice((3, 4)),
        )
    game.trump = rng.choice(list(Suit))
    # shown: the cut card (seed 000), or a classic talon's bottom card, drawn already
    game.bottom_shown = rules.cut_opening or (rules.classic and not game.talon)
    if game.bottom_shown:
        game.bottom = game.talon[-1] if game.talon else next(c for h in game.hands for c in h)
        game.trump = game.bottom.suit
    game.points = [0] * rules.sides
    for side in range(rules.sides):
        share = len(deck) // (rules.sides - side)
        taken, deck = deck[:share], deck[share:]
        taker = rules.seats.members(side)[0] if rules.pairs else seats[side % len(seats)]
        face_up, face_down = taken[: len(taken) // 2], taken[len(taken) // 2 :]
        game.rounds.append(
            {
                "taker": taker,
                "lead": bits.text(bits.mask_of(face_up)).split(),
                "actions": [
                    {
                        "seat": taker,
                        "type": "discard",
                        "cards": bits.text(bits.mask_of(face_down)).split(),
                    }
                ],
                "levelling": [],
                "draws": [],
                "trump": game.trump.value,
            }
        )
        game.points[rules.side_of(taker)] += sum(card.points for card in taken)
        game.last_taker = taker
    game.round = Round(leader=leader, first_leader=leader, last_beater=leader)
    state.phase = Phase.LEAD
    return state


def _plant(piles: list[list[Card]], seat: int, rank: Rank, in_hand: int) -> None:
    """Swap ``in_hand`` (3 or 4) cards of ``rank`` into ``seat``'s hand (``piles[seat]``)
    and, for 3, the fourth to the top of the talon (``piles[-2]``; ``piles[-1]``: the cards
    left), as far as the piles hold them; every pile keeps its length."""
    four = [card for card in DECK_36 if card.rank is rank]
    places = [(piles[seat], index) for index in range(in_hand)] + [(piles[-2], 0)]
    for card, (target, index) in zip(four, places[:4], strict=True):
        if index < len(target):
            pile = next(p for p in piles if card in p)
            at = pile.index(card)
            pile[at], target[index] = target[index], card


@dataclass
class Differential:
    """Counts of what was compared (``counts``) and the first difference found (raised)."""

    counts: Counter[str] = field(default_factory=Counter)

    def check(self, state: CoverState, pos: Position, rng: random.Random) -> None:
        """The position against the engine: each seat's legal moves, whose turn it is, the
        claims open, and the position built afresh from the state and from one seat's
        public facts with the hidden cards."""
        self.counts["positions"] += 1
        open_claims: set[int] = set()
        for seat in range(state.players):
            expected = engine_moves(state, seat)
            got = pos.legal(seat)
            if set(got) != set(expected) or len(got) != len(set(got)):
                extra = sorted(describe(m) for m in set(got) - set(expected))
                missing = sorted(describe(m) for m in set(expected) - set(got))
                raise AssertionError(
                    f"seat {seat} in {state.phase}: extra {extra}, missing {missing}"
                )
            open_claims |= {m for m in got if kind_of(m) == CLAIM}
        assert pos.to_act() == tuple(state.to_act())
        assert set(pos.claims()) == open_claims
        assert from_state(state).snapshot() == pos.snapshot()
        seat = rng.choice(state.in_play())
        assert from_public(public_facts(state, seat), hidden_cards(state)).snapshot() == (
            pos.snapshot()
        )

    def step(self, state: CoverState, pos: Position, rng: random.Random) -> bool:
        """One random move, made on both: mostly by the seat to act, at times a claim from
        anyone; half the time chosen among the engine's actions, half among the search's
        moves (and converted back). Then the round's and the game's ends compared; whether
        the game is over."""
        claims = pos.claims()
        if claims and rng.random() < 0.2:
            move = rng.choice(claims)
        else:
            seat = rng.choice(pos.to_act())
            if rng.random() < 0.5:
                move = move_of(seat, rng.choice(state.legal_actions(seat)))
            else:
                move = rng.choice(pos.legal(seat))
        action = pos.action(move)
        phase = state.phase
        self.counts[f"{type(action).__name__.lower()}:{phase}"] += 1
        if isinstance(action, Claim) and phase is Phase.ANSWER:
            self.counts["claim took back a lead"] += 1
        if isinstance(action, Claim) and state.game.round.claims:
            self.counts["claim over a claim"] += 1
        events = state.apply(seat_of(move), action)
        pos.make(move)
        taken = [e for e in events if isinstance(e, RoundTaken)]
        for event in taken:
            self.counts["rounds"] += 1
            assert event.taker == pos.last_taker
        if any(isinstance(e, TrumpChanged) for e in events):
            self.counts["trump changes"] += 1
        if (taken or isinstance(action, Level)) and state.phase is not Phase.LEVEL:
            drawn = {
                e["seat"]: mask_of(map(Card.parse, e["cards"]))
                for e in state.game.rounds[-1]["draws"]
            }
            assert pos.drawn == tuple(drawn.get(s, 0) for s in range(state.players))
            self.counts["draws"] += 1
            if any(pos.drawn) and not pos.talon_left:
                self.counts["last draws"] += 1
        if isinstance(action, Level) and len(state.to_act()) > 1:
            self.counts["levelling with more to level"] += 1
        scored = next((e for e in events if isinstance(e, DealScored)), None)
        if scored is None:
            assert not pos.over
            return False
        assert pos.over
        got = result(pos)
        self.counts["games"] += 1
        self.counts[f"outcome {scored.outcome}"] += 1
        assert (
            got.outcome.value,
            got.points,
            got.tricks_won,
            got.award,
            got.multiplier,
            got.score,
            got.trump.value,
            got.last_taker,
        ) == (
            scored.outcome,
            scored.points,
            scored.tricks_won,
            scored.award,
            scored.multiplier,
            scored.score,
            scored.details["trump"],
            scored.details["last_taker"],
        )
        assert (got.eggs, got.out, got.winner) == (state.eggs, tuple(state.out), state.winner)
        if state.out:
            self.counts["games with seats out"] += 1
        return True


def round_trip(pos: Position, rng: random.Random, depth: int) -> int:
    """Make up to ``depth`` random moves (claims from anyone included) from ``pos``, then
    take them all back, checking every position on the way back; how many were made."""
    start = pos.snapshot()
    stack = pos.depth
    trail = []
    while len(trail) < depth and not pos.over:
        trail.append(pos.snapshot())
        pos.make(rng.choice(pos.moves() + pos.claims()))
    for snapshot in reversed(trail):
        pos.unmake()
        assert pos.snapshot() == snapshot
    assert pos.snapshot() == start and pos.depth == stack
    return len(trail)


def play(options: dict[str, Any], positions: int, seed: int, trips: int = 0) -> Counter[str]:
    """Random matches (a quarter of the games begun from a ``scrambled`` position) through
    the engine and the search side by side until ``positions`` positions were compared; at
    every ``trips``-th position also a ``round_trip`` of 1–60 moves. The counts."""
    rng = random.Random(seed)
    diff = Differential()
    state: CoverState | None = None
    pos: Position | None = None
    while diff.counts["positions"] < positions:
        if state is None or state.over:
            state = FAMILY.rules.new_state("cover", options)
        if state.needs_chance and rng.random() < 0.25:
            state = scrambled(options, rng)
            diff.counts["scrambled games"] += 1
        if state.needs_chance:
            state.chance(random.Random(rng.getrandbits(64)))
            pos = None
            continue
        if pos is None:
            pos = from_state(state)
        diff.check(state, pos, rng)
        if trips and diff.counts["positions"] % trips == 0:
            diff.counts["round trips"] += 1
            diff.counts["moves made and taken back"] += round_trip(pos, rng, rng.randint(1, 60))
        if diff.step(state, pos, rng):
            pos = None
    return diff.counts
