"""Durable group posts: what a deal's or a match's end must show, as outbox records.

The service writes them in the same transaction as the move that ended the deal
(``OutboxItem``); the presenter reads them back, renders them in the group's language when
their turn comes, and deletes each once sent. A payload carries the seats as they were, so a
post sent after a restart (or after someone left) names who actually played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.core.records import OutboxItem
from kozelbot.core.table import Player, Table

FINAL_TABLE = "final_table"
"""The last edit of a deal's table message: its outcome instead of whose turn it is."""
DEAL_RESULT = "deal_result"
MATCH_OVER = "match_over"

_DEAL = TypeAdapter(DealScored)
_MATCH = TypeAdapter(MatchOver)
_SEATS = TypeAdapter(list[Player | None])


def posts_for(table: Table, event: DealScored | MatchOver) -> list[OutboxItem]:
    """The posts an end-of-deal or end-of-match event owes the group."""
    seats = _SEATS.dump_python(table.seats, mode="json")
    if isinstance(event, DealScored):
        payload: dict[str, Any] = {"result": _DEAL.dump_python(event, mode="json"), "seats": seats}
        return [
            OutboxItem(
                chat_id=table.chat_id,
                thread_id=table.thread_id,
                game_id=table.game_id,
                kind=kind,
                payload=payload,
            )
            for kind in (FINAL_TABLE, DEAL_RESULT)
        ]
    payload = {"result": _MATCH.dump_python(event, mode="json"), "seats": seats}
    return [
        OutboxItem(
            chat_id=table.chat_id,
            thread_id=table.thread_id,
            game_id=table.game_id,
            kind=MATCH_OVER,
            payload=payload,
        )
    ]


@dataclass(frozen=True)
class Post:
    """An outbox record read back: the table as it was and the event to show."""

    item: OutboxItem
    table: Table
    event: DealScored | MatchOver


def read_post(item: OutboxItem, table: Table) -> Post:
    """Decode a record against its game's current table (seats as they were at the time)."""
    seats = _SEATS.validate_python(item.payload["seats"])
    then = table.model_copy(update={"seats": seats})
    result = item.payload["result"]
    event: DealScored | MatchOver
    if item.kind == MATCH_OVER:
        event = _MATCH.validate_python(result)
    else:
        event = _DEAL.validate_python(result)
    return Post(item, then, event)
