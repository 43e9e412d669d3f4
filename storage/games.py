"""Games: a live game saved whole with its moves, deals, result and posts in one transaction,
and read back — by id, by chat or forum topic, by the person seated at it, or all live ones.

This is the game service's ``kozelbot.tables.repository.Repository``. A game is stored as the JSON
of ``kozelbot.core.table.Table`` with optimistic concurrency: each save must carry the stored
version plus one, else ``StaleVersion``. ``live_seats`` lists the people of every live game
(a person sits at one at most, else ``SeatTaken``); the partial index of migration 005 allows
one live game per chat and topic (else ``GameAlreadyRunning``).

``save_game`` is the one write of a move: the table, its moves and deals, the result with
its ratings and counts (``storage.ranking``), the warnings of people who left or finished
(``storage.people``) and the posts (``storage.posts``), all or nothing. Deals and results of
more than two sides keep every side's figures in a JSON column beside the two-side columns
(migration 004).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kozelbot.core.records import DealRecord, MatchResult, MoveRecord, OutboxItem
from kozelbot.core.table import Table
from storage import inbox, ranking, regroup, tournaments
from storage.core import Database, Transaction
from storage.errors import (
    Duplicate,
    GameAlreadyRunning,
    SeatTaken,
    StaleVersion,
    TableAlreadyOpen,
)
from storage.people import People
from storage.posts import Posts
from storage.values import fits, match_score, sides_json, to_json

_LIVE_STATUSES = "('lobby', 'playing')"

# A refused row names the indexed columns (``Duplicate.key``), not the partial index.
_LIVE_CONFLICT = "games.chat_id, games.thread_id"
CHANGES = "kozel_games"
"""PostgreSQL's channel a saved game's id is notified on, at its commit (``storage.listen``:
the other workers forget their copy, redraw, and the owner of its place takes it up)."""
_SEAT_CONFLICT = "live_seats.user_id"

_MOVE_INSERT = (
    "INSERT INTO moves (game_id, seq, deal_no, seat, action, source, user_id, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)

_DEAL_INSERT = (
    "INSERT INTO deals (game_id, deal_no, outcome, points_0, points_1, award_0, award_1,"
    " multiplier, score_0, score_1, trace, created_at, sides)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _deal_row(deal: DealRecord, now: float) -> tuple[Any, ...]:
    """The ``_DEAL_INSERT`` parameters of a deal."""
    return (
        deal.game_id,
        deal.deal_no,
        deal.outcome,
        *deal.points[:2],
        *deal.award[:2],
        deal.multiplier,
        *deal.score[:2],
        to_json(deal.trace),
        now,
        sides_json(points=deal.points, award=deal.award, score=deal.score),
    )


def _deal_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A ``deals`` row with the fields of its record: every side's figures from ``sides``,
    else the two columns; the trace decoded."""
    sides = json.loads(row["sides"]) if row["sides"] else {}
    row["points"] = sides.get("points", (row["points_0"], row["points_1"]))
    row["award"] = sides.get("award", (row["award_0"], row["award_1"]))
    row["score"] = sides.get("score", (row["score_0"], row["score_1"]))
    row["trace"] = json.loads(row["trace"])
    return row


def _is_live_conflict(exc: Duplicate) -> bool:
    return exc.key == _LIVE_CONFLICT


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


