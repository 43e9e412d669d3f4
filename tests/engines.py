"""Looking at a test's database from outside the bot, on either engine: a plain ``sqlite3``
connection to the file, or a plain psycopg connection to the PostgreSQL database, as another
process would."""

from __future__ import annotations

import sqlite3

import psycopg

from storage.postgres import is_database_url


def look(database: str, sql: str) -> list[tuple[object, ...]]:
    """Every row of ``sql`` (no parameters) read on a connection of its own."""
    if is_database_url(database):
        with psycopg.connect(database) as conn:
            return [tuple(row) for row in conn.execute(sql).fetchall()]
    conn = sqlite3.connect(database)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def count(database: str, table: str) -> int:
    """How many rows ``table`` holds, seen from another connection."""
    return int(look(database, f"SELECT COUNT(*) FROM {table}")[0][0])
