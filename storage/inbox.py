"""The inbox: updates received and not yet handled (issue #32), so that none is lost.

``keep`` writes a batch of updates, in one transaction with the deletion of those handled
since the previous batch; ``waiting`` reads what is left (at a start, after a crash);
``done`` deletes handled updates when no new batch came to carry them.

A table's change settles the update that made it in its own transaction (``settle``, called
by ``Games.save_game``): ``handling`` names the update the running task handles, so a move
committed just before a crash is never handed over again — a press is played at most once
and, being kept until then, at least once.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar

from storage.core import Database, Transaction
from storage.values import fits

_handling: ContextVar[int | None] = ContextVar("inbox_update_handled", default=None)
"""The update the running task (and what it starts) handles, if it came through the inbox."""


async def settle(tx: Transaction) -> None:
    """Inside a table's write: the update being handled is handled once this commits."""
    update_id = _handling.get()
    if update_id is not None:
        await tx.execute("DELETE FROM inbox WHERE update_id = ?", (update_id,))


class Inbox:
    """The ``inbox`` table over the shared connection."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def keep(self, updates: Sequence[tuple[int, str]], handled: Sequence[int]) -> None:
        """Write ``updates`` (id, JSON) — an update kept already stays as it is (Telegram
        sends an unconfirmed update again) — and delete the ``handled`` ones, in one
        write."""
        now = self._db.clock()
        async with self._db.write() as tx:
            if handled:
                await tx.executemany(
                    "DELETE FROM inbox WHERE update_id = ?", [(i,) for i in handled if fits(i)]
                )
            if updates:
                await tx.executemany(
                    "INSERT INTO inbox (update_id, payload, received_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (update_id) DO NOTHING",
                    [(i, payload, now) for i, payload in updates],
                )

    def handling(self, update_id: int) -> None:
        """The running task handles ``update_id`` from now on (``settle``)."""
        _handling.set(update_id)

    async def done(self, handled: Sequence[int]) -> None:
        """Delete the ``handled`` updates."""
        await self.keep((), handled)

    async def waiting(self) -> list[tuple[int, str]]:
        """The updates kept and not handled, oldest first: (id, JSON)."""
        rows = await self._db.fetchall("SELECT update_id, payload FROM inbox ORDER BY update_id")
        return [(int(row[0]), str(row[1])) for row in rows]
