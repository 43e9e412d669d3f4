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


__all__ = [
    "GameAlreadyRunning",
    "SchemaTooNew",
    "SeatTaken",
    "StaleTournament",
    "StaleVersion",
    "StorageError",
    "TableAlreadyOpen",
    "TournamentAlreadyRunning",
]
