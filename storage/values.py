"""How storage writes values SQLite must hold: ids that fit its INTEGER, and JSON."""

from __future__ import annotations

import json
from typing import Any

# SQLite's INTEGER is 64-bit; binding a larger Python int raises OverflowError.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def fits(*ids: int) -> bool:
    """Whether every id fits SQLite's INTEGER (forged input and Telegram ids may not)."""
    return all(INT64_MIN <= i <= INT64_MAX for i in ids)


def to_json(value: Any) -> str:
    """Compact JSON with sorted keys, as every JSON column holds it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
