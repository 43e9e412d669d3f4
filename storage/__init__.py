"""Persistence for KozelBot: one SQLite database, opened as ``Storage`` (``storage.db``), with
its parts over the one connection as attributes: ``games``, ``people``, ``posts``, ``boards``.

Imports only the ``kozelbot`` records and table models (never ``telegram`` or ``handlers``).
"""

from storage.db import Storage
from storage.errors import (
    GameAlreadyRunning,
    SchemaTooNew,
    SeatTaken,
    StaleVersion,
    StorageError,
)

__all__ = [
    "GameAlreadyRunning",
    "SchemaTooNew",
    "SeatTaken",
    "StaleVersion",
    "Storage",
    "StorageError",
]
