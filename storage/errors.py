"""Errors that storage raises for rule-level conflicts a caller is expected to handle.

``GameAlreadyRunning``, ``SeatTaken``, ``StaleVersion`` and ``TableAlreadyOpen`` are the
domain's own exceptions (``kozelbot.core.table``), and ``TournamentAlreadyRunning`` and
``StaleTournament`` the tournament repository's (``kozelbot.tables.repository``), so the services
can catch them without importing storage.
"""

from __future__ import annotations

from kozelbot.core.table import GameAlreadyRunning, SeatTaken, StaleVersion, TableAlreadyOpen
from kozelbot.tables.repository import StaleTournament, TournamentAlreadyRunning


class StorageError(Exception):
    """Base class of the errors raised by ``storage`` itself."""


class SchemaTooNew(StorageError):
    """The database was migrated by a newer release than this one."""


class DatabaseUnavailable(StorageError):
    """The database server cannot be reached, refused our login, or went away and did not
    come back in time; the message is one line an operator can act on."""


class DatabaseInUse(StorageError):
    """Another bot process holds the database (PostgreSQL's advisory lock): the bot is one
    process per database."""


class Refused(StorageError):
    """The schema refused a write: a key, a reference or a check (an integrity error of
    either engine); the whole transaction is undone."""


class Duplicate(Refused):
    """A unique key refused a row. ``key`` names it the same way on every engine: the table
    and its columns, ``"games.chat_id, games.thread_id"`` (SQLite's words)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


__all__ = [
    "DatabaseInUse",
    "DatabaseUnavailable",
    "Duplicate",
    "GameAlreadyRunning",
    "Refused",
    "SchemaTooNew",
    "SeatTaken",
    "StaleTournament",
    "StaleVersion",
    "StorageError",
    "TableAlreadyOpen",
    "TournamentAlreadyRunning",
]
