"""Hidden hands a seat cannot see, sampled consistently with everything public (issue #17):
the cards played, the trick on the table, the seat's own hand, the cards it handed off or
got back (it knows where they are), and the suits players showed they lack — a player who
did not follow a led suit holds none of it, until a refill deals new cards."""

from __future__ import annotations

import random
from dataclasses import dataclass

from kozelbot.core.cards import Card
from kozelbot.families.follow.search.bits import BIT, INDEX, indices, mask_of
from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.view import View

TRIES = 30
"""Dealing attempts that respect every void before a sample drops them."""


@dataclass(frozen=True, slots=True)
class Unknown:
    """What one seat's view leaves open: the cards to place, how many each other seat and
    the talon hold, the cards each seat is known to hold and those it cannot hold."""

    seat: int
    hand: int
    pool: tuple[int, ...]
    """The card indices placed at random."""
    need: tuple[int, ...]
    """By seat: how many cards of the pool it gets (0 for the seat itself)."""
    talon: int
    known: tuple[int, ...]
    """By seat: the mask of cards it surely holds."""
    void: tuple[int, ...]
    """By seat: the mask of cards it cannot hold."""

    @classmethod
    def of_view(cls, view: View, facts: DealFacts) -> Unknown:
        assert view.seat is not None
        me = view.seat
        players = view.players
        hand = mask_of(view.hand)
        seen = hand | mask_of(view.played) | mask_of(c for _, c in view.trick if c is not None)
        known = [0] * players
        for handoff in view.handoffs:  # only the two seats of a hand-off see its cards
            if handoff.giver == me:
                known[handoff.to] |= mask_of(handoff.cards)
            if handoff.to == me:
                known[handoff.giver] |= mask_of(handoff.returned)
        for seat in range(players):
            known[seat] &= ~seen
            if seat == me:
                known[seat] = 0
        every_known = 0
        for mask in known:
            every_known |= mask
        pool = facts.tables.deck & ~seen & ~every_known
        need = [0 if s == me else view.hand_sizes[s] - known[s].bit_count() for s in range(players)]
        return cls(
            seat=me,
            hand=hand,
            pool=tuple(indices(pool)),
            need=tuple(need),
            talon=view.talon,
            known=tuple(known),
            void=tuple(_voids(view, facts)),
        )

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """Hands (masks by seat, the seat's own as it is) and the talon (indices in
        dealing order) completing the view; voids are kept when a deal allows it."""
        for attempt in range(TRIES + 1):
            dealt = self._deal(rng, voids=attempt < TRIES)
            if dealt is not None:
                return dealt
        raise AssertionError("a deal without voids always fits")

    def _deal(self, rng: random.Random, *, voids: bool) -> tuple[list[int], list[int]] | None:
        pool = list(self.pool)
        rng.shuffle(pool)
        left = list(self.need)
        hands = [self.known[s] | (self.hand if s == self.seat else 0) for s in range(len(left))]
        talon: list[int] = []
        talon_left = self.talon
        void = self.void if voids else (0,) * len(left)
        # The most constrained cards first: those fewest seats may hold.
        pool.sort(
            key=lambda card: sum(1 for s, n in enumerate(left) if n and void[s] & BIT[card]),
            reverse=True,
        )
        for card in pool:
            bit = BIT[card]
            open_seats = [s for s, n in enumerate(left) if n and not void[s] & bit]
            weights = [left[s] for s in open_seats]
            total = sum(weights) + talon_left
            if not total:
                return None
            pick = rng.randrange(total)
            for seat, weight in zip(open_seats, weights, strict=True):
                if pick < weight:
                    hands[seat] |= bit
                    left[seat] -= 1
                    break
                pick -= weight
            else:
                talon.append(card)
                talon_left -= 1
        return hands, talon


def _voids(view: View, facts: DealFacts) -> list[int]:
    """By seat: the cards it cannot hold, from the tricks since the last refill (a seat
    that did not follow the led card's suit holds none of that suit)."""
    players = view.players
    void = [0] * players
    follow = facts.tables.follow
    played = list(view.played)
    tricks = [played[k : k + players] for k in range(0, len(played), players)]
    since = 0
    if view.rules.players == 2 and not view.talon and len(tricks) >= view.rules.hand_size:
        since = view.rules.hand_size  # the refill dealt new cards after these tricks
    leaders = trick_leaders(view, facts, tricks)
    for number, trick in enumerate(tricks):
        if number < since:
            continue
        _note(view, void, follow, leaders[number], trick)
    on_table = [(s, c) for s, c in view.trick if c is not None]
    if on_table:
        _note(view, void, follow, on_table[0][0], [c for _, c in on_table])
    return void


def _note(
    view: View, void: list[int], follow: tuple[int, ...], leader: int, trick: list[Card]
) -> None:
    led = follow[INDEX[trick[0]]]
    for place, card in enumerate(trick[1:], start=1):
        if not led & BIT[INDEX[card]]:
            void[view.rules.rounds[leader][place]] |= led


def trick_leaders(view: View, facts: DealFacts, tricks: list[list[Card]]) -> list[int]:
    """Who led each completed trick: the first from the deal's first leader, each next
    from the winner of the one before."""
    leader = view.first_leader if view.first_leader is not None else 0
    leaders = []
    beaten_by = facts.tables.beaten_by
    for trick in tricks:
        leaders.append(leader)
        best = 0
        for place in range(1, len(trick)):
            if beaten_by[INDEX[trick[best]]] & BIT[INDEX[trick[place]]]:
                best = place
        leader = view.rules.rounds[leader][best]
    return leaders
