"""The claim, «У мене N» ("I have N", RULES.md §2): a seat holding 4+ cards of one suit that
has not yet acted in the round may take the lead, out of turn, during the lead and the answers.
Others see only N. A claim made after the lead takes every card of the round back.

**Decisions**: a claim names a count only; a later claim must be larger, or equal and nearer
clockwise to the round's first leader.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.cover.board import CoverGame, Move
from kozelbot.families.cover.vocabulary import Claim, Event, IllegalMove, Phase

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def longest(hand: Sequence[Card]) -> int:
    """The most cards of one suit in ``hand``."""
    return max(Counter(card.suit for card in hand).values(), default=0)


def may_claim(state: CoverMatch, seat: int) -> bool:
    """Whether ``seat`` may claim the lead now: 4+ cards of a suit, not yet acted, not the
    leader, and a claim that would beat the standing one."""
    game = state.current
    if game is None or state.phase not in (Phase.LEAD, Phase.ANSWER):
        return False
    rnd = game.round
    if seat == rnd.leader or seat not in state.in_play() or any(m.seat == seat for m in rnd.moves):
        return False
    return _beats_standing(state, seat, longest(game.hands[seat]))


def _beats_standing(state: CoverMatch, seat: int, count: int) -> bool:
    rnd = state.game.round
    if count < state.rules.claim_from:
        return False
    if not rnd.claims:
        return True
    best_seat, best = rnd.claims[-1]
    if count != best:
        return count > best
    seats = state.rules.seats
    return seats.distance(rnd.first_leader, seat) < seats.distance(rnd.first_leader, best_seat)


def offered(state: CoverMatch, seat: int) -> list[Claim]:
    """The claim ``seat`` may make now, if any (offered out of turn)."""
    if not may_claim(state, seat):
        return []
    return [Claim(longest(state.game.hands[seat]))]


def verify(state: CoverMatch, seat: int, action: Claim) -> None:
    """Raise unless ``seat`` may claim, and with the count it holds."""
    if not may_claim(state, seat) or action.count != longest(state.game.hands[seat]):
        raise IllegalMove("no claim")


def apply(state: CoverMatch, seat: int, action: Claim) -> list[Event]:
    """The claimant takes the lead; a lead already made is taken back."""
    game = state.game
    _take_back(game)
    rnd = game.round
    rnd.claims.append((seat, action.count))
    rnd.log.append(Move(seat, "claim", count=action.count))
    rnd.leader = seat
    rnd.last_beater = seat
    state.phase = Phase.LEAD
    return []


def _take_back(game: CoverGame) -> None:
    """A claim after the lead: every card of the round goes back to its hand."""
    rnd = game.round
    for move in rnd.moves:
        game.hands[move.seat].extend(move.cards)
    rnd.stacks, rnd.discards, rnd.moves = [], [], []
    rnd.answered, rnd.discarded = [], []
