"""One game's lock, load and commit: what every operation on a table stands on.

``Tables`` is the part the game service (``service.GameService``: reading, the running
match) and its lobby (``lobby.Lobby``: who sits, before and after the start) share, held by
both — so the steps every operation takes are written once: hold the game's lock, take a
private copy of its committed table to change (copied from what the service remembers, else
read from the repository), let play go on after the change (``play_on``: the computers and
the dealer, on the one ``clock``), and commit the operation's ``Change`` — the state dumped,
the version bumped, the moves and results saved in one write — then remember it for renders
(``cache``: ``table_cache``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import AsyncIterator, Callable

from kozelbot.computer.thinking import Thinker
from kozelbot.core import logs
from kozelbot.core.protocol import AnyState
from kozelbot.core.table import SeatTaken, StaleVersion, Table, TableStatus
from kozelbot.families.registry import load_state
from kozelbot.tables import turns
from kozelbot.tables.change import Change, TableError
from kozelbot.tables.repository import Repository
from kozelbot.tables.table_cache import TableCache
from kozelbot.tables.turns import Played


class Tables:
    """Committed tables of one repository: one ``asyncio.Lock`` per game, the commit, and the
    memory of what was committed (``cache``, what renders read)."""

    def __init__(
        self,
        repo: Repository,
        *,
        clock: Callable[[], float] = time.time,
        thinker: Thinker | None = None,
        hidden_wait: float = 0.0,
    ) -> None:
        """``thinker`` and ``hidden_wait``: as ``GameService`` takes them (``play_on``,
        ``commit``)."""
        self.repo = repo
        self.clock = clock
        self.thinker = thinker
        self.hidden_wait = hidden_wait
        self.cache = TableCache()
        """Committed tables and their parsed states, for renders."""
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock lives while someone holds or waits for it, so memory does not grow."""

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock every change of ``game_id`` holds."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock; log lines name the game (``logs.about_game``)."""
        with logs.about_game(game_id):
            async with self.lock(game_id):
                yield

    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The lobby or running game of a chat (of one forum topic of it), remembered."""
        table = await self.repo.live_game(chat_id, thread_id)
        if table is not None:
            self.cache.remember(table)
        return table

    async def game(self, game_id: int) -> Table | None:
        """A game by id, any status, remembered."""
        table = await self.repo.game(game_id)
        if table is not None:
            self.cache.remember(table)
        return table

    async def load(self, game_id: int, status: TableStatus | None = None) -> Table:
        """A private copy of the game's committed table for an operation to change: from the
        committed table this process remembers (every commit goes through ``commit``), else
        the stored one. The engine state's JSON is shared, not copied: nobody changes it (a
        commit puts a new dump in its place)."""
        cached = self.cache.snapshot(game_id)
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

    def play_on(self, table: Table, state: AnyState, *, fresh: bool = False) -> Played:
        """What the computers and the dealer do after a change (``turns.play_on``); with a
        ``thinker``, a searching computer is left to think later, off the event loop."""
        later = self.thinker is not None
        return turns.play_on(table, state, self.clock(), think_later=later, fresh=fresh)

    def stopped(self, table: Table) -> Change:
        """The table ended without a result (the caller set ``closed_reason`` if any)."""
        table.status = TableStatus.STOPPED
        table.deadline = None
        return Change(table, None if table.state is None else self.state(table))

    async def commit(self, change: Change) -> Change:
        """Save the change's table (its state dumped, its version bumped) with its records,
        a computer to think in a hidden step first made to wait like a person (here, so every
        path that lets play go on — a move, a time-out, a restart — is covered); then
        remember the committed table and its state (renders need not parse it again)."""
        table = change.table
        turns.pace_hidden(table, change.state, self.clock(), self.hidden_wait)
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
        except StaleVersion:
            # Another process committed the game meanwhile (a worker that held it before,
            # issue #32): forget the copy this change was made on, so that the next press
            # starts from the stored game; this one is refused as out of date.
            self.cache.forget(table.game_id)
            raise TableError("stale", table) from None
        self.cache.remember(table, change.state)
        return change
