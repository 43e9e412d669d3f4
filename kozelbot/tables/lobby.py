"""The lobby: who sits at a table — one operation at a time per game, as the service's are.

``Lobby`` opens a table (``new_game``, ``play_private``), sets it while it is open
(``cycle_option``, ``add_seed``), starts it (``start``, or the last seat taken, or a
tournament's no-show deadline: ``expire``) and seats and unseats people (``join``, ``leave``,
``come_back``) — the serialised side of ``kozelbot.tables.seating``, as ``GameService``'s
running-match operations are of ``turns``. It is held by the service (``service.lobby``)
and holds the service's ``committing.Tables`` (lock, load, play on, commit): the steps both
take are written once, there.

**Decision** (issue #31, the cut): ``join``, ``leave`` and ``come_back`` stay together here,
at a running match too, because they are one step — who sits where: joining one's own match
while away is coming back, a take-over waits for a seat as a lobby's newcomer takes one,
and a leaver's seat goes to a computer. What needs the match's state (a vote to stop, a move,
a deadline) is the service's. ``rng``, ``entropy`` and ``lobby_ttl`` are the lobby's alone:
nothing else draws a seed, a secret or an invite, or keeps a lobby open.
"""

from __future__ import annotations

import base64
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from kozelbot.core.fairplay import seed_word
from kozelbot.core.table import Player, Table, TableAlreadyOpen, TableStatus, TournamentTable
from kozelbot.families.registry import DEFAULT_PRESET, new_state
from kozelbot.tables import seating
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.change import Change, TableError, computer
from kozelbot.tables.committing import Tables

LOBBY_TTL = 3600.0
"""Seconds a lobby stays open after its last change before it closes itself, so a forgotten
lobby never blocks a chat whose creator and admins are away."""


