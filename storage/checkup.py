"""``kozelbot doctor``'s look at the database: can this user use it, and is its schema one this
release runs (``storage.migrate``: the numbers applied are the rows of ``schema_migrations``;
the bot applies the missing ones at start and refuses a schema newer than the code).

It changes nothing: a SQLite file is opened read-only (``mode=ro``; a missing one is not
created), a PostgreSQL database is only queried (no advisory lock, no migration). What
SQLite needs beyond the file: its folder writable, since it keeps the ``-wal`` and ``-shm``
files beside the database (``storage.sqlite``: WAL). The file should be private
(``storage.files``: mode 0600; the bot tightens a looser one when it opens it, so that is a
warning, not a failure). Access is checked for the user running the doctor, which the
advice names; run as root (who may use any file), a line that did not fail says so.

The answer is a list of notes, ``(severity, text)`` with severity ``"ok"``, ``"warn"`` or
``"fail"`` and a text that says what to do: plain values, so that the doctor's handlers
(which never reach storage themselves) get it from the composition root as a function.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from storage.engine import Dialect
from storage.errors import DatabaseUnavailable
from storage.files import OTHERS, is_file_database
from storage.migrate import load_migrations
from storage.postgres import PostgresConnection, is_database_url, redact

Severity = Literal["ok", "warn", "fail"]
Note = tuple[Severity, str]
"""One thing the check noticed, and what to do about it."""


@dataclass(frozen=True, slots=True)
class Schema:
    """What a database's ``schema_migrations`` says: ``applied`` None if it has none."""

    applied: frozenset[int] | None
    other_tables: bool = False
    """The database holds tables, but not the bot's ledger (another program's database?)."""


async def check_database(database: str) -> list[Note]:
    """The database (a SQLite file, or a ``postgresql://`` URL): reachable and usable by this
    user, and its schema one this release runs."""
    if is_database_url(database):
        return [await check_postgres(database)]
    notes = await asyncio.to_thread(check_sqlite, database)
    if os.geteuid() == 0 and all(severity != "fail" for severity, _ in notes):
        notes.append(("ok", "as root: run as the bot's user to check its access"))
    return notes


def check_sqlite(path_text: str) -> list[Note]:
    """A SQLite file: missing (fine if its folder is writable), not this user's to read and
    write, its folder closed, readable by others, not a database, or its schema."""
    if not is_file_database(path_text):
        return [("warn", f"{path_text}: kept in memory, lost at exit")]
    path = Path(os.path.abspath(path_text))
    user = _user()
    folder = path.parent
    if not folder.is_dir():
        return [
            (
                "fail",
                f"folder {folder} (of KOZEL_DB_PATH) does not exist — create it for the bot's "
                "user, or set KOZEL_DB_PATH",
            )
        ]
    folder_open = os.access(folder, os.W_OK | os.X_OK)
    if not path.exists():
        if not folder_open:
            return [
                (
                    "fail",
                    f"{path} does not exist and {user} cannot create it: folder {folder} is "
                    f"not writable — chown {user} {folder}, or set KOZEL_DB_PATH",
                )
            ]
        return [("ok", f"{path} does not exist yet; the bot creates it at start")]
    if not path.is_file():
        return [("fail", f"{path} is not a file — set KOZEL_DB_PATH")]
    if not os.access(path, os.R_OK | os.W_OK):
        return [
            (
                "fail",
                f"{path} is not readable and writable by {user} — chown {user} {path} (or "
                "run as the bot's user)",
            )
        ]
    notes: list[Note] = []
    if not folder_open:
        notes.append(
            (
                "fail",
                f"folder {folder} is not writable by {user}, and SQLite keeps its -wal and "
                f"-shm files there — chown {user} {folder}",
            )
        )
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & OTHERS:
        notes.append(
            (
                "warn",
                f"mode {mode:04o} lets others read every hand — chmod 600 {path} (the bot "
                "does at start)",
            )
        )
    try:
        schema = read_sqlite_schema(path)
    except sqlite3.Error as error:
        if not folder_open:  # a WAL database cannot be read without its -shm beside it
            return notes
        text = " ".join(str(error).split())
        return [
            (
                "fail",
                f"{path} cannot be read as a SQLite database ({text}) — point KOZEL_DB_PATH "
                "at the bot's database",
            )
        ]
    size = f"SQLite, {path.stat().st_size / 1e6:.1f} MB"
    return [*notes, schema_note(str(path), schema, "sqlite", size)]


