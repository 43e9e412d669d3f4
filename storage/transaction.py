"""The one way to write: a lock-guarded transaction on the shared connection.

Coroutines sharing a connection share its transaction, so every write transaction holds an
``asyncio.Lock`` for its whole length (SQLite's aiosqlite and psycopg alike serialise calls,
not transactions). On SQLite the transaction is ``BEGIN IMMEDIATE``: the write lock up front,
so ``busy_timeout`` applies.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from storage.engine import Connection


@asynccontextmanager
async def immediate(connection: Connection, lock: asyncio.Lock) -> AsyncIterator[None]:
    """Run the body in one write transaction: commit on success, roll back on any exception."""
    async with lock:
        try:
            # BEGIN and COMMIT sit inside the try: a BEGIN queued before a cancellation still
            # runs on the worker thread, and a failed COMMIT leaves the transaction open; both
            # must be rolled back before the lock passes to the next writer.
            await connection.begin()
            yield
            await connection.commit()
        except BaseException:
            # Shielded so a second cancellation cannot leave the connection inside a
            # transaction that the next writer would then join.
            await asyncio.shield(connection.rollback())
            raise
