"""What the presenter keeps: the outbox of posts not yet sent, and the book of the bot's own
messages (a game's lobby, table and hand messages; the newest board messages of a chat).

Posts are written by ``Games.save_game`` in the move's own transaction (``add``), so a post
reaches the chat even across a crash; the presenter sends them in order and removes each once
sent. ``board_messages`` (migration 007) keeps the newest ``BOARD_MESSAGES_KEPT`` board
messages per chat and kind, so a board's button edits only such a message.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from kozelbot.core.records import MessageRef, OutboxItem
from storage.core import Database, Transaction
from storage.values import INT64_MAX, fits, to_json

BOARD_MESSAGES_KEPT = 50
"""Board messages remembered per chat and kind; the buttons of older ones are refused."""


class Posts:
    """The outbox and the presenter's message book."""

    def __init__(self, database: Database) -> None:
        """Keep posts and messages through the shared connection."""
        self._db = database

    # -- the outbox ------------------------------------------------------------------------

    async def add(
        self, tx: Transaction, game_id: int, items: Sequence[OutboxItem], now: float
    ) -> None:
        """Queue a game's posts (inside the write of the move that caused them)."""
        await tx.executemany(
            "INSERT INTO outbox (chat_id, thread_id, game_id, kind, payload, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (o.chat_id, o.thread_id or 0, game_id, o.kind, to_json(o.payload), now)
                for o in items
            ],
        )

    async def pending_posts(
        self, chat_id: int, limit: int = 10, thread_id: int | None = None
    ) -> list[OutboxItem]:
        """The posts of a chat (of one forum topic of it) not yet sent, oldest first."""
        if not fits(chat_id, limit, thread_id or 0):
            return []
        rows = await self._db.fetchdicts(
            "SELECT id, chat_id, thread_id, game_id, kind, payload FROM outbox"
            " WHERE chat_id = ? AND thread_id = ? ORDER BY id LIMIT ?",
            (chat_id, thread_id or 0, limit),
        )
        for row in rows:
            row["thread_id"] = row["thread_id"] or None
            row["payload"] = json.loads(row["payload"])
        return [OutboxItem.model_validate(row) for row in rows]

    async def chats_with_posts(self) -> list[tuple[int, int | None]]:
        """Chats (and forum topics) that have posts waiting (to send them after a restart)."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT chat_id, thread_id FROM outbox ORDER BY chat_id, thread_id"
        )
        return [(int(r["chat_id"]), int(r["thread_id"]) or None) for r in rows]

    async def outbox_census(self) -> tuple[int, float | None]:
        """How many posts are owed to chats, and when the oldest was queued (``None``:
        none is)."""
        row = await self._db.fetchone("SELECT COUNT(*), MIN(created_at) FROM outbox")
        if row is None:
            return 0, None
        return int(row[0]), None if row[1] is None else float(row[1])

    async def post_done(self, post_id: int) -> None:
        """A post was sent (or can never be): remove it from the outbox."""
        async with self._db.write() as tx:
            await tx.execute("DELETE FROM outbox WHERE id = ?", (post_id,))

    # -- a game's messages -----------------------------------------------------------------

    async def game_messages(self, game_id: int) -> list[MessageRef]:
        """The bot's messages of a game."""
        if not fits(game_id):
            return []
        rows = await self._db.fetchdicts(
            "SELECT game_id, kind, seat, chat_id, deal_no, message_id FROM messages"
            " WHERE game_id = ?",
            (game_id,),
        )
        return [MessageRef.model_validate(row) for row in rows]

    async def set_message(self, ref: MessageRef) -> None:
        """Remember one of the bot's messages of a game (replacing the one of that slot)."""
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO messages (game_id, kind, seat, chat_id, deal_no, message_id,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind, seat) DO UPDATE SET chat_id = excluded.chat_id,"
                " deal_no = excluded.deal_no, message_id = excluded.message_id,"
                " updated_at = excluded.updated_at",
                (ref.game_id, ref.kind, ref.seat, ref.chat_id, ref.deal_no, ref.message_id, now),
            )

    async def forget_message(self, game_id: int, kind: str, seat: int = -1) -> None:
        """Forget the message of a slot (a new one will be sent)."""
        async with self._db.write() as tx:
            await tx.execute(
                "DELETE FROM messages WHERE game_id = ? AND kind = ? AND seat = ?",
                (game_id, kind, seat),
            )

    async def move_chat(self, tx: Transaction, old_chat_id: int, new_chat_id: int) -> None:
        """A group got a new id (``Games.migrate_chat``, same transaction): its lobby and
        table messages stay in the old chat and are forgotten (new ones are sent in the new
        one); its posts not yet sent go to the new chat."""
        await tx.execute(
            "DELETE FROM messages WHERE chat_id = ? AND kind IN ('lobby', 'table')",
            (old_chat_id,),
        )
        await tx.execute(
            "UPDATE outbox SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
        )

    # -- the bot's board messages ------------------------------------------------------------

    async def remember_board_message(self, chat_id: int, message_id: int, kind: str) -> None:
        """Note that the bot sent ``message_id`` in ``chat_id`` as a ``kind`` board (e.g.
        ``"history"``); only the newest ``BOARD_MESSAGES_KEPT`` of a chat and kind are kept."""
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO board_messages (chat_id, message_id, kind, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat_id, message_id) DO UPDATE SET"
                " kind = excluded.kind, created_at = excluded.created_at",
                (chat_id, message_id, kind, now),
            )
            await tx.execute(
                "DELETE FROM board_messages WHERE chat_id = ? AND kind = ? AND message_id IN"
                " (SELECT message_id FROM board_messages WHERE chat_id = ? AND kind = ?"
                "  ORDER BY created_at DESC, message_id DESC LIMIT ? OFFSET ?)",
                (chat_id, kind, chat_id, kind, INT64_MAX, BOARD_MESSAGES_KEPT),
            )

    async def is_board_message(self, chat_id: int, message_id: int, kind: str) -> bool:
        """Whether the bot sent ``message_id`` in ``chat_id`` as a ``kind`` board (one of the
        newest it remembers)."""
        if not fits(chat_id, message_id):
            return False
        row = await self._db.fetchone(
            "SELECT 1 FROM board_messages WHERE chat_id = ? AND message_id = ? AND kind = ?",
            (chat_id, message_id, kind),
        )
        return row is not None
