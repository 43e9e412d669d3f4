"""The second engine: PostgreSQL through psycopg 3, chosen by ``KOZEL_DATABASE_URL``
(``postgresql://user:password@host:port/database``).

One connection in autocommit mode whose transactions storage opens and commits itself
(``BEGIN`` … ``COMMIT``), the same shape as SQLite's: ``storage.core.Database`` holds a lock
over every use, so a process writes one transaction at a time, and another process's write
to the same row waits for ours (row locks) or finds the optimistic version moved. Every
commit is durable as PostgreSQL's ``synchronous_commit`` says (on by default).

Statements arrive in the SQL both engines share, with ``?`` placeholders: they become
``%s`` here (a literal ``%`` doubled), once per statement text. Python's ``bool`` goes in as
0 or 1, as SQLite stores it. A unique key that refuses a row is ``Duplicate`` named as
SQLite names it (``table.column, …``, read from PostgreSQL's "Key (…)" detail); an id outside
a 64-bit integer is a ``ValueError``.

A server that restarts or a connection that drops: the next transaction finds the
connection broken at its ``BEGIN`` (nothing done yet) and connects again, retrying for up to
``patience`` seconds before it gives up with ``DatabaseUnavailable``; a statement cut off
mid-transaction fails that transaction whole (the server rolled it back).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import RowMaker

from kozelbot.core.metrics import OFF, Meter
from storage.engine import Dialect, Executed, Row
from storage.errors import DatabaseInUse, DatabaseUnavailable, Duplicate, Refused
from storage.values import INT64_MAX, INT64_MIN

log = logging.getLogger(__name__)

_KEY = re.compile(r"^Key \((.+?)\)=")
BOT_LOCK = int.from_bytes(b"kozelbot", "big")
"""The advisory lock a running bot holds on its database (session-level: released when its
connection ends, a kill included)."""
_NAMED = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)")
_CONNECT_TIMEOUT = 5


def is_database_url(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL server rather than a SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without its password (for a log line or an error)."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` and ``:name`` as ``%(name)s``, a literal ``%``
    doubled; text inside quotes and comments kept as it is."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        char = sql[i]
        if char in "'\"":
            end = sql.find(char, i + 1)
            end = n - 1 if end < 0 else end
            out.append(sql[i : end + 1].replace("%", "%%"))
            i = end + 1
            continue
        if sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            out.append(sql[i:end].replace("%", "%%"))
            i = end
            continue
        if char == ":" and (found := _NAMED.match(sql, i)) and (i == 0 or sql[i - 1] != ":"):
            out.append(f"%({found.group(1)})s")
            i = found.end()
            continue
        out.append("%s" if char == "?" else "%%" if char == "%" else char)
        i += 1
    return "".join(out)


def _value(value: Any) -> Any:
    if isinstance(value, int):
        if isinstance(value, bool):
            return int(value)
        if not INT64_MIN <= value <= INT64_MAX:
            # As SQLite refuses to bind it: a forged id is never compared as a NUMERIC.
            raise ValueError(f"an id outside a 64-bit integer: {value}")
    return value


def _params(params: Iterable[Any] | Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
    """The parameters as psycopg takes them: positional or named (``:name``); a ``bool``
    as 0 or 1 (SQLite's way; the columns are integers); an int outside 64 bits is a
    ``ValueError``, as SQLite's binding makes it."""
    if isinstance(params, Mapping):
        return {k: _value(v) for k, v in params.items()}
    return tuple(_value(p) for p in params)


class _Row(tuple[Any, ...]):
    """A row by name or position (what ``sqlite3.Row`` offers)."""

    _index: dict[str, int] = {}  # noqa: RUF012 - set per query's columns, never mutated

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


@functools.lru_cache(maxsize=512)
def _row_class(names: tuple[str, ...]) -> type[_Row]:
    return type("Row", (_Row,), {"_index": {name: i for i, name in enumerate(names)}})


def _row_factory(cursor: Any) -> RowMaker[_Row]:
    description = cursor.description
    names = tuple(column.name for column in description) if description else ()
    made = _row_class(names)
    return lambda values: made(values)


def _translate(exc: psycopg.Error) -> Exception:
    if isinstance(exc, pg_errors.UniqueViolation):
        detail = exc.diag.message_detail or ""
        table = exc.diag.table_name or ""
        found = _KEY.match(detail)
        if found:
            columns = [c.strip().strip('"') for c in found.group(1).split(",")]
            return Duplicate(", ".join(f"{table}.{c}" for c in columns), str(exc))
        return Duplicate(exc.diag.constraint_name or "", str(exc))
    if isinstance(exc, pg_errors.IntegrityError):
        return Refused(_first_line(exc))
    if isinstance(exc, pg_errors.NumericValueOutOfRange):
        return ValueError(f"a value outside PostgreSQL's 64-bit integer range: {exc}")
    return exc


class PostgresConnection:
    """``storage.engine.Connection`` over one psycopg ``AsyncConnection``."""

    dialect: Dialect = "postgresql"

    def __init__(
        self,
        url: str,
        connection: psycopg.AsyncConnection[Any],
        *,
        patience: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        exclusive: bool = False,
    ) -> None:
        """Wrap an open connection; use ``PostgresConnection.open``."""
        self.url = url
        self.raw = connection
        self.exclusive = exclusive
        self.patience = patience
        self._clock = clock
        self._in_transaction = False
        self.meter: Meter = OFF
        """Hears every attempt to connect again (set by ``Storage.open``)."""

    @classmethod
    async def open(
        cls, url: str, *, patience: float = 30.0, exclusive: bool = False
    ) -> PostgresConnection:
        """Connect to the server at ``url``; a server that cannot be reached or refuses the
        login is ``DatabaseUnavailable`` with one line saying which.

        ``exclusive`` (the bot itself, not a tool reading its database): hold ``BOT_LOCK``
        as long as the connection lives; if another bot holds it, ``DatabaseInUse``
        (the bot is one process: two on one database would both act on its tables)."""
        opened = cls(url, await _connect(url), patience=patience, exclusive=exclusive)
        try:
            await opened._lock_the_database()
        except BaseException:
            await opened.close()
            raise
        return opened

    async def _lock_the_database(self) -> None:
        if not self.exclusive:
            return
        cursor = await self.raw.execute("SELECT pg_try_advisory_lock(%s)", (BOT_LOCK,))
        row = await cursor.fetchone()
        if row is None or not row[0]:
            raise DatabaseInUse(
                f"another kozelbot is running on the database {redact(self.url)}"
                " (one bot process per database)"
            )

    async def _reconnect(self) -> None:
        deadline = self._clock() + self.patience
        delay = 0.1
        while True:
            self.meter.db_retry()
            try:
                self.raw = await _connect(self.url)
                await self._lock_the_database()  # another bot may have taken it meanwhile
                log.warning("database: connected again to %s", redact(self.url))
                return
            except DatabaseUnavailable:
                if self._clock() + delay > deadline:
                    raise
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)

    async def begin(self) -> None:
        """``BEGIN``; a connection found broken here is made again first (nothing of the
        transaction was done yet)."""
        await self._outside_a_transaction(lambda: self.raw.execute("BEGIN"))
        self._in_transaction = True

    async def commit(self) -> None:
        """``COMMIT``."""
        self._in_transaction = False
        await self._run(lambda: self.raw.execute("COMMIT"))

    async def rollback(self) -> None:
        """``ROLLBACK`` (a broken connection has nothing left to roll back)."""
        self._in_transaction = False
        if self.raw.broken or self.raw.closed:
            return
        try:
            await self.raw.execute("ROLLBACK")
        except psycopg.Error as exc:
            log.warning("rollback failed: %s", exc)

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> Executed:
        """Run one statement."""
        cursor = await self._run(lambda: self.raw.execute(translate(sql), _params(params)))
        return Executed(max(cursor.rowcount, 0))

    async def executemany(self, sql: str, params: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each set of parameters."""
        rows = [_params(p) for p in params]
        if not rows:
            return
        cursor = self.raw.cursor()
        await self._run(lambda: cursor.executemany(translate(sql), rows))

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]:
        """Every row of a query, by name or position."""
        query, values = translate(sql), _params(params)

        async def fetch() -> Sequence[Row]:
            cursor = self.raw.cursor(row_factory=_row_factory)
            await cursor.execute(query, values)
            return await cursor.fetchall()

        result: Sequence[Row]
        if self._in_transaction:
            result = await self._run(fetch)
        else:
            result = await self._outside_a_transaction(fetch)
        return result

    async def _outside_a_transaction(self, call: Callable[[], Any]) -> Any:
        """Run a statement that opens a transaction or reads outside one: on a connection
        the server cut (a restart), nothing was done yet, so connect again and run it once
        more."""
        if self.raw.broken or self.raw.closed:
            await self._reconnect()
        try:
            return await self._run(call)
        except DatabaseUnavailable as exc:
            log.warning("database: %s; connecting again", exc)
            await self._reconnect()
            return await self._run(call)

    async def _run(self, call: Callable[[], Any]) -> Any:
        try:
            return await call()
        except psycopg.OperationalError as exc:
            if self.raw.broken or self.raw.closed:
                raise DatabaseUnavailable(
                    f"the database connection was lost: {_first_line(exc)}"
                ) from exc
            raise _translate(exc) from exc
        except psycopg.Error as exc:
            raise _translate(exc) from exc

    async def close(self) -> None:
        """Close the connection."""
        await self.raw.close()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


async def _connect(url: str) -> psycopg.AsyncConnection[Any]:
    try:
        return await psycopg.AsyncConnection.connect(
            url, autocommit=True, connect_timeout=_CONNECT_TIMEOUT
        )
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailable(
            f"cannot connect to the database {redact(url)}: {_first_line(exc)}"
        ) from exc
    except psycopg.ProgrammingError as exc:
        raise DatabaseUnavailable(f"bad database URL {redact(url)}: {_first_line(exc)}") from exc
