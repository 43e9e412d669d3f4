"""The strong player's redeal offer (issue #17: special steps by the same evaluation): keep
the hand when the deal it starts is worth more to the seat's side than a fresh one.

A fresh deal of the same match is worth nothing to either side on average (the cards are
dealt at random to both), so the hand is kept when its expected award — the deal played out
from its first card over sampled hands of the others, as in card play — is not below zero.
**Decision**: where asking is not allowed or would cost (sixes' demand past its limit) the
normal player's rule answers.
"""

from __future__ import annotations

import random
from typing import Any

from kozelbot.core.decisions import Budget, Decision
from kozelbot.families.follow.ai import wants_redeal
from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.search.position import Position
from kozelbot.families.follow.strong.exact import leaf_value
from kozelbot.families.follow.strong.policy import orders_of, playout
from kozelbot.families.follow.strong.sampling import Unknown
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import AskRedeal, KeepHand

MAX_SAMPLES = 600
FRESH_DEAL = 0.0
"""What a fresh deal is worth to a side on average."""


def facts_at_start(view: View) -> DealFacts | None:
    """The public facts of the deal about to be played, as the first card will find them
    (``None`` if the view does not fix them yet: no first leader or trump)."""
    if view.first_leader is None or (view.trump_suit is None and view.rules.trump_rule != "fixed"):
        return None
    return DealFacts(
        rules=view.rules,
        trump=view.trump_suit,
        leader=view.first_leader,
        deal_no=view.deal_no,
        obligation=view.obligation,
        trump_lead=view.trump_lead,
        score=view.score,
        eggs=view.multiplier - 1,
        carry=view.carry,
    )


def decide_redeal(view: View, rng: random.Random, budget_ms: float) -> Decision:
    """Ask for a redeal or keep the hand, by the hand's expected award."""
    facts = facts_at_start(view)
    if facts is None or (
        view.rules.redeal_limit is not None and view.redeals >= view.rules.redeal_limit
    ):
        return Decision(AskRedeal() if wants_redeal(view) else KeepHand(), reason="rule")
    assert view.seat is not None
    unknown = Unknown.of_view(view, facts)
    orders = orders_of(facts)
    side = view.rules.side_of(view.seat)
    budget = Budget(budget_ms)
    total = 0.0
    samples = 0
    while samples < MAX_SAMPLES and not budget.spent(samples):
        hands, _talon = unknown.sample(rng)
        pos = Position(facts, hands)
        made = playout(pos, orders, rng)
        total += leaf_value(pos, side)
        for _ in range(made):
            pos.unmake()
        samples += 1
    keep = total / samples
    values: tuple[tuple[Any, float], ...] = ((KeepHand(), keep), (AskRedeal(), FRESH_DEAL))
    redeal = keep < FRESH_DEAL
    if redeal:
        values = values[::-1]
    return Decision(values[0][0], values, samples, "redeal" if redeal else "keep", {"value": keep})
