"""Tournaments: each saved whole as the JSON of ``kozelbot.core.tournament.model.Tournament`` with
an optimistic version, and the match opened for each of its tables.

This is the director's ``kozelbot.tables.repository.TournamentRepository``. A save must carry the
stored version plus one, else ``StaleTournament``; the partial index of migration 010 allows
one live tournament (registration or running) per group, else ``TournamentAlreadyRunning``.

A tournament's table becomes a match through ``Games.create_game`` with ``Table.tournament``
set: in the game's own transaction, ``open_game`` looks for a match the table already has
(then ``TableAlreadyOpen``) and ``claim_table`` records the new one in
``tournament_tables``, whose key refuses a second match for the same table.
"""

from __future__ import annotations

from kozelbot.core.table import TournamentTable
from kozelbot.core.tournament.model import Status, Tournament
from kozelbot.tables.repository import StaleTournament, TournamentAlreadyRunning
from storage.core import Database, Reader, Transaction
from storage.errors import Duplicate
from storage.values import INT64_MAX, fits

_LIVE_STATUSES = "('registration', 'running')"

# A refused row names the indexed column (``Duplicate.key``), not the partial index.
_LIVE_CONFLICT = "tournaments.chat_id"


def _is_live_conflict(exc: Duplicate) -> bool:
    """Whether the one-live-tournament-per-group index refused the write."""
    return exc.key == _LIVE_CONFLICT


async def open_game(reader: Reader, key: TournamentTable) -> int | None:
    """The match a tournament's table already has, if any (inside ``Games.create_game``'s
    write, before the game row: a table opened again reports its match, not the topic or
    group its match still occupies)."""
    row = await reader.fetchone(
        "SELECT game_id FROM tournament_tables"
        " WHERE tournament_id = ? AND round_no = ? AND table_no = ?",
        (key.tournament_id, key.round_no, key.table_no),
    )
    return None if row is None else int(row["game_id"])


async def claim_table(tx: Transaction, key: TournamentTable, game_id: int) -> None:
    """Record ``game_id`` as the match of a tournament's table (inside ``Games.create_game``'s
    write). A table with a match already, or a key naming no stored tournament, is an
    ``storage.errors.Refused`` and the whole write is undone."""
    await tx.execute(
        "INSERT INTO tournament_tables (tournament_id, round_no, table_no, game_id)"
        " VALUES (?, ?, ?, ?)",
        (key.tournament_id, key.round_no, key.table_no, game_id),
    )


