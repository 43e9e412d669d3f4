"""How likely a sample of the hidden hands makes what the others played (issue #17): each
sample is weighted by how many of the deal's plays by the other seats the normal player's
rules (``policy.rule_card``) would have made with those hands — a sample in which the others
played as sensible players would counts more than one in which they would have thrown their
aces away.

The deal is replayed from its first card with the sample's hands as they were then (their
cards now plus those they played). A play the rules agree with (the rules' card, or one they
hold equal to it) keeps the weight; one they do not multiplies it by ``MISS`` (people, and
the rules' own playouts, differ from the rules often enough that no sample is ruled out).

**Decision**: only plain four-seat deals are weighted — a hand-off, the two-player refill
or a face-down opening changes the hands during the deal, and then every sample counts the
same.
"""

from __future__ import annotations

from kozelbot.families.follow.search.bits import BIT, INDEX
from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.search.position import Position
from kozelbot.families.follow.strong.policy import Orders, rule_card
from kozelbot.families.follow.strong.redeal import facts_at_start
from kozelbot.families.follow.strong.sampling import trick_leaders
from kozelbot.families.follow.view import View

MISS = 0.4
"""A sample's weight is multiplied by this for each play the rules would not have made."""


class Likelihood:
    """The deal's plays so far by seat, and the facts of its first card, read once per
    decision; ``weight(hands)`` per sample."""

    def __init__(self, view: View, facts: DealFacts, orders: Orders) -> None:
        assert view.seat is not None
        self.seat = view.seat
        self.orders = orders
        self.start: DealFacts | None = None
        self.plays: list[tuple[int, int]] = []
        if view.players != 4 or view.handoffs or view.opening != "plain":
            return
        start = facts_at_start(view)
        if start is None:
            return
        played = list(view.played)
        players = view.players
        tricks = [played[k : k + players] for k in range(0, len(played), players)]
        leaders = trick_leaders(view, facts, tricks)
        on_table = [(s, c) for s, c in view.trick if c is not None]
        for leader, trick in zip(leaders, tricks, strict=True):
            order = view.rules.rounds[leader]
            self.plays += [(order[place], INDEX[card]) for place, card in enumerate(trick)]
        self.plays += [(s, INDEX[c]) for s, c in on_table]
        self.start = start

    def weight(self, hands: list[int]) -> float:
        """The weight of a sample (its hands now, by seat)."""
        if self.start is None or not self.plays:
            return 1.0
        before = list(hands)
        for seat, card in self.plays:
            before[seat] |= BIT[card]
        pos = Position(self.start, before)
        weight = 1.0
        for seat, card in self.plays:
            if seat != self.seat and pos.turn == seat:
                legal = pos.legal()
                if legal & (legal - 1) and not _alike(
                    self.orders, rule_card(pos, self.orders, legal), card
                ):
                    weight *= MISS
            pos.make(card)
        return weight


def _alike(orders: Orders, card: int, other: int) -> bool:
    """The normal player holds the two cards equal (same cost, both trumps or neither): it
    plays whichever comes first in its hand, so either agrees with its rules."""
    return orders.cost[card] == orders.cost[other] and (
        orders.trumps >> card & 1 == orders.trumps >> other & 1
    )
