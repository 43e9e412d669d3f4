"""The last-trump hand-off step (phase ``handoff``, RULES.md §1.2, §1.3).

Отход от последнего ("going off the last one"): a hand with its last trumps passes them to
the partner, who returns as many cards.

**Decision** (hand-offs): eligible seats are asked one at a time, each once, in play order from
the first leader; a pair exchanges at most once per deal; in a deal with an opening trick the
hand-off comes when the hands are complete, after that trick (the rules place it "before the
first lead", and the blind lead is made before the hands exist). Kryuk (``hidden``): the seat
passes its one trump with points (``GiveTrump``) or keeps its hand; the partner returns a
card; nobody else is told, so the whole step is hidden (``Match.hidden_turn``). Sixes
(``offered``): the seat holding one or two trumps may announce the hand-off aloud
(``OfferHandoff``, «отдаю последнего козыря!», "I give my last trump!") or keep — that
decision is hidden; the partner answers aloud (``AnswerOffer``: «давай», "go ahead" / «не
надо», "no need"); if agreed, the seat passes one or both of its trumps face down (any trumps:
the points rule is kryuk's) and the partner returns as many cards, one per press. A declined
offer does not stop the partner offering in their own turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.follow.flow import next_phase
from kozelbot.families.follow.records import Handoff
from kozelbot.families.follow.step import Step, refuse, refuse_hidden
from kozelbot.families.follow.vocabulary import (
    HANDOFF,
    Action,
    AnswerOffer,
    Event,
    Exchanged,
    GiveTrump,
    HandedOff,
    HandKept,
    HandoffOffered,
    KeepHand,
    NotAllowed,
    NotYourTurn,
    OfferAnswered,
    OfferHandoff,
    ReturnCard,
    Returned,
)

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match

MOVES = (KeepHand, GiveTrump, ReturnCard, OfferHandoff, AnswerOffer)
"""The actions of this step."""


def to_act(state: Match) -> tuple[int, ...]:
    """The seat deciding, or, in a hand-off under way, the one it waits for."""
    deal = state.current
    assert deal is not None
    active = deal.active_handoff
    if active is None:
        return (deal.handoff_pending[0],)
    return (active.giver,) if active.step == "give" else (active.to,)


def handoff_cards(state: Match, seat: int) -> tuple[Card, ...]:
    """Trumps ``seat`` may hand off in this step: kryuk's deciding seat its one trump with
    points; sixes' deciding seat (before the offer) and the giver (once agreed) its one or
    two trumps. Empty for everyone else."""
    deal = state.current
    if state.phase is not HANDOFF or deal is None:
        return ()
    active = deal.active_handoff
    if active is None:
        if deal.handoff_pending[0] != seat:
            return ()
    elif active.step != "give" or active.giver != seat:
        return ()
    return state.rules.handoff_candidates(deal.hands[seat], state.strength)


def gives(state: Match, seat: int) -> list[GiveTrump]:
    """The hand-offs ``seat`` may make now: kryuk one trump, sixes one or both."""
    candidates = handoff_cards(state, seat)
    made = [GiveTrump((card,)) for card in candidates]
    if state.rules.handoff != "hidden" and len(candidates) > 1:
        made.append(GiveTrump(candidates))
    return made


def return_cards(state: Match, seat: int) -> tuple[Card, ...]:
    """Cards the partner may return: a plain card, a trump only if nothing else (the
    trumps just received stay)."""
    deal = state.current
    if state.phase is not HANDOFF or deal is None or deal.returning != seat:
        return ()
    active = deal.active_handoff
    assert active is not None
    hand = [c for c in deal.hands[seat] if c not in active.cards]
    table = state.strength
    return tuple(c for c in hand if not table.is_trump(c)) or tuple(hand)


def legal(state: Match, seat: int) -> list[Action]:
    """What the seat asked may do at this point of the hand-off."""
    if seat not in to_act(state):
        return []
    deal = state.current
    assert deal is not None
    active = deal.active_handoff
    if active is None:
        if state.rules.handoff == "offered":
            return [OfferHandoff(), KeepHand()]
        return [*gives(state, seat), KeepHand()]
    if active.step == "answer":
        return [AnswerOffer(True), AnswerOffer(False)]
    if active.step == "give":
        return list(gives(state, seat))
    return [ReturnCard(card) for card in return_cards(state, seat)]


def verify(state: Match, seat: int, action: Action) -> None:
    """The hand-off step's own rules, for the seat it asks."""
    refuse_hidden(state, seat, action)
    if not isinstance(action, MOVES):
        refuse(state, action)
    asked = to_act(state)
    if asked != (seat,):
        raise NotYourTurn(asked, HANDOFF)
    deal = state.current
    assert deal is not None
    active = deal.active_handoff
    step = "decide" if active is None else active.step
    if step == "return":
        returns = return_cards(state, seat)
        if not isinstance(action, ReturnCard):
            raise NotAllowed("return a card first", returns)
        if action.card not in returns:
            raise NotAllowed("return another card", returns)
        return
    if step == "answer":
        if not isinstance(action, AnswerOffer):
            raise NotAllowed("answer the offer")
        return
    offered = state.rules.handoff == "offered"
    if step == "decide" and isinstance(action, KeepHand):
        return
    if step == "decide" and offered:
        if not isinstance(action, OfferHandoff):
            raise NotAllowed("offer the hand-off or keep the hand")
        return
    if not isinstance(action, GiveTrump):
        raise NotAllowed("hand off a trump", handoff_cards(state, seat))
    if not any(
        set(action.cards) == set(give.cards) and len(action.cards) == len(give.cards)
        for give in gives(state, seat)
    ):
        raise NotAllowed("this trump may not be handed off", handoff_cards(state, seat))


