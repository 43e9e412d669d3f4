"""How storage writes values SQLite must hold: ids that fit its INTEGER, JSON, and the figures
of every side of a match or deal."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

# SQLite's INTEGER is 64-bit; binding a larger Python int raises OverflowError.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def fits(*ids: int) -> bool:
    """Whether every id fits SQLite's INTEGER (forged input and Telegram ids may not)."""
    return all(INT64_MIN <= i <= INT64_MAX for i in ids)


def to_json(value: Any) -> str:
    """Compact JSON with sorted keys, as every JSON column holds it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def sides_json(**figures: tuple[int, ...]) -> str | None:
    """Every side's figures as JSON when there are more than two (migration 004), else
    ``None`` (the two-column fields say it all)."""
    if all(len(values) <= 2 for values in figures.values()):
        return None
    return to_json({key: list(values) for key, values in figures.items()})


def match_score(row: Mapping[str, Any]) -> tuple[int, ...]:
    """A match's final score from its row: every side (migration 004), else the two columns."""
    if row["scores"]:
        return tuple(json.loads(row["scores"])["score"])
    return (row["score_0"], row["score_1"])
