"""The trick-play step (phase ``play``, RULES.md §1 trick rules 2–3).

Who plays, which cards are legal, why a card is refused.

Follow the led suit; if a trump was led, play a trump; otherwise anything — unless the preset
restricts it: kryuk's first lead of the match (A♦) and its trump-lead rule (``Rules.lead_ban``,
``trump_lead_sides``), and the ace-discard ban (RULES.md §1.3/§1.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card, Rank, Suit
from kozelbot.families.follow.step import Step, refuse
from kozelbot.families.follow.tricks import check_card, play_card, turn
from kozelbot.families.follow.vocabulary import (
    PLAYS,
    Action,
    Event,
    MustFollow,
    PlayCard,
    TrumpLeadBanned,
)

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def to_act(state: Match) -> tuple[int, ...]:
    """The seat whose card comes next."""
    return (turn(state),)


def cards(state: Match, seat: int) -> tuple[Card, ...]:
    """Cards ``seat`` may play now (RULES.md §1 trick rules 2–3); empty if not its turn."""
    if turn(state) != seat:
        return ()
    deal = state.current
    assert deal is not None
    hand = deal.hands[seat]
    if not deal.trick:
        return leads(state, seat, hand)
    suit_of = state.rules.strengths[deal.trump].suit_of
    led = suit_of[deal.trick[0][1]]
    following = tuple(card for card in hand if suit_of[card] is led)
    if following:
        return following
    if state.rules.ace_discard_ban:
        return without_banned_aces(state, hand, suit_of)
    return tuple(hand)


def legal(state: Match, seat: int) -> list[Action]:
    """A ``PlayCard`` for every legal card."""
    return [PLAYS[card] for card in cards(state, seat)]


def leads(state: Match, seat: int, hand: list[Card]) -> tuple[Card, ...]:
    """What ``seat`` may lead: anything, unless the preset restricts leads (kryuk's A♦
    opening of the match and its trump-lead rule, RULES.md §1.2)."""
    rules = state.rules
    if not rules.lead_ban and not rules.lead_card_forced:
        return tuple(hand)
    deal = state.current
    assert deal is not None
    forced = rules.first_lead_card
    if rules.lead_card_forced and state.deal_no == 0 and not deal.tricks and forced in hand:
        return (forced,) if forced is not None else tuple(hand)
    if not rules.lead_ban:
        return tuple(hand)
    table = state.strength
    plain = tuple(c for c in hand if not table.is_trump(c))
    if not plain or state.side_of(seat) in (trump_lead_sides(state) or ()):
        return tuple(hand)
    return plain


def trump_lead_sides(state: Match) -> tuple[int, ...] | None:
    """Kryuk's trump-lead right in the current deal (``Rules.lead_ban``, RULES.md §1.2): the
    sides that may lead a trump while holding a plain card — the side that made the first
    lead, nobody in the match's first deal, every side at ``Rules.fight_score`` all round
    (the kozel fight, 10:10); ``None`` where the preset restricts no trump lead."""
    deal = state.current
    rules = state.rules
    if not rules.lead_ban or deal is None:
        return None
    if deal.deal_no == 0:
        return ()
    fight = rules.fight_score
    if fight is not None and all(score == fight for score in state.score):
        return tuple(range(state.seats.sides))
    return (state.side_of(deal.first_leader),)


def without_banned_aces(
    state: Match, hand: list[Card], suit_of: Mapping[Card, Suit | None]
) -> tuple[Card, ...]:
    """RULES.md §1.3/§1.4 ace-discard ban: with no card of the led suit, a plain ace of a
    suit not yet led in this deal may not be discarded (unless nothing else is left)."""
    deal = state.current
    assert deal is not None
    led = {suit_of[t.cards[0][1]] for t in deal.tricks}
    led.add(suit_of[deal.trick[0][1]])
    allowed = tuple(
        c
        for c in hand
        if not (c.rank is Rank.ACE and suit_of[c] is not None and suit_of[c] not in led)
    )
    return allowed or tuple(hand)


def verify(state: Match, seat: int, action: Action) -> None:
    """Refuse a card out of turn, not in the hand, or breaking the follow or lead rules."""
    if type(action) is not PlayCard:
        refuse(state, action)
    card = action.card
    check_card(state, seat, card)
    deal = state.current
    assert deal is not None
    if deal.trick and not state.rules.ace_discard_ban:
        suit_of = state.rules.strengths[deal.trump].suit_of
        if suit_of[card] is suit_of[deal.trick[0][1]]:
            return  # following suit is always legal (the hot path)
    allowed = cards(state, seat)
    if card in allowed:
        return
    if not deal.trick:
        raise TrumpLeadBanned(allowed)
    raise MustFollow(card, state.strength.suit_of[deal.trick[0][1]], allowed)


def apply(state: Match, seat: int, action: Action) -> list[Event]:
    """Play the (verified) card."""
    assert type(action) is PlayCard
    return play_card(state, seat, action.card)


STEP = Step(to_act, legal, verify, apply, cards)


def after_refusal(state: Match, seat: int, action: Action) -> Action | None:
    """RULES.md §1.2: with exactly one legal card, ``kryuk`` plays it at once when another
    card is refused; else the refusal stands (``None``)."""
    if not state.rules.single_card_autoplay or not isinstance(action, PlayCard):
        return None
    legal = state.legal_actions(seat)
    return legal[0] if len(legal) == 1 and isinstance(legal[0], PlayCard) else None
