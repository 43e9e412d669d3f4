"""``Storage``: the bot's SQLite database behind intent-named async methods.

One aiosqlite connection (WAL, ``synchronous=FULL``, foreign keys, a 5 s busy timeout).
Every write is one ``BEGIN IMMEDIATE`` transaction under an ``asyncio.Lock``; reads take the
same lock so they never run inside somebody else's write transaction. Nothing here awaits
anything but the database.

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
user only (mode 0600, ``storage.files``).

A live game is saved whole, as the JSON of ``kozelbot.table.Table``, with optimistic
concurrency: each save must carry the stored version plus one, else ``StaleVersion``.

Ids come from Telegram and from forged input, and may not fit SQLite's 64-bit INTEGER: a
read of such an id finds nothing, a write of one raises ``ValueError`` and writes nothing.
"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from kozelbot.records import (
    DealRecord,
    LeaderRow,
    MatchPlayer,
    MatchResult,
    MessageRef,
    MoveRecord,
    MoveSource,
    OutboxItem,
    UserRecord,
)
from kozelbot.table import Table
from storage.backup import TemporaryCopy, same_file
from storage.boards import BoardsMixin
from storage.errors import GameAlreadyRunning, SeatTaken, StaleVersion
from storage.files import is_file_database, open_private_database
from storage.migrate import apply_migrations
from storage.transaction import immediate
from storage.values import INT64_MAX as _INT64_MAX
from storage.values import fits as _fits
from storage.values import to_json as _json

Clock = Callable[[], float]

SYNCHRONOUS = "FULL"
"""SQLite's ``synchronous`` setting (``FULL``: see the durability promise above; the CPU
benchmark sets ``NORMAL`` here to measure what ``FULL`` costs)."""


def _pragmas() -> tuple[str, ...]:
    if SYNCHRONOUS not in ("NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"unknown synchronous setting {SYNCHRONOUS!r}")
    return (
        "PRAGMA journal_mode = WAL",
        f"PRAGMA synchronous = {SYNCHRONOUS}",
        "PRAGMA foreign_keys = ON",
        "PRAGMA busy_timeout = 5000",
    )


_LIVE_STATUSES = "('lobby', 'playing')"

USER_CACHE = 10_000
"""Users whose records stay in memory."""


# SQLite names the indexed columns, not the partial index, when the index refuses a row.
_LIVE_CONFLICT = "UNIQUE constraint failed: games.chat_id, games.thread_id"
_SEAT_CONFLICT = "UNIQUE constraint failed: live_seats.user_id"

_LEADERBOARD = """
WITH per_match AS (
    -- one row per (user, match), even if a user somehow held two seats
    SELECT mp.user_id AS user_id, m.game_id AS game_id, MAX(mp.won) AS won,
           MIN(mp.name) AS name, m.finished_at AS finished_at
    FROM match_players AS mp
    JOIN matches AS m ON m.game_id = mp.game_id
    WHERE m.chat_id = ? AND mp.user_id IS NOT NULL
    GROUP BY mp.user_id, m.game_id
),
totals AS (
    SELECT user_id, COUNT(*) AS played, SUM(won) AS won
    FROM per_match
    GROUP BY user_id
)
SELECT t.user_id AS user_id, t.played AS played, t.won AS won,
       COALESCE(
           NULLIF(u.first_name, ''),
           (SELECT p.name FROM per_match AS p WHERE p.user_id = t.user_id
            ORDER BY p.finished_at DESC, p.game_id DESC LIMIT 1)
       ) AS name
FROM totals AS t
LEFT JOIN users AS u ON u.user_id = t.user_id
ORDER BY t.won DESC, CAST(t.won AS REAL) / t.played DESC, t.played DESC,
         name COLLATE NOCASE, t.user_id
LIMIT ?
"""

_USER_STATS = """
WITH per_match AS (
    SELECT game_id, MAX(won) AS won FROM match_players WHERE user_id = ? GROUP BY game_id
)
SELECT COUNT(*) AS played, COALESCE(SUM(won), 0) AS won FROM per_match
"""


def _scores(row: Any) -> tuple[int, ...]:
    """A match's final score: every side (migration 004), else the two columns."""
    if row["scores"]:
        return tuple(json.loads(row["scores"])["score"])
    return (row["score_0"], row["score_1"])


