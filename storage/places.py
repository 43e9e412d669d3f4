"""Places and their leases: one intake and many workers on one database (issue #32).

A *place* is where one game can be played — a chat, or one forum topic of it — named
``"<chat_id>"`` or ``"<chat_id>/<thread_id>"`` (``kozelbot.core.table.place_name``). The
intake keeps each update with its place (``keep``); a worker handles a place's updates,
timers and computer moves only while it holds the place's lease (``claim``), which it renews
every second (``renew``) and which any worker may take once its ``until`` has passed: a
worker killed mid-deal leaves its places to the others within a lease's length.

``claim`` is one ``INSERT … ON CONFLICT DO UPDATE … WHERE until < now``: the database's row
lock decides between two workers that claim one place at once, and only one row comes back
changed. Times are Unix time on the workers' clocks (hosts kept in step by NTP: a lease is
seconds long, a clock off by a few tens of milliseconds does not matter).

``flood_calls`` is the bot's recent message calls per chat, so that the worker that takes a
group over starts from the calls its last owner made (Telegram counts a group's minute
whichever process sends).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kozelbot.core.table import place_name
from storage.core import Database
from storage.values import fits

_PLACE = (
    "CAST(chat_id AS TEXT) || CASE WHEN thread_id = 0 THEN ''"
    " ELSE '/' || CAST(thread_id AS TEXT) END"
)
"""A row's place in SQL (``place_name``: a thread id of 0 is no topic)."""
LIVE = ("lobby", "playing")
"""Statuses of a game that still needs its place's owner (timers, computers, lobby expiry)."""
LIVE_TOURNAMENT = ("registration", "running")
"""Statuses of a tournament whose clock its place's owner runs."""


