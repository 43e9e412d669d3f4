"""The order of a deal's steps: redeal offers, then hand-offs, then trick play.

Once the hands are complete: the redeal offers, then the hand-offs, then trick play — and who
leads when play begins.

``hands_complete`` runs when every hand is dealt (a plain deal at once, an opening after its
trick is topped up): a royal kozel ends the match; otherwise it lists the seats to ask about
a redeal and about a hand-off, and ``next_phase`` moves to the first step that still has
someone to ask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.core.cards import Rank
from kozelbot.families.follow.dealing import leader_by_card
from kozelbot.families.follow.scoring import score_deal
from kozelbot.families.follow.vocabulary import HANDOFF, PLAY, REDEAL, Event, Outcome

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def hands_complete(state: Match) -> list[Event]:
    """The hands are dealt: a royal kozel (sixes option: all four aces in one hand) ends the
    match (its events are returned); otherwise open the redeal offers, then the hand-offs,
    then play."""
    deal = state.current
    assert deal is not None
    rules = state.rules
    if rules.royal:
        for seat, hand in enumerate(deal.initial_hands):
            if sum(1 for c in hand if c.rank is Rank.ACE) == 4:
                return score_deal(state, Outcome.ROYAL, state.side_of(seat))
    order = state.seats.clockwise(deal.first_leader)
    if deal.opening == "plain":
        deal.redeal_pending = [s for s in order if rules.may_redeal(deal.hands[s])]
    if rules.handoff != "none":
        table = state.strength
        deal.handoff_pending = [s for s in order if rules.handoff_candidates(deal.hands[s], table)]
    next_phase(state)
    return []


def next_phase(state: Match) -> None:
    """After an answer: the next step of the deal that still has someone to ask."""
    deal = state.current
    assert deal is not None
    if deal.redeal_pending:
        state.phase = REDEAL
    elif deal.handoff_pending or deal.active_handoff is not None:
        state.phase = HANDOFF
    else:
        state.phase = PLAY
        holder_leads(state)


def holder_leads(state: Match) -> None:
    """Play begins: where a card names the first leader (the match's first deal of
    kryuk and sixes), its holder now leads, after any hand-off (RULES.md §1.2
    **Decision**: a partner may return A♦)."""
    deal = state.current
    assert deal is not None
    card = state.rules.first_lead_card
    if card is None or deal.tricks or deal.trick or not leader_by_card(state):
        return
    holder = next(s for s, hand in enumerate(deal.hands) if card in hand)
    deal.first_leader = deal.leader = holder
    if deal.obligation is not None:
        deal.obligation = state.side_of(holder)


def finish_opening(state: Match) -> list[Event]:
    """The opening trick is scored: everybody is dealt up to a full hand, then the hand-offs
    (and play) follow."""
    deal = state.current
    assert deal is not None
    received = [len(hand) + 1 for hand in deal.hands]  # one card each went to the trick
    for seat in state.seats.clockwise(deal.first_leader):
        need = state.rules.hand_size - received[seat]
        deal.hands[seat].extend(deal.stock[:need])
        deal.stock = deal.stock[need:]
    blind = deal.tricks[0]
    deal.initial_hands = tuple(
        tuple([card for s, card in blind.cards if s == seat] + deal.hands[seat])
        for seat in range(state.players)
    )
    return hands_complete(state)
