"""The tournament director: every change of a tournament goes through here, one at a time
per tournament (as ``GameService`` does for tables). No Telegram, no SQL: storage is the
``TournamentRepository`` protocol, the tables are the game service's, a forum topic is asked
of ``Topics``.

The life of a tournament: ``announce`` (registration: ``register``, ``confirm`` a partner,
``withdraw``) → ``begin`` draws round 1 → ``open_due`` opens its tables (a forum: all at
once, each in a topic of its own; a plain group: one after another) → each match's end is
``record``-ed → a finished round draws the next (``advance``) → after the last, a champion.
``overdue`` lets the clock decide matches past their time. Every step is saved before the
next one is taken, and each is idempotent, so ``resume`` after a kill -9 picks up wherever
it stopped: a round is drawn once (stored before any table opens), a table opens once
(storage keeps one match per tournament, round and table).
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import Callable, Sequence
from typing import Protocol

from kozelbot.core.table import Table, TournamentTable
from kozelbot.core.tournament.draw import draw_rotating
from kozelbot.core.tournament.model import (
    NO_SHOW_SECONDS,
    Entrant,
    Format,
    Round,
    Status,
    TableDraw,
    Tournament,
)
from kozelbot.core.tournament.pairing import pair_round
from kozelbot.core.tournament.standings import name_of, standings
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.repository import TournamentAlreadyRunning, TournamentRepository
from kozelbot.tables.service import GameService, TableError
from kozelbot.tables.tournament_words import TournamentError, parse_words

MAX_ENTRANTS = 64


class Topics(Protocol):
    """Where a forum's tables live: the presenter opens a topic per table."""

    async def open_topic(self, t: Tournament, round_no: int, table_no: int) -> int: ...


