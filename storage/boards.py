"""Ratings, leaderboards, personal stats, match history and per-chat settings.

A mixin of ``storage.Storage`` (it uses the connection, lock and helpers ``Storage`` has):
``_after_result`` and ``_after_abandon`` run inside ``save_game``'s transaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kozelbot.records import MatchResult

if TYPE_CHECKING:
    from kozelbot.table import Table


class BoardsMixin:
    """Queries over stored matches (see the methods)."""

    _db: Any

    async def _after_result(self, table: Table, result: MatchResult, now: float) -> None:
        """A match result was just written (same transaction): rate it and count it."""

    async def _after_abandon(self, table: Table, user_id: int, now: float) -> None:
        """``user_id`` left ``table``'s running match (same transaction): count it."""