def read_sqlite_schema(path: Path) -> Schema:
    """``schema_migrations`` of the file, read through a read-only connection."""
    # A bot writing meanwhile does not block a reader (WAL); the timeout covers a file
    # still in rollback-journal mode.
    connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5.0)
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if "schema_migrations" not in tables:
            return Schema(None, other_tables=bool(tables))
        rows = connection.execute("SELECT version FROM schema_migrations").fetchall()
        return Schema(frozenset(int(row[0]) for row in rows))
    finally:
        connection.close()


async def check_postgres(url: str) -> Note:
    """A PostgreSQL database: the server reachable, the login accepted, the schema; with
    migrations to apply, whether this login may create tables (PostgreSQL 15 no longer lets
    every user create them in ``public``)."""
    try:
        connection = await PostgresConnection.open(url, patience=0)
    except DatabaseUnavailable as error:
        return ("fail", f"{error} — check KOZEL_DATABASE_URL and the server")
    try:
        found = await connection.fetchall("SELECT to_regclass('schema_migrations') IS NOT NULL")
        if found[0][0]:
            rows = await connection.fetchall("SELECT version FROM schema_migrations")
            schema = Schema(frozenset(int(row[0]) for row in rows))
        else:
            count = await connection.fetchall(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
            )
            schema = Schema(None, other_tables=bool(count[0][0]))
        privilege = await connection.fetchall(
            "SELECT current_user, current_schema(), "
            "coalesce(has_schema_privilege(current_schema(), 'CREATE'), false)"
        )
    finally:
        await connection.close()
    note = schema_note(redact(url), schema, "postgresql", "PostgreSQL")
    user, namespace, may_create = privilege[0]
    if note[0] != "fail" and _pending(schema, "postgresql") and not may_create:
        return (
            "fail",
            f"{user} may not create tables in schema {namespace}, and the schema needs "
            f"migrations — as the database's owner: GRANT CREATE ON SCHEMA {namespace} TO {user}",
        )
    return note


def schema_note(label: str, schema: Schema, dialect: Dialect, engine: str) -> Note:
    """What the schema of the database ``label`` means for this release: current,
    migrations pending (applied at start: back up first), newer than the code (fail), or
    another program's tables."""
    known = [m.version for m in load_migrations(dialect)]
    newest_known = max(known)
    if schema.applied is None:
        if schema.other_tables:
            setting = "KOZEL_DATABASE_URL" if dialect == "postgresql" else "KOZEL_DB_PATH"
            return (
                "fail",
                f"{label} holds tables, but not the bot's (no schema_migrations) — is "
                f"{setting} the bot's database?",
            )
        return ("ok", f"{label} is empty; the bot makes its tables at start")
    newest = max(schema.applied, default=0)
    if newest > newest_known:
        return (
            "fail",
            f"{label}: schema {newest:03d} is newer than this release ({newest_known:03d}) — "
            "run the newer release, or restore a backup",
        )
    pending = [v for v in known if v not in schema.applied]
    if pending:
        numbers = ", ".join(f"{v:03d}" for v in pending[:-1])
        numbers = f"{numbers} and {pending[-1]:03d}" if numbers else f"{pending[-1]:03d}"
        backup = "pg_dump" if dialect == "postgresql" else "kozelbot backup FILE"
        return (
            "warn",
            f"{label}: schema {newest:03d}; {numbers} pending, applied at start — back it "
            f"up first: {backup}",
        )
    return ("ok", f"{label} ({engine}), schema {newest:03d}, current")


def _pending(schema: Schema, dialect: Dialect) -> bool:
    known = {m.version for m in load_migrations(dialect)}
    return schema.applied is None or not known <= schema.applied


def _user() -> str:
    """Who runs the doctor (the effective user, whatever ``$USER`` says under sudo)."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"