def _sides(**figures: tuple[int, ...]) -> str | None:
    """Every side's figures as JSON when there are more than two (migration 004), else
    ``None`` (the two-column fields say it all)."""
    if all(len(values) <= 2 for values in figures.values()):
        return None
    return _json({key: list(values) for key, values in figures.items()})


DEAL_INSERT = (
    "INSERT INTO deals (game_id, deal_no, outcome, points_0, points_1, award_0, award_1,"
    " multiplier, score_0, score_1, trace, created_at, sides)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
"""How a scored deal is stored (``save_game``; the query benchmark's bulk fill too)."""


def deal_row(deal: DealRecord, now: float) -> tuple[Any, ...]:
    """The ``DEAL_INSERT`` parameters of a deal."""
    return (
        deal.game_id,
        deal.deal_no,
        deal.outcome,
        *deal.points[:2],
        *deal.award[:2],
        deal.multiplier,
        *deal.score[:2],
        _json(deal.trace),
        now,
        _sides(points=deal.points, award=deal.award, score=deal.score),
    )


def _is_live_conflict(exc: sqlite3.IntegrityError) -> bool:
    return _LIVE_CONFLICT in str(exc)


def _check_belongs(
    game_id: int,
    moves: Sequence[MoveRecord],
    deals: Sequence[DealRecord],
    result: MatchResult | None,
) -> None:
    """Refuse records of another game before any write starts."""
    if game_id <= 0:
        raise ValueError("the table has no game_id: create_game it first")
    strays = [m.seq for m in moves if m.game_id != game_id]
    strays += [d.deal_no for d in deals if d.game_id != game_id]
    if strays or (result is not None and result.game_id != game_id):
        raise ValueError(f"records of another game passed to save_game({game_id})")


class Storage(BoardsMixin):
    """The bot's database: users, chats, games, move and deal logs, results, rankings."""

    def __init__(self, db: aiosqlite.Connection, clock: Clock = time.time) -> None:
        """Wrap an open connection; use ``Storage.open`` instead."""
        self._db = db
        self._clock = clock
        self._lock = asyncio.Lock()
        self._closed = False
        self._users: OrderedDict[int, UserRecord | None] = OrderedDict()
        """A read cache of users, dropped entry by entry as they are written."""
        self._user_writes = 0
        self._seated: dict[int, frozenset[int]] = {}
        """Game → the people ``live_seats`` lists for it, as last committed (most saves seat
        nobody new, and then ``live_seats`` is not touched)."""

    # -- lifecycle -------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, clock: Clock = time.time) -> Self:
        """Open (creating if needed, mode 0600) and migrate the database at ``path``
        (``":memory:"`` ok)."""
        if is_file_database(path):
            await asyncio.to_thread(open_private_database, Path(path))
        # isolation_level=None: the sqlite3 module must not open transactions behind our back.
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            for pragma in _pragmas():
                await db.execute(pragma)
            storage = cls(db, clock)
            await apply_migrations(db, storage._lock, clock)
        except BaseException:
            await db.close()
            raise
        return storage

    async def close(self) -> None:
        """Close the connection (its worker thread would otherwise keep the process alive)."""
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            await self._db.close()

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
        target = Path(target)
        async with self._lock:
            rows = list(await self._db.execute_fetchall("PRAGMA database_list"))
        own = next((row["file"] for row in rows if row["name"] == "main"), "")
        if own and same_file(Path(own), target):
            raise ValueError(f"the backup would replace the database itself: {target}")
        with TemporaryCopy(target) as copy:
            work = asyncio.ensure_future(self._copy_into(copy))
            try:
                await asyncio.shield(work)
            except asyncio.CancelledError:
                # The copy is being written on other threads: let them end before it is
                # discarded (or, if it got that far, installed).
                await asyncio.wait([work])
                raise

    async def _copy_into(self, copy: TemporaryCopy) -> None:
        async with self._lock:
            await self._db.backup(copy.connection)
        await asyncio.to_thread(copy.install)

    # -- plumbing --------------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[None]:
        """One write transaction; an id too large for SQLite is a ``ValueError``, not written."""
        try:
            async with immediate(self._db, self._lock):
                yield
        except OverflowError as exc:
            raise ValueError(f"an id outside SQLite's 64-bit INTEGER range: {exc}") from exc

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    # -- users -----------------------------------------------------------------------------

    async def upsert_user(
        self,
        user_id: int,
        first_name: str,
        username: str | None,
        language_code: str | None,
    ) -> None:
        """Record what Telegram says of a user, keeping their chosen language and private flag."""
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "INSERT INTO users (user_id, first_name, username, language_code,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET first_name = excluded.first_name,"
                " username = excluded.username, language_code = excluded.language_code,"
                " updated_at = excluded.updated_at",
                (user_id, first_name, username, language_code, now, now),
            )
        self._user_changed(user_id)

    async def set_private_open(self, user_id: int, is_open: bool) -> None:
        """Note whether the bot may message the user privately (creates an unnamed row if new)."""
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "INSERT INTO users (user_id, first_name, private_open, created_at, updated_at)"
                " VALUES (?, '', ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET private_open = excluded.private_open,"
                " updated_at = excluded.updated_at",
                (user_id, int(is_open), now, now),
            )
        self._user_changed(user_id)

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Store the language a user chose (``None`` returns to the client's language)."""
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "INSERT INTO users (user_id, first_name, language, created_at, updated_at)"
                " VALUES (?, '', ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
                " updated_at = excluded.updated_at",
                (user_id, language, now, now),
            )
        self._user_changed(user_id)

    async def user(self, user_id: int) -> UserRecord | None:
        """What the bot knows of a user, or ``None`` if never seen (cached: every write of a
        user goes through this class and drops its entry)."""
        if not _fits(user_id):
            return None
        if user_id in self._users:
            self._users.move_to_end(user_id)
            cached: UserRecord | None = self._users[user_id]
            return cached
        generation = self._user_writes
        record = await self._read_user(user_id)
        if generation == self._user_writes:  # no write since the read began: not stale
            self._users[user_id] = record
            while len(self._users) > USER_CACHE:
                self._users.popitem(last=False)
        return record

    def _user_changed(self, *user_ids: int | None) -> None:
        """Users were written: forget what the cache holds of them."""
        self._user_writes += 1
        for user_id in user_ids:
            if user_id is not None:
                self._users.pop(user_id, None)

    async def _read_user(self, user_id: int) -> UserRecord | None:
        row = await self._fetchone(
            "SELECT user_id, first_name, username, language_code, language, private_open,"
            " abandons FROM users WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return None
        return UserRecord(
            user_id=row["user_id"],
            first_name=row["first_name"],
            username=row["username"],
            language_code=row["language_code"],
            language=row["language"],
            private_open=bool(row["private_open"]),
            abandons=row["abandons"],
        )

    # -- chats -----------------------------------------------------------------------------

    async def upsert_chat(self, chat_id: int, title: str | None) -> None:
        """Record a group chat and its current title, keeping its chosen language."""
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "INSERT INTO chats (chat_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (chat_id) DO UPDATE SET title = excluded.title,"
                " updated_at = excluded.updated_at",
                (chat_id, title, now, now),
            )

    async def chat_language(self, chat_id: int) -> str | None:
        """The language chosen for a chat, if any."""
        if not _fits(chat_id):
            return None
        row = await self._fetchone("SELECT language FROM chats WHERE chat_id = ?", (chat_id,))
        return None if row is None else row["language"]

    async def set_chat_language(self, chat_id: int, language: str | None) -> None:
        """Choose a chat's language (``None`` clears it); creates the chat row if new."""
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "INSERT INTO chats (chat_id, language, created_at, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language,"
                " updated_at = excluded.updated_at",
                (chat_id, language, now, now),
            )

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup with a new id: move its language, games and results.

        Games keep playing in the new chat; their lobby and table messages belonged to the old
        chat, so they are forgotten (new ones are sent), each game's version is bumped, and
        posts not yet sent go to the new chat.
        Running it again, or for a chat with nothing stored, changes nothing.
        """
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "UPDATE OR IGNORE chats SET chat_id = ?, updated_at = ? WHERE chat_id = ?",
                (new_chat_id, now, old_chat_id),
            )
            # The new chat may have a game already (someone started one there first): then
            # the old chat's live game cannot follow and is stopped.
            await self._db.execute(
                "UPDATE games SET status = 'stopped', version = version + 1,"
                " data = json_set(data, '$.status', 'stopped', '$.deadline', NULL,"
                " '$.version', version + 1)"
                f" WHERE chat_id = ? AND status IN {_LIVE_STATUSES} AND EXISTS (SELECT 1 FROM"
                f" games WHERE chat_id = ? AND status IN {_LIVE_STATUSES})",
                (old_chat_id, new_chat_id),
            )
            await self._db.execute(
                "DELETE FROM live_seats WHERE game_id IN (SELECT game_id FROM games"
                f" WHERE chat_id = ? AND status NOT IN {_LIVE_STATUSES})",
                (old_chat_id,),
            )
            await self._db.execute(
                "UPDATE games SET chat_id = ?, version = version + 1, updated_at = ?,"
                " data = json_set(data, '$.chat_id', ?, '$.version', version + 1)"
                " WHERE chat_id = ?",
                (new_chat_id, now, new_chat_id, old_chat_id),
            )
            # The group's messages stay in the old chat: new ones are sent in the new one.
            await self._db.execute(
                "DELETE FROM messages WHERE chat_id = ? AND kind IN ('lobby', 'table')",
                (old_chat_id,),
            )
            await self._db.execute(
                "UPDATE outbox SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
            await self._db.execute(
                "UPDATE matches SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
            await self._after_migrate_chat(old_chat_id, new_chat_id)
        self._seated.clear()  # games stopped here by SQL: read live_seats afresh

    # -- games -----------------------------------------------------------------------------

    async def create_game(self, table: Table) -> Table:
        """Insert a new game; return a copy with its ``game_id`` (and ``created_at``) set.

        Raises ``GameAlreadyRunning`` if the chat already has a lobby or playing game.
        """
        now = self._clock()
        async with self._write():
            try:
                cursor = await self._db.execute(
                    "INSERT INTO games (chat_id, thread_id, status, version, deadline, data,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, '', ?, ?)",
                    (table.chat_id, table.thread_id or 0, table.status.value, table.version,
                     table.deadline, now, now),
                )
            except sqlite3.IntegrityError as exc:
                if _is_live_conflict(exc):
                    raise GameAlreadyRunning(table.chat_id) from exc
                raise
            game_id = cursor.lastrowid
            assert game_id is not None
            created = table.model_copy(
                update={"game_id": game_id, "created_at": table.created_at or now}, deep=True
            )
            await self._db.execute(
                "UPDATE games SET data = ? WHERE game_id = ?", (created.to_json(), game_id)
            )
            seated = await self._sync_live_seats(created)
        self._seated_committed(created.game_id, seated)
        return created

    async def save_game(
        self,
        table: Table,
        *,
        moves: Sequence[MoveRecord] = (),
        deals: Sequence[DealRecord] = (),
        result: MatchResult | None = None,
        abandoned: Sequence[int] = (),
        outbox: Sequence[OutboxItem] = (),
    ) -> None:
        """Save a changed game with its new moves, deals, result and posts, all or nothing.

        ``table.version`` must be the stored version plus one, else ``StaleVersion`` and
        nothing is written. A move or deal already logged fails the whole save with
        ``sqlite3.IntegrityError``. ``abandoned`` (people who left the running match)
        gets one warning; a result clears one warning of each person who played it.
        """
        _check_belongs(table.game_id, moves, deals, result)
        now = self._clock()
        async with self._write():
            try:
                cursor = await self._db.execute(
                    "UPDATE games SET data = ?, status = ?, version = ?, deadline = ?,"
                    " updated_at = ? WHERE game_id = ? AND version = ?",
                    (
                        table.to_json(),
                        table.status.value,
                        table.version,
                        table.deadline,
                        now,
                        table.game_id,
                        table.version - 1,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                if _is_live_conflict(exc):
                    raise GameAlreadyRunning(table.chat_id) from exc
                raise
            if cursor.rowcount != 1:
                raise StaleVersion(table.game_id)
            seated = await self._sync_live_seats(table)
            if moves:
                await self._db.executemany(
                    "INSERT INTO moves (game_id, seq, deal_no, seat, action, source, user_id,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            m.game_id,
                            m.seq,
                            m.deal_no,
                            m.seat,
                            m.action,
                            m.source.value,
                            m.user_id,
                            now,
                        )
                        for m in moves
                    ],
                )
            if deals:
                await self._db.executemany(DEAL_INSERT, [deal_row(d, now) for d in deals])
            if result is not None:
                await self._insert_result(result, now)
                await self._after_result(table, result, now)
                await self._db.executemany(
                    "UPDATE users SET abandons = MAX(abandons - 1, 0) WHERE user_id = ?",
                    [(p.user_id,) for p in result.players if p.user_id is not None],
                )
            if outbox:
                await self._db.executemany(
                    "INSERT INTO outbox (chat_id, thread_id, game_id, kind, payload, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (o.chat_id, o.thread_id or 0, table.game_id, o.kind, _json(o.payload),
                         now)
                        for o in outbox
                    ],
                )
            for abandoned_by in abandoned:
                await self._db.execute(
                    "INSERT INTO users (user_id, first_name, abandons, created_at, updated_at)"
                    " VALUES (?, '', 1, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                    " abandons = abandons + 1, updated_at = excluded.updated_at",
                    (abandoned_by, now, now),
                )
                await self._after_abandon(table, abandoned_by, now)
        self._seated_committed(table.game_id, seated)
        if result is not None or abandoned:
            players = [p.user_id for p in result.players] if result is not None else []
            self._user_changed(*abandoned, *players)

    async def _sync_live_seats(self, table: Table) -> frozenset[int]:
        """Rewrite the game's rows of ``live_seats`` (inside a write) when its people changed:
        its people while it is live, none once it ended; returns them. ``SeatTaken`` if one
        of them sits at another live game."""
        seated = table.people if table.status.live else frozenset()
        if self._seated.get(table.game_id) == seated:
            return seated
        await self._db.execute("DELETE FROM live_seats WHERE game_id = ?", (table.game_id,))
        for user_id in sorted(seated):
            try:
                await self._db.execute(
                    "INSERT INTO live_seats (user_id, game_id) VALUES (?, ?)",
                    (user_id, table.game_id),
                )
            except sqlite3.IntegrityError as exc:
                if _SEAT_CONFLICT in str(exc):
                    raise SeatTaken(user_id) from exc
                raise
        return seated

    def _seated_committed(self, game_id: int, seated: frozenset[int]) -> None:
        """Remember what ``live_seats`` holds for a game once its transaction committed."""
        if seated:
            self._seated[game_id] = seated
        else:
            self._seated.pop(game_id, None)

    async def _insert_result(self, result: MatchResult, now: float) -> None:
        """Write a match and its players; runs inside ``save_game``'s transaction."""
        await self._db.execute(
            "INSERT INTO matches (game_id, chat_id, variant, options, winner_side,"
            " score_0, score_1, deals, finished_at, scores)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                result.game_id,
                result.chat_id,
                result.variant,
                _json(result.options),
                result.winner_side,
                *result.score[:2],
                result.deals,
                now,
                _sides(score=result.score),
            ),
        )
        await self._db.executemany(
            "INSERT INTO match_players (game_id, seat, user_id, name, side, won)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (result.game_id, p.seat, p.user_id, p.name, p.side, int(p.won))
                for p in result.players
            ],
        )

    async def game(self, game_id: int) -> Table | None:
        """A game by id, whatever its status."""
        if not _fits(game_id):
            return None
        row = await self._fetchone("SELECT data FROM games WHERE game_id = ?", (game_id,))
        return None if row is None else Table.from_json(row["data"])

    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The lobby or playing game of a chat (of one forum topic of it), if any."""
        if not _fits(chat_id, thread_id or 0):
            return None
        row = await self._fetchone(
            "SELECT data FROM games WHERE chat_id = ? AND thread_id = ?"
            f" AND status IN {_LIVE_STATUSES}",
            (chat_id, thread_id or 0),
        )
        return None if row is None else Table.from_json(row["data"])

    async def live_seat(self, user_id: int) -> Table | None:
        """The lobby or running game a person sits at, if any (one at most)."""
        if not _fits(user_id):
            return None
        row = await self._fetchone(
            "SELECT g.data FROM live_seats AS s JOIN games AS g ON g.game_id = s.game_id"
            " WHERE s.user_id = ?",
            (user_id,),
        )
        return None if row is None else Table.from_json(row["data"])

    async def live_games_in(self, chat_id: int) -> list[Table]:
        """The lobby or playing games of one chat, one per forum topic, by topic (the chat's
        own, outside topics, first): an index lookup, whatever else the chat played."""
        if not _fits(chat_id):
            return []
        # In the order of the partial index games_one_live_per_place (chat_id, thread_id),
        # which holds live games only (ORDER BY game_id would pick games_by_chat: every game).
        rows = await self._fetchall(
            f"SELECT data FROM games WHERE chat_id = ? AND status IN {_LIVE_STATUSES}"
            " ORDER BY thread_id",
            (chat_id,),
        )
        return [Table.from_json(row["data"]) for row in rows]

    async def live_games(self) -> list[Table]:
        """Every lobby or playing game, oldest first (to resume them at start-up)."""
        rows = await self._fetchall(
            f"SELECT data FROM games WHERE status IN {_LIVE_STATUSES} ORDER BY game_id"
        )
        return [Table.from_json(row["data"]) for row in rows]

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """A game's move log in order."""
        if not _fits(game_id):
            return []
        rows = await self._fetchall(
            "SELECT game_id, seq, deal_no, seat, action, source, user_id FROM moves"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [
            MoveRecord(
                game_id=row["game_id"],
                seq=row["seq"],
                deal_no=row["deal_no"],
                seat=row["seat"],
                action=row["action"],
                source=MoveSource(row["source"]),
                user_id=row["user_id"],
            )
            for row in rows
        ]

    async def deals(self, game_id: int) -> list[DealRecord]:
        """A game's scored deals in order."""
        if not _fits(game_id):
            return []
        rows = await self._fetchall(
            "SELECT * FROM deals WHERE game_id = ? ORDER BY deal_no", (game_id,)
        )
        found = []
        for row in rows:
            sides = json.loads(row["sides"]) if row["sides"] else {}
            found.append(
                DealRecord(
                    game_id=row["game_id"],
                    deal_no=row["deal_no"],
                    outcome=row["outcome"],
                    points=sides.get("points", (row["points_0"], row["points_1"])),
                    award=sides.get("award", (row["award_0"], row["award_1"])),
                    multiplier=row["multiplier"],
                    score=sides.get("score", (row["score_0"], row["score_1"])),
                    trace=json.loads(row["trace"]),
                )
            )
        return found

    async def match_result(self, game_id: int) -> MatchResult | None:
        """The result of a finished match, or ``None`` if it has none."""
        if not _fits(game_id):
            return None
        async with self._lock:
            matches = list(
                await self._db.execute_fetchall(
                    "SELECT * FROM matches WHERE game_id = ?", (game_id,)
                )
            )
            players = list(
                await self._db.execute_fetchall(
                    "SELECT seat, user_id, name, side, won FROM match_players"
                    " WHERE game_id = ? ORDER BY seat",
                    (game_id,),
                )
            )
        if not matches:
            return None
        row = matches[0]
        return MatchResult(
            game_id=row["game_id"],
            chat_id=row["chat_id"],
            variant=row["variant"],
            options=json.loads(row["options"]),
            winner_side=row["winner_side"],
            score=_scores(row),
            deals=row["deals"],
            players=tuple(
                MatchPlayer(
                    seat=p["seat"],
                    user_id=p["user_id"],
                    name=p["name"],
                    side=p["side"],
                    won=bool(p["won"]),
                )
                for p in players
            ),
        )

    # -- rankings --------------------------------------------------------------------------

    async def leaderboard(self, chat_id: int, limit: int = 10) -> list[LeaderRow]:
        """The chat's best people by matches won, then win rate, then matches played."""
        if not _fits(chat_id):
            return []
        limit = max(-1, min(limit, _INT64_MAX))  # SQLite: a negative LIMIT is no limit
        rows = await self._fetchall(_LEADERBOARD, (chat_id, limit))
        return [
            LeaderRow(user_id=r["user_id"], name=r["name"], played=r["played"], won=r["won"])
            for r in rows
        ]

    async def user_stats(self, user_id: int) -> tuple[int, int]:
        """Matches a user played and won, across all chats."""
        if not _fits(user_id):
            return 0, 0
        row = await self._fetchone(_USER_STATS, (user_id,))
        assert row is not None
        return int(row["played"]), int(row["won"])

    async def finished_matches(self, chat_id: int) -> int:
        """How many matches the chat has finished."""
        if not _fits(chat_id):
            return 0
        row = await self._fetchone(
            "SELECT COUNT(*) AS n FROM matches WHERE chat_id = ?", (chat_id,)
        )
        assert row is not None
        return int(row["n"])

    # -- the presenter's bookkeeping ----------------------------------------------------------

    async def pending_posts(
        self, chat_id: int, limit: int = 10, thread_id: int | None = None
    ) -> list[OutboxItem]:
        """The posts of a chat (of one forum topic of it) not yet sent, oldest first."""
        if not _fits(chat_id, limit, thread_id or 0):
            return []
        rows = await self._fetchall(
            "SELECT id, chat_id, thread_id, game_id, kind, payload FROM outbox"
            " WHERE chat_id = ? AND thread_id = ? ORDER BY id LIMIT ?",
            (chat_id, thread_id or 0, limit),
        )
        return [
            OutboxItem(
                id=r["id"],
                chat_id=r["chat_id"],
                thread_id=r["thread_id"] or None,
                game_id=r["game_id"],
                kind=r["kind"],
                payload=json.loads(r["payload"]),
            )
            for r in rows
        ]

    async def chats_with_posts(self) -> list[tuple[int, int | None]]:
        """Chats (and forum topics) that have posts waiting (to send them after a restart)."""
        rows = await self._fetchall(
            "SELECT DISTINCT chat_id, thread_id FROM outbox ORDER BY chat_id, thread_id"
        )
        return [(int(r["chat_id"]), int(r["thread_id"]) or None) for r in rows]

    async def post_done(self, post_id: int) -> None:
        """A post was sent (or can never be): remove it from the outbox."""
        async with self._write():
            await self._db.execute("DELETE FROM outbox WHERE id = ?", (post_id,))

    async def game_messages(self, game_id: int) -> list[MessageRef]:
        """The bot's messages of a game."""
        if not _fits(game_id):
            return []
        rows = await self._fetchall(
            "SELECT game_id, kind, seat, chat_id, deal_no, message_id FROM messages"
            " WHERE game_id = ?",
            (game_id,),
        )
        return [
            MessageRef(
                game_id=r["game_id"],
                kind=r["kind"],
                seat=r["seat"],
                chat_id=r["chat_id"],
                deal_no=r["deal_no"],
                message_id=r["message_id"],
            )
            for r in rows
        ]

    async def set_message(self, ref: MessageRef) -> None:
        """Remember one of the bot's messages of a game (replacing the one of that slot)."""
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "INSERT INTO messages (game_id, kind, seat, chat_id, deal_no, message_id,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind, seat) DO UPDATE SET chat_id = excluded.chat_id,"
                " deal_no = excluded.deal_no, message_id = excluded.message_id,"
                " updated_at = excluded.updated_at",
                (ref.game_id, ref.kind, ref.seat, ref.chat_id, ref.deal_no, ref.message_id, now),
            )

    async def forget_message(self, game_id: int, kind: str, seat: int = -1) -> None:
        """Forget the message of a slot (a new one will be sent)."""
        async with self._write():
            await self._db.execute(
                "DELETE FROM messages WHERE game_id = ? AND kind = ? AND seat = ?",
                (game_id, kind, seat),
            )
