"""Exact search of a deal's last tricks once every hand is known (a sample's): alpha-beta
over the remaining cards, the deal's award to one side minus the other's at the leaves,
the partners of a pair playing together (both sides of a follow-suit game are two)."""

from __future__ import annotations

from kozelbot.families.follow.search.bits import BIT
from kozelbot.families.follow.search.position import Position
from kozelbot.families.follow.strong.policy import Orders

EXACT_TRICKS = 4
"""Tricks left (the one on the table included) at which the search becomes exact."""


def leaf_value(pos: Position, side: int) -> float:
    """An ended deal's worth to ``side``: the award difference, card points breaking ties
    (a hundredth of an award per ten points: more points never hurt)."""
    award = pos.award()
    points = pos.points
    return award[side] - award[1 - side] + (points[side] - points[1 - side]) / 1000


def exact_value(pos: Position, side: int, orders: Orders, alpha: float, beta: float) -> float:
    """The deal's value to ``side`` with best play by both sides from ``pos``."""
    if pos.over:
        return leaf_value(pos, side)
    legal = pos.legal()
    maximizing = pos._side[pos.turn] == side
    # Try the dearest cards first on a side's own turn, the cheapest on the other's: good
    # moves early cut the most.
    order = orders.dear if maximizing else orders.cheap
    best = -1e9 if maximizing else 1e9
    for card in order:
        if not legal & BIT[card]:
            continue
        pos.make(card)
        value = exact_value(pos, side, orders, alpha, beta)
        pos.unmake()
        if maximizing:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


def exact_from(pos: Position) -> bool:
    """Few enough tricks are left for the exact search (the talon dealt)."""
    return not pos.talon_due and pos.left <= EXACT_TRICKS
