"""Errors that storage raises for rule-level conflicts a caller is expected to handle.

``GameAlreadyRunning`` and ``StaleVersion`` are the domain's own exceptions
(``kozelbot.table``), so the game service can catch them without importing storage.
"""

from __future__ import annotations

from kozelbot.table import GameAlreadyRunning, SeatTaken, StaleVersion


class StorageError(Exception):
    """Base class of the errors raised by ``storage`` itself."""


class SchemaTooNew(StorageError):
    """The database was migrated by a newer release than this one."""


__all__ = ["GameAlreadyRunning", "SchemaTooNew", "SeatTaken", "StaleVersion", "StorageError"]
