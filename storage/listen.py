"""The games other processes commit, heard through PostgreSQL's LISTEN/NOTIFY (issue #32).

``Games.save_game`` notifies the game's id on ``kozel_games`` inside its transaction, so a
notification arrives at COMMIT and never for a save that rolled back. ``GameChanges`` keeps a
connection of its own listening (a listening connection cannot share the one every write
uses), hands each id to its callback unless it came from this process's own connection, and
connects again after a lost connection: ids notified meanwhile are lost, so it then reports
``None`` (read everything again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import psycopg

from storage.games import CHANGES
from storage.postgres import PostgresConnection, redact

log = logging.getLogger(__name__)

RETRY = 1.0
"""Seconds between attempts to connect again."""


class GameChanges:
    """Games committed by other connections to a PostgreSQL database."""

    def __init__(self, connection: PostgresConnection) -> None:
        """Listen on the database of ``connection`` (the process's own: its notifications
        are not reported)."""
        self.own = connection
        self.url = connection.url

    async def run(self, changed: Callable[[int | None], Awaitable[None]]) -> None:
        """Report each game another process committed (``None``: some may have been missed)
        until cancelled."""
        missed = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANGES}")
                    if missed:
                        await changed(None)
                    missed = True
                    async for notice in connection.notifies():
                        if notice.pid == self.own.raw.info.backend_pid:
                            continue
                        try:
                            game_id = int(notice.payload)
                        except ValueError:
                            continue
                        await changed(game_id)
            except psycopg.Error as error:
                log.warning("listening on %s: %s; again in %.0f s", redact(self.url), error, RETRY)
                await asyncio.sleep(RETRY)
