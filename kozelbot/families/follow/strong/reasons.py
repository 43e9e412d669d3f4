"""Why the strong player's card is good, in one line a person understands (the 💡 hint):
a key of the family's hint texts (``render.hints``) and its fields, worked out from the
seat's view and the card alone."""

from __future__ import annotations

from typing import Any

from kozelbot.core.cards import Card
from kozelbot.families.follow.tricks import trick_winner
from kozelbot.families.follow.view import View


def reason_for(view: View, card: Card) -> tuple[str, dict[str, Any]]:
    """(key, fields): ``take_cheapest`` / ``take`` (the trick's worth), ``smear`` (points
    given to the partner's trick), ``duck`` (the cheapest card given), ``lead_trump``,
    ``lead_winner``, ``lead_cheap``."""
    assert view.seat is not None
    table = view.strength
    trick = [(seat, c) for seat, c in view.trick if c is not None]
    if not trick:
        if table.is_trump(card):
            return "lead_trump", {"card": card}
        if not _higher_out(view, card):
            return "lead_winner", {"card": card}
        return "lead_cheap", {"card": card}
    worth = sum(c.points for _, c in trick) + card.points
    winner = trick_winner(trick, table)
    if trick_winner([*trick, (view.seat, card)], table) == view.seat:
        beaters = [
            c for c in view.legal if trick_winner([*trick, (view.seat, c)], table) == view.seat
        ]
        cheapest = min(beaters, key=lambda c: (c.points, table.strength[c]))
        key = "take_cheapest" if card == cheapest and len(beaters) > 1 else "take"
        return key, {"card": card, "points": worth}
    if view.side_of(winner) == view.side_of(view.seat) and card.points:
        return "smear", {"card": card, "points": card.points}
    return "duck", {"card": card}


def _higher_out(view: View, card: Card) -> bool:
    """A card of its suit the seat has not seen and that beats it is still out."""
    table = view.strength
    seen = set(view.played) | set(view.hand)
    return any(
        other not in seen
        and not table.is_trump(other)
        and other.suit == card.suit
        and table.strength[other] > table.strength[card]
        for other in view.rules.cards
    ) or any(table.is_trump(other) and other not in seen for other in view.rules.cards)
