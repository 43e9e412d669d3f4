"""The embedded engine: one aiosqlite connection (WAL, ``synchronous=FULL``, foreign keys,
a 5 s busy timeout), the default when no database URL is set.

aiosqlite runs the connection on one worker thread and serialises calls, not transactions;
``storage.core.Database`` holds a lock over every use. A write is ``BEGIN IMMEDIATE``: the
write lock up front, so ``busy_timeout`` applies (a deferred transaction upgrading to a write
would fail with SQLITE_BUSY at once). ``isolation_level=None``: the sqlite3 module never opens
a transaction behind our back.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage.engine import Dialect, Executed, Row
from storage.errors import Duplicate, Refused
from storage.files import is_file_database, open_private_database

log = logging.getLogger(__name__)

SYNCHRONOUS = "FULL"
"""SQLite's ``synchronous`` setting (``FULL``: see ``storage.db``'s durability promise; the
CPU benchmark sets ``NORMAL`` here to measure what ``FULL`` costs)."""

_UNIQUE = re.compile(r"^UNIQUE constraint failed: (.+)$")


def pragmas() -> tuple[str, ...]:
    """The settings every connection starts with."""
    if SYNCHRONOUS not in ("NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"unknown synchronous setting {SYNCHRONOUS!r}")
    return (
        "PRAGMA journal_mode = WAL",
        f"PRAGMA synchronous = {SYNCHRONOUS}",
        "PRAGMA foreign_keys = ON",
        "PRAGMA busy_timeout = 5000",
    )


def _translate(exc: sqlite3.IntegrityError) -> Refused:
    found = _UNIQUE.match(str(exc))
    if found is None:
        return Refused(str(exc))
    return Duplicate(found.group(1), str(exc))


class SqliteConnection:
    """``storage.engine.Connection`` over aiosqlite."""

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection) -> None:
        """Wrap an open connection; use ``SqliteConnection.open``."""
        self.raw = connection

    @classmethod
    async def open(cls, path: str | Path) -> SqliteConnection:
        """Open (creating it mode 0600 if needed) the database file at ``path``
        (``":memory:"`` ok)."""
        if is_file_database(path):
            await asyncio.to_thread(open_private_database, Path(path))
        connection = await aiosqlite.connect(path, isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            for pragma in pragmas():
                await connection.execute(pragma)
        except BaseException:
            await connection.close()
            raise
        return cls(connection)

    async def begin(self) -> None:
        """``BEGIN IMMEDIATE``."""
        await self.raw.execute("BEGIN IMMEDIATE")

    async def commit(self) -> None:
        """``COMMIT``."""
        await self.raw.execute("COMMIT")

    async def rollback(self) -> None:
        """``ROLLBACK``, tolerating "no transaction is active" (BEGIN failed, or SQLite
        rolled back on its own)."""
        try:
            await self.raw.execute("ROLLBACK")
        except sqlite3.Error as exc:
            if "no transaction is active" in str(exc):
                log.debug("rollback skipped: %s", exc)
            else:
                log.warning("rollback failed: %s", exc)

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> Executed:
        """Run one statement."""
        try:
            cursor = await self.raw.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _translate(exc) from exc
        except OverflowError as exc:
            raise ValueError(f"an id outside SQLite's 64-bit INTEGER range: {exc}") from exc
        return Executed(cursor.rowcount)

    async def executemany(self, sql: str, params: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each set of parameters."""
        try:
            await self.raw.executemany(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _translate(exc) from exc
        except OverflowError as exc:
            raise ValueError(f"an id outside SQLite's 64-bit INTEGER range: {exc}") from exc

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]:
        """Every row of a query (``sqlite3.Row``: by name or position)."""
        try:
            return list(await self.raw.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:  # INSERT … RETURNING
            raise _translate(exc) from exc
        except OverflowError as exc:
            raise ValueError(f"an id outside SQLite's 64-bit INTEGER range: {exc}") from exc

    async def close(self) -> None:
        """Close the connection (its worker thread would otherwise keep the process alive)."""
        await self.raw.close()
