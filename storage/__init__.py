"""Persistence for KozelBot: one SQLite database, opened as ``Storage`` (``storage.db``), with
its parts over the one connection as attributes: ``games``, ``people``, ``posts``, ``boards``,
``tournaments`` and ``notices``.

Imports only ``kozelbot`` models, records and repository protocols (never ``telegram`` or
``handlers``).
"""

from storage.db import Storage
from storage.errors import (
    GameAlreadyRunning,
    SchemaTooNew,
    SeatTaken,
    StaleTournament,
    StaleVersion,
    StorageError,
    TableAlreadyOpen,
    TournamentAlreadyRunning,
)

__all__ = [
    "GameAlreadyRunning",
    "SchemaTooNew",
    "SeatTaken",
    "StaleTournament",
    "StaleVersion",
    "Storage",
    "StorageError",
    "TableAlreadyOpen",
    "TournamentAlreadyRunning",
]
