"""What the bot's edges read and write besides a table's moves, named by protocols.

The handlers and the Mini App hold one ``Queries`` (``BotData.queries``), never storage: the
people and chats (names, languages, settings, whether the private chat is open), the boards
and histories, the bot's own messages and the durable posts, a match's record (deals, moves,
result), the tournaments and /notify. Each part is a small protocol that storage's part of
the same name satisfies (``storage.people.People`` …); the composition root
(``kozelbot/app.py``) builds ``Queries`` from the opened storage.

**Decision**: parts by what they keep, like ``repository`` (the service's ``Repository``,
the director's ``TournamentRepository``), so storage stays the one implementation and a test
can hand in a fake; a question several handlers ask is a method here (``private_open``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from kozelbot.core.records import (
    BoardRow,
    ChatSettings,
    DealRecord,
    HistoryRow,
    MatchResult,
    MessageRef,
    MoveRecord,
    OutboxItem,
    RatingChange,
    UserRecord,
    VariantStats,
)
from kozelbot.core.table import Table
from kozelbot.tables.repository import NoticeRepository, TournamentRepository


class People(Protocol):
    """Who the bot knows: people (name, language, private chat open) and group chats
    (title, language, the table defaults of /settings)."""

    async def user(self, user_id: int) -> UserRecord | None: ...
    async def upsert_user(
        self, user_id: int, first_name: str, username: str | None, language_code: str | None
    ) -> None: ...
    async def set_private_open(self, user_id: int, is_open: bool) -> None: ...
    async def set_user_language(self, user_id: int, language: str | None) -> None: ...
    async def upsert_chat(self, chat_id: int, title: str | None) -> None: ...
    async def chat_language(self, chat_id: int) -> str | None: ...
    async def set_chat_language(self, chat_id: int, language: str | None) -> None: ...
    async def chat_settings(self, chat_id: int) -> ChatSettings | None: ...
    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None: ...


class Boards(Protocol):
    """The ratings' boards, a person's stats and a chat's finished matches."""

    async def board(
        self, variant: str, *, chat_id: int | None, limit: int = 10, min_matches: int = 5
    ) -> list[BoardRow]: ...
    async def player_stats(self, user_id: int, *, scope: str = "group") -> list[VariantStats]: ...
    async def history(self, chat_id: int, *, limit: int = 10) -> list[HistoryRow]: ...
    async def finished_matches(self, chat_id: int) -> int: ...
    async def match_summary(self, game_id: int) -> HistoryRow | None: ...
    async def rating_changes(self, game_id: int) -> list[RatingChange]: ...


class Posts(Protocol):
    """The bot's own messages of a game, its board messages (/history, /settings, a vote)
    and the durable posts waiting to be sent (written by the service with the move)."""

    async def game_messages(self, game_id: int) -> list[MessageRef]: ...
    async def set_message(self, ref: MessageRef) -> None: ...
    async def forget_message(self, game_id: int, kind: str, seat: int = -1) -> None: ...
    async def remember_board_message(self, chat_id: int, message_id: int, kind: str) -> None: ...
    async def is_board_message(self, chat_id: int, message_id: int, kind: str) -> bool: ...
    async def pending_posts(
        self, chat_id: int, limit: int = 10, thread_id: int | None = None
    ) -> list[OutboxItem]: ...
    async def chats_with_posts(self) -> list[tuple[int, int | None]]: ...
    async def post_done(self, post_id: int) -> None: ...
    async def outbox_census(self) -> tuple[int, float | None]: ...


class Records(Protocol):
    """A match as stored: its table, deals, moves and result, and a person's live seat."""

    async def game(self, game_id: int) -> Table | None: ...
    async def live_seat(self, user_id: int) -> Table | None: ...
    async def deals(self, game_id: int) -> list[DealRecord]: ...
    async def moves(self, game_id: int) -> list[MoveRecord]: ...
    async def match_result(self, game_id: int) -> MatchResult | None: ...


class UpdateInbox(Protocol):
    """Updates received and not yet handled (``storage.inbox``): kept before Telegram is
    told they arrived, so that a crash loses none."""

    async def keep(self, updates: Sequence[tuple[int, str]], handled: Sequence[int]) -> None: ...
    def handling(self, update_id: int) -> None: ...
    async def done(self, handled: Sequence[int]) -> None: ...
    async def waiting(self) -> list[tuple[int, str]]: ...


@dataclass(frozen=True)
class Queries:
    """Everything the handlers read and write outside the game service."""

    people: People
    boards: Boards
    posts: Posts
    records: Records
    tournaments: TournamentRepository
    notices: NoticeRepository
    inbox: UpdateInbox

    async def private_open(self, user_id: int) -> bool:
        """Whether the person has opened the bot's private chat (a /start seen, not
        blocked since): what the bot knows, no probe."""
        record = await self.people.user(user_id)
        return record is not None and record.private_open
