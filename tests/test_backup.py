"""Backups of the live database: ``storage.backup.backup_file`` from another connection or
process, ``Storage.backup`` from inside the bot, and ``kozelbot backup FILE``.

Every copy must open, pass ``PRAGMA integrity_check``, hold every row committed before the
backup started and no half of any transaction; a failed backup leaves the target as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kozelbot.core.records import MoveRecord, MoveSource
from kozelbot.core.table import Player, Table, TableStatus
from storage import Storage, StorageError
from storage.backup import TemporaryCopy, backup_file
from tests import postgres
from tests.conftest import FakeClock

ROOT = Path(__file__).resolve().parent.parent
SEATS = [Player(user_id=1, name="Anna"), None, Player(name="Computer 1"), None]


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    """These backups are SQLite's own (a PostgreSQL database is backed up by pg_dump)."""
    opened = await Storage.open(db_path, clock=FakeClock())
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_postgresql_database_is_not_copied_as_a_file(
    pg_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    async with await Storage.open(pg_cluster.new_database()) as opened:
        with pytest.raises(StorageError, match="pg_dump"):
            await opened.backup(tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()


def move(game_id: int, seq: int) -> MoveRecord:
    return MoveRecord(
        game_id=game_id,
        seq=seq,
        deal_no=1,
        seat=seq % 4,
        action="play:6S",
        source=MoveSource.HUMAN,
        user_id=1,
    )


async def new_game(storage: Storage, chat_id: int) -> Table:
    table = Table(
        chat_id=chat_id, variant="hvalenyi", options={"deck": 36}, creator_id=1, seed=chat_id
    )
    # One live seat per person: each chat's Anna is another person.
    anna = Player(user_id=abs(chat_id), name="Anna")
    return await storage.games.create_game(table.model_copy(update={"seats": [anna, *SEATS[1:]]}))


async def play_moves(storage: Storage, table: Table, count: int) -> Table:
    """Save ``count`` more moves, one transaction each (the table and its move together)."""
    for _ in range(count):
        table = table.model_copy(
            update={
                "version": table.version + 1,
                "move_seq": table.move_seq + 1,
                "status": TableStatus.PLAYING,
            },
            deep=True,
        )
        await storage.games.save_game(table, moves=[move(table.game_id, table.move_seq)])
    return table


async def fill(storage: Storage, games: int = 5, moves: int = 4) -> list[Table]:
    """A database with games, moves, users and chats in it."""
    tables = []
    for n in range(games):
        chat = -1000 - n
        await storage.people.upsert_chat(chat, f"Chat {n}")
        await storage.people.upsert_user(n + 1, f"Player {n}", None, "ru")
        tables.append(await play_moves(storage, await new_game(storage, chat), moves))
    return tables


async def keep_saving(storage: Storage, table: Table, stop: asyncio.Event) -> int:
    """Save one move after another, as a busy bot would, until ``stop``; return the count."""
    saves = 0
    while not stop.is_set():
        table = await play_moves(storage, table, 1)
        saves += 1
        await asyncio.sleep(0.001)
    return saves


def query(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def check_copy(path: Path) -> None:
    """The copy opens, is intact, stands alone and holds no half-saved game."""
    assert query(path, "PRAGMA integrity_check") == [("ok",)]
    assert query(path, "PRAGMA foreign_key_check") == []
    assert query(path, "PRAGMA journal_mode") == [("delete",)]
    # Each save wrote the table (its move_seq) and its move in one transaction.
    torn = query(
        path,
        "SELECT g.game_id FROM games AS g WHERE json_extract(g.data, '$.move_seq')"
        " != (SELECT COUNT(*) FROM moves AS m WHERE m.game_id = g.game_id)",
    )
    assert torn == []


def rows(path: Path, table: str) -> set[tuple[object, ...]]:
    return set(query(path, f"SELECT * FROM {table}"))


def leftovers(folder: Path) -> list[str]:
    """Temporary files a backup might have left behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", "-journal")))


# -- backup_file, from another connection -------------------------------------------------


async def test_backup_file_copies_one_snapshot_while_another_connection_writes(
    storage: Storage, db_path: Path, tmp_path: Path
) -> None:
    tables = await fill(storage)
    before = {t: rows(db_path, t) for t in ("users", "chats", "games", "moves")}
    writer = sqlite3.connect(db_path, isolation_level=None)  # as the running bot would
    steps: list[int] = []

    def write_between_steps(status: int, remaining: int, total: int) -> None:
        """Commit a whole new game with a move after every step of the copy."""
        steps.append(remaining)
        writer.execute("BEGIN IMMEDIATE")
        cursor = writer.execute(
            "INSERT INTO games (chat_id, status, version, deadline, data, created_at,"
            " updated_at) VALUES (?, 'finished', 1, NULL, '{\"move_seq\": 1}', 0, 0)",
            (-5000 - len(steps),),
        )
        writer.execute(
            "INSERT INTO moves (game_id, seq, deal_no, seat, action, source, user_id,"
            " created_at) VALUES (?, 1, 1, 0, 'play:6S', 'human', 1, 0)",
            (cursor.lastrowid,),
        )
        writer.execute("COMMIT")

    target = tmp_path / "copy.db"
    try:
        pages = backup_file(db_path, target, pages=1, progress=write_between_steps)
    finally:
        writer.close()

    assert len(steps) > 5, "the copy went in several steps, with writes between them"
    check_copy(target)
    assert query(target, "PRAGMA page_count") == [(pages,)]
    for table, committed in before.items():
        assert rows(target, table) == committed, table  # all of it, and nothing written later
    assert len(rows(db_path, "games")) == len(tables) + len(steps)
    assert leftovers(tmp_path) == []
    async with await Storage.open(target) as restored:
        assert await restored.games.game(tables[0].game_id) == tables[0]
        assert len(await restored.games.moves(tables[-1].game_id)) == tables[-1].move_seq


async def test_backup_file_in_a_thread_while_the_bot_keeps_saving(
    storage: Storage, db_path: Path, tmp_path: Path
) -> None:
    tables = await fill(storage, games=3)
    committed = rows(db_path, "moves")
    stop = asyncio.Event()
    writing = asyncio.create_task(keep_saving(storage, tables[0], stop))
    target = tmp_path / "copy.db"
    try:
        await asyncio.sleep(0.01)
        await asyncio.to_thread(backup_file, db_path, target, pages=1)
    finally:
        stop.set()
        saves = await writing
    check_copy(target)
    assert committed <= rows(target, "moves")
    assert saves > 1


def test_backup_file_of_a_rollback_journal_database(tmp_path: Path) -> None:
    source = tmp_path / "plain.db"
    conn = sqlite3.connect(source)
    with conn:
        conn.execute("CREATE TABLE t (x INTEGER PRIMARY KEY, y TEXT)")
        conn.executemany("INSERT INTO t (y) VALUES (?)", [("x" * 500,) for _ in range(200)])
    conn.close()
    target = tmp_path / "copy.db"
    assert backup_file(source, target, pages=3) > 3
    assert query(target, "PRAGMA integrity_check") == [("ok",)]
    assert rows(target, "t") == rows(source, "t")


async def test_a_failed_backup_leaves_the_old_copy_and_no_temporary_file(
    storage: Storage, db_path: Path, tmp_path: Path
) -> None:
    await fill(storage, games=1)
    target = tmp_path / "copy.db"
    backup_file(db_path, target)
    good = target.read_bytes()

    def interrupt(status: int, remaining: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        backup_file(db_path, target, pages=1, progress=interrupt)
    assert target.read_bytes() == good
    assert leftovers(tmp_path) == []
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database" * 300)
    with pytest.raises(sqlite3.DatabaseError):
        backup_file(garbage, target)
    assert target.read_bytes() == good
    assert leftovers(tmp_path) == []


def test_backup_file_refuses_a_missing_database_and_its_own_file(
    tmp_path: Path, db_path: Path
) -> None:
    with pytest.raises(FileNotFoundError):
        backup_file(tmp_path / "missing.db", tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()
    db_path.write_bytes(b"")  # an empty file is an empty database
    with pytest.raises(ValueError, match="itself"):
        backup_file(db_path, tmp_path / "." / db_path.name)
    with pytest.raises(FileNotFoundError, match="folder"):
        backup_file(db_path, tmp_path / "no" / "such" / "copy.db")
    assert leftovers(tmp_path) == []


# -- Storage.backup, from inside the bot ----------------------------------------------------


async def test_storage_backup_between_concurrent_saves_is_consistent(
    storage: Storage, tmp_path: Path
) -> None:
    tables = await fill(storage)
    target = tmp_path / "copy.db"
    target.write_bytes(b"an older backup")
    fresh = [await new_game(storage, -7000 - n) for n in range(3)]
    await asyncio.gather(
        *(play_moves(storage, t, 5) for t in tables),
        storage.backup(target),
        *(play_moves(storage, t, 3) for t in fresh),
    )
    check_copy(target)
    assert leftovers(tmp_path) == []
    sql = "SELECT game_id, json_extract(data, '$.move_seq') FROM games"
    copied = {int(str(game_id)): int(str(seq)) for game_id, seq in query(target, sql)}
    for table in tables:
        assert copied[table.game_id] >= table.move_seq
    async with await Storage.open(target) as restored:
        assert await restored.people.user(1) == await storage.people.user(1)
        assert await restored.people.chat_language(-1000) is None


async def test_storage_backup_of_a_memory_database(tmp_path: Path) -> None:
    async with await Storage.open(":memory:") as memory:
        created = await new_game(memory, -42)
        await memory.backup(tmp_path / "memory.db")
    async with await Storage.open(tmp_path / "memory.db") as restored:
        assert await restored.games.game(created.game_id) == created


async def test_storage_backup_refuses_its_own_file_and_survives_cancellation(
    storage: Storage, db_path: Path, tmp_path: Path
) -> None:
    await fill(storage, games=2)
    with pytest.raises(ValueError, match="itself"):
        await storage.backup(db_path)
    target = tmp_path / "copy.db"
    target.write_bytes(b"an older backup")
    for yields in range(12):  # cancel at every point in turn
        task = asyncio.create_task(storage.backup(target))
        for _ in range(yields):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert leftovers(tmp_path) == []
        if target.read_bytes() != b"an older backup":
            check_copy(target)  # a cancelled backup is all or nothing
    await storage.backup(target)
    check_copy(target)
    await play_moves(storage, (await storage.games.live_games())[0], 1)  # storage still usable


# -- kozelbot backup FILE -----------------------------------------------------------------


def run_cli(cwd: Path, *args: str, db: Path | None) -> tuple[int, list[str], list[str]]:
    """Run ``python -m kozelbot`` in another process: exit code, stdout and stderr lines."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    if db is not None:
        env["KOZEL_DB_PATH"] = str(db)
    done = subprocess.run(
        [sys.executable, "-m", "kozelbot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout.splitlines(), done.stderr.splitlines()


async def test_cli_backs_up_the_database_of_a_running_bot(
    storage: Storage, db_path: Path, tmp_path: Path
) -> None:
    tables = await fill(storage)
    committed = rows(db_path, "moves")
    target = tmp_path / "backups" / "kozel-copy.db"
    target.parent.mkdir()
    stop = asyncio.Event()
    saving = asyncio.create_task(keep_saving(storage, tables[0], stop))
    try:
        code, out, err = await asyncio.to_thread(
            run_cli, tmp_path, "backup", str(target), db=db_path
        )
    finally:
        stop.set()
        assert await saving > 0
    assert (code, err) == (0, [])
    assert len(out) == 1
    assert str(target) in out[0] and f"{target.stat().st_size:,} bytes" in out[0]
    check_copy(target)
    assert committed <= rows(target, "moves")
    assert leftovers(target.parent) == []


def test_cli_without_a_database_exits_1_with_one_line(tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    code, out, err = run_cli(tmp_path, "backup", str(target), db=tmp_path / "missing.db")
    assert (code, out) == (1, [])
    assert len(err) == 1 and "missing.db" in err[0] and "KOZEL_DB_PATH" in err[0]
    assert not target.exists()
    # KOZEL_DB_PATH unset: the default kozel.db, relative to the working directory
    code, out, err = run_cli(tmp_path, "backup", str(target), db=None)
    assert (code, out, len(err)) == (1, [], 1) and "kozel.db" in err[0]


def test_cli_usage_names_the_backup_command(tmp_path: Path) -> None:
    code, out, _ = run_cli(tmp_path, "--help", db=None)
    assert code == 0 and any("kozelbot backup FILE" in line for line in out)
    code, out, err = run_cli(tmp_path, "backup", db=None)
    assert code == 2 and out == [] and any("backup FILE" in line for line in err)


# -- file modes ------------------------------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.usefixtures("loose_umask")
async def test_every_backup_is_readable_by_the_owner_only(tmp_path: Path) -> None:
    """A backup holds every live hand and match secret, as the database does: mode 0600 for
    the temporary copy and the installed one, also over an older copy readable by others."""
    source = tmp_path / "kozel.db"
    inside, outside = tmp_path / "inside.db", tmp_path / "outside.db"
    outside.write_bytes(b"an old copy")
    os.chmod(outside, 0o644)
    async with await Storage.open(source) as storage:
        await fill(storage, games=2, moves=2)
        await storage.backup(inside)
        await asyncio.to_thread(backup_file, source, outside)
    assert _mode(inside) == 0o600 and _mode(outside) == 0o600
    check_copy(inside)
    check_copy(outside)
    with TemporaryCopy(tmp_path / "third.db") as copy:
        assert _mode(copy.path) == 0o600
        copy.connection.execute("CREATE TABLE t (x)")
        copy.install()
    assert _mode(tmp_path / "third.db") == 0o600
