"""Tricks (RULES.md §1 trick rules 4–6): whose card is next, who takes a trick, what it ends.

What a card put on the table does: the trick it completes, the catch, the talon's refill, the
end of the deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.follow.flow import finish_opening
from kozelbot.families.follow.records import Refill, Trick
from kozelbot.families.follow.rules import Strength
from kozelbot.families.follow.scoring import deal_outcome, score_deal
from kozelbot.families.follow.vocabulary import (
    BLIND,
    CardNotInHand,
    CardPlayed,
    Caught,
    Event,
    NotYourTurn,
    Outcome,
    TrickTaken,
)

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def trick_winner(
    cards: tuple[tuple[int, Card], ...] | list[tuple[int, Card]], table: Strength
) -> int:
    """The seat taking a trick: highest trump, else highest card of the led suit (RULES.md §1
    trick rule 4). The one authority: the engine and the computer player both ask it."""
    strength, suit_of = table.strength, table.suit_of
    led = suit_of[cards[0][1]]
    best_seat, best_card = cards[0]
    for seat, card in cards[1:]:
        suit = suit_of[card]
        if suit is not led and suit is not None:
            continue  # a discard never wins
        if strength[card] > strength[best_card]:
            best_seat, best_card = seat, card
    return best_seat


def turn(state: Match) -> int:
    """The seat whose card comes next: the leader's, then clockwise (``Rules.rounds``)."""
    deal = state.current
    assert deal is not None
    return state.rules.rounds[deal.leader][len(deal.trick)]


def check_card(state: Match, seat: int, card: Card) -> None:
    """What every card step checks first: the seat's turn, then the card in its hand."""
    if turn(state) != seat:
        raise NotYourTurn(state.to_act())
    deal = state.current
    assert deal is not None
    if card not in deal.hands[seat]:
        raise CardNotInHand(card)


def play_card(state: Match, seat: int, card: Card) -> list[Event]:
    """Put a (verified) card on the table; a complete trick goes to its winner, and may end
    the deal by a catch, finish an opening, empty the hands (the talon is dealt again with
    two players, else the deal is scored)."""
    deal = state.current
    assert deal is not None
    deal.hands[seat].remove(card)
    deal.trick.append((seat, card))
    events: list[Event] = [CardPlayed(seat, card)]
    opening = state.phase is BLIND or (deal.opening != "plain" and not deal.tricks)
    if len(deal.trick) < state.rules.players:
        return events
    cards = tuple(deal.trick)
    winner = trick_winner(cards, state.rules.strengths[deal.trump])
    points = sum(c.points for _, c in cards)
    side = state.seats.side_of(winner)
    deal.points[side] += points
    deal.tricks_won[side] += 1
    face_down = opening and deal.opening != "mirror"  # the mirror leads face up
    deal.tricks.append(Trick(cards[0][0], cards, winner, points, face_down))
    deal.trick = []
    deal.leader = winner
    events.append(TrickTaken(len(deal.tricks) - 1, cards[0][0], cards, winner, points))
    if opening:  # the hands so far (an opening trick may end the deal by a catch)
        deal.initial_hands = tuple(
            tuple([c for s, c in cards if s == seat] + deal.hands[seat])
            for seat in range(state.players)
        )
    catch = catch_in(state, cards)
    if catch is not None and not lyusya_beats_catch(state, catch[0]):
        events.append(Caught(*catch))
        events.extend(score_deal(state, Outcome.CATCH, state.side_of(catch[0])))
        return events
    if opening:
        events.extend(finish_opening(state))
        return events
    if not any(deal.hands):
        if deal.talon:
            refill(state)
        else:
            events.extend(score_deal(state, *deal_outcome(state.rules, deal)))
    return events


def refill(state: Match) -> None:
    """Two players: both hands are empty, so each is dealt again from the talon, the trick
    winner first."""
    deal = state.current
    assert deal is not None
    size = state.rules.hand_size
    for seat in state.seats.clockwise(deal.leader):
        deal.hands[seat] = deal.talon[:size]
        deal.talon = deal.talon[size:]
    deal.refills.append(Refill(len(deal.tricks), tuple(tuple(h) for h in deal.hands)))


def catch_in(state: Match, cards: tuple[tuple[int, Card], ...]) -> tuple[int, int] | None:
    """(catcher, caught) when the catch rule fires in this trick (RULES.md §1.1): both cards
    of ``Rules.catch`` in it, held by opposing sides."""
    rules = state.rules
    if rules.catch is None:
        return None
    catcher_card, caught_card = rules.catch
    holders = {card: seat for seat, card in cards}
    catcher, caught = holders.get(catcher_card), holders.get(caught_card)
    if catcher is None or caught is None or state.side_of(catcher) == state.side_of(caught):
        return None
    return catcher, caught


def lyusya_beats_catch(state: Match, catcher: int) -> bool:
    """RULES.md §1.1 **Decision** (``Rules.lyusya_over_catch``): a catch in the last trick by
    a side that took every trick is scored as Lyusya (``Outcome.LYUSYA``) instead.
    Kryuk's Pelotka ends the deal whatever else the trick completes (RULES.md §1.2)."""
    rules = state.rules
    if not rules.lyusya_over_catch or rules.all_tricks == "none":
        return False
    deal = state.current
    assert deal is not None
    side = state.side_of(catcher)
    return not any(deal.hands) and not deal.talon and deal.tricks_won[1 - side] == 0
