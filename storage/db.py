"""``Storage``: the bot's database, opened, migrated, backed up and closed, with its parts
over the one connection — ``games``, ``people``, ``posts``, ``boards``, ``tournaments`` and
``notices``.

The engine is SQLite (a file; the default) or PostgreSQL (a ``postgresql://`` URL), each
behind ``storage.engine.Connection`` (``storage.sqlite``, ``storage.postgres``). One
connection, shared by every part through ``storage.core.Database``: every write is one
transaction under an ``asyncio.Lock``; reads take the same lock so they never run inside
somebody else's write transaction. Nothing here awaits anything but the database.

On SQLite: one aiosqlite connection (WAL, ``synchronous=FULL``, foreign keys, a 5 s busy
timeout), every write a ``BEGIN IMMEDIATE`` transaction.

Durability: a write method returns once its transaction committed, and with
``synchronous=FULL`` SQLite commits in WAL mode by appending the transaction to the ``-wal``
file and ``fsync``-ing it before COMMIT returns. So every write that returned — an accepted
move, its deal, its result and its posts, all in one transaction — survives a kill of the
process (kill -9, a crash: the OS already holds the file) and a power cut or OS crash too
(the data is on the disk, as far as the disk honours ``fsync``). A transaction still running
at that moment is rolled back as a whole at the next open; no write is ever half there.
(``synchronous=NORMAL`` would keep the first promise only: a power cut could lose the last
transactions committed before the last checkpoint.)

The database file, its ``-wal`` and ``-shm`` files and every backup are readable by the bot's
user only (mode 0600, ``storage.files``). On PostgreSQL a transaction is durable once COMMIT
returns (``synchronous_commit`` on, the server's default), and who may read the data is the
server's to say; backups are ``pg_dump``'s.

Ids come from Telegram and from forged input, and may not fit a 64-bit integer: a read of
such an id finds nothing, a write of one raises ``ValueError`` and writes nothing.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from types import TracebackType
from typing import Self

from kozelbot.core.metrics import OFF, Meter
from storage.backup import TemporaryCopy, same_file
from storage.boards import Boards
from storage.core import Clock, Database
from storage.engine import Connection
from storage.errors import (
    DatabaseInUse,
    DatabaseUnavailable,
    SchemaTooNew,
    StorageError,
)
from storage.games import Games
from storage.inbox import Inbox
from storage.migrate import apply_migrations
from storage.notices import Notices
from storage.people import People
from storage.places import Places
from storage.postgres import PostgresConnection, is_database_url, redact
from storage.posts import Posts
from storage.sqlite import SqliteConnection
from storage.tournaments import Tournaments


class Storage:
    """The bot's database: ``games`` (the game service's repository: tables, moves, deals,
    results), ``people`` (users, chats, languages, chat settings), ``posts`` (the outbox and
    the bot's message book), ``boards`` (leaderboards, stats, history, ratings),
    ``tournaments`` (the tournament director's repository), ``notices`` (/notify),
    ``inbox`` (updates received and not yet handled) and ``places`` (the leases of many
    workers on one database)."""

    def __init__(
        self, connection: Connection, clock: Clock = time.time, meter: Meter = OFF
    ) -> None:
        """Wrap an open connection; use ``Storage.open`` instead."""
        self.database = Database(connection, clock, meter)
        """The shared connection, its lock and clock."""
        self.people = People(self.database)
        self.posts = Posts(self.database)
        self.boards = Boards(self.database)
        self.tournaments = Tournaments(self.database)
        self.notices = Notices(self.database)
        self.inbox = Inbox(self.database)
        self.places = Places(self.database)
        self.games = Games(
            self.database,
            people=self.people,
            posts=self.posts,
            followers=(self.tournaments, self.notices),
        )
        self._closed = False

    # -- lifecycle -------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        clock: Clock = time.time,
        exclusive: bool = False,
        meter: Meter = OFF,
    ) -> Self:
        """Open and migrate the database at ``target``: a PostgreSQL URL
        (``postgresql://…``), or a SQLite file (created mode 0600 if needed; ``":memory:"``
        ok). ``exclusive``: the running bot's own connection, refused (``DatabaseInUse``)
        on a PostgreSQL database another bot holds. ``meter`` hears every write
        transaction's time and every attempt to reach the database again."""
        db: Connection
        if isinstance(target, str) and is_database_url(target):
            db = await PostgresConnection.open(target, exclusive=exclusive)
            db.meter = meter
        else:
            db = await SqliteConnection.open(target)
        try:
            storage = cls(db, clock, meter)
            await apply_migrations(db, storage.database.lock, clock)
        except BaseException:
            await db.close()
            raise
        return storage

    async def close(self) -> None:
        """Close the connection (its worker thread would otherwise keep the process alive)."""
        if self._closed:
            return
        self._closed = True
        async with self.database.lock:
            await self.database.connection.close()

    async def __aenter__(self) -> Self:
        """Use as ``async with await Storage.open(path) as storage``."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close on leaving the block."""
        await self.close()

    async def backup(self, target: str | Path) -> None:
        """Copy the database to ``target`` while the bot runs (no write of ours half done).

        The copy is written beside ``target``, checked and renamed over it only when whole.
        """
        connection = self.database.connection
        if not isinstance(connection, SqliteConnection):
            raise StorageError(
                "backups of a PostgreSQL database are PostgreSQL's own: use pg_dump (README)"
            )
        target = Path(target)
        rows = await self.database.fetchall("PRAGMA database_list")
        own = next((row["file"] for row in rows if row["name"] == "main"), "")
        if own and same_file(Path(own), target):
            raise ValueError(f"the backup would replace the database itself: {target}")
        with TemporaryCopy(target) as copy:
            work = asyncio.ensure_future(self._copy_into(connection, copy))
            try:
                await asyncio.shield(work)
            except asyncio.CancelledError:
                # The copy is being written on other threads: let them end before it is
                # discarded (or, if it got that far, installed).
                await asyncio.wait([work])
                raise

    async def _copy_into(self, connection: SqliteConnection, copy: TemporaryCopy) -> None:
        async with self.database.lock:
            await connection.raw.backup(copy.connection)
        await asyncio.to_thread(copy.install)


async def open_problem(database: str, *, exclusive: bool = True) -> str | None:
    """Open (and migrate) the database once before the bot starts: what is wrong with it in
    one line an operator can act on (unreachable, refused login, a schema newer than this
    release), or ``None``."""
    try:
        opened = await Storage.open(database, exclusive=exclusive)
    except SchemaTooNew as error:
        return f"database: {error} (run the newer release, or restore a backup)"
    except DatabaseUnavailable as error:
        return f"database: {error} (check KOZEL_DATABASE_URL and the server)"
    except DatabaseInUse as error:
        return f"database: {error}"
    except (StorageError, OSError, sqlite3.Error) as error:
        setting = "KOZEL_DATABASE_URL" if is_database_url(database) else "KOZEL_DB_PATH"
        return f"database {redact(database)}: {error} (check {setting})"
    await opened.close()
    return None
