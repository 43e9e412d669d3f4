"""What storage needs of a database engine: one connection that runs statements, reads rows
and opens, commits and rolls back a transaction. ``storage.sqlite`` (aiosqlite, the embedded
default) and ``storage.postgres`` (psycopg 3) each provide one; everything above speaks only
this.

Statements are written once, in the SQL both engines share, with ``?`` placeholders; an
engine translates what it must (PostgreSQL's ``%s``). A row answers ``row["column"]`` and
``row[0]`` and knows its ``keys()`` on both. A unique key that refuses a row is
``storage.errors.Duplicate`` with the same ``key`` on both; an id outside a 64-bit integer
is a ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgresql"]


class Row(Protocol):
    """A result row: by column name or position, with its column names."""

    def __getitem__(self, key: Any) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class Executed:
    """What a statement changed: ``rowcount`` rows."""

    rowcount: int


class Connection(Protocol):
    """One open connection to the database, used by one caller at a time (the caller holds
    ``storage.core.Database``'s lock)."""

    dialect: Dialect

    async def begin(self) -> None:
        """Open a write transaction (SQLite: ``BEGIN IMMEDIATE``, the write lock up front)."""

    async def commit(self) -> None:
        """Commit the open transaction."""

    async def rollback(self) -> None:
        """Roll back the open transaction, if any; never raises for "none is open"."""

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> Executed:
        """Run one statement."""

    async def executemany(self, sql: str, params: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each set of parameters."""

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]:
        """Every row of a query."""

    async def close(self) -> None:
        """Close the connection."""
