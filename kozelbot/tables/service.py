"""The game service: every change to a table goes through here, one at a time per game.

Handlers (Telegram) and timers call it; it loads the table from the repository, lets the
engine decide, runs the computer seats and the chance steps, and commits the result — the
moves appended to the log in the same transaction — before anyone is answered. It returns a
``Change`` that the presentation layer turns into messages, built once from what the
operation's steps returned. It knows no Telegram and no SQL: the repository is a protocol
that ``storage.Storage`` implements. It holds its lock-load-commit (``committing.Tables``)
and its memory of committed tables (``table_cache.TableCache``), read by renders.
"""

from __future__ import annotations

import base64
import contextlib
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from kozelbot.computer.thinking import Thinker
from kozelbot.core import logs
from kozelbot.core.fairplay import seed_word
from kozelbot.core.protocol import AnyState, GameError
from kozelbot.core.records import MoveSource
from kozelbot.core.table import Player, Table, TableAlreadyOpen, TableStatus, TournamentTable
from kozelbot.families.registry import DEFAULT_PRESET, new_state, rules_of
from kozelbot.tables import seating, turns
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.change import Change, TableError, computer
from kozelbot.tables.committing import Tables
from kozelbot.tables.ledger import Logged
from kozelbot.tables.repository import Repository
from kozelbot.tables.table_cache import ENDED_CACHE, TableCache
from kozelbot.tables.turns import Played

__all__ = [
    "ENDED_CACHE",
    "MISSED_TO_AWAY",
    "STOP_VOTE_TIME",
    "Change",
    "GameService",
    "Repository",
    "TableError",
    "computer",
]

STOP_VOTE_TIME = seating.STOP_VOTE_TIME
MISSED_TO_AWAY = turns.MISSED_TO_AWAY
LOBBY_TTL = 3600.0
"""Seconds a lobby stays open after its last change before it closes itself, so a forgotten
lobby never blocks a chat whose creator and admins are away."""


