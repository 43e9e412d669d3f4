"""The cover game's computer player: it sees only its seat's view and the moves it may make
(which depend on nothing but its own hand and the table).

Heuristics: lead several cheap cards of a plain suit; beat when the table holds points or the
beat is cheap, never a partner; shed the cheapest cards (no trumps, no points) when it must;
claim a long suit; take the trick with Відбій rather than re-beat; level with the cheapest.
"""

from __future__ import annotations

from kozelbot.core.cards import Card
from kozelbot.families.cover.strength import RANK_OF
from kozelbot.families.cover.view import View
from kozelbot.families.cover.vocabulary import (
    Action,
    Beat,
    Claim,
    Discard,
    Lead,
    Otboy,
    Pass,
    Phase,
)

WORTH_BEATING = 10
"""Card points on the table for which the computer spends a trump or a card of value."""


def _cost(view: View, card: Card) -> int:
    """How much giving this card up hurts: points first, then trumps, then rank."""
    return card.points * 10 + (60 if card.suit is view.trump else 0) + RANK_OF[card.rank]


def _total(view: View, cards: tuple[Card, ...]) -> int:
    return sum(_cost(view, c) for c in cards)


def choose(view: View, legal: list[Action]) -> Action:
    """The computer's move among ``legal`` (which must not be empty)."""
    if not legal:
        raise ValueError("the computer was asked to move when it cannot")
    claims = [a for a in legal if isinstance(a, Claim)]
    if claims and view.phase is Phase.ANSWER:
        return claims[0]  # a long suit is worth leading
    legal = [a for a in legal if not isinstance(a, Claim)] or legal
    if view.phase is Phase.LEAD:
        return _lead(view, [a for a in legal if isinstance(a, Lead)] or legal)
    if view.phase is Phase.LEVEL:
        return min(legal, key=lambda a: _total(view, getattr(a, "cards", ())))
    if view.phase is Phase.REBEAT:
        return next((a for a in legal if isinstance(a, Otboy)), legal[0])
    return _answer(view, legal)


def _lead(view: View, leads: list[Action]) -> Action:
    """Many cheap plain cards of one suit; a trump lead only when nothing else is left."""

    def score(action: Action) -> tuple[int, int, int]:
        assert isinstance(action, Lead)
        plain = all(c.suit is not view.trump for c in action.cards)
        cheap = sum(1 for c in action.cards if c.points == 0)
        return (int(plain), cheap - (len(action.cards) - cheap) * 2, -_total(view, action.cards))

    return max(leads, key=score)


def _answer(view: View, legal: list[Action]) -> Action:
    assert view.seat is not None
    beats = [a for a in legal if isinstance(a, Beat)]
    discards = [a for a in legal if isinstance(a, Discard)]
    on_table = sum(c.points for stack in view.stacks for c in stack)
    partner_leads = (
        view.last_beater is not None
        and view.last_beater != view.seat
        and view.rules.side_of(view.last_beater) == view.rules.side_of(view.seat)
    )
    cheapest_beat = min(beats, key=lambda a: _total(view, a.cards)) if beats else None
    if cheapest_beat is not None and not partner_leads:
        cost = sum(c.points for c in cheapest_beat.cards)
        trumps = sum(1 for c in cheapest_beat.cards if c.suit is view.trump)
        if on_table >= WORTH_BEATING or (cost == 0 and trumps == 0) or discards:
            return cheapest_beat
    if discards:
        return min(discards, key=lambda a: _total(view, a.cards))
    return next((a for a in legal if isinstance(a, Pass)), cheapest_beat or legal[0])
