"""The call step of a sixes deal (phase ``call``, RULES.md §1.3).

The deal's first leader calls a plain deal or an opening, whose first trick then draws and
plays itself from the stock.

The openings (хвалёнки): ``shtany`` (штаны, "trousers": a card from the top and one from the
bottom; aces and trumps are kept), ``double_shtany`` (two and two), ``mirror`` (зеркало: one
card at a time from the bottom; trumps are kept). Each player in turn draws until a card
arrives that they may not keep and plays it — the first two face down, the mirror's face up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.core.cards import Card, Rank
from kozelbot.families.follow.flow import hands_complete
from kozelbot.families.follow.opening import draw
from kozelbot.families.follow.records import Draw
from kozelbot.families.follow.step import Step, refuse
from kozelbot.families.follow.tricks import play_card
from kozelbot.families.follow.vocabulary import (
    CALL,
    OPENINGS,
    Action,
    CallOpening,
    Event,
    NotAllowed,
    NotYourTurn,
    OpeningCalled,
)

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def to_act(state: Match) -> tuple[int, ...]:
    """The deal's first leader calls."""
    deal = state.current
    assert deal is not None
    return (deal.first_leader,)


def legal(state: Match, seat: int) -> list[Action]:
    """Every opening, for the first leader."""
    if seat not in to_act(state):
        return []
    return [CallOpening(kind) for kind in OPENINGS]


def verify(state: Match, seat: int, action: Action) -> None:
    """Refuse a call out of turn or of no known opening."""
    if not isinstance(action, CallOpening):
        refuse(state, action)
    asked = to_act(state)
    if asked != (seat,):
        raise NotYourTurn(asked, CALL)
    if action.kind not in OPENINGS:
        raise NotAllowed("no such opening")


def apply(state: Match, seat: int, action: Action) -> list[Event]:
    """A plain deal shares the stock out; an opening draws and plays its first trick."""
    assert isinstance(action, CallOpening)
    kind = action.kind
    deal = state.current
    assert deal is not None
    events: list[Event] = [OpeningCalled(seat, kind)]
    stock = deal.stock
    if kind == "plain":
        size = state.rules.hand_size
        hands = [stock[i * size : (i + 1) * size] for i in range(state.players)]
        deal.stock = []
        deal.hands = [list(h) for h in hands]
        deal.initial_hands = tuple(tuple(h) for h in hands)
        events.extend(hands_complete(state))
        return events
    deal.opening = kind
    table = state.strength

    def kept(card: Card) -> bool:
        return table.is_trump(card) or (kind != "mirror" and card.rank is Rank.ACE)

    for player in state.seats.clockwise(deal.first_leader):
        drawn = draw(stock, kind, kept, state.rules.hand_size)
        deal.hands[player] = drawn
        deal.draws.append(Draw(player, tuple(drawn)))
        playable = [c for c in drawn if not kept(c)] or drawn[-1:]
        events.extend(play_card(state, player, playable[0]))
    return events


STEP = Step(to_act, legal, verify, apply)