class Director:
    """Serialised operations on tournaments; one ``asyncio.Lock`` per tournament."""

    def __init__(
        self,
        repo: TournamentRepository,
        service: GameService,
        *,
        clock: Callable[[], float],
        rng: random.Random,
        minute: float = 60.0,
    ) -> None:
        """``minute``: seconds in a minute of the tournament's clock (``round_time``,
        ``start``, the no-show wait); tests shorten it."""
        self.minute = minute
        self.repo = repo
        self.service = service
        self.clock = clock
        self.rng = rng
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, tournament_id: int) -> asyncio.Lock:
        """The tournament's lock (alive while someone holds or waits for it)."""
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        return lock

    async def live(self, chat_id: int) -> Tournament | None:
        """The group's tournament in registration or running, if any."""
        return await self.repo.live_tournament(chat_id)

    # -- registration --------------------------------------------------------------------

    async def announce(
        self,
        chat_id: int,
        thread_id: int | None,
        *,
        forum: bool,
        chat_title: str | None,
        creator_id: int,
        words: Sequence[str],
        default_variant: str,
    ) -> Tournament:
        """Open registration (``running`` if the group has a live tournament)."""
        existing = await self.repo.live_tournament(chat_id)
        if existing is not None:
            raise TournamentError("running", existing)
        fields = parse_words(words, default_variant)
        start = fields.pop("start", None)
        now = self.clock()
        t = Tournament(
            chat_id=chat_id,
            thread_id=thread_id,
            forum=forum,
            chat_title=chat_title,
            creator_id=creator_id,
            seed=self.rng.getrandbits(48),
            created_at=now,
            starts_at=None if start is None else now + self.minute * start,
            **fields,
        )
        try:
            return await self.repo.create_tournament(t)
        except TournamentAlreadyRunning:
            raise TournamentError("running", await self.repo.live_tournament(chat_id)) from None

    async def register(
        self, tournament_id: int, user_id: int, name: str, partner: tuple[int, str] | None = None
    ) -> Tournament:
        """Someone joins; in ``pairs`` they name their ``partner`` (id and name), who then
        confirms. Joining again with another partner replaces an unconfirmed invitation."""
        async with self.lock(tournament_id):
            t = await self._load(tournament_id, Status.REGISTRATION)
            mine = t.entrant(user_id)
            if mine is not None and (t.format is Format.ROTATING or mine.confirmed):
                raise TournamentError("registered", t)
            if len(t.entrants) >= MAX_ENTRANTS:
                raise TournamentError("full", t)
            if t.format is Format.PAIRS:
                if partner is None or partner[0] == user_id or _paired(t, partner[0]):
                    raise TournamentError("partner", t)
                t.entrants = [e for e in t.entrants if e.user_id != user_id]
                t.entrants.append(Entrant(user_id=user_id, name=name, partner_id=partner[0]))
            else:
                t.entrants.append(Entrant(user_id=user_id, name=name, confirmed=True))
            return await self._save(t)

    async def confirm(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        """The person named as a partner accepts: the pair is registered."""
        async with self.lock(tournament_id):
            t = await self._load(tournament_id, Status.REGISTRATION)
            inviter = next(
                (e for e in t.entrants if e.partner_id == user_id and not e.confirmed), None
            )
            if inviter is None:
                raise TournamentError("no_invite", t)
            if _paired(t, user_id):
                raise TournamentError("registered", t)
            t.entrants = [e for e in t.entrants if e.user_id not in (user_id, inviter.user_id)]
            t.entrants += [
                inviter.model_copy(update={"confirmed": True}),
                Entrant(user_id=user_id, name=name, partner_id=inviter.user_id, confirmed=True),
            ]
            return await self._save(t)

    async def withdraw(self, tournament_id: int, user_id: int) -> Tournament:
        """Someone leaves before the start (a pair leaves together)."""
        async with self.lock(tournament_id):
            t = await self._load(tournament_id, Status.REGISTRATION)
            mine = t.entrant(user_id)
            if mine is None:
                raise TournamentError("not_registered", t)
            gone = {user_id} | ({mine.partner_id} if mine.confirmed and mine.partner_id else set())
            t.entrants = [e for e in t.entrants if e.user_id not in gone]
            return await self._save(t)

    async def begin(self, tournament_id: int) -> Tournament:
        """Registration closes: the pairs are fixed and round 1 is drawn (``too_few``)."""
        async with self.lock(tournament_id):
            t = await self._load(tournament_id, Status.REGISTRATION)
            if t.format is Format.PAIRS:
                t.entrants = [e for e in t.entrants if e.confirmed]
                t.pairs = _pairs_of(t.entrants)
                enough = len(t.pairs) >= 2
            else:
                enough = len(t.entrants) >= (2 if t.computer_fill else 4)
            if not enough:
                raise TournamentError("too_few", t)
            t.status = Status.RUNNING
            t.starts_at = None
            t.played.append(self._draw(t))
            return await self._save(t)

    async def stop(self, tournament_id: int) -> Tournament:
        """An admin ends the tournament; its live tables are the caller's to stop."""
        async with self.lock(tournament_id):
            t = await self._load(tournament_id)
            t.status = Status.STOPPED
            t.finished_at = self.clock()
            return await self._save(t)

    async def mark(
        self,
        tournament_id: int,
        *,
        message: tuple[str, int] | None = None,
        announced: int | None = None,
        pictured: int | None = None,
    ) -> Tournament:
        """Keep what the group was shown: a message's id by kind, the rounds announced and
        pictured so far (never moved back)."""
        async with self.lock(tournament_id):
            t = await self._load(tournament_id)
            if message is not None:
                t.messages[message[0]] = message[1]
            if announced is not None:
                t.announced = max(t.announced, announced)
            if pictured is not None:
                t.pictured = max(t.pictured, pictured)
            return await self._save(t)

    # -- rounds and tables ---------------------------------------------------------------

    async def open_due(self, tournament_id: int, topics: Topics) -> list[Table]:
        """Open the current round's tables that should be open and are not: in a forum all
        of them, each in its own topic; in a plain group the next one once the group has no
        live game. Returns the tables opened (lobbies, for the presenter)."""
        opened: list[Table] = []
        async with self.lock(tournament_id):
            t = await self._load(tournament_id, Status.RUNNING)
            current = t.current
            if current is None:
                return []
            for draw in current.tables:
                if draw.result is not None or draw.game_id is not None:
                    continue
                if not t.forum and any(
                    d.game_id is not None and d.result is None for d in current.tables
                ):
                    break  # a plain group plays one table at a time
                if t.forum and draw.thread_id is None:
                    draw.thread_id = await topics.open_topic(t, current.number, draw.number)
                    t = await self._save(t)
                    current = t.current
                    assert current is not None
                    draw = current.tables[draw.number - 1]
                table = await self._open(t, current, draw)
                if table is None:
                    break  # the group is busy with another game: tried again later
                opened.append(table)
                t = await self._save(t)
                current = t.current
                assert current is not None
        return opened

    async def _open(self, t: Tournament, current: Round, draw: TableDraw) -> Table | None:
        """The table's match (the same one if it was opened before a restart)."""
        key = TournamentTable(
            tournament_id=t.tournament_id, round_no=current.number, table_no=draw.number
        )
        words = [f"{k}={v}" for k, v in t.options.items()]
        try:
            table = await self.service.lobby.new_game(
                t.chat_id,
                t.creator_id,
                words,
                t.variant,
                t.chat_title,
                thread_id=draw.thread_id,
                tournament=key,
                reserved=list(draw.seats),
                reserved_names=["" if user is None else name_of(t, user) for user in draw.seats],
                wait=NO_SHOW_SECONDS / 60 * self.minute,
            )
        except TableError as busy:
            if busy.code == "game_running":
                return None
            raise
        now = self.clock()
        draw.game_id = table.game_id
        draw.opened_at = now
        if t.forum:
            first = min(d.opened_at or now for d in current.tables)
            draw.deadline = first + self.minute * t.round_time
        else:
            draw.deadline = now + self.minute * t.round_time
        return table

    async def record(self, table: Table) -> Tournament | None:
        """A tournament table's match ended (finished or stopped): its result is kept. Then
        a finished round draws the next one, or the tournament has its champion. ``None``
        when there was nothing new to keep."""
        key = table.tournament
        if key is None or table.status.live:
            return None
        async with self.lock(key.tournament_id):
            t = await self.repo.tournament(key.tournament_id)
            if t is None or t.status is not Status.RUNNING or len(t.played) < key.round_no:
                return None
            draw = t.played[key.round_no - 1].tables[key.table_no - 1]
            if draw.result is not None or draw.game_id != table.game_id:
                return None
            draw.result = tables.result_of(table, self.service.state_of(table))
            draw.no_shows = tables.no_shows(table)
            draw.slow = tables.slow_players(table)
            draw.ended_at = self.clock()
            self._advance(t)
            return await self._save(t)

    def _advance(self, t: Tournament) -> None:
        """After a round's last result: the next round is drawn, or the tournament ends."""
        if t.current is not None:
            return
        if len(t.played) >= t.rounds:
            t.status = Status.FINISHED
            t.finished_at = self.clock()
        else:
            t.played.append(self._draw(t))

    def _draw(self, t: Tournament) -> Round:
        """The next round: rotating tables, or the pairs' round robin or Swiss."""
        rng = random.Random(f"{t.seed}:{len(t.played) + 1}")
        if t.format is Format.PAIRS:
            rows = standings(t)
            points = {row.competitor: row.points for row in rows}
            tiebreak = {row.competitor: (row.buchholz or 0) for row in rows}
            return pair_round(t.pairs, t.played, points, tiebreak, t.rounds, rng)
        people = [e.user_id for e in t.entrants]
        return draw_rotating(people, t.played, rng, computer_fill=t.computer_fill)

    def overdue(self, t: Tournament) -> list[int]:
        """Games of the current round whose time ran out and have no result yet."""
        now = self.clock()
        current = t.current
        if current is None or t.status is not Status.RUNNING:
            return []
        return [
            d.game_id
            for d in current.tables
            if d.game_id is not None
            and d.result is None
            and d.deadline is not None
            and d.deadline <= now
        ]

    @staticmethod
    def next_due(t: Tournament) -> float | None:
        """When the tournament's clock must look at it next: the automatic start, or the
        earliest deadline of a table in play."""
        if t.status is Status.REGISTRATION:
            return t.starts_at
        current = t.current
        if t.status is not Status.RUNNING or current is None:
            return None
        due = [
            d.deadline
            for d in current.tables
            if d.deadline is not None and d.result is None and d.game_id is not None
        ]
        return min(due, default=None)

    # -- internals -----------------------------------------------------------------------

    async def _load(self, tournament_id: int, status: Status | None = None) -> Tournament:
        t = await self.repo.tournament(tournament_id)
        if t is None:
            raise TournamentError("no_tournament")
        if status is not None and t.status is not status:
            code = "not_registration" if status is Status.REGISTRATION else "no_tournament"
            raise TournamentError(code, t)
        return t

    async def _save(self, t: Tournament) -> Tournament:
        t.version += 1
        await self.repo.save_tournament(t)
        return t


def _paired(t: Tournament, user_id: int) -> bool:
    """Whether the person is in a confirmed pair already."""
    entrant = t.entrant(user_id)
    return entrant is not None and entrant.confirmed


def _pairs_of(entrants: Sequence[Entrant]) -> list[tuple[int, int]]:
    """The confirmed pairs in registration order (the inviter first)."""
    pairs: list[tuple[int, int]] = []
    seen: set[int] = set()
    for e in entrants:
        if e.confirmed and e.partner_id is not None and e.user_id not in seen:
            pairs.append((e.user_id, e.partner_id))
            seen |= {e.user_id, e.partner_id}
    return pairs