class Games:
    """The games of every chat, their logs and results (``Repository``)."""

    def __init__(
        self,
        database: Database,
        *,
        people: People,
        posts: Posts,
        followers: Sequence[regroup.ChatFollower] = (),
    ) -> None:
        """Keep games through the shared connection; ``people`` and ``posts`` write their
        parts of a save; ``followers`` (tournaments, /notify subscribers) move with a group
        whose id changes, in the same transaction."""
        self._db = database
        self._people = people
        self._posts = posts
        self._followers = tuple(followers)
        self._seated: dict[int, frozenset[int]] = {}
        """Game → the people ``live_seats`` lists for it, as last committed (most saves seat
        nobody new, and then ``live_seats`` is not touched)."""

    # -- writes ----------------------------------------------------------------------------

    async def create_game(self, table: Table) -> Table:
        """Insert a new game; return a copy with its ``game_id`` (and ``created_at``) set.

        Raises ``GameAlreadyRunning`` if the chat already has a lobby or playing game. A
        tournament's table (``table.tournament``) is recorded as opened in the same
        transaction; if it has a match already, ``TableAlreadyOpen`` names that match (before
        any other refusal) and nothing is written.
        """
        now = self._db.clock()
        key = table.tournament
        async with self._db.write() as tx:
            if key is not None and (opened := await tournaments.open_game(tx, key)) is not None:
                raise TableAlreadyOpen(opened)
            try:
                rows = await tx.fetchall(
                    "INSERT INTO games (chat_id, thread_id, status, version, deadline, data,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, '', ?, ?)"
                    " RETURNING game_id",
                    (
                        table.chat_id,
                        table.thread_id or 0,
                        table.status.value,
                        table.version,
                        table.deadline,
                        now,
                        now,
                    ),
                )
            except Duplicate as exc:
                if _is_live_conflict(exc):
                    raise GameAlreadyRunning(table.chat_id) from exc
                raise
            game_id = int(rows[0][0])
            created = table.model_copy(
                update={"game_id": game_id, "created_at": table.created_at or now}, deep=True
            )
            await tx.execute(
                "UPDATE games SET data = ? WHERE game_id = ?", (created.to_json(), game_id)
            )
            if key is not None:
                await tournaments.claim_table(tx, key, game_id)
            seated = await self._sync_live_seats(tx, created)
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
        ``storage.errors.Duplicate``. ``abandoned`` (people who left the running match)
        gets one warning; a result clears one warning of each person who played it.
        """
        _check_belongs(table.game_id, moves, deals, result)
        now = self._db.clock()
        async with self._db.write() as tx:
            try:
                cursor = await tx.execute(
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
            except Duplicate as exc:
                if _is_live_conflict(exc):
                    raise GameAlreadyRunning(table.chat_id) from exc
                raise
            if cursor.rowcount != 1:
                raise StaleVersion(table.game_id)
            seated = await self._sync_live_seats(tx, table)
            if moves:
                await tx.executemany(
                    _MOVE_INSERT,
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
                await self.add_deals(tx, deals, now)
            if result is not None:
                await self.add_result(tx, result, now)
            if outbox:
                await self._posts.add(tx, table.game_id, outbox, now)
            for abandoned_by in abandoned:
                await self._people.add_warning(tx, abandoned_by, now)
                await ranking.count_abandon(tx, table, abandoned_by, now)
            await inbox.settle(tx)  # the press that made it is handled: never twice
            if self._db.dialect == "postgresql":  # the other workers hear of it at COMMIT
                await tx.execute(f"NOTIFY {CHANGES}, '{table.game_id}'")
        self._seated_committed(table.game_id, seated)
        if result is not None or abandoned:
            players = [p.user_id for p in result.players] if result is not None else []
            self._people.forget(*abandoned, *players)

    async def add_deals(self, tx: Transaction, deals: Sequence[DealRecord], now: float) -> None:
        """Inside a write: log scored deals (``save_game``; the query benchmark's bulk fill)."""
        await tx.executemany(_DEAL_INSERT, [_deal_row(d, now) for d in deals])

    async def add_result(self, tx: Transaction, result: MatchResult, now: float) -> None:
        """Inside a write: a match result with what comes with it — its ratings and counts,
        and one warning less for each person who played it (``save_game``; the query
        benchmark's bulk fill too). ``People.forget`` them once it committed."""
        await tx.execute(
            "INSERT INTO matches (game_id, chat_id, variant, options, winner_side,"
            " score_0, score_1, deals, finished_at, scores)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                result.game_id,
                result.chat_id,
                result.variant,
                to_json(result.options),
                result.winner_side,
                *result.score[:2],
                result.deals,
                now,
                sides_json(score=result.score),
            ),
        )
        await tx.executemany(
            "INSERT INTO match_players (game_id, seat, user_id, name, side, won)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (result.game_id, p.seat, p.user_id, p.name, p.side, int(p.won))
                for p in result.players
            ],
        )
        await ranking.count_result(tx, result, now)
        await self._people.take_warning(
            tx, (p.user_id for p in result.players if p.user_id is not None)
        )

    async def _sync_live_seats(self, tx: Transaction, table: Table) -> frozenset[int]:
        """Rewrite the game's rows of ``live_seats`` (inside a write) when its people changed:
        its people while it is live, none once it ended; returns them. ``SeatTaken`` if one
        of them sits at another live game."""
        seated = table.people if table.status.live else frozenset()
        if self._seated.get(table.game_id) == seated:
            return seated
        await tx.execute("DELETE FROM live_seats WHERE game_id = ?", (table.game_id,))
        for user_id in sorted(seated):
            try:
                await tx.execute(
                    "INSERT INTO live_seats (user_id, game_id) VALUES (?, ?)",
                    (user_id, table.game_id),
                )
            except Duplicate as exc:
                if exc.key == _SEAT_CONFLICT:
                    raise SeatTaken(user_id) from exc
                raise
        return seated

    def _seated_committed(self, game_id: int, seated: frozenset[int]) -> None:
        """Remember what ``live_seats`` holds for a game once its transaction committed."""
        if seated:
            self._seated[game_id] = seated
        else:
            self._seated.pop(game_id, None)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup with a new id: move its language, games and results.

        Games keep playing in the new chat; their lobby and table messages belonged to the old
        chat, so they are forgotten (new ones are sent), each game's version is bumped, and
        posts not yet sent go to the new chat; the chat's settings and board follow it.
        Running it again, or for a chat with nothing stored, changes nothing.
        """
        now = self._db.clock()
        async with self._db.write() as tx:
            await self._people.move_chat(tx, old_chat_id, new_chat_id, now)
            await regroup.move_games(tx, old_chat_id, new_chat_id, now)
            await self._posts.move_chat(tx, old_chat_id, new_chat_id)
            await tx.execute(
                "UPDATE matches SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
            await ranking.move_chat(tx, old_chat_id, new_chat_id)
            for follower in self._followers:
                await follower.move_chat(tx, old_chat_id, new_chat_id)
        self._seated.clear()  # games stopped here: read live_seats afresh

    # -- reads -----------------------------------------------------------------------------

    async def game(self, game_id: int) -> Table | None:
        """A game by id, whatever its status."""
        if not fits(game_id):
            return None
        row = await self._db.fetchone("SELECT data FROM games WHERE game_id = ?", (game_id,))
        return None if row is None else Table.from_json(row["data"])

    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The lobby or playing game of a chat (of one forum topic of it), if any."""
        if not fits(chat_id, thread_id or 0):
            return None
        row = await self._db.fetchone(
            "SELECT data FROM games WHERE chat_id = ? AND thread_id = ?"
            f" AND status IN {_LIVE_STATUSES}",
            (chat_id, thread_id or 0),
        )
        return None if row is None else Table.from_json(row["data"])

    async def live_seat(self, user_id: int) -> Table | None:
        """The lobby or running game a person sits at, if any (one at most)."""
        if not fits(user_id):
            return None
        row = await self._db.fetchone(
            "SELECT g.data FROM live_seats AS s JOIN games AS g ON g.game_id = s.game_id"
            " WHERE s.user_id = ?",
            (user_id,),
        )
        return None if row is None else Table.from_json(row["data"])

    async def live_games_in(self, chat_id: int) -> list[Table]:
        """The lobby or playing games of one chat, one per forum topic, by topic (the chat's
        own, outside topics, first): an index lookup, whatever else the chat played."""
        if not fits(chat_id):
            return []
        # In the order of the partial index games_one_live_per_place (chat_id, thread_id),
        # which holds live games only (ORDER BY game_id would pick games_by_chat: every game).
        rows = await self._db.fetchall(
            f"SELECT data FROM games WHERE chat_id = ? AND status IN {_LIVE_STATUSES}"
            " ORDER BY thread_id",
            (chat_id,),
        )
        return [Table.from_json(row["data"]) for row in rows]

    async def live_games(self) -> list[Table]:
        """Every lobby or playing game, oldest first (to resume them at start-up)."""
        rows = await self._db.fetchall(
            f"SELECT data FROM games WHERE status IN {_LIVE_STATUSES} ORDER BY game_id"
        )
        return [Table.from_json(row["data"]) for row in rows]

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """A game's move log in order."""
        if not fits(game_id):
            return []
        rows = await self._db.fetchdicts(
            "SELECT game_id, seq, deal_no, seat, action, source, user_id FROM moves"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [MoveRecord.model_validate(row) for row in rows]

    async def deals(self, game_id: int) -> list[DealRecord]:
        """A game's scored deals in order."""
        if not fits(game_id):
            return []
        rows = await self._db.fetchdicts(
            "SELECT * FROM deals WHERE game_id = ? ORDER BY deal_no", (game_id,)
        )
        return [DealRecord.model_validate(_deal_fields(row)) for row in rows]

    async def match_result(self, game_id: int) -> MatchResult | None:
        """The result of a finished match, or ``None`` if it has none."""
        if not fits(game_id):
            return None
        async with self._db.read() as reader:
            row = await reader.fetchone(
                "SELECT game_id, chat_id, variant, options, winner_side, score_0, score_1,"
                " scores, deals FROM matches WHERE game_id = ?",
                (game_id,),
            )
            players = await reader.fetchdicts(
                "SELECT seat, user_id, name, side, won FROM match_players"
                " WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        if row is None:
            return None
        match = dict(row)
        match["options"] = json.loads(match["options"])
        match["score"] = match_score(match)
        match["players"] = players
        return MatchResult.model_validate(match)
