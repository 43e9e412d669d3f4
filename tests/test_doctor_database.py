"""``kozelbot doctor``'s database check (``storage.checkup``), each fault planted for real: a
database that is missing (fine, and not created), readable by others, in a folder that does
not exist, not a database, migrated by a newer release, behind on migrations (and left so),
on a PostgreSQL server nobody answers, with a wrong password, or whose login may not create
the tables. (A folder or file this user cannot write: ``tests/test_doctor.py``, through the
command.)"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3
import stat
from pathlib import Path

import psycopg

from storage import Storage
from storage.checkup import check_database
from storage.migrate import apply_migrations, load_migrations
from storage.sqlite import SqliteConnection
from tests import postgres

LATEST = load_migrations()[-1].version
"""The newest schema this release knows."""

ORDER = ("ok", "warn", "fail")


async def judged(database: str | Path) -> tuple[str, str]:
    """The worst severity of the check's notes, and their texts."""
    notes = await check_database(str(database))
    return max((s for s, _ in notes), key=ORDER.index), " | ".join(t for _, t in notes)


async def migrated(db_path: Path, count: int | None = None) -> None:
    """A SQLite database migrated to this release (or only its first ``count`` steps)."""
    connection = await SqliteConnection.open(db_path)
    try:
        steps = load_migrations()[:count]
        await apply_migrations(connection, asyncio.Lock(), lambda: 0.0, steps)
    finally:
        await connection.close()


async def test_a_sound_database_passes(db_path: Path) -> None:
    await migrated(db_path)
    severity, text = await judged(db_path)
    assert severity == "ok"
    assert f"{db_path} (SQLite, 0.2 MB), schema {LATEST:03d}, current" in text


async def test_a_missing_database_is_fine_and_is_not_created(db_path: Path) -> None:
    severity, text = await judged(db_path)
    assert severity == "ok" and "does not exist yet; the bot creates it at start" in text
    assert not db_path.exists()


async def test_a_database_others_may_read_is_a_warning_to_chmod_600(db_path: Path) -> None:
    await migrated(db_path)
    db_path.chmod(0o644)
    severity, text = await judged(db_path)
    assert severity == "warn"
    assert f"mode 0644 lets others read every hand — chmod 600 {db_path}" in text
    assert stat.S_IMODE(db_path.stat().st_mode) == 0o644  # left as it was


async def test_a_missing_folder_fails(tmp_path: Path) -> None:
    severity, text = await judged(tmp_path / "nowhere" / "kozel.db")
    assert severity == "fail" and f"folder {tmp_path / 'nowhere'} (of KOZEL_DB_PATH)" in text


async def test_a_file_that_is_no_database_fails(db_path: Path) -> None:
    db_path.write_text("not a database, a note\n" * 100)
    db_path.chmod(0o600)
    severity, text = await judged(db_path)
    assert severity == "fail" and "cannot be read as a SQLite database" in text


async def test_a_schema_newer_than_the_code_fails(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage, storage.database.write() as tx:
        await tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)"
        )
    severity, text = await judged(db_path)
    assert severity == "fail" and f"schema 999 is newer than this release ({LATEST:03d})" in text


async def test_pending_migrations_are_a_warning_and_are_not_applied(db_path: Path) -> None:
    await migrated(db_path, count=8)
    severity, text = await judged(db_path)
    assert severity == "warn"
    assert "schema 008; 009, 010, 011 and 012 pending, applied at start — back it up first" in text
    with contextlib.closing(sqlite3.connect(db_path)) as database:
        assert database.execute("SELECT max(version) FROM schema_migrations").fetchone() == (8,)


async def test_an_unreachable_postgresql_server_fails_without_its_password() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    severity, text = await judged(f"postgresql://kozel:sekret-pw@127.0.0.1:{port}/kozel")
    assert severity == "fail" and "cannot connect to the database" in text
    assert "sekret-pw" not in text


async def test_postgresql_a_wrong_password_fails_and_a_sound_database_passes(
    pg_cluster: postgres.Cluster,
) -> None:
    severity, text = await judged(pg_cluster.url(password="not-the-password"))
    assert severity == "fail" and "password authentication failed" in text
    assert "not-the-password" not in text
    url = pg_cluster.new_database()
    await (await Storage.open(url)).close()
    severity, text = await judged(url)
    assert severity == "ok" and f"(PostgreSQL), schema {LATEST:03d}, current" in text
    assert postgres.PASSWORD not in text


async def test_postgresql_a_login_that_may_not_create_the_tables_fails(
    pg_cluster: postgres.Cluster,
) -> None:
    """PostgreSQL 15 lets only the owner create tables in ``public``: a fresh database of
    someone else's needs a GRANT before the bot can migrate it."""
    url = pg_cluster.new_database()
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {name}_bot LOGIN PASSWORD 'bot-pw'")
    severity, text = await judged(
        f"postgresql://{name}_bot:bot-pw@127.0.0.1:{pg_cluster.port}/{name}"
    )
    assert severity == "fail" and f"GRANT CREATE ON SCHEMA public TO {name}_bot" in text
