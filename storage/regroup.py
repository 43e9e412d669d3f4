"""A group that became a supergroup gets a new id from Telegram: its games follow it, inside
``Games.migrate_chat``'s one write (with the people, posts, results, boards, tournaments and
notices that ``ChatFollower`` parts move).

A game is moved as its whole document, its version bumped, so a button of the old id is
stale. If the new id already has a live game (someone started one there first), the old
id's live game cannot follow as live: it is stopped.
"""

from __future__ import annotations

from typing import Any, Protocol

from kozelbot.core.table import Table, TableStatus
from storage.core import Transaction

_LIVE_STATUSES = "('lobby', 'playing')"


class ChatFollower(Protocol):
    """A part of storage whose rows move with a group that gets a new id."""

    async def move_chat(self, tx: Transaction, old_chat_id: int, new_chat_id: int) -> None: ...


async def move_games(tx: Transaction, old_chat_id: int, new_chat_id: int, now: float) -> None:
    """Every game of ``old_chat_id`` to ``new_chat_id`` (inside a write); the seats of a game
    stopped here are free again."""
    taken = await tx.fetchone(
        f"SELECT 1 FROM games WHERE chat_id = ? AND status IN {_LIVE_STATUSES}", (new_chat_id,)
    )
    moving = await tx.fetchall(
        "SELECT data FROM games WHERE chat_id = ? ORDER BY game_id", (old_chat_id,)
    )
    for row in moving:
        await _move_game(tx, Table.from_json(row["data"]), new_chat_id, taken is not None, now)
    await tx.execute(
        "DELETE FROM live_seats WHERE game_id IN (SELECT game_id FROM games"
        f" WHERE chat_id = ? AND status NOT IN {_LIVE_STATUSES})",
        (new_chat_id,),
    )


async def _move_game(
    tx: Transaction, table: Table, new_chat_id: int, stop_live: bool, now: float
) -> None:
    """One game of a group that got a new id: it follows the group, its version bumped; a
    live one is stopped if ``stop_live`` (the new id has a live game already)."""
    update: dict[str, Any] = {"chat_id": new_chat_id, "version": table.version + 1}
    if stop_live and table.status.live:
        update |= {"status": TableStatus.STOPPED, "deadline": None}
    moved = table.model_copy(update=update)
    await tx.execute(
        "UPDATE games SET chat_id = ?, status = ?, version = ?, deadline = ?, updated_at = ?,"
        " data = ? WHERE game_id = ?",
        (
            new_chat_id,
            moved.status.value,
            moved.version,
            moved.deadline,
            now,
            moved.to_json(),
            moved.game_id,
        ),
    )
