"""Moving a database from one engine to another (``kozelbot migrate-db SRC DST``): every row
of one open database copied into another, SQLite to PostgreSQL or back (or to the same
engine elsewhere).

Both sides are opened by ``Storage.open``, so both stand at this release's schema and have the
same tables. The copy refuses a target that holds any row (``schema_migrations`` aside) and a
target that is the source itself. Tables are copied in foreign-key order (``TABLES``, which a
test holds equal to each engine's own list), each ordered by its primary key and read and
written in batches of ``BATCH`` rows, with the column names the source's rows carry and the
values as they are (int, float, str or None: both schemas use the same kinds).

All or nothing: the whole copy is one write transaction on the target. The source is held
still for it too (SQLite: its write lock, ``BEGIN IMMEDIATE``; PostgreSQL: a read-only
repeatable-read snapshot), so the copy is one moment of it; stop the bot first anyway, or what
it writes after the copy stays behind.

Ids are never given twice: for each identity (``IDENTITIES``: games, outbox posts,
tournaments) the target's counter is set to the source's high-water mark, the largest id the
source ever gave (SQLite's ``sqlite_sequence``, PostgreSQL's sequence), which may be above the
largest id left in the table (a post is deleted once sent). The SQL that differs by engine
lives here, in the small functions named for what they ask.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from storage.backup import same_file
from storage.core import Database, Reader, Transaction
from storage.engine import Dialect, Row
from storage.errors import StorageError


class Table(NamedTuple):
    """A table to copy and the columns of its primary key (the order it is copied in)."""

    name: str
    key: tuple[str, ...]


TABLES: tuple[Table, ...] = (
    Table("users", ("user_id",)),
    Table("chats", ("chat_id",)),
    Table("games", ("game_id",)),
    Table("moves", ("game_id", "seq")),
    Table("deals", ("game_id", "deal_no")),
    Table("messages", ("game_id", "kind", "seat")),
    Table("outbox", ("id",)),
    Table("matches", ("game_id",)),
    Table("match_players", ("game_id", "seat")),
    Table("live_seats", ("user_id",)),
    Table("ratings", ("user_id", "variant", "scope")),
    Table("player_totals", ("user_id", "scope", "variant")),
    Table("partners", ("user_id", "scope", "variant", "partner_id")),
    Table("chat_players", ("chat_id", "variant", "user_id")),
    Table("global_players", ("variant", "user_id")),
    Table("chat_settings", ("chat_id",)),
    Table("board_messages", ("chat_id", "message_id")),
    Table("player_tallies", ("user_id", "scope", "variant", "name")),
    Table("tournaments", ("tournament_id",)),
    Table("tournament_tables", ("tournament_id", "round_no", "table_no")),
    Table("notices", ("chat_id", "user_id")),
    Table("inbox", ("update_id",)),
)
"""Every table of the schema that holds the bot's data, each after the tables it refers to."""

NOT_COPIED = frozenset({"schema_migrations", "workers", "leases", "flood_calls"})
"""Tables each side keeps for itself: its own record of the migrations it applied, and what
its running workers hold (heartbeats, leases, the last minute's message calls: issue #32)."""

IDENTITIES: tuple[tuple[str, str], ...] = (
    ("games", "game_id"),
    ("outbox", "id"),
    ("tournaments", "tournament_id"),
)
"""The ids the database hands out itself (SQLite ``AUTOINCREMENT``, PostgreSQL identity
columns), as (table, column)."""

BATCH = 1000
"""Rows read and written at a time."""


