"""An ended deal scored as the engine scores it: ``scoring.settle``, remembered per deal.

The search representation ends a deal with an ``Outcome`` and a side (``position``); what
that gives in eyes, points or pairs — the award tables and their thresholds, belka's
defenders' table, the catch's award (kryuk's first deal), Lyusya or all tricks, the eggs
multiplier and carry — is the engine's one pure ``settle``, not worked out again here. A
deal's leaves end in few distinct ways, so each settlement is kept in its ``DealFacts``.
"""

from __future__ import annotations

from collections.abc import Sequence

from kozelbot.families.follow.scoring import Settlement, settle
from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.vocabulary import Outcome


def settle_deal(
    facts: DealFacts, outcome: Outcome, side: int | None, points: Sequence[int]
) -> Settlement:
    """What a deal of ``facts`` that ended as ``outcome`` for ``side`` with these card
    ``points`` gives (``scoring.settle`` with the deal's obligation, score, eggs and carry)."""
    key = (outcome, side, points[0], points[1])
    found = facts.settled.get(key)
    if found is None:
        found = facts.settled[key] = settle(
            facts.rules,
            outcome,
            side,
            points=(points[0], points[1]),
            obligation=facts.obligation,
            score=facts.score,
            eggs=facts.eggs,
            carry=facts.carry,
            first_deal=facts.deal_no == 0,
        )
    return found
