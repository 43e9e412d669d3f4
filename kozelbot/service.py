"""The game service: every change to a table goes through here, one at a time per game.

Handlers (Telegram) and timers call it; it loads the table from the repository, lets the
engine decide, runs the computer seats and the chance steps, and commits the result — the
moves appended to the log in the same transaction — before anyone is answered. It returns a
``Change`` that the presentation layer turns into messages. It knows no Telegram and no SQL:
the repository is a protocol that ``storage.Storage`` implements.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import random
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kozelbot.fairplay import match_seal, players_seed, seating_seed, seed_word
from kozelbot.game import DealScored, GameError, GameState, MatchOver, advance
from kozelbot.games import (
    DEFAULT_PRESET,
    TABLE_PRESETS,
    family_of,
    load_state,
    new_state,
    preset,
    seats_of,
)
from kozelbot.options import OptionError
from kozelbot.posts import posts_for
from kozelbot.records import (
    DealRecord,
    MatchPlayer,
    MatchResult,
    MoveRecord,
    MoveSource,
    OutboxItem,
)
from kozelbot.table import Player, SeatTaken, Table, TableStatus

STOP_VOTE_TIME = 120.0
"""Seconds a vote to stop a match stays open (issue #8: two minutes)."""
MISSED_TO_AWAY = 2
"""Time-outs in a row after which a computer plays the seat until its owner is back."""

LOBBY_TTL = 3600.0
"""Seconds a lobby stays open after its last change before it closes itself, so a forgotten
lobby never blocks a chat whose creator and admins are away."""
STATES_CACHE = 512
"""Parsed engine states kept for renders (a few per live game suffice)."""
CONTRIBUTIONS = 32
"""Lines of a lobby's players' seed at most (joins and /seed words)."""
ENDED_CACHE = 256
"""Ended games kept in memory for their last renders; older ones are read from storage."""


class Repository(Protocol):
    """What the service needs from storage."""

    async def create_game(self, table: Table) -> Table: ...
    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None: ...
    async def live_seat(self, user_id: int) -> Table | None: ...
    async def game(self, game_id: int) -> Table | None: ...
    async def live_games(self) -> list[Table]: ...
    async def live_games_in(self, chat_id: int) -> list[Table]: ...
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None: ...
    async def save_game(
        self,
        table: Table,
        *,
        moves: Sequence[MoveRecord] = (),
        deals: Sequence[DealRecord] = (),
        result: MatchResult | None = None,
        abandoned: Sequence[int] = (),
        outbox: Sequence[OutboxItem] = (),
    ) -> None: ...


class TableError(Exception):
    """A table operation refused for a reason the user should be told; nothing changed.

    Codes: ``no_game``, ``game_running``, ``not_lobby``, ``seated``, ``full``, ``not_seated``,
    ``not_creator``, ``stale`` (an old button or deal), ``finished``, ``elsewhere`` (the person
    sits at another live game, which the error carries), ``no_free_seat`` (a running match
    has no computer-held seat to take), ``not_away`` (nothing to come back to), ``away`` (a
    computer plays the seat until its owner says they are back).
    """

    def __init__(self, code: str, table: Table | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.table = table


@dataclass
class Change:
    """What one accepted operation did: the new table and what happened, for presenters."""

    table: Table
    state: GameState | None = None
    events: list[Any] = field(default_factory=list)
    moves: list[MoveRecord] = field(default_factory=list)
    deals: list[DealRecord] = field(default_factory=list)
    result: MatchResult | None = None
    outbox: list[OutboxItem] = field(default_factory=list)
    """Group posts owed for this change (results), committed with it."""
    started: bool = False
    away: list[int] = field(default_factory=list)
    """Seats whose owners just missed their second move in a row: a computer plays them."""
    back: list[int] = field(default_factory=list)
    """Seats whose owners came back from being away."""
    vote: tuple[int, int] | None = None
    """A stop vote's count: (votes so far, votes needed)."""
    abandoned: list[tuple[int, int]] = field(default_factory=list)
    """(person, seat) of whoever left the running match, or lost their seat while away to
    a take-over (they get a warning, RULES.md §3)."""
    waiting: bool = False
    """A newcomer was put on the list for the next deal's free seat (``Table.waiting``)."""
    taken_over: list[int] = field(default_factory=list)
    """Seats people who were waiting took over as this change dealt a new deal."""


def computer(seat: int) -> Player:
    """A computer player for an empty seat (named by the presenters, in the reader's language)."""
    return Player(user_id=None, name=f"cpu{seat}")


class GameService:
    """Serialised operations on tables; one ``asyncio.Lock`` per game."""

    def __init__(
        self,
        repo: Repository,
        *,
        rng: random.Random,
        clock: Callable[[], float] = time.time,
        lobby_ttl: float = LOBBY_TTL,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
    ) -> None:
        """``rng`` makes the reproducible choices (table seeds, computer play); ``entropy``
        (``secrets`` by default: a CSPRNG) makes what must not be guessed or reproduced by
        anyone — a match's secret and its invite links. Tests may pass ``Random.randbytes``."""
        self.repo = repo
        self.rng = rng
        self.entropy = entropy
        self.clock = clock
        self.lobby_ttl = lobby_ttl
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock lives while someone holds or waits for it, so memory does not grow."""
        self._tables: dict[int, Table] = {}
        """Live games (bounded by the number of chats)."""
        self._ended: OrderedDict[int, Table] = OrderedDict()
        """The most recently ended games, for their last renders."""
        self._states: OrderedDict[tuple[int, int], GameState] = OrderedDict()
        """(game, version) → its parsed engine state, shared by the renders of that version."""

    # -- reading -------------------------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock every change of ``game_id`` holds."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def snapshot(self, game_id: int) -> Table | None:
        """The latest committed table of a game this process has seen (recently)."""
        return self._tables.get(game_id) or self._ended.get(game_id)

    async def live_game(self, chat_id: int, thread_id: int | None = None) -> Table | None:
        """The lobby or running game of a chat (of one forum topic of it)."""
        table = await self.repo.live_game(chat_id, thread_id)
        if table is not None:
            self._remember(table)
        return table

    async def live_games_of(self, chat_id: int) -> list[Table]:
        """Every live game of a chat, whatever its topic (one indexed query)."""
        return await self.repo.live_games_in(chat_id)

    async def game(self, game_id: int) -> Table | None:
        """A game by id, any status."""
        table = await self.repo.game(game_id)
        if table is not None:
            self._remember(table)
        return table

    def _remember(self, table: Table) -> None:
        """Cache a table unless a newer version is cached already.

        Reads outside the game's lock can finish after a newer commit; they must not
        replace what presenters render from. Cached tables are never changed afterwards:
        every operation loads its own copy (``_load``) and caches it only once committed.
        """
        cached = self.snapshot(table.game_id)
        if cached is not None and table.version < cached.version:
            return
        if table.status.live:
            self._tables[table.game_id] = table
            return
        self._tables.pop(table.game_id, None)
        self._ended[table.game_id] = table
        self._ended.move_to_end(table.game_id)
        while len(self._ended) > ENDED_CACHE:
            self._ended.popitem(last=False)

    def state_of(self, table: Table) -> GameState | None:
        """The engine state inside a committed table, for reading only (renders): parsed once
        per version and shared, so do not change it."""
        if table.state is None:
            return None
        key = (table.game_id, table.version)
        state = self._states.get(key)
        if state is None:
            state = self._states[key] = load_state(table.state)
            while len(self._states) > STATES_CACHE:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(key)
        return state

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
    ) -> Table:
        """Open a lobby (``OptionError`` for bad ``KEY=VALUE`` words, ``game_running``).

        ``defaults`` are the chat's default options for ``variant`` (/settings); typed words
        go on top of them. Defaults the preset no longer accepts are ignored."""
        existing = await self.live_game(chat_id, thread_id)
        if existing is not None:
            raise TableError("game_running", existing)
        chosen = preset(variant)
        base = None
        if defaults:
            with contextlib.suppress(OptionError):
                base = chosen.options_from(defaults)
        options = chosen.parse(args, base).model_dump()
        table = Table(
            chat_id=chat_id,
            thread_id=thread_id,
            variant=variant,
            options=options,
            seats=[None] * seats_of(variant, options),
            creator_id=creator_id,
            seed=self.rng.getrandbits(48),
            secret=self.entropy(32).hex(),
            invite=base64.urlsafe_b64encode(self.entropy(9)).decode(),
            created_at=self.clock(),
            deadline=self.clock() + self.lobby_ttl,
            chat_title=chat_title,
        )
        table = await self.repo.create_game(table)
        self._remember(table)
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
        lobby it goes into the players' seed (``kozelbot.fairplay``)."""
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
                return await self._commit(self._wait_for_seat(table, player))
            free = [s for s, p in enumerate(table.seats) if p is None]
            if not free:
                raise TableError("full", table)
            table.seats[free[0]] = player
            self._contribute(table, f"join:{player.user_id}:{token or ''}")
            if len(free) == 1:
                return await self._commit(self._start(table))
            return await self._commit(self._lobby_changed(table))

    async def _check_elsewhere(self, game_id: int | None, user_id: int) -> None:
        """Refuse a second live seat (storage refuses it too, race or not)."""
        other = await self.repo.live_seat(user_id)
        if other is not None and other.game_id != game_id:
            raise TableError("elsewhere", other)

    @staticmethod
    def _free_seats(table: Table) -> list[int]:
        """Seats a newcomer may take over, best first: a person's who is away, then a
        computer player's."""
        seats = [s for s, p in enumerate(table.seats) if p is not None and p.away]
        return seats + [s for s, p in enumerate(table.seats) if p is None or p.is_computer]

    def _wait_for_seat(self, table: Table, player: Player) -> Change:
        """A newcomer asks for a computer-held seat: they sit down at the next deal."""
        if len(self._free_seats(table)) <= len(table.waiting):
            raise TableError("no_free_seat", table)
        table.waiting.append(player)
        return Change(table, waiting=True)

    def _seat_waiting(self, change: Change) -> None:
        """Between deals: the people waiting take the seats computers hold, in the order
        they asked; whoever finds none free any more (someone away came back) waits on."""
        table = change.table
        still: list[Player] = []
        for player in table.waiting:
            free = self._free_seats(table)
            if not free:
                still.append(player)
                continue
            seat = free[0]
            gone = table.seats[seat]
            table.seats[seat] = player
            table.missed[seat] = 0
            change.taken_over.append(seat)
            change.back.append(seat)
            if gone is not None and gone.user_id is not None:
                change.abandoned.append((gone.user_id, seat))
        table.waiting = still

    async def come_back(self, game_id: int, user_id: int) -> Change:
        """A person away ("I'm here", /hand) takes their seat back from the computer."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.PLAYING)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_seated", table)
            return await self._commit(self._come_back(table, seat))

    def _come_back(self, table: Table, seat: int) -> Change:
        player = table.seats[seat]
        assert player is not None
        if not player.away:
            raise TableError("not_away", table)
        table.seats[seat] = player.model_copy(update={"away": False})
        table.missed[seat] = 0
        change = Change(table, self._state(table), back=[seat])
        self._advance(change)
        return change

    async def vote_stop(self, game_id: int, user_id: int) -> Change:
        """A seated person votes to stop the running match; a majority of the people seated
        within ``STOP_VOTE_TIME`` of the first vote ends it (``change.vote`` counts).
        ``seated`` if they voted already in this vote."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.PLAYING)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated", table)
            now = self.clock()
            if table.stop_vote_until is None or table.stop_vote_until < now:
                table.stop_votes, table.stop_vote_until = [], now + STOP_VOTE_TIME
            if user_id in table.stop_votes:
                raise TableError("seated", table)
            table.stop_votes.append(user_id)
            seated = {p.user_id for _s, p in table.humans}
            votes = len(seated.intersection(table.stop_votes))
            needed = len(seated) // 2 + 1
            if votes >= needed:
                table.closed_reason = "vote"
                change = self._stopped(table)
            else:
                change = Change(table)
            change.vote = (votes, needed)
            return await self._commit(change)

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
        guest mode). Rated apart from group matches."""
        assert player.user_id is not None
        await self._check_elsewhere(None, player.user_id)
        table = await self.new_game(player.user_id, player.user_id, args, variant,
                                    defaults=defaults)  # fmt: skip
        async with self.lock(table.game_id):
            table = await self._load(table.game_id, TableStatus.LOBBY)
            table.seats[0] = player
            self._contribute(table, f"join:{player.user_id}:{token or ''}")
            return await self._commit(self._start(table))

    async def leave(self, game_id: int, user_id: int) -> Change:
        """Free a lobby seat; during a match a computer player takes the seat over.

        **Decision**: when the last person leaves a running match it is stopped (nobody
        would watch computers play it out).
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
            table.seats[seat] = computer(seat)
            if not table.humans:
                change = self._stopped(table)
            else:
                change = Change(table, self._state(table))
                self._advance(change)
            change.abandoned.append((user_id, seat))
            return await self._commit(change)

    async def cycle_option(self, game_id: int, user_id: int, key: str) -> Change:
        """The creator moves a table option (or, with ``key="variant"``, the variant) to its
        next value while the lobby is open.

        A change of the number of seats keeps the people seated, in join order; it is refused
        (``full``) when more people sit than the new table has seats."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.LOBBY)
            if user_id != table.creator_id:
                raise TableError("not_creator", table)
            if key == "variant":
                names = list(TABLE_PRESETS)
                table.variant = names[(names.index(table.variant) + 1) % len(names)]
                table.options = preset(table.variant).default_options().model_dump()
            else:
                chosen = preset(table.variant)
                options = chosen.cycle(chosen.options_from(table.options), key)
                table.options = options.model_dump()
            seats = seats_of(table.variant, table.options)
            people = [p for p in table.seats if p is not None]
            if len(people) > seats:
                raise TableError("full", table)
            if seats != len(table.seats):
                table.seats = [*people, *([None] * (seats - len(people)))]
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
        when the lobby holds ``CONTRIBUTIONS`` lines already."""
        async with self.lock(game_id):
            table = await self._load(game_id, TableStatus.LOBBY)
            if table.seat_of(user_id) is None:
                raise TableError("not_seated", table)
            if not self._contribute(table, f"seed:{user_id}:{seed_word(word)}"):
                raise TableError("full", table)
            return await self._commit(Change(table))

    @staticmethod
    def _contribute(table: Table, line: str) -> bool:
        """Add a line to the players' seed (bounded: a lobby is small)."""
        if len(table.contributions) >= CONTRIBUTIONS:
            return False
        table.contributions.append(line)
        return True

    def _start(self, table: Table) -> Change:
        seats = [p if p is not None else computer(s) for s, p in enumerate(table.seats)]
        if table.secret:  # fixed now, before the first shuffle, after the seal was shown
            table.client_seed = players_seed(table.contributions)
        if table.options.get("seating", "random") == "random":
            draw = seating_seed(table.secret, table.client_seed) if table.secret else table.seed
            random.Random(draw).shuffle(seats)
        table.seats = [
            p if not p.is_computer else computer(s) for s, p in enumerate(seats)
        ]  # computers are named after their final seat
        table.status = TableStatus.PLAYING
        change = Change(table, new_state(table.variant, table.options), started=True)
        self._advance(change)
        return change

    # -- play ----------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, deal_no: int, action: Any) -> Change:
        """A person's move; ``GameError`` (illegal) and ``TableError`` change nothing.

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
            try:
                state.verify(seat, action)
            except GameError:
                instead = family_of(table.variant).after_refusal(state, seat, action)
                if instead is None:
                    raise
                action = instead
            change = Change(table, state)
            table.missed[seat] = 0
            self._apply(change, seat, action, MoveSource.HUMAN)
            self._advance(change)
            return await self._commit(change)

    async def time_out(self, game_id: int) -> Change | None:
        """A deadline passed: move for the people whose time ran out (the computer's choice),
        or close a lobby nobody started. ``None`` if nothing was due.

        After ``MISSED_TO_AWAY`` time-outs in a row the seat passes to the computer until its
        owner is back. A time-out in a secret step (``GameState.hidden_turn``) makes the move
        but counts nothing. **Decision**: only while someone else at the table is present — were
        everyone away, the computers would play the whole match out in an instant; the timer
        then keeps moving for them one turn at a time instead."""
        async with self.lock(game_id):
            table = await self.repo.game(game_id)
            if table is None or not table.status.live:
                return None
            if table.deadline is None or self.clock() < table.deadline - 0.01:
                return None  # an old timer, or the turn moved on meanwhile
            if table.status is TableStatus.LOBBY:
                table.closed_reason = "expired"
                return await self._commit(self._stopped(table))
            state = self._state(table)
            change = Change(table, state)
            family = family_of(table.variant)
            rng = random.Random(f"{table.seed}:{table.move_seq}")
            # A time-out in a secret step (a redeal offer, a hidden hand-off) is not marked:
            # the mark, and a seat handed to the computer, would tell everyone who was asked.
            secret = state.hidden_turn
            for seat in state.to_act():
                player = table.seats[seat]
                if player is None or player.computer_plays or seat not in state.to_act():
                    continue
                if not secret:
                    table.timeouts[seat] += 1
                    table.missed[seat] += 1
                    _count(table, seat, "timeouts")
                action = family.on_timeout(state, seat, rng)
                self._apply(change, seat, action, MoveSource.TIMEOUT)
                present = [s for s, p in table.humans if s != seat and not p.away]
                if not secret and table.missed[seat] >= MISSED_TO_AWAY and present:
                    table.seats[seat] = player.model_copy(update={"away": True})
                    change.away.append(seat)
            self._advance(change)
            return await self._commit(change)

    async def resume(self, game_id: int) -> Change | None:
        """After a restart: run whatever the computers or the dealer owe; ``None`` if not live."""
        async with self.lock(game_id):
            table = await self.repo.game(game_id)
            if table is None or not table.status.live:
                return None
            if table.status is TableStatus.LOBBY:
                self._remember(table)
                return Change(table)
            deadline = table.deadline
            change = Change(table, self._state(table))
            self._advance(change)
            if not change.moves and not change.events and table.deadline == deadline:
                self._remember(table)
                return change
            return await self._commit(change)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> Table | None:
        """A group became a supergroup: its game moves to the new chat id (and is returned)."""
        table = await self.repo.live_game(old_chat_id)
        if table is None:
            await self.repo.migrate_chat(old_chat_id, new_chat_id)
            self._forget_chat(old_chat_id)
            return None
        async with self.lock(table.game_id):
            await self.repo.migrate_chat(old_chat_id, new_chat_id)
            self._forget_chat(old_chat_id)  # storage changed (moved or stopped) its games
            moved = await self.repo.game(table.game_id)
        if moved is not None:
            self._remember(moved)
        return moved if moved is not None and moved.status.live else None

    def _forget_chat(self, chat_id: int) -> None:
        for cache in (self._tables, self._ended):
            for game_id in [g for g, t in cache.items() if t.chat_id == chat_id]:
                del cache[game_id]

    async def stop(self, game_id: int) -> Change:
        """End a game without a result (the caller checked the right to do so)."""
        async with self.lock(game_id):
            table = await self._load(game_id)
            return await self._commit(self._stopped(table))

    # -- internals -----------------------------------------------------------------------

    async def _load(self, game_id: int, status: TableStatus | None = None) -> Table:
        """A private copy of the game's committed table for an operation to change: from
        memory when this process committed it last (every commit goes through ``_commit``),
        else from storage."""
        cached = self.snapshot(game_id)
        table = cached.model_copy(deep=True) if cached else await self.repo.game(game_id)
        if table is None:
            raise TableError("no_game")
        if not table.status.live:
            raise TableError("finished", table)
        if status is not None and table.status is not status:
            raise TableError("not_lobby" if status is TableStatus.LOBBY else "stale", table)
        return table

    @staticmethod
    def _state(table: Table) -> GameState:
        """A private copy of the table's engine state, for an operation to change."""
        assert table.state is not None
        return load_state(table.state)

    def _lobby_changed(self, table: Table) -> Change:
        """Activity in a lobby keeps it open for another ``lobby_ttl`` seconds."""
        table.deadline = self.clock() + self.lobby_ttl
        return Change(table)

    def _stopped(self, table: Table) -> Change:
        table.status = TableStatus.STOPPED
        table.deadline = None
        return Change(table, None if table.state is None else self._state(table))

    def _apply(self, change: Change, seat: int, action: Any, source: MoveSource) -> None:
        state = change.state
        assert state is not None
        deal_no = state.deal_shown
        assert deal_no is not None
        self._record(change, seat, action, state.apply(seat, action), source, deal_no)

    def _record(
        self,
        change: Change,
        seat: int,
        action: Any,
        events: list[Any],
        source: MoveSource,
        deal_no: int,
    ) -> None:
        """Log an applied move and what it owes: deal records, the result, group posts."""
        state, table = change.state, change.table
        assert state is not None
        table.move_seq += 1
        player = table.seats[seat]
        change.moves.append(
            MoveRecord(
                game_id=table.game_id,
                seq=table.move_seq,
                deal_no=deal_no,
                seat=seat,
                action=str(action),
                source=source,
                user_id=None if player is None else player.user_id,
            )
        )
        self._owed(change, events)

    def _owed(self, change: Change, events: list[Any]) -> None:
        """What events owe, whether a move or a chance step made them (a royal kozel is
        dealt, not played): deal records, the match result, group posts."""
        state, table = change.state, change.table
        assert state is not None
        change.events.extend(events)
        family = family_of(table.variant)
        for event in events:
            for seat, key in family.tallies(event):
                _count(table, seat, key)
            if isinstance(event, DealScored):
                self._count_deal(table, state, event)
                change.deals.append(self._deal_record(table, state, event))
            elif isinstance(event, MatchOver):
                change.result = self._result(table, state, event)
            if isinstance(event, DealScored | MatchOver):
                change.outbox.extend(posts_for(table, event))

    def _advance(self, change: Change) -> None:
        """Deal and let computer seats act until a person must act or the match is over."""
        state, table = change.state, change.table
        assert state is not None
        family = family_of(table.variant)

        def moved(seat: int, action: Any, events: list[Any]) -> None:
            # A move never changes the deal shown (a scored deal stays until the next deal).
            deal_no = state.deal_shown
            assert deal_no is not None
            self._record(change, seat, action, events, MoveSource.COMPUTER, deal_no)

        def computer_seat(seat: int) -> bool:
            player = table.seats[seat]
            return player is None or player.computer_plays

        def choose(state: GameState, seat: int) -> Any:
            player = table.seats[seat]
            easy = table.options.get("computer") == "easy"
            if easy and (player is None or player.is_computer):
                # The easy computer: a random legal move, reproducible from the match seed.
                rng = random.Random(f"{table.seed}:{table.move_seq}:easy")
                return rng.choice(state.legal_actions(seat))
            return family.choose(state, seat)

        advance(
            state,
            table,
            computer_seat,
            choose,
            on_move=moved,
            on_events=lambda events: self._owed(change, events),
            before_chance=lambda: self._seat_waiting(change),
        )
        if state.over:
            table.status = TableStatus.FINISHED
        move_time = family.move_time(state, table.options)
        waiting = table.status is TableStatus.PLAYING and bool(state.to_act())
        if not waiting or move_time <= 0:
            table.deadline = None
        elif change.moves or change.started or table.deadline is None or change.back:
            table.deadline = self.clock() + move_time
            table.turn_time = move_time

    async def _commit(self, change: Change) -> Change:
        table = change.table
        if change.state is not None:
            table.state = change.state.dump()
        table.version += 1
        try:
            await self._save(change)
        except SeatTaken as taken:
            raise TableError("elsewhere", await self.repo.live_seat(taken.user_id)) from None
        self._remember(table)
        return change

    async def _save(self, change: Change) -> None:
        table = change.table
        await self.repo.save_game(
            table,
            moves=change.moves,
            deals=change.deals,
            result=change.result,
            abandoned=[user for user, _seat in change.abandoned],
            outbox=change.outbox,
        )

    @staticmethod
    def _count_deal(table: Table, state: GameState, result: DealScored) -> None:
        """Each seat's deal figures for /stats: the card points its side took, and the
        deals its side won by a catch or a Lyusya, and egg deals."""
        for seat, player in enumerate(table.seats):
            if player is None:
                continue
            side = state.side_of(seat)
            _count(table, seat, "deals")
            if side < len(result.points):
                _count(table, seat, "points", result.points[side])
            if result.outcome == "eggs":
                _count(table, seat, "eggs")
            elif result.outcome in ("catch", "lyusya") and result.side == side:
                _count(table, seat, "catches" if result.outcome == "catch" else "lyusyas")

    def _deal_record(self, table: Table, state: GameState, result: DealScored) -> DealRecord:
        names = [p.name if p is not None else "" for p in table.seats]
        trace = state.deal_trace(result, match=table.game_id, players=names)
        if table.secret and table.client_seed:
            # What checks the deal's key: the lobby's seal and the players' seed (public
            # already), and on the match's last deal the secret itself.
            trace["match_seal"] = match_seal(table.secret)
            trace["players_seed"] = table.client_seed
            trace["contributions"] = list(table.contributions)
            if state.over:
                trace["match_secret"] = table.secret
        return DealRecord(
            game_id=table.game_id,
            deal_no=result.deal_no,
            outcome=result.outcome,
            points=result.points,
            award=result.award,
            multiplier=result.multiplier,
            score=result.score,
            trace=trace,
        )

    def _result(self, table: Table, state: GameState, over: MatchOver) -> MatchResult:
        level = str(table.options.get("computer", "normal"))
        return MatchResult(
            game_id=table.game_id,
            chat_id=table.chat_id,
            thread_id=table.thread_id,
            scope="private" if table.private else "group",
            variant=table.variant,
            options=dict(table.options),
            winner_side=over.winner,
            score=over.score,
            deals=state.deals_scored,
            players=tuple(
                MatchPlayer(
                    seat=seat,
                    user_id=p.user_id,
                    name=p.name,
                    side=state.side_of(seat),
                    won=state.side_of(seat) == over.winner,
                    tally=dict(table.tally[seat]),
                    level=level if p.is_computer else None,
                )
                for seat, p in enumerate(table.seats)
                if p is not None
            ),
        )


def _count(table: Table, seat: int, key: str, by: int = 1) -> None:
    """Add to a seat's match tally (``kozelbot.table.TALLY_KEYS``)."""
    tally = table.tally[seat]
    tally[key] = tally.get(key, 0) + by
