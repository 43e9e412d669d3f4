"""The computer player: a simple, sensible heuristic that sees only its seat's ``View``.

It plays legally and with intent: it follows cheaply, wins tricks worth winning with the
cheapest card that does it, gives points to a partner who is sure to take the trick, and
never throws points to the opponents when a cheaper card will do. It is deterministic, so
a seeded match replays exactly.
"""

from __future__ import annotations

from kozelbot.core.cards import Card, hand_points
from kozelbot.families.follow.tricks import trick_winner
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import (
    Action,
    AnswerOffer,
    AskRedeal,
    CallOpening,
    GiveTrump,
    KeepHand,
    OfferHandoff,
    Phase,
    PlayCard,
    ReturnCard,
)

WORTH_WINNING = 10
"""Card points on the table from which the computer spends a card of value to win."""


def choose_action(view: View) -> Action:
    """The computer's action for the seat whose view this is (it must be able to act)."""
    if view.phase is Phase.REDEAL:
        return AskRedeal() if wants_redeal(view) else KeepHand()
    if view.phase is Phase.CALL:
        return CallOpening(_call(view))
    if view.phase is Phase.HANDOFF:
        return _handoff(view)
    if not view.legal:
        raise ValueError("the computer was asked to move when it cannot")
    if view.phase is Phase.BLIND:
        return PlayCard(min(view.legal, key=lambda c: _cost(view, c)))
    return PlayCard(choose_card(view))


def _call(view: View) -> str:
    """Sixes: a pair that trails gambles on ``shtany``; otherwise a plain deal."""
    assert view.seat is not None
    side = view.side_of(view.seat)
    return "shtany" if view.score[side] < view.score[1 - side] else "plain"


def _handoff(view: View) -> Action:
    """Return the cheapest card asked for; hand off the last trumps when one has points (they
    serve the partner better than a hand that cannot draw trumps with them): in sixes offer
    the hand-off, and pass every trump once the partner agrees; always agree to an offer
    (the seed calls a refusal unproductive)."""
    returns = [a for a in view.actions if isinstance(a, ReturnCard)]
    if returns:
        return min(returns, key=lambda a: _cost(view, a.card))
    if AnswerOffer(True) in view.actions:
        return AnswerOffer(True)
    valuable = any(c.points > 0 for c in view.hand if view.strength.is_trump(c))
    if OfferHandoff() in view.actions:
        return OfferHandoff() if valuable else KeepHand()
    gives = [a for a in view.actions if isinstance(a, GiveTrump)]
    if gives:
        return max(gives, key=lambda a: (len(a.cards), sum(c.points for c in a.cards)))
    return KeepHand()


def wants_redeal(view: View) -> bool:
    """Ask for a redeal with a weak hand: under the limit and at most two trumps (a sixes
    demand is never risked a third time, which would cost a pair)."""
    limit = view.rules.redeal_below
    if view.rules.redeal_limit is not None and view.redeals >= view.rules.redeal_limit:
        return False
    trumps = sum(1 for card in view.hand if view.strength.is_trump(card))
    return limit is not None and hand_points(view.hand) < limit and trumps <= 2


def choose_card(view: View) -> Card:
    """Pick the card to play from ``view.legal``."""
    legal = list(view.legal)
    if len(legal) == 1:
        return legal[0]
    if not view.trick:
        return _lead(view, legal)
    return _follow(view, legal)


def _strength(view: View, card: Card) -> int:
    return view.strength.strength[card]


def _cost(view: View, card: Card) -> int:
    """How much giving this card away hurts: its points first, then its power."""
    return card.points * 100 + _strength(view, card)


def _lead(view: View, legal: list[Card]) -> Card:
    """Lead a winner when it is sure to win, else the cheapest card."""
    rules, table = view.rules, view.strength
    played = set(view.played) | set(view.hand)
    unseen_trumps = [c for c in rules.cards if table.is_trump(c) and c not in played]
    for card in sorted(legal, key=lambda c: -_strength(view, c)):
        if table.is_trump(card):
            if all(_strength(view, card) > _strength(view, c) for c in unseen_trumps):
                return card  # the highest trump out: draws trumps and wins
            continue
        higher_out = [
            c
            for c in rules.cards
            if c not in played
            and c.suit == card.suit
            and not table.is_trump(c)
            and _strength(view, c) > _strength(view, card)
        ]
        if not higher_out and card.points >= 10 and len(view.played) < 8:
            return card  # a plain ace (or a ten whose ace is gone) early in the deal
    plain = [c for c in legal if not table.is_trump(c)]
    return min(plain or legal, key=lambda c: _cost(view, c))


def _follow(view: View, legal: list[Card]) -> Card:
    rules = view.rules
    assert view.seat is not None
    seats = len(view.hand_sizes)
    trick = [(seat, card) for seat, card in view.trick if card is not None]
    winner_seat = _winning_seat(view, trick)
    winning_card = dict(trick)[winner_seat]
    partner_winning = view.side_of(winner_seat) == view.side_of(view.seat)
    last_to_play = len(trick) == seats - 1
    on_table = sum(c.points for _, c in trick)

    if partner_winning and (last_to_play or _sure_winner(view, winning_card)):
        # Smear: give the partner the most points, but never a permanent trump.
        return max(legal, key=lambda c: (c.points - 5 * (c in rules.ladder), -_strength(view, c)))
    beaters = [c for c in legal if _beats(view, trick, c)]
    if beaters and not partner_winning:
        cheapest = min(beaters, key=lambda c: _cost(view, c))
        gain = on_table + cheapest.points
        if last_to_play or gain >= WORTH_WINNING or _sure_winner(view, cheapest):
            if last_to_play or _sure_winner(view, cheapest) or cheapest.points == 0:
                return cheapest
            # Not last: spend a card of value only if nothing later can take it back.
            safe = [c for c in beaters if _sure_winner(view, c)]
            if safe:
                return min(safe, key=lambda c: _cost(view, c))
            return cheapest
    return min(legal, key=lambda c: _cost(view, c))


def _winning_seat(view: View, trick: list[tuple[int, Card]]) -> int:
    return trick_winner(trick, view.strength)


def _beats(view: View, trick: list[tuple[int, Card]], card: Card) -> bool:
    assert view.seat is not None
    return _winning_seat(view, [*trick, (view.seat, card)]) == view.seat


def _sure_winner(view: View, card: Card) -> bool:
    """No card still unseen by this seat can beat ``card`` if it is played now."""
    rules, table = view.rules, view.strength
    seen = set(view.played) | set(view.hand) | {c for _, c in view.trick if c is not None}
    for other in rules.cards:
        if other in seen or other == card:
            continue
        if table.is_trump(other) and _strength(view, other) > _strength(view, card):
            return False
        if (
            not table.is_trump(card)
            and not table.is_trump(other)
            and other.suit == card.suit
            and _strength(view, other) > _strength(view, card)
        ):
            return False
    if not table.is_trump(card):
        # A plain card can also be trumped by anyone out of the suit; count it safe only
        # when no trump is unseen.
        return not any(table.is_trump(c) and c not in seen for c in rules.cards)
    return True
