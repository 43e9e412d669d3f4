"""The blind-trick step of kryuk's hvalyonka (phase ``blind``, RULES.md §1.2).

The praised player leads a plain card face down; each next player is dealt pairs until a
plain card arrives and plays any card face down, not knowing the lead (the hvalyonka is
described in ``dealing``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.follow.dealing import draw_blind
from kozelbot.families.follow.step import Step, refuse
from kozelbot.families.follow.tricks import check_card, play_card, turn
from kozelbot.families.follow.vocabulary import PLAYS, Action, Event, NotAllowed, PlayCard

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def to_act(state: Match) -> tuple[int, ...]:
    """The seat whose card comes next."""
    return (turn(state),)


def cards(state: Match, seat: int) -> tuple[Card, ...]:
    """The praised player leads a plain card (any card if it holds none); the others play
    any card. Empty if it is not ``seat``'s turn."""
    deal = state.current
    assert deal is not None
    if turn(state) != seat:
        return ()
    hand = deal.hands[seat]
    if seat != deal.first_leader:
        return tuple(hand)
    table = state.strength
    return tuple(c for c in hand if not table.is_trump(c)) or tuple(hand)


def legal(state: Match, seat: int) -> list[Action]:
    """A ``PlayCard`` for every card ``seat`` may play face down."""
    return [PLAYS[card] for card in cards(state, seat)]


def verify(state: Match, seat: int, action: Action) -> None:
    """Refuse a card out of turn, not in the hand, or a trump lead by the praised player."""
    if type(action) is not PlayCard:
        refuse(state, action)
    check_card(state, seat, action.card)
    allowed = cards(state, seat)
    if action.card not in allowed:
        raise NotAllowed("lead a plain card face down", allowed)


def apply(state: Match, seat: int, action: Action) -> list[Event]:
    """Play the card face down; the next player is then dealt their pairs."""
    assert type(action) is PlayCard
    events = play_card(state, seat, action.card)
    deal = state.current
    if deal is not None and deal.trick:  # the trick goes on
        draw_blind(state, state.seats.after(seat))
    return events


STEP = Step(to_act, legal, verify, apply, cards)
