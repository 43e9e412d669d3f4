"""Notices: who asked (/notify in a group) for a private message when a new table or
tournament opens in that group — ``kozelbot.tables.repository.NoticeRepository``.

One row per group and person (migration 010); /notify again takes the row away.
"""

from __future__ import annotations

from storage.core import Database, Transaction
from storage.values import fits


class Notices:
    """The people of each group who want to hear of its new tables and tournaments."""

    def __init__(self, database: Database) -> None:
        """Keep subscriptions through the shared connection."""
        self._db = database

    # -- writes ----------------------------------------------------------------------------

    async def toggle(self, chat_id: int, user_id: int) -> bool:
        """Subscribe a person to a group's notices, or unsubscribe them if they were; return
        the new state (``True``: subscribed). One write transaction, so two presses at once
        end where they started, never with a doubled row or a lost one."""
        async with self._db.write() as tx:
            cursor = await tx.execute(
                "DELETE FROM notices WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)
            )
            if cursor.rowcount:
                return False
            await tx.execute(
                "INSERT INTO notices (chat_id, user_id) VALUES (?, ?)", (chat_id, user_id)
            )
        return True

    async def forget_chat(self, chat_id: int) -> None:
        """The bot left the group (or was removed): nobody hears of it any more."""
        async with self._db.write() as tx:
            await tx.execute("DELETE FROM notices WHERE chat_id = ?", (chat_id,))

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup with a new id: its subscribers follow it (see
        ``move_chat``). Running it again changes nothing."""
        async with self._db.write() as tx:
            await self.move_chat(tx, old_chat_id, new_chat_id)

    async def move_chat(self, tx: Transaction, old_chat_id: int, new_chat_id: int) -> None:
        """Move a group's subscribers to its new id inside a write (``Games.migrate_chat``'s,
        to move everything of a group at once); someone subscribed under both ids stays
        subscribed once."""
        await tx.execute(
            "UPDATE notices SET chat_id = ? WHERE chat_id = ? AND user_id NOT IN"
            " (SELECT user_id FROM notices WHERE chat_id = ?)",
            (new_chat_id, old_chat_id, new_chat_id),
        )
        await tx.execute("DELETE FROM notices WHERE chat_id = ?", (old_chat_id,))

    # -- reads -----------------------------------------------------------------------------

    async def subscribed(self, chat_id: int, user_id: int) -> bool:
        """Whether a person hears of the group's new tables and tournaments."""
        if not fits(chat_id, user_id):
            return False
        row = await self._db.fetchone(
            "SELECT 1 FROM notices WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)
        )
        return row is not None

    async def subscribers(self, chat_id: int) -> list[int]:
        """Everyone who hears of the group's new tables and tournaments, by user id."""
        if not fits(chat_id):
            return []
        rows = await self._db.fetchall(
            "SELECT user_id FROM notices WHERE chat_id = ? ORDER BY user_id", (chat_id,)
        )
        return [int(row["user_id"]) for row in rows]