class Places:
    """The ``leases``, ``workers`` and ``flood_calls`` tables, and the inbox by place."""

    def __init__(self, database: Database) -> None:
        self._db = database

    # -- the intake ------------------------------------------------------------------------

    async def keep(self, updates: Sequence[tuple[int, str, str]]) -> None:
        """Write a batch of updates — (id, JSON, place) — in one transaction; an update kept
        already stays as it is (Telegram sends an unconfirmed update again)."""
        if not updates:
            return
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.executemany(
                "INSERT INTO inbox (update_id, payload, received_at, place) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (update_id) DO NOTHING",
                [(i, payload, now, place) for i, payload, place in updates],
            )

    async def game_place(self, game_id: int) -> str | None:
        """The place of a game (any status), if there is one."""
        if not fits(game_id):
            return None
        row = await self._db.fetchone(
            "SELECT chat_id, thread_id FROM games WHERE game_id = ?", (game_id,)
        )
        return None if row is None else place_name(int(row[0]), _thread(row[1]))

    async def seat_place(self, user_id: int) -> str | None:
        """The place of the live game a person sits at, if any."""
        if not fits(user_id):
            return None
        row = await self._db.fetchone(
            "SELECT g.chat_id, g.thread_id FROM live_seats s JOIN games g"
            " ON g.game_id = s.game_id WHERE s.user_id = ?",
            (user_id,),
        )
        return None if row is None else place_name(int(row[0]), _thread(row[1]))

    # -- a worker --------------------------------------------------------------------------

    async def beat(self, worker: str, now: float, dead_after: float) -> int:
        """Note that ``worker`` is alive; how many workers are (seen within ``dead_after``
        seconds, this one included). Workers gone longer are forgotten."""
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO workers (worker, seen_at) VALUES (?, ?)"
                " ON CONFLICT (worker) DO UPDATE SET seen_at = excluded.seen_at",
                (worker, now),
            )
            await tx.execute("DELETE FROM workers WHERE seen_at < ?", (now - 10 * dead_after,))
            row = await tx.fetchone(
                "SELECT COUNT(*) FROM workers WHERE seen_at >= ?", (now - dead_after,)
            )
        return max(1, int(row[0]) if row is not None else 1)

    async def leave(self, worker: str) -> None:
        """A worker stops: its heartbeat and leases go (the others take its places at once)."""
        async with self._db.write() as tx:
            await tx.execute("DELETE FROM leases WHERE worker = ?", (worker,))
            await tx.execute("DELETE FROM workers WHERE worker = ?", (worker,))

    async def renew(self, worker: str, until: float) -> set[str]:
        """Extend every lease ``worker`` still holds to ``until``; the places it holds."""
        async with self._db.write() as tx:
            await tx.execute("UPDATE leases SET until = ? WHERE worker = ?", (until, worker))
            rows = await tx.fetchall("SELECT place FROM leases WHERE worker = ?", (worker,))
        return {str(row[0]) for row in rows}

    async def claim(self, worker: str, place: str, now: float, until: float) -> bool:
        """Take the lease of ``place`` if nobody holds it or its holder's has run out."""
        async with self._db.write() as tx:
            done = await tx.execute(
                "INSERT INTO leases (place, worker, until) VALUES (?, ?, ?)"
                " ON CONFLICT (place) DO UPDATE SET worker = excluded.worker,"
                " until = excluded.until WHERE leases.until < ?",
                (place, worker, until, now),
            )
        return done.rowcount > 0

    async def release(self, worker: str, places: Iterable[str]) -> None:
        """Give up ``worker``'s leases of ``places``."""
        names = [(p, worker) for p in places]
        if not names:
            return
        async with self._db.write() as tx:
            await tx.executemany("DELETE FROM leases WHERE place = ? AND worker = ?", names)

    async def _needing(self) -> set[str]:
        """The places with updates waiting, a live game or tournament, or posts owed."""
        rows = await self._db.fetchall(
            "SELECT place FROM inbox WHERE place IS NOT NULL"
            f" UNION SELECT {_PLACE} FROM games WHERE status IN (?, ?)"
            f" UNION SELECT {_PLACE} FROM outbox"
            f" UNION SELECT {_PLACE} FROM tournaments WHERE status IN (?, ?)",
            (*LIVE, *LIVE_TOURNAMENT),
        )
        return {str(row[0]) for row in rows}

    async def wanted(self, now: float) -> tuple[set[str], int]:
        """The places that need an owner and have none (or one whose lease ran out): those
        with updates waiting, a live game or tournament, or posts owed; and how many places
        the workers hold (for each worker's fair share)."""
        needing = await self._needing()
        held = {
            str(row[0])
            for row in await self._db.fetchall("SELECT place FROM leases WHERE until >= ?", (now,))
        }
        return needing - held, len(held)

    async def busy(self, places: Iterable[str]) -> set[str]:
        """Which of ``places`` still have something to do (the rest may be given up)."""
        names = set(places)
        return names & await self._needing() if names else set()

    async def updates_after(self, update_id: int) -> list[tuple[int, str, str]]:
        """Updates kept with a place after ``update_id``, oldest first: (id, JSON, place)."""
        rows = await self._db.fetchall(
            "SELECT update_id, payload, place FROM inbox WHERE update_id > ?"
            " AND place IS NOT NULL ORDER BY update_id",
            (update_id,),
        )
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    async def updates_at(self, place: str) -> list[tuple[int, str]]:
        """The updates of one place still kept, oldest first: (id, JSON)."""
        rows = await self._db.fetchall(
            "SELECT update_id, payload FROM inbox WHERE place = ? ORDER BY update_id", (place,)
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def last_update(self) -> int:
        """The newest update id kept (0 if none)."""
        row = await self._db.fetchone("SELECT MAX(update_id) FROM inbox")
        return int(row[0]) if row is not None and row[0] is not None else 0

    # -- the bot's flood windows, shared -----------------------------------------------------

    async def record_calls(self, calls: Sequence[tuple[float, int]], horizon: float) -> None:
        """Write message calls — (Unix time, chat) — and forget those older than ``horizon``
        seconds."""
        if not calls:
            return
        async with self._db.write() as tx:
            await tx.executemany("INSERT INTO flood_calls (at, chat_id) VALUES (?, ?)", calls)
            await tx.execute("DELETE FROM flood_calls WHERE at < ?", (self._db.clock() - horizon,))

    async def calls_to(self, chat_ids: Iterable[int], since: float) -> list[tuple[float, int]]:
        """The message calls to these chats since ``since``, oldest first."""
        ids = [c for c in chat_ids if fits(c)]
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetchall(
            f"SELECT at, chat_id FROM flood_calls WHERE at >= ? AND chat_id IN ({marks})"
            " ORDER BY at",
            (since, *ids),
        )
        return [(float(r[0]), int(r[1])) for r in rows]


def _thread(value: object) -> int | None:
    """A stored thread id as a topic (0: none)."""
    return int(value) or None if isinstance(value, int | str) else None
