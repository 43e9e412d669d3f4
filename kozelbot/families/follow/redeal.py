"""The redeal-offer step (пересдача, phase ``redeal``, RULES.md §1.1, §1.3).

Before the first card, each seat whose hand is weak (``Rules.may_redeal``) asks for a redeal
or keeps its hand.

**Decision** (RULES.md §1.1 "before the first card"): every eligible seat answers at the same
time; the first "redeal" reshuffles at once, and play starts when every eligible seat has
kept. So nobody loses the right because someone else moved first, and a deal with no weak
hand starts straight away. The step is hidden (``Match.hidden_turn``): who is asked
depends on cards nobody else may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.core.cards import hand_points
from kozelbot.families.follow.flow import next_phase
from kozelbot.families.follow.records import RedealRequest
from kozelbot.families.follow.scoring import score_deal
from kozelbot.families.follow.step import Step, refuse, refuse_hidden
from kozelbot.families.follow.vocabulary import (
    DEALING,
    Action,
    AskRedeal,
    Event,
    HandKept,
    KeepHand,
    Outcome,
    RedealAsked,
)

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def to_act(state: Match) -> tuple[int, ...]:
    """Every eligible seat that has not answered yet."""
    deal = state.current
    assert deal is not None
    return tuple(deal.redeal_pending)


def legal(state: Match, seat: int) -> list[Action]:
    """Ask for a redeal or keep the hand, for a seat still asked."""
    if seat not in to_act(state):
        return []
    return [AskRedeal(), KeepHand()]


def verify(state: Match, seat: int, action: Action) -> None:
    """Only the seats asked may answer, and only with a redeal answer."""
    refuse_hidden(state, seat, action)
    if not isinstance(action, AskRedeal | KeepHand):
        refuse(state, action)


def apply(state: Match, seat: int, action: Action) -> list[Event]:
    """Keep the hand (the next step opens when nobody is left to ask), or ask for a redeal."""
    if isinstance(action, AskRedeal):
        return redeal(state, seat)
    deal = state.current
    assert deal is not None
    deal.redeal_pending.remove(seat)
    next_phase(state)
    return [HandKept(seat)]


def redeal(state: Match, seat: int) -> list[Event]:
    """A redeal: asked (hvalenyi, belka) or demanded (sixes, where the demand after
    ``redeal_limit`` in a row is refused and costs the dealing side).

    **Decision** (sixes' refused demand): the deal ends there as ``refusedRedeal``; the
    dealing pair — the side of the seat before the first leader — loses a pair, i.e. the
    other pair scores ``Rules.refused_redeal_award``, and the next deal is dealt afresh."""
    limit = state.rules.redeal_limit
    deal = state.current
    assert deal is not None
    state.redeal_requests.append(RedealRequest(seat, hand_points(deal.hands[seat])))
    if limit is not None and state.redeals >= limit:
        dealing = state.side_of(state.seats.before(deal.first_leader))
        return [RedealAsked(seat), *score_deal(state, Outcome.REFUSED_REDEAL, 1 - dealing)]
    state.redeals += 1
    state.phase = DEALING
    if state.deal_no == 0:
        state.seat_suits = None  # belka: the suits come from the first deal as played
    return [RedealAsked(seat)]


STEP = Step(to_act, legal, verify, apply)
