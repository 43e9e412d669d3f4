"""The one connection every part of storage shares, with its write lock and its clock.

aiosqlite runs a connection on one worker thread and serialises calls, not transactions, so
every write is one ``BEGIN IMMEDIATE`` transaction under an ``asyncio.Lock``
(``storage.transaction.immediate``) and every read takes the same lock, never running inside
somebody else's write. A write hands its body a ``Transaction``: a step that must run inside
another part's write (a result's ratings inside ``Games.save_game``) takes one as its first
argument, so it cannot be called outside a write. Nothing here awaits anything but the
database.

Rows that become records are read as dicts of their columns (``fetchdicts``), the column
names looked up once per query, and become records by ``Model.model_validate(row)``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from storage.transaction import immediate

Clock = Callable[[], float]


def as_dicts(rows: Sequence[sqlite3.Row]) -> list[dict[str, Any]]:
    """Rows as dicts of their columns, the names read once (``dict(row)`` would look each
    name up again in every row)."""
    if not rows:
        return []
    names = rows[0].keys()
    return [dict(zip(names, row, strict=False)) for row in rows]


class Reader:
    """Reads on the connection while the lock is held (several queries, one consistent look)."""

    __slots__ = ("_connection",)

    def __init__(self, connection: aiosqlite.Connection) -> None:
        """Read through ``connection``; the caller holds the lock."""
        self._connection = connection

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Every row of a query."""
        return list(await self._connection.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of a query, if any."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchdicts(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        """Every row of a query as a dict of its columns."""
        return as_dicts(await self.fetchall(sql, params))


class Transaction(Reader):
    """The open write transaction: what every step of a write executes through."""

    __slots__ = ()

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Cursor:
        """Run one statement (its cursor says ``rowcount`` and ``lastrowid``)."""
        return await self._connection.execute(sql, params)

    async def executemany(self, sql: str, params: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each set of parameters."""
        await self._connection.executemany(sql, params)


class Database:
    """The open connection, the lock every use of it takes, and the clock writes are dated by."""

    def __init__(self, connection: aiosqlite.Connection, clock: Clock) -> None:
        """Share ``connection`` (opened by ``Storage.open``)."""
        self.connection = connection
        self.clock = clock
        self.lock = asyncio.Lock()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        """One write transaction; an id too large for SQLite is a ``ValueError``, not written."""
        try:
            async with immediate(self.connection, self.lock):
                yield Transaction(self.connection)
        except OverflowError as exc:
            raise ValueError(f"an id outside SQLite's 64-bit INTEGER range: {exc}") from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Reader]:
        """Several reads with no write between them."""
        async with self.lock:
            yield Reader(self.connection)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Every row of one query."""
        async with self.lock:
            return list(await self.connection.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of one query, if any."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchdicts(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        """Every row of one query as a dict of its columns."""
        return as_dicts(await self.fetchall(sql, params))
