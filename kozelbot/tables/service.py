"""The game service: every change to a table goes through here, one at a time per game.

Handlers (Telegram) and timers call it; it loads the table from the repository, lets the
engine decide, runs the computer seats and the chance steps, and commits the result — the
moves appended to the log in the same transaction — before anyone is answered. It returns a
``Change`` that the presentation layer turns into messages, built once from what the
operation's steps returned. It knows no Telegram and no SQL: the repository is a protocol
that ``storage.Storage`` implements.

Two parts, held, not inherited (issue #31): this module reads tables and runs the match —
moves, deadlines, a restart, a vote to stop, a stop, a chat's migration — while who sits at a
table (opening, setting and starting a lobby; joining, leaving, coming back) is the lobby's
(``kozelbot.tables.lobby``), reached as ``service.lobby``. Both stand on one
``committing.Tables`` (the game's lock, the private copy, play going on, the commit, the
memory of committed tables that renders read), so what every operation does is written once.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kozelbot.computer.thinking import Thinker
from kozelbot.core.protocol import AnyState, GameError
from kozelbot.core.records import MoveSource
from kozelbot.core.table import Table, TableStatus
from kozelbot.families.registry import rules_of
from kozelbot.tables import seating, turns
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.change import Change, TableError, computer
from kozelbot.tables.committing import Tables
from kozelbot.tables.ledger import Logged
from kozelbot.tables.lobby import LOBBY_TTL, Lobby
from kozelbot.tables.repository import Repository
from kozelbot.tables.table_cache import ENDED_CACHE
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


class GameService:
    """Serialised operations on tables: reading and the running match here, who sits in
    ``lobby``; both hold one ``Tables`` (``committing``: lock, load, play on, commit) and
    its ``TableCache`` (``tables``: what renders read)."""

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
        """``rng``, ``entropy`` and ``lobby_ttl`` are the lobby's (``Lobby``: table seeds,
        a match's secret and invite links, how long a lobby waits); computer play draws
        from the table's own seed. With a ``thinker``, searching computers think in its
        processes, off the event loop (``time_out``); without one they think in line
        (tests, tools). A computer that is to think in a hidden step waits about
        ``hidden_wait`` seconds first, as a person would (``turns.pace_hidden``; 0: at
        once)."""
        self.repo = repo
        self.committing = Tables(repo, clock=clock, thinker=thinker, hidden_wait=hidden_wait)
        self.tables = self.committing.cache
        """Committed tables and their parsed states, for renders."""
        self.lobby = Lobby(self.committing, rng=rng, entropy=entropy, lobby_ttl=lobby_ttl)
        """Who sits at a table: ``service.lobby.join(...)`` and the rest."""

    @property
    def clock(self) -> Callable[[], float]:
        """The one clock of the service and its lobby (deadlines, votes, a lobby's life);
        it lives in ``committing``, so setting it here (tests move time) moves both."""
        return self.committing.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.committing.clock = clock

    # -- reading -------------------------------------------------------------------------

    def snapshot(self, game_id: int) -> Table | None:
        """The latest committed table of a game this process has seen (recently)."""
        return self.tables.snapshot(game_id)

    def state_of(self, table: Table) -> AnyState | None:
        """The engine state inside a committed table, for reading only (renders)."""
        return self.tables.state_of(table)

    def forget(self, game_id: int) -> None:
        """Forget what was remembered of a game: another process committed it (issue #32)."""
        self.tables.forget(game_id)

    def forget_chat(self, chat_id: int) -> None:
        """Forget what was remembered of a chat's games: another process changes them now
        (a worker gave the place up, issue #32); the next read is the stored one."""
        self.tables.forget_chat(chat_id)

    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The lobby or running game of a chat (of one forum topic of it)."""
        return await self.committing.live_game(chat_id, thread_id)

    async def live_games(self) -> list[Table]:
        """Every lobby and running match, of every chat (to resume them at a start)."""
        return await self.repo.live_games()

    async def live_games_of(self, chat_id: int) -> list[Table]:
        """Every live game of a chat, whatever its topic (one indexed query)."""
        return await self.repo.live_games_in(chat_id)

    async def game(self, game_id: int) -> Table | None:
        """A game by id, any status."""
        return await self.committing.game(game_id)

    # -- the running match -------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, deal_no: int, action: Any) -> Change:
        """A person's move for ``deal_no``; ``GameError`` (illegal) and ``TableError``
        change nothing. One pass: the table is loaded and its state parsed once, its deal
        checked once, the move verified once (``apply`` verifies) and committed.

        A refused move may be replaced by the one the preset plays instead (``kryuk``: the
        only legal card, RULES.md §1.2); otherwise the ``GameError`` is raised."""
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id, TableStatus.PLAYING)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated", table)
            state = self.committing.state(table)
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
            played = Played(moved) + self.committing.play_on(table, state, fresh=True)
            return await self.committing.commit(played.change(table, state, acted=action))

    async def time_out(self, game_id: int) -> Change | None:
        """A deadline passed: what is overdue is done (``turns.overdue``), or a lobby nobody
        started closes (``Lobby.expire``). ``None`` if nothing was due.

        Searching computers to act think outside the game's lock (issue #29): the
        question is taken from the committed table under the lock, the thinker is awaited
        without it — so a person's press at the table is answered at once, whatever the
        computers are doing — and the move is applied under the lock again only if the
        table is still the version it was asked about. Several computers in a row think
        one after another, each outside the lock, and their moves are committed at once
        (shown at once, one write). **Decision**: were the table changed meanwhile (a
        vote, a person leaving), the thought moves are dropped — ``None``; the timer,
        re-armed at the table's deadline, asks again."""
        async with self.committing.hold(game_id):
            table = await self.repo.game(game_id)
            if table is None or not table.status.live:
                return None
            if table.deadline is None or self.clock() < table.deadline - 0.01:
                return None  # an old timer, or the turn moved on meanwhile
            if table.status is TableStatus.LOBBY:
                return await self.committing.commit(self.lobby.expire(table))
            state = self.committing.state(table)
            asked = None if self.committing.thinker is None else turns.question(table, state)
            if asked is None:
                later = self.committing.thinker is not None
                played = turns.overdue(table, state, self.clock(), think_later=later)
                return await self.committing.commit(played.change(table, state))
        assert self.committing.thinker is not None
        played = Played()
        while True:
            action = await turns.think(asked, self.committing.thinker)
            async with self.committing.hold(game_id):
                committed = self.snapshot(game_id) or await self.repo.game(game_id)
                if committed is None or committed.version != asked.version:
                    return None  # changed while the computer thought: the thought is stale
                played += Played(turns.answer(table, state, asked, action))
                played += self.committing.play_on(table, state, fresh=True)
                following = turns.question(table, state)
                if following is None:
                    return await self.committing.commit(played.change(table, state))
            asked = following

    async def resume(self, game_id: int) -> Change | None:
        """After a restart: run whatever the computers or the dealer owe; ``None`` if not live."""
        async with self.committing.hold(game_id):
            table = await self.repo.game(game_id)
            if table is None or not table.status.live:
                return None
            if table.status is TableStatus.LOBBY:
                self.tables.remember(table)
                return Change(table)
            deadline = table.deadline
            state = self.committing.state(table)
            change = self.committing.play_on(table, state).change(table, state)
            if not change.moves and not change.events and table.deadline == deadline:
                self.tables.remember(table)
                return change
            return await self.committing.commit(change)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> Table | None:
        """A group became a supergroup: its game moves to the new chat id (and is returned)."""
        table = await self.repo.live_game(old_chat_id)
        if table is None:
            await self.repo.migrate_chat(old_chat_id, new_chat_id)
            self.tables.forget_chat(old_chat_id)
            return None
        async with self.committing.hold(table.game_id):
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
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id, TableStatus.PLAYING)
            state = self.committing.state(table)
            return await self.committing.commit(Played(make(table, state)).change(table, state))

    async def vote_stop(self, game_id: int, user_id: int) -> Change:
        """A seated person votes to stop the running match; a majority of the people seated
        within ``STOP_VOTE_TIME`` of the first vote ends it (``change.vote`` counts).
        ``seated`` if they voted already in this vote.

        A tournament's table needs everyone at it, both sides (``no_consent`` when a side
        has nobody to agree), and then ends as the round clock ends it, on its score
        (``kozelbot.tables.tournament_table``' **Decision**)."""
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id, TableStatus.PLAYING)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated", table)
            votes, needed = seating.vote(table, user_id, self.clock())
            if votes >= needed and table.tournament is not None:
                state = self.committing.state(table)
                change = Played(tables.decide(table, state, "vote")).change(table, state)
            elif votes >= needed:
                table.closed_reason = "vote"
                change = self.committing.stopped(table)
            else:
                change = Change(table)
            return await self.committing.commit(replace(change, vote=(votes, needed)))

    async def stop(self, game_id: int) -> Change:
        """End a game without a result (the caller checked the right to do so)."""
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id)
            return await self.committing.commit(self.committing.stopped(table))