class Tournaments:
    """The tournaments of every group and their tables' matches (``TournamentRepository``)."""

    def __init__(self, database: Database) -> None:
        """Keep tournaments through the shared connection."""
        self._db = database

    # -- writes ----------------------------------------------------------------------------

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Insert a new tournament; return a copy with its ``tournament_id`` (and
        ``created_at``, unless set) filled in.

        Raises ``TournamentAlreadyRunning`` if it is live and the group has a live one.
        """
        now = self._db.clock()
        created_at = tournament.created_at or now
        async with self._db.write() as tx:
            try:
                rows = await tx.fetchall(
                    "INSERT INTO tournaments (chat_id, thread_id, status, version, data,"
                    " created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, '', ?, ?, ?)"
                    " RETURNING tournament_id",
                    (
                        tournament.chat_id,
                        tournament.thread_id or 0,
                        tournament.status.value,
                        tournament.version,
                        created_at,
                        now,
                        tournament.finished_at,
                    ),
                )
            except Duplicate as exc:
                if _is_live_conflict(exc):
                    raise TournamentAlreadyRunning(tournament.chat_id) from exc
                raise
            tournament_id = int(rows[0][0])
            created = tournament.model_copy(
                update={"tournament_id": tournament_id, "created_at": created_at}, deep=True
            )
            await tx.execute(
                "UPDATE tournaments SET data = ? WHERE tournament_id = ?",
                (created.to_json(), tournament_id),
            )
        return created

    async def save_tournament(self, tournament: Tournament) -> None:
        """Save a changed tournament whole: its document, status, topic and ``finished_at``.

        The caller bumps ``tournament.version`` first: the stored version must be one less,
        else ``StaleTournament`` and nothing is written. Making a tournament live again in a
        group that has another live one raises ``TournamentAlreadyRunning``.
        """
        if tournament.tournament_id <= 0:
            raise ValueError("the tournament has no tournament_id: create_tournament it first")
        now = self._db.clock()
        async with self._db.write() as tx:
            try:
                cursor = await tx.execute(
                    "UPDATE tournaments SET data = ?, status = ?, version = ?, thread_id = ?,"
                    " finished_at = ?, updated_at = ? WHERE tournament_id = ? AND version = ?",
                    (
                        tournament.to_json(),
                        tournament.status.value,
                        tournament.version,
                        tournament.thread_id or 0,
                        tournament.finished_at,
                        now,
                        tournament.tournament_id,
                        tournament.version - 1,
                    ),
                )
            except Duplicate as exc:
                if _is_live_conflict(exc):
                    raise TournamentAlreadyRunning(tournament.chat_id) from exc
                raise
            if cursor.rowcount != 1:
                raise StaleTournament(tournament.tournament_id)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup with a new id: its tournaments follow it (see
        ``move_chat``). Running it again, or for a group with none, changes nothing."""
        async with self._db.write() as tx:
            await self.move_chat(tx, old_chat_id, new_chat_id)

    async def move_chat(self, tx: Transaction, old_chat_id: int, new_chat_id: int) -> None:
        """Move a group's tournaments to its new id inside a write (``Games.migrate_chat``'s,
        to move everything of a group at once), each one's version bumped.

        If the new id has a live tournament already (someone started one there first), the
        old id's live one cannot follow as live: it is stopped, as ``Games.migrate_chat``
        stops a game. Its tables' matches move with the games.
        """
        if not fits(old_chat_id, new_chat_id):
            raise ValueError(f"a chat id outside a 64-bit integer: {old_chat_id} → {new_chat_id}")
        now = self._db.clock()
        rows = await tx.fetchall(
            "SELECT data FROM tournaments WHERE chat_id = ? ORDER BY tournament_id", (old_chat_id,)
        )
        if not rows:
            return
        taken = await tx.fetchone(
            f"SELECT 1 FROM tournaments WHERE chat_id = ? AND status IN {_LIVE_STATUSES}",
            (new_chat_id,),
        )
        for row in rows:
            old = Tournament.from_json(row["data"])
            update: dict[str, object] = {"chat_id": new_chat_id, "version": old.version + 1}
            if taken is not None and old.status in (Status.REGISTRATION, Status.RUNNING):
                update |= {"status": Status.STOPPED, "finished_at": now}
            moved = old.model_copy(update=update)
            await tx.execute(
                "UPDATE tournaments SET chat_id = ?, status = ?, finished_at = ?, version = ?,"
                " updated_at = ?, data = ? WHERE tournament_id = ?",
                (
                    new_chat_id,
                    moved.status.value,
                    moved.finished_at,
                    moved.version,
                    now,
                    moved.to_json(),
                    moved.tournament_id,
                ),
            )

    # -- reads -----------------------------------------------------------------------------

    async def tournament(self, tournament_id: int) -> Tournament | None:
        """A tournament by id, whatever its status."""
        if not fits(tournament_id):
            return None
        row = await self._db.fetchone(
            "SELECT data FROM tournaments WHERE tournament_id = ?", (tournament_id,)
        )
        return None if row is None else Tournament.from_json(row["data"])

    async def live_tournament(self, chat_id: int) -> Tournament | None:
        """The group's tournament in registration or running, if any (one at most)."""
        if not fits(chat_id):
            return None
        row = await self._db.fetchone(
            f"SELECT data FROM tournaments WHERE chat_id = ? AND status IN {_LIVE_STATUSES}",
            (chat_id,),
        )
        return None if row is None else Tournament.from_json(row["data"])

    async def live_tournaments(self) -> list[Tournament]:
        """Every tournament in registration or running, oldest first (to resume them at
        start-up)."""
        rows = await self._db.fetchall(
            f"SELECT data FROM tournaments WHERE status IN {_LIVE_STATUSES} ORDER BY tournament_id"
        )
        return [Tournament.from_json(row["data"]) for row in rows]

    async def tournaments_in(
        self, chat_id: int, limit: int = 10, before_id: int | None = None
    ) -> list[Tournament]:
        """A group's tournaments, newest first, at most ``limit`` of them; with
        ``before_id``, only those older than it (the next page of /history)."""
        if limit <= 0 or not fits(chat_id, before_id or 0):
            return []
        older = "" if before_id is None else " AND tournament_id < ?"
        params = (chat_id,) if before_id is None else (chat_id, before_id)
        rows = await self._db.fetchall(
            f"SELECT data FROM tournaments WHERE chat_id = ?{older}"
            " ORDER BY tournament_id DESC LIMIT ?",
            (*params, min(limit, INT64_MAX)),
        )
        return [Tournament.from_json(row["data"]) for row in rows]

    async def game_of_table(self, tournament_id: int, round_no: int, table_no: int) -> int | None:
        """The match opened for a tournament's table, if it was opened."""
        if not fits(tournament_id, round_no, table_no):
            return None
        async with self._db.read() as reader:
            return await open_game(
                reader,
                TournamentTable(tournament_id=tournament_id, round_no=round_no, table_no=table_no),
            )
