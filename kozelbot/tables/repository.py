"""What the services need from storage: the game service's ``Repository``
(``storage.games.Games``), the tournament director's ``TournamentRepository``
(``storage.tournaments.Tournaments``) and ``NoticeRepository`` (``storage.notices.Notices``,
/notify), with the errors a tournament repository raises.

**Decision**: the two tournament errors live here, beside the protocol whose methods raise
them, so the director catches them without importing storage (as the game service catches
``kozelbot.core.table.GameAlreadyRunning``); ``kozelbot.core.tournament.model`` stays pure data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kozelbot.core.records import DealRecord, MatchResult, MoveRecord, OutboxItem
from kozelbot.core.table import Table
from kozelbot.core.tournament.model import Tournament


class TournamentAlreadyRunning(Exception):
    """The group already has a tournament in registration or running (storage refuses a
    second one); nothing was written."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} already has a live tournament")
        self.chat_id = chat_id


class StaleTournament(Exception):
    """A save based on an old version of the tournament; nothing was written.

    **Decision**: not ``kozelbot.core.table.StaleVersion``, which names a game: code that retries
    a game on ``StaleVersion`` must not take a tournament's conflict for its own.
    """

    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"tournament {tournament_id} changed meanwhile")
        self.tournament_id = tournament_id


class Repository(Protocol):
    """What the service needs from storage."""

    async def create_game(self, table: Table) -> Table: ...
    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None: ...
    async def live_seat(self, user_id: int) -> Table | None: ...
    async def game(self, game_id: int) -> Table | None: ...
    async def live_games(self) -> list[Table]: ...
    async def live_games_in(self, chat_id: int) -> list[Table]: ...
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None: ...
    async def save_game(
        self,
        table: Table,
        *,
        moves: Sequence[MoveRecord] = (),
        deals: Sequence[DealRecord] = (),
        result: MatchResult | None = None,
        abandoned: Sequence[int] = (),
        outbox: Sequence[OutboxItem] = (),
    ) -> None: ...


class TournamentRepository(Protocol):
    """What the tournament director needs from storage.

    ``create_tournament`` raises ``TournamentAlreadyRunning``; ``save_tournament`` takes the
    stored version plus one, else ``StaleTournament``. A table's match is opened through
    ``Repository.create_game`` with ``Table.tournament`` set (``TableAlreadyOpen`` names the
    match a table already has); ``game_of_table`` finds it again.
    """

    async def create_tournament(self, tournament: Tournament) -> Tournament: ...
    async def save_tournament(self, tournament: Tournament) -> None: ...
    async def tournament(self, tournament_id: int) -> Tournament | None: ...
    async def live_tournament(self, chat_id: int) -> Tournament | None: ...
    async def live_tournaments(self) -> list[Tournament]: ...
    async def tournaments_in(
        self, chat_id: int, limit: int = 10, before_id: int | None = None
    ) -> list[Tournament]: ...
    async def game_of_table(
        self, tournament_id: int, round_no: int, table_no: int
    ) -> int | None: ...
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None: ...


class NoticeRepository(Protocol):
    """Who asked (/notify in a group) for a private message when a table or tournament opens
    there."""

    async def toggle(self, chat_id: int, user_id: int) -> bool: ...
    async def subscribed(self, chat_id: int, user_id: int) -> bool: ...
    async def subscribers(self, chat_id: int) -> list[int]: ...
    async def forget_chat(self, chat_id: int) -> None: ...
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None: ...