class Lobby:
    """Serialised operations on who sits at a table (see the module's docstring)."""

    def __init__(
        self,
        committing: Tables,
        *,
        rng: random.Random,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        lobby_ttl: float = LOBBY_TTL,
    ) -> None:
        """``rng`` makes the reproducible choices (table seeds); ``entropy`` (``secrets`` by
        default: a CSPRNG) makes what must not be guessed or reproduced by anyone — a match's
        secret and its invite links. Tests may pass ``Random.randbytes``."""
        self.committing = committing
        self.rng = rng
        self.entropy = entropy
        self.lobby_ttl = lobby_ttl

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
        existing = await self.committing.live_game(chat_id, thread_id)
        if existing is not None and (tournament is None or existing.tournament != tournament):
            raise TableError("game_running", existing)
        options = seating.lobby_options(variant, args, defaults)
        wait = self.lobby_ttl if wait is None else wait
        clock = self.committing.clock
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
            created_at=clock(),
            deadline=clock() + wait,
        )
        if tournament is not None and reserved is not None:
            table.tournament = tournament
            tables.reserve(table, reserved, reserved_names)
        try:
            table = await self.committing.repo.create_game(table)
        except TableAlreadyOpen as opened:
            again = await self.committing.game(opened.game_id)
            assert again is not None
            return again
        self.committing.cache.remember(table)
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
        committing = self.committing
        async with committing.hold(game_id):
            table = await committing.load(game_id)
            seat = table.seat_of(player.user_id)
            held = None if seat is None else table.seats[seat]
            if held is not None and held.away and table.status is TableStatus.PLAYING:
                return await committing.commit(self._come_back(table, seat))  # type: ignore[arg-type]
            if seat is not None or table.is_waiting(player.user_id):
                raise TableError("seated", table)
            if table.private:
                raise TableError("full", table)
            if table.status is TableStatus.PLAYING:
                return await committing.commit(seating.wait_for_seat(table, player))
            if seating.sit_down(table, player, token):
                return await committing.commit(self._start(table))
            return await committing.commit(self._changed(table))

    async def _check_elsewhere(self, game_id: int | None, user_id: int) -> None:
        """Refuse a second live seat (storage refuses it too, race or not)."""
        other = await self.committing.repo.live_seat(user_id)
        if other is not None and other.game_id != game_id:
            raise TableError("elsewhere", other)

    async def come_back(self, game_id: int, user_id: int) -> Change:
        """A person away ("I'm here", /hand) takes their seat back from the computer."""
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id, TableStatus.PLAYING)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated", table)
            return await self.committing.commit(self._come_back(table, seat))

    def _come_back(self, table: Table, seat: int) -> Change:
        seating.come_back(table, seat)
        state = self.committing.state(table)
        played = self.committing.play_on(table, state, fresh=True)
        return played.change(table, state, back=(seat,))

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
        async with self.committing.hold(table.game_id):
            table = await self.committing.load(table.game_id, TableStatus.LOBBY)
            seating.sit_down(table, player, token)
            return await self.committing.commit(self._start(table))

    async def leave(self, game_id: int, user_id: int) -> Change:
        """Free a lobby seat; during a match a computer player takes the seat over.

        **Decision**: when the last person leaves a running match it is stopped (nobody
        would watch computers play it out); at a tournament's table the last person may not
        leave (``tables.check_may_leave``: a stopped table is decided on its score).
        """
        committing = self.committing
        async with committing.hold(game_id):
            table = await committing.load(game_id)
            seat = table.seat_of(user_id)
            if seat is None and table.is_waiting(user_id):
                table.waiting = [p for p in table.waiting if p.user_id != user_id]
                return await committing.commit(Change(table))  # no longer waiting for a seat
            if seat is None:
                raise TableError("not_seated", table)
            if table.status is TableStatus.LOBBY:
                table.seats[seat] = None
                return await committing.commit(self._changed(table))
            tables.check_may_leave(table, seat)  # a tournament table: not the last one
            table.seats[seat] = computer(seat)
            if not table.humans:
                change = committing.stopped(table)
            else:
                state = committing.state(table)
                change = committing.play_on(table, state).change(table, state)
            left = (*change.abandoned, (user_id, seat))
            return await committing.commit(replace(change, abandoned=left))

    async def cycle_option(self, game_id: int, user_id: int, key: str) -> Change:
        """The creator moves a table option (or, with ``key="variant"``, the variant) to its
        next value while the lobby is open.

        ``full`` when more people sit than the new table has seats."""
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id, TableStatus.LOBBY)
            if user_id != table.creator_id:
                raise TableError("not_creator", table)
            seating.cycle_option(table, key)
            return await self.committing.commit(self._changed(table))

    async def start(self, game_id: int, user_id: int) -> Change:
        """The creator starts early; computer players take the empty seats."""
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id, TableStatus.LOBBY)
            if user_id != table.creator_id:
                raise TableError("not_creator", table)
            if not table.humans:
                raise TableError("not_seated", table)
            return await self.committing.commit(self._start(table))

    async def add_seed(self, game_id: int, user_id: int, word: str) -> Change:
        """A seated person adds a word to the players' seed while the lobby is open (the
        first card is dealt as the match starts). ``not_seated``, ``not_lobby``; ``full``
        when the lobby holds ``seating.CONTRIBUTIONS`` lines already."""
        async with self.committing.hold(game_id):
            table = await self.committing.load(game_id, TableStatus.LOBBY)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated", table)
            if not seating.contribute(table, f"seed:{user_id}:{seed_word(word)}"):
                raise TableError("full", table)
            return await self.committing.commit(Change(table))

    def expire(self, table: Table) -> Change:
        """A lobby's deadline passed (the caller, ``GameService.time_out``, holds the lock
        and commits): a tournament's table starts, computers in the no-shows' seats; any
        other lobby closes."""
        if table.reserved is not None:
            return self._start(table)
        table.closed_reason = "expired"
        return self.committing.stopped(table)

    def _start(self, table: Table) -> Change:
        seating.draw_seats(table)
        table.status = TableStatus.PLAYING
        state = new_state(table.variant, table.options)
        played = self.committing.play_on(table, state, fresh=True)
        return played.change(table, state, started=True)

    def _changed(self, table: Table) -> Change:
        """Activity in a lobby keeps it open for another ``lobby_ttl`` seconds (a
        tournament's table keeps its no-show deadline)."""
        if table.reserved is None:
            table.deadline = self.committing.clock() + self.lobby_ttl
        return Change(table)
