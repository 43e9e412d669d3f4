"""The one connection every part of storage shares, with its lock and its clock.

Whatever the engine (``storage.engine``: SQLite or PostgreSQL), a process talks to its
database through one connection, and every use of it holds ``Database.lock``: a write is one
transaction (``storage.transaction.immediate``) and a read never runs inside somebody else's
write. A write hands its body a ``Transaction``: a step that must run inside another part's
write (a result's ratings inside ``Games.save_game``) takes one as its first argument, so it
cannot be called outside a write. Nothing here awaits anything but the database.

Rows that become records are read as dicts of their columns (``fetchdicts``), the column
names looked up once per query, and become records by ``Model.model_validate(row)``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from kozelbot.core.metrics import OFF, Meter
from storage.engine import Connection, Dialect, Executed, Row
from storage.transaction import immediate

Clock = Callable[[], float]


def as_dicts(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Rows as dicts of their columns, the names read once (``dict(row)`` would look each
    name up again in every row)."""
    if not rows:
        return []
    names = rows[0].keys()
    return [dict(zip(names, row, strict=False)) for row in rows]


class Reader:
    """Reads on the connection while the lock is held (several queries, one consistent look)."""

    __slots__ = ("_connection",)

    def __init__(self, connection: Connection) -> None:
        """Read through ``connection``; the caller holds the lock."""
        self._connection = connection

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row of a query."""
        return list(await self._connection.fetchall(sql, params))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row of a query, if any."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchdicts(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        """Every row of a query as a dict of its columns."""
        return as_dicts(await self.fetchall(sql, params))


class Transaction(Reader):
    """The open write transaction: what every step of a write executes through."""

    __slots__ = ()

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> Executed:
        """Run one statement (the result says its ``rowcount``)."""
        return await self._connection.execute(sql, params)

    async def executemany(self, sql: str, params: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each set of parameters."""
        await self._connection.executemany(sql, params)


class Database:
    """The open connection, the lock every use of it takes, and the clock writes are dated by."""

    def __init__(self, connection: Connection, clock: Clock, meter: Meter = OFF) -> None:
        """Share ``connection`` (opened by ``Storage.open``); ``meter`` hears how long each
        write transaction takes."""
        self.connection = connection
        self.clock = clock
        self.lock = asyncio.Lock()
        self.meter = meter

    @property
    def dialect(self) -> Dialect:
        """Which engine answers: ``"sqlite"`` or ``"postgresql"``."""
        return self.connection.dialect

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        """One write transaction; an id too large for a 64-bit integer is a ``ValueError``,
        not written."""
        async with immediate(self.connection, self.lock):
            began = time.perf_counter()
            yield Transaction(self.connection)
        self.meter.transaction(time.perf_counter() - began)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Reader]:
        """Several reads with no write between them."""
        async with self.lock:
            yield Reader(self.connection)

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row of one query."""
        async with self.lock:
            return list(await self.connection.fetchall(sql, params))

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row of one query, if any."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchdicts(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        """Every row of one query as a dict of its columns."""
        return as_dicts(await self.fetchall(sql, params))
