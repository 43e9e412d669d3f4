"""Numbered SQL migrations: ``migrations/NNN_name.sql`` files applied once each, in order.

Each file runs in its own transaction together with its row in ``schema_migrations``, so a
failed migration leaves no trace and a half-applied schema is impossible. Files are read with
``importlib.resources`` so an installed package finds them.

Each engine has its own folder where the SQL differs: SQLite's are ``migrations/*.sql``,
PostgreSQL's ``migrations/postgresql/*.sql``. The numbers are shared: PostgreSQL starts at
``010_baseline.sql``, the schema SQLite reaches after its 001–010 (PostgreSQL came with
010), so a database of either engine at number N has the same tables, and a newer migration
gets a file of the same number in both folders.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources

from storage.engine import Connection, Dialect
from storage.errors import SchemaTooNew
from storage.transaction import immediate

_FILE_NAME = re.compile(r"^(\d{3})_(\w+)\.sql$")

_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: its number, its name and its SQL script."""

    version: int
    name: str
    sql: str


def load_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """All migrations shipped with the package for an engine, ordered by number."""
    folder = resources.files("storage").joinpath("migrations")
    if dialect == "postgresql":
        folder = folder.joinpath("postgresql")
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match is None:
            continue
        version = int(match.group(1))
        if version in found:
            raise ValueError(f"two migrations numbered {version:03d}")
        found[version] = Migration(version, match.group(2), entry.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def split_statements(script: str) -> Iterator[str]:
    """The complete SQL statements of a script (``executescript`` would commit our transaction)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            yield buffer.strip()
            buffer = ""
    leftover = "".join(
        line for line in buffer.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if leftover:
        raise ValueError(f"unterminated SQL statement: {leftover[:80]!r}")


_SERIALIZE_CREATE = {
    # Two processes starting at once on a new PostgreSQL database (an intake and its
    # workers): CREATE TABLE IF NOT EXISTS is not safe against itself there, so the second
    # waits for the first's transaction (an advisory lock of the transaction; SQLite's
    # BEGIN IMMEDIATE already serializes).
    "sqlite": None,
    "postgresql": "SELECT pg_advisory_xact_lock(7212341)",
}
_LOCK_LEDGER = {
    # Two processes starting at once: the second waits for the first's migration instead
    # of failing on a table it created meanwhile (SQLite's BEGIN IMMEDIATE already does).
    "sqlite": None,
    "postgresql": "LOCK TABLE schema_migrations IN EXCLUSIVE MODE",
}


async def apply_migrations(
    db: Connection,
    lock: asyncio.Lock,
    clock: Callable[[], float],
    migrations: list[Migration] | None = None,
) -> list[int]:
    """Apply the migrations not yet recorded; return the numbers applied now."""
    todo = load_migrations(db.dialect) if migrations is None else migrations
    async with immediate(db, lock):
        if (serialize := _SERIALIZE_CREATE[db.dialect]) is not None:
            await db.execute(serialize)
        await db.execute(_CREATE_LEDGER)
    applied_now: list[int] = []
    for migration in todo:
        async with immediate(db, lock):
            if (exclusive := _LOCK_LEDGER[db.dialect]) is not None:
                await db.execute(exclusive)
            # Checked inside the write transaction: another process may have just applied it.
            rows = await db.fetchall(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
            )
            if list(rows):
                continue
            for statement in split_statements(migration.sql):
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, clock()),
            )
            applied_now.append(migration.version)
    known = max((m.version for m in todo), default=0)
    async with lock:
        rows = await db.fetchall("SELECT MAX(version) FROM schema_migrations")
    newest = rows[0][0]
    if newest is not None and newest > known:
        raise SchemaTooNew(f"database schema {newest} is newer than this release ({known})")
    return applied_now