async def copy_database(source: Database, target: Database) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target`` in one transaction; return the
    rows copied per table, in ``TABLES`` order.

    Raises ``StorageError`` (one line, nothing written) if the target holds any row, if both
    are the same database, or if either has tables this release does not know.
    """
    if await _same_database(source, target):
        raise StorageError("the source and the target are the same database")
    copied: dict[str, int] = {}
    async with source.write() as reader, target.write() as tx:
        await _hold_still(reader, source.dialect)
        await _check_tables(reader, source.dialect, "source")
        await _check_tables(tx, target.dialect, "target")
        await _check_empty(tx)
        for table in TABLES:
            copied[table.name] = await _copy_table(reader, tx, table)
        for name, column in IDENTITIES:
            mark = await high_water_mark(reader, source.dialect, name, column)
            await _set_high_water_mark(tx, target.dialect, name, column, mark)
    return copied


async def engine_tables(reader: Reader, dialect: Dialect) -> set[str]:
    """The names of the tables the engine itself lists (its internal ones left out)."""
    if dialect == "sqlite":
        sql = (
            "SELECT name FROM sqlite_master"
            " WHERE type = 'table' AND substr(name, 1, 7) != 'sqlite_'"
        )
    else:
        sql = (
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        )
    return {str(row[0]) for row in await reader.fetchall(sql)}


async def high_water_mark(reader: Reader, dialect: Dialect, table: str, column: str) -> int:
    """The largest id ``table`` ever gave (0 for none): its counter, or its largest id if a
    row was written with one above the counter."""
    if dialect == "sqlite":
        rows = await reader.fetchall("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        mark = int(rows[0][0]) if rows else 0
    else:
        sequence = await _sequence(reader, table, column)
        last_value, is_called = (await reader.fetchall(_pg_sequence_state(sequence)))[0]
        mark = int(last_value) if is_called else int(last_value) - 1
    largest = await reader.fetchall(f"SELECT MAX({column}) FROM {table}")
    return max(mark, int(largest[0][0] or 0))


# -- the steps ---------------------------------------------------------------------------------


async def _same_database(source: Database, target: Database) -> bool:
    if source.dialect != target.dialect:
        return False
    if source.dialect == "sqlite":
        mine, theirs = await _sqlite_file(source), await _sqlite_file(target)
        return bool(mine) and bool(theirs) and same_file(Path(mine), Path(theirs))
    return await _pg_instance(source) == await _pg_instance(target)


async def _hold_still(reader: Transaction, dialect: Dialect) -> None:
    """The source's transaction sees one moment (SQLite's write lock already does that)."""
    if dialect == "postgresql":
        await reader.execute(_PG_SNAPSHOT)


async def _check_tables(reader: Reader, dialect: Dialect, side: str) -> None:
    found = await engine_tables(reader, dialect) - NOT_COPIED
    known = {table.name for table in TABLES}
    if found - known:
        raise StorageError(
            f"the {side} database has tables this release does not copy: "
            + ", ".join(sorted(found - known))
        )
    if known - found:
        raise StorageError(
            f"the {side} database lacks the tables " + ", ".join(sorted(known - found))
        )


async def _check_empty(tx: Transaction) -> None:
    held = []
    for table in TABLES:
        count = int((await tx.fetchall(f"SELECT COUNT(*) FROM {table.name}"))[0][0])
        if count:
            held.append(f"{count} {table.name}")
    if held:
        raise StorageError("the target database is not empty: " + ", ".join(held))


async def _copy_table(reader: Reader, tx: Transaction, table: Table) -> int:
    """Copy one table, ``BATCH`` rows at a time, each batch read after the last key seen."""
    order = ", ".join(table.key)
    first = f"SELECT * FROM {table.name} ORDER BY {order} LIMIT {BATCH}"
    after = (
        f"SELECT * FROM {table.name} WHERE ({order}) > ({', '.join('?' for _ in table.key)})"
        f" ORDER BY {order} LIMIT {BATCH}"
    )
    copied = 0
    rows: Sequence[Row] = await reader.fetchall(first)
    while rows:
        names = rows[0].keys()
        insert = (
            f"INSERT INTO {table.name} ({', '.join(names)})"
            f" VALUES ({', '.join('?' for _ in names)})"
        )
        await tx.executemany(insert, [tuple(row) for row in rows])
        copied += len(rows)
        if len(rows) < BATCH:
            break
        last: tuple[Any, ...] = tuple(rows[-1][column] for column in table.key)
        rows = await reader.fetchall(after, last)
    return copied


async def _set_high_water_mark(
    tx: Transaction, dialect: Dialect, table: str, column: str, mark: int
) -> None:
    """The target's counter for ``table`` at ``mark`` (its next id ``mark + 1``), or above if
    the rows copied hold a larger id."""
    mark = max(mark, await high_water_mark(tx, dialect, table, column))
    if dialect == "sqlite":
        await tx.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
        if mark > 0:
            await tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, mark))
        return
    sequence = await _sequence(tx, table, column)
    if mark > 0:
        await tx.fetchall("SELECT setval(?, ?, true)", (sequence, mark))
    else:
        await tx.fetchall("SELECT setval(?, 1, false)", (sequence,))


# -- what differs by engine --------------------------------------------------------------------


async def _sqlite_file(database: Database) -> str:
    """The SQLite database's file ('' for an in-memory one)."""
    rows = await database.fetchall("PRAGMA database_list")
    return next((str(row["file"] or "") for row in rows if row["name"] == "main"), "")


async def _pg_instance(database: Database) -> tuple[Any, ...]:
    """What tells one PostgreSQL database from another, however it is reached: its name and
    its server's start time (to the microsecond)."""
    rows = await database.fetchall("SELECT current_database(), pg_postmaster_start_time()")
    return tuple(rows[0])


async def _sequence(reader: Reader, table: str, column: str) -> str:
    """The PostgreSQL sequence behind an identity column, as a quoted name."""
    rows = await reader.fetchall("SELECT pg_get_serial_sequence(?, ?)", (table, column))
    name = rows[0][0]
    if name is None:
        raise StorageError(f"{table}.{column} has no sequence in the PostgreSQL database")
    return str(name)


_PG_SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
"""PostgreSQL: the rest of this transaction reads one snapshot and writes nothing."""


def _pg_sequence_state(sequence: str) -> str:
    """A PostgreSQL sequence's last value and whether it was handed out."""
    return f"SELECT last_value, is_called FROM {sequence}"
