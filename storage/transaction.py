"""The one way to write: a lock-guarded ``BEGIN IMMEDIATE`` … ``COMMIT`` on a shared connection.

aiosqlite serialises calls on one connection but not transactions: coroutines sharing the
connection share its transaction, so every write transaction holds an ``asyncio.Lock`` for its
whole length. ``BEGIN IMMEDIATE`` takes the write lock up front, so ``busy_timeout`` applies
(a deferred transaction upgrading to a write would fail with SQLITE_BUSY at once).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiosqlite

log = logging.getLogger(__name__)


@asynccontextmanager
async def immediate(db: aiosqlite.Connection, lock: asyncio.Lock) -> AsyncIterator[None]:
    """Run the body in one write transaction: commit on success, roll back on any exception."""
    async with lock:
        try:
            # BEGIN and COMMIT sit inside the try: a BEGIN queued before a cancellation still
            # runs on the worker thread, and a failed COMMIT leaves the transaction open; both
            # must be rolled back before the lock passes to the next writer.
            await db.execute("BEGIN IMMEDIATE")
            yield
            await db.execute("COMMIT")
        except BaseException:
            await _rollback(db)
            raise


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back, tolerating "no transaction is active" (BEGIN failed or SQLite rolled back)."""
    try:
        # Shielded so a second cancellation cannot leave the connection inside a transaction
        # that the next writer would then join.
        await asyncio.shield(_execute(db, "ROLLBACK"))
    except sqlite3.Error as exc:
        if "no transaction is active" in str(exc):
            log.debug("rollback skipped: %s", exc)
        else:
            log.warning("rollback failed: %s", exc)


async def _execute(db: aiosqlite.Connection, sql: str) -> None:
    await db.execute(sql)
