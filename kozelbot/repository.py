"""What the game service needs from storage (``storage.games.Games`` implements it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kozelbot.records import DealRecord, MatchResult, MoveRecord, OutboxItem
from kozelbot.table import Table


class Repository(Protocol):
    """What the service needs from storage."""

    async def create_game(self, table: Table) -> Table: ...
    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None: ...
    async def live_seat(self, user_id: int) -> Table | None: ...
    async def game(self, game_id: int) -> Table | None: ...
    async def live_games(self) -> list[Table]: ...
    async def live_games_in(self, chat_id: int) -> list[Table]: ...
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None: ...
    async def save_game(
        self,
        table: Table,
        *,
        moves: Sequence[MoveRecord] = (),
        deals: Sequence[DealRecord] = (),
        result: MatchResult | None = None,
        abandoned: Sequence[int] = (),
        outbox: Sequence[OutboxItem] = (),
    ) -> None: ...
