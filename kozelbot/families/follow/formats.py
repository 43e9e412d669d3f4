"""Older layouts of a saved follow-suit state, read into today's.

Games saved by an earlier version of the bot resume after an upgrade (``MatchState.load``
passes every saved state through ``upgrade``).
"""

from __future__ import annotations

from typing import Any

from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.rules import Rules


def upgrade(data: Any) -> Any:
    """``data`` in today's layout: each older layout it is in, upgraded in turn."""
    if "deal" in data:
        data = _upgrade(data)
    return _upgrade_handoffs(data)


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A state saved before the game protocol (``deal`` instead of ``current``, no per-deal
    trump suit or obligation): hvalenyi, whose trump suit is fixed and whose first leader's
    pair is on obligation. Games running when the bot is upgraded resume from it."""
    data = dict(data)
    deal = data.pop("deal")
    if deal is not None:
        deal = dict(deal)
        rules: Rules = PRESETS[data["variant"]].rules(data["options"])
        deal.setdefault("trump", None if rules.trump_suit is None else rules.trump_suit.value)
        deal.setdefault("obligation", rules.side_of(deal["first_leader"]))
    data["current"] = deal
    return data


def _upgrade_handoffs(data: dict[str, Any]) -> dict[str, Any]:
    """A state saved when a hand-off was one ``card`` and one ``returned`` card (or none):
    each becomes ``cards`` / ``returned`` tuples; sixes' hand-offs of then were announced
    and made at once, so their ``answer`` is ``agree``. Games running when the bot is
    upgraded resume from it."""
    deal = data.get("current")
    if not isinstance(deal, dict) or not any("card" in h for h in deal.get("handoffs", ())):
        return data
    offered = PRESETS[data["variant"]].rules(data["options"]).handoff == "offered"
    upgraded = []
    for old in deal["handoffs"]:
        if "card" not in old:
            upgraded.append(old)
            continue
        returned = old.get("returned")
        upgraded.append(
            {
                "giver": old["giver"],
                "to": old["to"],
                "cards": [old["card"]],
                "returned": [] if returned is None else [returned],
                "answer": "agree" if offered else None,
            }
        )
    return {**data, "current": {**deal, "handoffs": upgraded}}
