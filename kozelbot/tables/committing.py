"""One game's lock, load and commit: what every operation of the game service stands on.

``Tables`` hands an operation a private copy of a game's committed table to change under the
game's lock — copied from the committed table the service remembers, else read from the
repository — and commits the operation's ``Change``: the state dumped, the version bumped,
the moves and results saved in one write. ``GameService`` holds one and adds the operations
(and remembers what was committed, for renders: ``table_cache``).
"""

from __future__ import annotations

import asyncio
import weakref

from kozelbot.core.protocol import AnyState
from kozelbot.core.table import SeatTaken, Table, TableStatus
from kozelbot.families.registry import load_state
from kozelbot.tables.change import Change, TableError
from kozelbot.tables.repository import Repository


class Tables:
    """Committed tables of one repository; one ``asyncio.Lock`` per game."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock lives while someone holds or waits for it, so memory does not grow."""

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock every change of ``game_id`` holds."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def load(
        self, game_id: int, cached: Table | None, status: TableStatus | None = None
    ) -> Table:
        """A private copy of the game's committed table for an operation to change: from
        ``cached``, the committed table this process remembers (every commit goes through
        ``commit``), else from storage. The engine state's JSON is shared, not copied:
        nobody changes it (a commit puts a new dump in its place)."""
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
    def state(table: Table) -> AnyState:
        """A private copy of the table's engine state, for an operation to change."""
        assert table.state is not None
        return load_state(table.state)

    async def commit(self, change: Change) -> None:
        """Save the change's table (its state dumped, its version bumped) with its records."""
        table = change.table
        if change.state is not None:
            table.state = change.state.dump()
        table.version += 1
        try:
            await self.repo.save_game(
                table,
                moves=change.moves,
                deals=change.deals,
                result=change.result,
                abandoned=[user for user, _seat in change.abandoned],
                outbox=change.outbox,
            )
        except SeatTaken as taken:
            raise TableError("elsewhere", await self.repo.live_seat(taken.user_id)) from None
