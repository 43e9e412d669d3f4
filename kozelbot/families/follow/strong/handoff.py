"""The strong player's hand-off decision (issue #17: special steps by the same evaluation):
pass the last trump to the partner (kryuk: which one; sixes: announce it) or keep it, by the
deal's expected award either way, played out over sampled hands as in card play.

The partner's part is the normal player's (sixes: it agrees, and every trump the seat holds
passes; the partner returns its cheapest plain cards). **Decision**: the partner's answer,
the choice of trumps after an agreed offer and the returned cards stay the normal player's
rules — their worth hangs on the other partner's hand, which the deciding seat sees.
"""

from __future__ import annotations

import random
from typing import Any

from kozelbot.core.decisions import Budget, Decision
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.search.bits import BIT, mask_of
from kozelbot.families.follow.search.position import Position
from kozelbot.families.follow.strong.exact import leaf_value
from kozelbot.families.follow.strong.policy import Orders, orders_of, playout
from kozelbot.families.follow.strong.redeal import facts_at_start
from kozelbot.families.follow.strong.sampling import Unknown
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import GiveTrump, KeepHand, OfferHandoff

MAX_SAMPLES = 600


def handoff_choices(view: View) -> list[tuple[Any, int]]:
    """The giver's choices with the trumps each passes (a mask): empty when the seat is not
    deciding whether to hand off, or when a face-down opening trick was played first (the
    deal's facts from its first card would not hold)."""
    actions = view.actions
    if KeepHand() not in actions or view.partner is None or view.played or view.trick:
        return []
    table = view.strength
    if OfferHandoff() in actions:
        trumps = mask_of(c for c in view.hand if table.is_trump(c))
        return [(OfferHandoff(), trumps), (KeepHand(), 0)]
    gives = [a for a in actions if isinstance(a, GiveTrump)]
    if not gives:
        return []
    return [*((a, mask_of(a.cards)) for a in gives), (KeepHand(), 0)]


def decide_handoff(view: View, rng: random.Random, budget_ms: float) -> Decision:
    """Hand off or keep, by the expected award of each."""
    choices = handoff_choices(view)
    facts = facts_at_start(view)
    if not choices or facts is None or view.played or view.trick:
        return Decision(choose_action(view), reason="rule")
    assert view.seat is not None and view.partner is not None
    me, partner = view.seat, view.partner
    unknown = Unknown.of_view(view, facts)
    orders = orders_of(facts)
    side = view.rules.side_of(me)
    totals = [0.0] * len(choices)
    budget = Budget(budget_ms)
    samples = 0
    while samples < MAX_SAMPLES and not budget.spent(samples):
        hands, _talon = unknown.sample(rng)
        for index, (_action, passed) in enumerate(choices):
            dealt = _exchanged(hands, me, partner, passed, facts.tables.plain, orders)
            pos = Position(facts, dealt)
            made = playout(pos, orders, rng)
            totals[index] += leaf_value(pos, side)
            for _ in range(made):
                pos.unmake()
        samples += 1
    ranked = sorted(range(len(choices)), key=lambda i: -totals[i])
    values = tuple((choices[i][0], totals[i] / samples) for i in ranked)
    best = values[0][0]
    reason = "handoff_keep" if best == KeepHand() else "handoff_give"
    return Decision(best, values, samples, reason)


def _exchanged(
    hands: list[int], me: int, partner: int, passed: int, plain: int, orders: Orders
) -> list[int]:
    """The hands after ``passed`` goes to the partner, who returns as many of its cheapest
    cards (plain ones while it has them; never those it just got)."""
    if not passed:
        return hands
    dealt = list(hands)
    back = 0
    for returnable in (dealt[partner] & plain, dealt[partner]):  # plain cards first
        for card in orders.cheap:
            if back.bit_count() == passed.bit_count():
                break
            if returnable & BIT[card]:
                back |= BIT[card]
    dealt[me] = dealt[me] & ~passed | back
    dealt[partner] = dealt[partner] & ~back | passed
    return dealt


__all__ = ["decide_handoff", "handoff_choices"]
