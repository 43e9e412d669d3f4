"""One game's lock, load and commit: what every operation of the game service stands on.

``Tables`` reads committed tables (from memory when this process committed them last, else
from the repository), hands an operation a private copy to change under the game's lock,
and commits it — the state dumped, the version bumped, the moves and results saved in one
write — remembering the committed table for renders. ``GameService`` adds the operations.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable

from kozelbot.core.protocol import AnyState
from kozelbot.core.table import SeatTaken, Table, TableStatus
from kozelbot.families.registry import load_state
from kozelbot.tables.change import Change, TableError
from kozelbot.tables.repository import Repository
from kozelbot.tables.table_cache import TableCache


class Tables:
    """Committed tables of one repository; one ``asyncio.Lock`` per game."""

    def __init__(self, repo: Repository, clock: Callable[[], float] = time.time) -> None:
        self.repo = repo
        self.clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock lives while someone holds or waits for it, so memory does not grow."""
        self.tables = TableCache()
        """Committed tables and their parsed states, for renders."""

    # -- reading -------------------------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock every change of ``game_id`` holds."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def snapshot(self, game_id: int) -> Table | None:
        """The latest committed table of a game this process has seen (recently)."""
        return self.tables.snapshot(game_id)

    def state_of(self, table: Table) -> AnyState | None:
        """The engine state inside a committed table, for reading only (renders)."""
        return self.tables.state_of(table)

    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The lobby or running game of a chat (of one forum topic of it)."""
        table = await self.repo.live_game(chat_id, thread_id)
        if table is not None:
            self.tables.remember(table)
        return table

    async def live_games_of(self, chat_id: int) -> list[Table]:
        """Every live game of a chat, whatever its topic (one indexed query)."""
        return await self.repo.live_games_in(chat_id)

    async def game(self, game_id: int) -> Table | None:
        """A game by id, any status."""
        table = await self.repo.game(game_id)
        if table is not None:
            self.tables.remember(table)
        return table

    # -- load and commit ---------------------------------------------------------------

    async def _load(self, game_id: int, status: TableStatus | None = None) -> Table:
        """A private copy of the game's committed table for an operation to change: from
        memory when this process committed it last (every commit goes through ``_commit``),
        else from storage. The engine state's JSON is shared, not copied: nobody changes it
        (a commit puts a new dump in its place)."""
        cached = self.snapshot(game_id)
        table = cached.model_copy(update={"state": None}, deep=True) if cached else None
        if table is not None and cached is not None:
            table.state = cached.state
        else:
            table = await self.repo.game(game_id)
        if table is None:
            raise TableError("no_game")
        if not table.status.live:
            raise TableError("finished", table)
        if status is not None and table.status is not status:
            raise TableError("not_lobby" if status is TableStatus.LOBBY else "stale", table)
        return table

    @staticmethod
    def _state(table: Table) -> AnyState:
        """A private copy of the table's engine state, for an operation to change."""
        assert table.state is not None
        return load_state(table.state)

    async def _commit(self, change: Change) -> Change:
        table = change.table
        if change.state is not None:
            table.state = change.state.dump()
        table.version += 1
        try:
            await self._save(change)
        except SeatTaken as taken:
            raise TableError("elsewhere", await self.repo.live_seat(taken.user_id)) from None
        self.tables.remember(table, change.state)  # renders need not parse it again
        return change

    async def _save(self, change: Change) -> None:
        table = change.table
        await self.repo.save_game(
            table,
            moves=change.moves,
            deals=change.deals,
            result=change.result,
            abandoned=[user for user, _seat in change.abandoned],
            outbox=change.outbox,
        )