def apply(state: Match, seat: int, action: Action) -> list[Event]:
    """One step of a hand-off (verified): keep, offer, answer, give, return; then the next
    step of the deal if nobody is left to ask."""
    events = _step(state, seat, action)
    next_phase(state)
    return events


def _step(state: Match, seat: int, action: Action) -> list[Event]:
    deal = state.current
    assert deal is not None
    partner = state.seats.partner(seat)  # hand-offs are between partners
    if isinstance(action, KeepHand):
        deal.handoff_pending.pop(0)
        return [HandKept(seat)]
    if isinstance(action, OfferHandoff):
        assert partner is not None
        deal.handoff_pending.pop(0)
        deal.handoffs.append(Handoff(seat, partner))
        return [HandoffOffered(seat, partner)]
    if isinstance(action, AnswerOffer):
        last = deal.handoffs[-1]
        deal.handoffs[-1] = replace(last, answer="agree" if action.agree else "decline")
        if action.agree:  # a pair exchanges at most once per deal
            pair = (seat, last.giver)
            deal.handoff_pending = [s for s in deal.handoff_pending if s not in pair]
        return [OfferAnswered(seat, last.giver, action.agree)]
    if isinstance(action, GiveTrump):
        assert partner is not None
        if deal.active_handoff is None:  # kryuk: passed at once, nobody asked before
            deal.handoff_pending.pop(0)
            deal.handoff_pending = [s for s in deal.handoff_pending if s != partner]
            deal.handoffs.append(Handoff(seat, partner))
        for card in action.cards:
            deal.hands[seat].remove(card)
            deal.hands[partner].append(card)
        deal.handoffs[-1] = replace(deal.handoffs[-1], cards=action.cards)
        return [HandedOff(seat, partner, action.cards)]
    assert isinstance(action, ReturnCard)
    last = deal.handoffs[-1]
    deal.hands[seat].remove(action.card)
    deal.hands[last.giver].append(action.card)
    done = replace(last, returned=(*last.returned, action.card))
    deal.handoffs[-1] = done
    events: list[Event] = [Returned(seat, last.giver, action.card)]
    if done.step == "done":
        events.append(Exchanged(done.giver, done.to, len(done.cards)))
    return events


STEP = Step(to_act, legal, verify, apply)
