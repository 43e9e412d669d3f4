"""The hand rule of a round (RULES.md §2): every player must come down to the last beater's
hand size, by beating or by discarding the surplus face down; after the trick everyone above
the smallest hand adds the difference (levelling). What a seat must shed, may beat with, or
must add — read by the steps and by the seat's view."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.cover.board import CoverGame
from kozelbot.families.cover.strength import cover_sets, covers
from kozelbot.families.cover.vocabulary import Phase

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def target(game: CoverGame) -> int:
    """The hand size everyone must come down to: the last beater's (at first the leader's)."""
    return len(game.hands[game.round.last_beater])


def surplus(state: CoverMatch, seat: int) -> int:
    """Cards ``seat`` must shed now (beat or discard), if it is answering."""
    game = state.current
    if game is None or state.phase is not Phase.ANSWER or game.round.turn != seat:
        return 0
    return max(0, len(game.hands[seat]) - target(game))


def may_beat(state: CoverMatch, seat: int) -> bool:
    """Whether ``seat`` may beat now: answering and not yet discarded this round, or the last
    beater offered a re-beat."""
    game = state.current
    if game is None:
        return False
    if state.phase is Phase.ANSWER:
        return game.round.turn == seat and seat not in game.round.discarded
    if state.phase is Phase.REBEAT:
        return game.round.last_beater == seat
    return False


def beat_sets(state: CoverMatch, seat: int) -> Iterator[tuple[Card, ...]]:
    """The sets of cards from ``seat``'s hand that would cover every stack (whether or not it
    may beat now)."""
    game = state.game
    tops = [stack[-1] for stack in game.round.stacks]
    return cover_sets(game.hands[seat], tops, covers(game.trump, state.rules.poshka))


def beats_available(state: CoverMatch, seat: int) -> list[tuple[Card, ...]]:
    """Every set of cards from ``seat``'s hand that covers every stack, if it may beat."""
    if state.current is None or not may_beat(state, seat):
        return []
    return list(beat_sets(state, seat))


def face_down_choices(game: CoverGame, seat: int, count: int) -> Iterator[tuple[Card, ...]]:
    """Every choice of ``count`` cards of ``seat``'s hand to put face down."""
    return itertools.combinations(game.hands[seat], count)


def must_answer(state: CoverMatch, seat: int) -> bool:
    """Whether ``seat`` has a decision: a surplus to shed, or a beat it could make."""
    game = state.game
    if len(game.hands[seat]) > target(game):
        return True
    return seat not in game.round.discarded and next(beat_sets(state, seat), None) is not None


def level_count(state: CoverMatch, seat: int) -> int:
    """Cards ``seat`` must add to the trick to come down to the smallest hand in play."""
    game = state.game
    smallest = min(len(game.hands[s]) for s in state.in_play())
    return len(game.hands[seat]) - smallest
