"""The strong player's playout policy on the search representation: the normal player's
card rules (``ai``: smear points onto a partner's trick, take a trick worth it with the
cheapest winner, otherwise give the cheapest card; lead the cheapest plain card) on masks,
fast enough for hundreds of playouts a decision, with a little randomness so the playouts
of one sample do not all repeat one line."""

from __future__ import annotations

import random
from dataclasses import dataclass

from kozelbot.follow.search.bits import BIT, POINTS
from kozelbot.follow.search.position import Position
from kozelbot.follow.search.tables import Tables

WORTH_TAKING = 10
"""Points on the table (with the winner's own) that make taking a trick worth a card."""
WANDER = 0.1
"""How often a playout plays a random legal card instead of the rule's."""

_CARD_MASK, _AT_SHIFT = 0x3F, 6


@dataclass(frozen=True, slots=True)
class Orders:
    """Card indices of one deck under one trump, in the orders the rules pick by."""

    cheap: tuple[int, ...]
    """Cheapest first: points, then power."""
    dear: tuple[int, ...]
    """Most points first, the weakest of equal points first (what a smear gives)."""


_ORDERS: dict[int, Orders] = {}


def orders_of(tables: Tables) -> Orders:
    key = id(tables)
    found = _ORDERS.get(key)
    if found is None:
        cards = [i for i in range(36) if tables.deck & BIT[i]]
        cheap = tuple(sorted(cards, key=lambda i: POINTS[i] * 100 + tables.strength[i]))
        dear = tuple(sorted(cards, key=lambda i: (-POINTS[i], tables.strength[i])))
        found = _ORDERS[key] = Orders(cheap, dear)
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
    """The card the rules choose among ``legal`` for the seat to play (no randomness)."""
    n = pos.n
    if not n:
        plain = legal & pos.plain
        return first_in(orders.cheap, plain or legal)
    best = pos._bests[-1]
    winner = pos._rounds[pos.leader][best >> _AT_SHIFT]
    mine = pos._side[winner] == pos._side[pos.turn]
    last = n == pos.players - 1
    if mine and (last or not pos._beaten_by[best & _CARD_MASK] & _out(pos)):
        return first_in(orders.dear, legal & pos.plain or legal)
    beaters = legal & pos._beaten_by[best & _CARD_MASK]
    if beaters and not mine:
        cheapest = first_in(orders.cheap, beaters)
        if last or pos.trick_points + POINTS[cheapest] >= WORTH_TAKING:
            return cheapest
    return first_in(orders.cheap, legal)


def _out(pos: Position) -> int:
    """The cards still in other hands than the seat's to play."""
    held = 0
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
