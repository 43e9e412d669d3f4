"""The strong player's playout policy on the search representation: the normal player's
card rules (``ai.choose_card``: lead a sure winner or the cheapest plain card, smear points
onto a partner's sure trick, take a trick worth it with the cheapest winner, otherwise give
the cheapest card) on masks — the same card as ``ai`` but for the order among cards it
holds equal (``tests/test_strong.py`` compares them) — fast enough for hundreds of playouts
a decision, with a little randomness so the playouts of one sample do not all repeat one
line."""

from __future__ import annotations

import random
from dataclasses import dataclass

from kozelbot.families.follow.search.bits import BIT, INDEX, POINTS
from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.search.position import Position

WORTH_TAKING = 10
"""Points on the table (with the winner's own) that make taking a trick worth a card."""
WANDER = 0.1
"""How often a playout plays a random legal card instead of the rule's."""

_CARD_MASK, _AT_SHIFT = 0x3F, 6


@dataclass(frozen=True, slots=True)
class Orders:
    """Card indices of one deck under one trump, in the orders the rules pick by, and what
    beats each card in the rules' sense of a sure winner."""

    cheap: tuple[int, ...]
    """Cheapest first: points, then power (``ai._cost``)."""
    dear: tuple[int, ...]
    """Most points first, the weakest of equal points first (the exact search's move order
    on its own side's turn)."""
    smear: tuple[int, ...]
    """What a smear gives first: most points, a ladder card counted 5 less, the weakest of
    equal ones first."""
    strong: tuple[int, ...]
    """Strongest first."""
    above: tuple[int, ...]
    """By card: the cards that would beat it in ``ai._sure_winner``'s sense — stronger
    trumps, and for a plain card the stronger ones of its suit (any trump beats a plain
    card too: ``sure`` adds them)."""
    trumps: int
    cost: tuple[int, ...]
    """``ai._cost`` by card (points first, then power)."""


_ORDERS: dict[int, Orders] = {}


def orders_of(facts: DealFacts) -> Orders:
    """The rules' orders for the deal's deck and trump, worked out once per table."""
    tables = facts.tables
    key = id(tables)
    found = _ORDERS.get(key)
    if found is None:
        cards = [i for i in range(36) if tables.deck & BIT[i]]
        strength = tables.strength
        ladder = {INDEX[card] for card in facts.rules.ladder}
        cost = tuple(POINTS[i] * 100 + strength[i] if i in cards else 0 for i in range(36))
        above = []
        for i in range(36):
            mask = 0
            if i in cards:
                for j in cards:
                    if strength[j] > strength[i] and (
                        tables.trumps & BIT[j]
                        or (not tables.trumps & BIT[i] and tables.suit[j] == tables.suit[i])
                    ):
                        mask |= BIT[j]
            above.append(mask)
        found = _ORDERS[key] = Orders(
            cheap=tuple(sorted(cards, key=lambda i: cost[i])),
            dear=tuple(sorted(cards, key=lambda i: (-POINTS[i], strength[i]))),
            smear=tuple(
                sorted(cards, key=lambda i: (-(POINTS[i] - 5 * (i in ladder)), strength[i]))
            ),
            strong=tuple(sorted(cards, key=lambda i: -strength[i])),
            above=tuple(above),
            trumps=tables.trumps,
            cost=cost,
        )
    return found


def first_in(order: tuple[int, ...], mask: int) -> int:
    for card in order:
        if mask >> card & 1:
            return card
    raise ValueError("empty mask")


def pick(pos: Position, orders: Orders, rng: random.Random) -> int:
    """The card the rules play for the seat to play (now and then a random one)."""
    legal = pos.legal()
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if rng.random() < WANDER:
        choices = [i for i in orders.cheap if legal >> i & 1]
        return rng.choice(choices)
    return rule_card(pos, orders, legal)


def rule_card(pos: Position, orders: Orders, legal: int) -> int:
    """The card the normal player (``ai.choose_card``) chooses among ``legal`` for the seat
    to play, its rules worked on masks (no randomness; of cards equal in its eyes, the first
    in ``Orders``' order where ``ai`` takes the first in its hand)."""
    unseen = _unseen(pos)
    if not pos.n:
        return _lead(pos, orders, legal, unseen)
    best = pos._bests[-1]
    winning = best & _CARD_MASK
    winner = pos._rounds[pos.leader][best >> _AT_SHIFT]
    mine = pos._side[winner] == pos._side[pos.turn]
    last = pos.n == pos.players - 1
    if mine and (last or _sure(orders, winning, unseen)):
        return first_in(orders.smear, legal)
    beaters = legal & pos._beaten_by[winning]
    if beaters and not mine:
        cheapest = first_in(orders.cheap, beaters)
        sure = _sure(orders, cheapest, unseen)
        if last or pos.trick_points + POINTS[cheapest] >= WORTH_TAKING or sure:
            if last or sure or not POINTS[cheapest]:
                return cheapest
            for card in orders.cheap:
                if beaters >> card & 1 and _sure(orders, card, unseen):
                    return card
            return cheapest
    return first_in(orders.cheap, legal)


def _lead(pos: Position, orders: Orders, legal: int, unseen: int) -> int:
    """Lead the highest trump out, or a plain ace (a ten whose ace is gone) early in the
    deal that nothing unseen of its suit beats; else the cheapest plain card."""
    early = pos.done * pos.players < 8
    for card in orders.strong:
        if not legal >> card & 1:
            continue
        if orders.trumps >> card & 1:
            if not orders.above[card] & unseen:
                return card
        elif early and POINTS[card] >= 10 and not orders.above[card] & unseen & ~orders.trumps:
            return card
    return first_in(orders.cheap, legal & pos.plain or legal)


def _sure(orders: Orders, card: int, unseen: int) -> bool:
    """No card the seat has not seen beats ``card`` (a plain card: no trump is unseen)."""
    if orders.above[card] & unseen:
        return False
    return bool(orders.trumps >> card & 1) or not unseen & orders.trumps


def _unseen(pos: Position) -> int:
    """The cards the seat to play has not seen: the other hands and the talon."""
    held = pos.talon[0] | pos.talon[1] if pos.talon_due else 0
    for seat, hand in enumerate(pos.hands):
        if seat != pos.turn:
            held |= hand
    return held


def playout(pos: Position, orders: Orders, rng: random.Random) -> int:
    """Play ``pos`` to the deal's end by the rules; return the cards made (to unmake)."""
    made = 0
    while not pos.over:
        pos.make(pick(pos, orders, rng))
        made += 1
    return made
