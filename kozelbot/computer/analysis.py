"""Post-deal analysis (issue #17 item 6): a person's plays in one scored deal, each compared
with the strong level's choice from the same seat's view — what the play cost their side in
expected award.

``positions`` replays the match from its move log and its shuffles (as ``kozelbot verify``
would) up to the deal, keeping the state before each of the person's plays where there was
a choice; ``review`` searches one of them (in the thinking pool: ``thinking.review``), and
``worst`` keeps the plays that cost the most.

**Decision**: only the person's own plays are reviewed, not their partner's: the partner's
position holds cards the person never saw (a cover game's face-down cards, a follow-suit
hand left unplayed by a catch), and the better move could name them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kozelbot.core.decisions import Decision
from kozelbot.core.protocol import InTrick, SeedSource, TrickEnd, shuffle_for
from kozelbot.core.records import MoveRecord
from kozelbot.families.registry import load_state, new_state, players_of, rules_of

SHOWN = 3
"""The costliest plays an analysis lists."""
NOTICEABLE = 0.05
"""A play that costs less than this (in the variant's award) matched the best."""


@dataclass(frozen=True, slots=True)
class Position:
    """The state before one of the person's plays (its dump), their seat, the move they
    made, its number among their plays in the deal (from 1) and the deal's trick it was
    made in (from 1; 0 before the first: a redeal answer, a hand-off, a sixes call)."""

    dump: dict[str, Any]
    seat: int
    played: Any
    number: int
    trick: int = 0


@dataclass(frozen=True, slots=True)
class Review:
    """One reviewed play: what was played and the best move, with their values."""

    number: int
    played: Any
    best: Any
    played_value: float
    best_value: float
    trick: int = 0
    """The deal's trick the play was made in (from 1; 0 before the first)."""

    @property
    def loss(self) -> float:
        """What the play cost against the best, in the variant's award (never negative)."""
        return max(0.0, self.best_value - self.played_value)


def positions(
    variant: str,
    options: dict[str, Any],
    seeds: SeedSource,
    moves: Sequence[MoveRecord],
    deal_no: int,
    user_id: int,
) -> list[Position]:
    """Replay a match (its variant, options, shuffle source and move log) to the end of
    ``deal_no``; the positions where ``user_id`` chose among several moves in it, each with
    its trick: the deal's tricks taken before it, plus one once a move of the deal was made
    in a trick (the families mark such events ``InTrick``, a trick's end ``TrickEnd``)."""
    rules, players = rules_of(variant), players_of(variant)
    state = new_state(variant, options)
    found: list[Position] = []
    taken, started = 0, False
    for move in moves:
        if move.deal_no > deal_no:
            break
        while state.needs_chance:
            state.chance(shuffle_for(seeds, state))
        action = rules.parse_action(move.action)
        mine = move.deal_no == deal_no and move.user_id == user_id
        before = state.dump() if mine and players.searches(state, move.seat) else None
        events = state.apply(move.seat, action)
        if move.deal_no != deal_no:
            continue
        started = started or any(isinstance(e, InTrick) for e in events)
        if before is not None:
            trick = taken + 1 if started else 0
            found.append(Position(before, move.seat, action, len(found) + 1, trick))
        taken += sum(1 for e in events if isinstance(e, TrickEnd))
    return found


def review(position: Position, budget_ms: float, seed: str) -> Review:
    """Search one position from the person's seat, keeping the move they made."""
    state = load_state(position.dump)
    decision: Decision = players_of(state.variant).decide(
        state, position.seat, random.Random(seed), budget_ms, keep=position.played
    )
    best, best_value = decision.values[0] if decision.values else (decision.action, 0.0)
    played_value = decision.value_of(position.played)
    if played_value is None:  # not searched (it cannot happen with ``keep``): call it even
        played_value = best_value
    return Review(
        number=position.number,
        played=position.played,
        best=best,
        played_value=played_value,
        best_value=best_value,
        trick=position.trick,
    )


def worst(reviews: Sequence[Review], shown: int = SHOWN) -> list[Review]:
    """The plays that cost the most (at least ``NOTICEABLE``), costliest first."""
    costly = [r for r in reviews if r.loss >= NOTICEABLE]
    return sorted(costly, key=lambda r: (-r.loss, r.number))[:shown]