class GameService:
    """Serialised operations on tables: it holds its ``Tables`` (one ``asyncio.Lock`` per
    game, a private copy loaded, the commit) and its ``TableCache`` (what renders read)."""

    def __init__(
        self,
        repo: Repository,
        *,
        rng: random.Random,
        clock: Callable[[], float] = time.time,
        lobby_ttl: float = LOBBY_TTL,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        thinker: Thinker | None = None,
        hidden_wait: float = 0.0,
    ) -> None:
        """``rng`` makes the reproducible choices (table seeds, computer play); ``entropy``
        (``secrets`` by default: a CSPRNG) makes what must not be guessed or reproduced by
        anyone — a match's secret and its invite links. Tests may pass ``Random.randbytes``.
        With a ``thinker``, searching computers think in its processes, off the event loop
        (``time_out``); without one they think in line (tests, tools). A computer that is to
        think in a hidden step waits about ``hidden_wait`` seconds first, as a person would
        (``turns.pace_hidden``; 0: at once)."""
        self.repo = repo
        self.clock = clock
        self.committing = Tables(repo)
        self.tables = TableCache()
        """Committed tables and their parsed states, for renders."""
        self.rng = rng
        self.entropy = entropy
        self.lobby_ttl = lobby_ttl
        self.thinker = thinker
        self.hidden_wait = hidden_wait

    # -- reading -------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold the lock every change of ``game_id`` holds; log lines name the game
        (``logs.about_game``)."""
        with logs.about_game(game_id):
            async with self.committing.lock(game_id):
                yield

    def snapshot(self, game_id: int) -> Table | None:
        """The latest committed table of a game this process has seen (recently)."""
        return self.tables.snapshot(game_id)

    def state_of(self, table: Table) -> AnyState | None:
        """The engine state inside a committed table, for reading only (renders)."""
        return self.tables.state_of(table)

    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The lobby or running game of a chat (of one forum topic of it)."""
        table = await self.repo.live_game(chat_id, thread_id)
        if table is not None:
            self.tables.remember(table)
        return table

    async def live_games_of(self, chat_id: int) -> list[Table]:
        """Every live game of a chat, whatever its topic (one indexed query)."""
        return await self.repo.live_games_in(chat_id)

    async def game(self, game_id: int) -> Table | None:
        """A game by id, any status."""
        table = await self.repo.game(game_id)
        if table is not None:
            self.tables.remember(table)
        return table

    # -- lobby ---------------------------------------------------------------------------

    async def new_game(
        self,
        chat_id: int,
        creator_id: int,
        args: Sequence[str],
        variant: str = DEFAULT_PRESET,
        chat_title: str | None = None,
        *,
        thread_id: int | None = None,
        defaults: Mapping[str, Any] | None = None,
        tournament: TournamentTable | None = None,
        reserved: list[int | None] | None = None,
        reserved_names: list[str] | None = None,
        wait: float | None = None,
    ) -> Table:
        """Open a lobby (``OptionError`` for bad ``KEY=VALUE`` words, ``game_running``).

        ``defaults`` are the chat's default options for ``variant`` (/settings); typed words
        go on top of them. Defaults the preset no longer accepts are ignored. A tournament's
        table (issue #19) keeps its seats for the ``reserved`` people (``reserved_names``: their
        names, seat by seat) and starts without
        whoever has not come ``wait`` seconds later; opened again, it is the same game
        (``TableAlreadyOpen``: a table is never opened twice)."""
        existing = await self.live_game(chat_id, thread_id)
        if existing is not None and (tournament is None or existing.tournament != tournament):
            raise TableError("game_running", existing)
        options = seating.lobby_options(variant, args, defaults)
        wait = self.lobby_ttl if wait is None else wait
        table = seating.lobby_table(
            chat_id,
            thread_id,
            variant,
            options,
            creator_id,
            chat_title,
            seed=self.rng.getrandbits(48),
            secret=self.entropy(32).hex(),
            invite=base64.urlsafe_b64encode(self.entropy(9)).decode(),
            created_at=self.clock(),
            deadline=self.clock() + wait,
        )
        if tournament is not None and reserved is not None:
            table.tournament = tournament
            tables.reserve(table, reserved, reserved_names)
        try:
            table = await self.repo.create_game(table)
        except TableAlreadyOpen as opened:
            again = await self.game(opened.game_id)
            assert again is not None
            return again
        self.tables.remember(table)
        return table

    async def join(self, game_id: int, player: Player, token: str | None = None) -> Change:
        """Seat a person: in a lobby the first free seat (the match starts when the last one
        is taken); in a running match a seat a computer holds — a person's who is away
        first, else a computer player's — so someone who drops in can play on (issue #8).

        **Decision** (issue #14): a take-over happens between deals. The newcomer waits
        (``Table.waiting``, ``change.waiting``) and sits down when the next deal is dealt,
        so nobody reads a hand in play by joining (a second account could otherwise leave,
        join and peek). A person sits at one live game at a time (``elsewhere``; someone
        waiting counts). Someone away who joins their own match is simply back.
        **Decision**: whoever loses their seat to a take-over while away gets the leaver's
        warning (they left the table to a computer); a leaver's warning stands when someone
        takes their seat.

        ``token`` is the id Telegram gave the join (the message's or the press's): in a
        lobby it goes into the players' seed (``kozelbot.core.fairplay``)."""
        assert player.user_id is not None
        await self._check_elsewhere(game_id, player.user_id)
        async with self.lock(game_id):
            table = await self._load(game_id)
            seat = table.seat_of(player.user_id)
            held = None if seat is None else table.seats[seat]
            if held is not None and held.away and table.status is TableStatus.PLAYING:
                return await self._commit(self._come_back(table, seat))  # type: ignore[arg-type]
            if seat is not None or table.is_waiting(player.user_id):
                raise TableError("seated", table)
            if table.private:
                raise TableError("full", table)
            if table.status is TableStatus.PLAYING:
                return await self._commit(seating.wait_for_seat(table, player))
            if seating.sit_down(table, player, token):
                return await self._commit(self._start(table))
            return await self._commit(self._lobby_changed(table))

    async def _check_elsewhere(self, game_id: int | None, user_id: int) -> None:
        """Refuse a second live seat (storage refuses it too, race or not)."""
        other = await self.repo.live_seat(user_id)
        if other is not None and other.game_id != game_id:
            raise TableError("elsewhere", other)

    async def come_back(self, game_id: int, user_id: int) -> Change:
        """A person away ("I'm here", /hand) takes their seat back from the computer."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.PLAYING)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated", table)
            return await self._commit(self._come_back(table, seat))

    def _come_back(self, table: Table, seat: int) -> Change:
        seating.come_back(table, seat)
        state = self._state(table)
        return self._play_on(table, state, fresh=True).change(table, state, back=(seat,))

    async def vote_stop(self, game_id: int, user_id: int) -> Change:
        """A seated person votes to stop the running match; a majority of the people seated
        within ``STOP_VOTE_TIME`` of the first vote ends it (``change.vote`` counts).
        ``seated`` if they voted already in this vote.

        A tournament's table needs everyone at it, both sides (``no_consent`` when a side
        has nobody to agree), and then ends as the round clock ends it, on its score
        (``kozelbot.tables.tournament_table``' **Decision**)."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.PLAYING)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated", table)
            votes, needed = seating.vote(table, user_id, self.clock())
            if votes >= needed and table.tournament is not None:
                state = self._state(table)
                change = Played(tables.decide(table, state, "vote")).change(table, state)
            elif votes >= needed:
                table.closed_reason = "vote"
                change = self._stopped(table)
            else:
                change = Change(table)
            return await self._commit(replace(change, vote=(votes, needed)))

    async def play_private(
        self,
        player: Player,
        args: Sequence[str],
        variant: str = DEFAULT_PRESET,
        *,
        defaults: Mapping[str, Any] | None = None,
        token: str | None = None,
    ) -> Change:
        """A match against the computer in the person's private chat (/play): they sit with
        a computer partner against computer opponents, and it starts at once (seed 004's
        guest mode). Rated apart from group matches. No move timer unless the person chose
        one (``seating.PRIVATE_DEFAULTS``)."""
        assert player.user_id is not None
        await self._check_elsewhere(None, player.user_id)
        defaults = {**seating.PRIVATE_DEFAULTS, **(defaults or {})}
        table = await self.new_game(
            player.user_id, player.user_id, args, variant, defaults=defaults
        )
        async with self.lock(table.game_id):
            table = await self._load(table.game_id, TableStatus.LOBBY)
            seating.sit_down(table, player, token)
            return await self._commit(self._start(table))

    async def leave(self, game_id: int, user_id: int) -> Change:
        """Free a lobby seat; during a match a computer player takes the seat over.

        **Decision**: when the last person leaves a running match it is stopped (nobody
        would watch computers play it out); at a tournament's table the last person may not
        leave (``tables.check_may_leave``: a stopped table is decided on its score).
        """
        async with self.lock(game_id):
            table = await self._load(game_id)
            seat = table.seat_of(user_id)
            if seat is None and table.is_waiting(user_id):
                table.waiting = [p for p in table.waiting if p.user_id != user_id]
                return await self._commit(Change(table))  # no longer waiting for a seat
            if seat is None:
                raise TableError("not_seated", table)
            if table.status is TableStatus.LOBBY:
                table.seats[seat] = None
                return await self._commit(self._lobby_changed(table))
            tables.check_may_leave(table, seat)  # a tournament table: not the last one
            table.seats[seat] = computer(seat)
            if not table.humans:
                change = self._stopped(table)
            else:
                state = self._state(table)
                change = self._play_on(table, state).change(table, state)
            left = (*change.abandoned, (user_id, seat))
            return await self._commit(replace(change, abandoned=left))

    async def cycle_option(self, game_id: int, user_id: int, key: str) -> Change:
        """The creator moves a table option (or, with ``key="variant"``, the variant) to its
        next value while the lobby is open.

        ``full`` when more people sit than the new table has seats."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.LOBBY)
            if user_id != table.creator_id:
                raise TableError("not_creator", table)
            seating.cycle_option(table, key)
            return await self._commit(self._lobby_changed(table))

    async def start(self, game_id: int, user_id: int) -> Change:
        """The creator starts early; computer players take the empty seats."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.LOBBY)
            if user_id != table.creator_id:
                raise TableError("not_creator", table)
            if not table.humans:
                raise TableError("not_seated", table)
            return await self._commit(self._start(table))

    async def add_seed(self, game_id: int, user_id: int, word: str) -> Change:
        """A seated person adds a word to the players' seed while the lobby is open (the
        first card is dealt as the match starts). ``not_seated``, ``not_lobby``; ``full``
        when the lobby holds ``seating.CONTRIBUTIONS`` lines already."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.LOBBY)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated", table)
            if not seating.contribute(table, f"seed:{user_id}:{seed_word(word)}"):
                raise TableError("full", table)
            return await self._commit(Change(table))

    def _start(self, table: Table) -> Change:
        seating.draw_seats(table)
        table.status = TableStatus.PLAYING
        state = new_state(table.variant, table.options)
        return self._play_on(table, state, fresh=True).change(table, state, started=True)

    # -- play ----------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, deal_no: int, action: Any) -> Change:
        """A person's move for ``deal_no``; ``GameError`` (illegal) and ``TableError``
        change nothing. One pass: the table is loaded and its state parsed once, its deal
        checked once, the move verified once (``apply`` verifies) and committed.

        A refused move may be replaced by the one the preset plays instead (``kryuk``: the
        only legal card, RULES.md §1.2); otherwise the ``GameError`` is raised."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.PLAYING)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated", table)
            state = self._state(table)
            if not state.accepts(deal_no):
                raise TableError("stale", table)
            if table.seats[seat] is not None and table.seats[seat].away:  # type: ignore[union-attr]
                raise TableError("away", table)
            tables.note_pace(table, state, seat, self.clock())  # slow play at a tournament table
            try:
                moved = turns.apply_move(table, state, seat, action, MoveSource.HUMAN)
            except GameError:
                action = rules_of(table.variant).after_refusal(state, seat, action)
                if action is None:
                    raise
                moved = turns.apply_move(table, state, seat, action, MoveSource.HUMAN)
            table.missed[seat] = 0
            played = Played(moved) + self._play_on(table, state, fresh=True)
            return await self._commit(played.change(table, state, acted=action))

    async def time_out(self, game_id: int) -> Change | None:
        """A deadline passed: what is overdue is done (``turns.overdue``), or a lobby nobody
        started closes. ``None`` if nothing was due.

        Searching computers to act think outside the game's lock (issue #29): the
        question is taken from the committed table under the lock, the thinker is awaited
        without it — so a person's press at the table is answered at once, whatever the
        computers are doing — and the move is applied under the lock again only if the
        table is still the version it was asked about. Several computers in a row think
        one after another, each outside the lock, and their moves are committed at once
        (shown at once, one write). **Decision**: were the table changed meanwhile (a
        vote, a person leaving), the thought moves are dropped — ``None``; the timer,
        re-armed at the table's deadline, asks again."""
        async with self.lock(game_id):
            table = await self.repo.game(game_id)
            if table is None or not table.status.live:
                return None
            if table.deadline is None or self.clock() < table.deadline - 0.01:
                return None  # an old timer, or the turn moved on meanwhile
            if table.status is TableStatus.LOBBY and table.reserved is not None:
                return await self._commit(self._start(table))  # no-shows: computers play
            if table.status is TableStatus.LOBBY:
                table.closed_reason = "expired"
                return await self._commit(self._stopped(table))
            state = self._state(table)
            asked = None if self.thinker is None else turns.question(table, state)
            if asked is None:
                later = self.thinker is not None
                played = turns.overdue(table, state, self.clock(), think_later=later)
                return await self._commit(played.change(table, state))
        assert self.thinker is not None
        played = Played()
        while True:
            action = await turns.think(asked, self.thinker)
            async with self.lock(game_id):
                committed = self.snapshot(game_id) or await self.repo.game(game_id)
                if committed is None or committed.version != asked.version:
                    return None  # changed while the computer thought: the thought is stale
                played += Played(turns.answer(table, state, asked, action))
                played += self._play_on(table, state, fresh=True)
                following = turns.question(table, state)
                if following is None:
                    return await self._commit(played.change(table, state))
            asked = following

    async def resume(self, game_id: int) -> Change | None:
        """After a restart: run whatever the computers or the dealer owe; ``None`` if not live."""
        async with self.lock(game_id):
            table = await self.repo.game(game_id)
            if table is None or not table.status.live:
                return None
            if table.status is TableStatus.LOBBY:
                self.tables.remember(table)
                return Change(table)
            deadline = table.deadline
            state = self._state(table)
            change = self._play_on(table, state).change(table, state)
            if not change.moves and not change.events and table.deadline == deadline:
                self.tables.remember(table)
                return change
            return await self._commit(change)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> Table | None:
        """A group became a supergroup: its game moves to the new chat id (and is returned)."""
        table = await self.repo.live_game(old_chat_id)
        if table is None:
            await self.repo.migrate_chat(old_chat_id, new_chat_id)
            self.tables.forget_chat(old_chat_id)
            return None
        async with self.lock(table.game_id):
            await self.repo.migrate_chat(old_chat_id, new_chat_id)
            self.tables.forget_chat(old_chat_id)  # storage changed (moved or stopped) its games
            moved = await self.repo.game(table.game_id)
        if moved is not None:
            self.tables.remember(moved)
        return moved if moved is not None and moved.status.live else None

    async def change(self, game_id: int, make: Callable[[Table, AnyState], Logged]) -> Change:
        """Apply a pure change (``make`` changes the running match's table and state and
        returns what it logged) under the game's lock and commit it: the tournament's clock
        decides a match this way (``tournament_table.decide``)."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.PLAYING)
            state = self._state(table)
            return await self._commit(Played(make(table, state)).change(table, state))

    async def stop(self, game_id: int) -> Change:
        """End a game without a result (the caller checked the right to do so)."""
        async with self.lock(game_id):
            table = await self._load(game_id)
            return await self._commit(self._stopped(table))

    # -- internals -----------------------------------------------------------------------

    async def _load(self, game_id: int, status: TableStatus | None = None) -> Table:
        return await self.committing.load(game_id, self.snapshot(game_id), status)

    _state = staticmethod(Tables.state)

    def _play_on(self, table: Table, state: AnyState, *, fresh: bool = False) -> Played:
        later = self.thinker is not None
        return turns.play_on(table, state, self.clock(), think_later=later, fresh=fresh)

    async def _commit(self, change: Change) -> Change:
        """Commit, a computer to think in a hidden step first made to wait like a person
        (here, so every path that lets play go on — a move, a time-out, a restart — is
        covered); then remember the committed table and its state (renders need not parse
        it again)."""
        turns.pace_hidden(change.table, change.state, self.clock(), self.hidden_wait)
        await self.committing.commit(change)
        self.tables.remember(change.table, change.state)
        return change

    def _lobby_changed(self, table: Table) -> Change:
        """Activity in a lobby keeps it open for another ``lobby_ttl`` seconds (a
        tournament's table keeps its no-show deadline)."""
        if table.reserved is None:
            table.deadline = self.clock() + self.lobby_ttl
        return Change(table)

    def _stopped(self, table: Table) -> Change:
        table.status = TableStatus.STOPPED
        table.deadline = None
        return Change(table, None if table.state is None else self._state(table))
