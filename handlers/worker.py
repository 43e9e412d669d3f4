"""One worker of many (issue #32): the places it holds, their updates handled in order.

``kozelbot intake`` keeps every update in the inbox with its place (``handlers.routing``);
any number of ``kozelbot worker`` processes share the PostgreSQL database. Each worker:

1. **beats** every ``TICK`` seconds (``PlaceLeases.beat``): how many workers are alive sets
   its share of the bot's overall flood budget (``FloodGate.share``);
2. **renews** the leases it holds to ``LEASE`` seconds ahead; a place whose lease another
   worker took meanwhile (this one stalled past its lease) is dropped at once;
3. **claims** places that need an owner — updates waiting, a live game or tournament, posts
   owed — and have none, or one whose lease ran out (a worker killed mid-deal), up to its
   fair share (``ceil(places / workers)``, the places held by all and those wanted; past
   it, one a tick that waited a whole tick);
4. **takes** a claimed place over: forgets what it remembered of the place's games (another
   worker may have changed them), starts the group's flood window from the calls the last
   owner made, resumes its live game as a restart does (what computers owe is played, the
   timer armed at its stored deadline, the table and hands redrawn), sends the posts owed
   and steps its tournaments; then hands its kept updates over, oldest first;
5. **feeds** each held place's updates to the application one at a time, in order
   (``Application.process_update``), picked up from the inbox every ``POLL`` seconds; the
   intake's ``DONE`` handler deletes each once handled, and the move a press makes deletes
   it in its own transaction (``storage.inbox.settle``): a move is applied once;
6. **gives up** a place with nothing left to do for ``IDLE`` seconds; past its fair share
   by more than one (a worker joined), up to ``REBALANCE`` places a tick; and at a stop
   every place it holds (``leave``), so the others take them at once;
7. **hears** the games the other workers commit (``listen``: ``storage.listen``), a move from
   a Mini App page they serve: it forgets its copy and wakes its own pages, and if it holds
   the game's place it takes the game up as in 4 (``heard``).

So each place is handled by one worker at a time and in order; a worker's death costs its
places at most ``LEASE + TICK`` seconds; workers join and leave without restarting the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram import Bot, Update

from handlers.delivery import FloodGate
from handlers.deps import BotData
from handlers.publish import publish, timer_name
from handlers.resume import resume_game
from kozelbot.core.table import Table, place_name, place_parts
from kozelbot.tables.queries import PlaceLeases

log = logging.getLogger(__name__)

LEASE = 5.0
"""Seconds a lease lasts unless renewed: a killed worker's places wait at most this long."""
TICK = 1.0
"""Seconds between heartbeats (renew, claim, give up)."""
POLL = 0.05
"""Seconds between looks at the inbox for the held places' new updates."""
IDLE = 30.0
"""Seconds a place with nothing to do is kept before its lease is given up."""
FLOOD_HORIZON = 65.0
"""Seconds of message calls a place's new owner reads (a group's window is a minute)."""
FLUSH_CALLS = 0.2
"""Seconds between writes of the message calls made (the shared flood windows)."""
REBALANCE = 4
"""Places past its fair share a worker gives up a tick (a new worker gets its share soon,
and play is never moved all at once)."""
REMEMBERED = 10_000
"""Update ids handed over that are remembered, so none is handed over twice."""


Listen = Callable[[Callable[[int | None], Awaitable[None]]], Coroutine[Any, Any, None]]
"""Runs until cancelled, handing over each game another process commits (``None``: some
may have gone unheard)."""


@dataclass
class _Held:
    """A place this worker holds: its updates waiting, the task feeding them, when it was
    last busy."""

    queue: asyncio.Queue[tuple[int, str]] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    busy_at: float = 0.0
    handling: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the place was taken over: its updates wait for that."""

    @property
    def quiet(self) -> bool:
        """No update waiting or being handled: the place may be given up now."""
        return self.queue.empty() and not self.handling


class SharedCalls:
    """The flood gate's journal on a worker: every message call, written to the database
    every ``FLUSH_CALLS`` seconds (``PlaceLeases.record_calls``), so that the next owner of a
    group starts from them (``Worker.take``). Nothing is read at ``open``: a worker holds no
    place yet."""

    def __init__(self, places: PlaceLeases | None, clock: Callable[[], float] = time.time) -> None:
        """``places``: where the calls go (set once storage is open)."""
        self.places = places
        self.clock = clock
        self.path = Path("flood_calls")
        """(Named in the gate's log lines: the database's table.)"""
        self._open = False
        self._calls: list[tuple[float, int]] = []

    @property
    def is_open(self) -> bool:
        """Whether calls are being recorded."""
        return self._open

    def open(self, horizon: float) -> list[tuple[float, int]]:
        """Start recording (each place's calls are read when it is taken)."""
        self._open = True
        return []

    def record(self, chat_id: int) -> None:
        """A message call to ``chat_id`` is about to be made."""
        self._calls.append((self.clock(), chat_id))

    def close(self) -> None:
        """Stop recording (``flush`` writes what is left)."""
        self._open = False

    async def flush(self) -> None:
        """Write the calls recorded since the last flush."""
        calls, self._calls = self._calls, []
        if not calls or self.places is None:
            self._calls = calls + self._calls
            return
        try:
            await self.places.record_calls(calls, FLOOD_HORIZON * 2)
        except Exception as error:
            self._calls = calls + self._calls
            log.warning("could not write %d message call(s): %s", len(calls), error)


class Worker:
    """The places one worker holds (see the module)."""

    def __init__(
        self,
        data: BotData,
        places: PlaceLeases,
        name: str,
        process: Callable[[Update], Awaitable[None]],
        gate: FloodGate,
        calls: SharedCalls,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        """``process``: the application's ``process_update``; ``gate`` and ``calls``: the
        bot's flood gate and its shared journal."""
        self.data = data
        self.places = places
        self.name = name
        self.process = process
        self.gate = gate
        self.calls = calls
        self.clock = clock
        self.rng = rng or random.Random()
        self.held: dict[str, _Held] = {}
        self.workers = 1
        """Workers alive at the last heartbeat, this one included."""
        self._cursor = 0
        self._wanted: set[str] = set()
        """The places that wanted an owner at the last tick."""
        self._handed: OrderedDict[int, None] = OrderedDict()
        self._loops: list[asyncio.Task[None]] = []
        self._catching: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self.listen: Listen | None = None
        """Hears the games other workers commit (``storage.listen``), set by the root."""
        self._stopping = False

    @property
    def bot(self) -> Bot:
        return self.data.bot

    async def start(self) -> None:
        """Beat once (claiming what waits), then keep beating and polling in the background."""
        self._cursor = await self.places.last_update()
        await self.tick()
        self._loops = [
            asyncio.create_task(self._every(TICK, self.tick), name="worker: leases"),
            asyncio.create_task(self._every(POLL, self.poll), name="worker: inbox"),
            asyncio.create_task(self._every(FLUSH_CALLS, self.calls.flush), name="worker: calls"),
        ]
        if self.listen is not None:
            self._loops.append(asyncio.create_task(self.listen(self.heard), name="worker: games"))
        log.info("worker %s started", self.name)

    async def _every(self, seconds: float, step: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await step()
            except Exception:
                log.exception("worker %s: %s failed", self.name, getattr(step, "__name__", step))
            await asyncio.sleep(seconds * self.rng.uniform(0.8, 1.2))

    async def tick(self) -> None:
        """Beat, renew, drop what was lost, give up what is idle, claim a fair share."""
        now = self.clock()
        self.workers = await self.places.beat(self.name, now, LEASE)
        self.gate.share(self.workers)
        mine = await self.places.renew(self.name, now + LEASE)
        for place in [p for p in self.held if p not in mine]:
            log.warning("worker %s: lost the lease of %s", self.name, place)
            await self.drop(place)
        await self._give_up_idle(now)
        if self._stopping:
            return
        wanted, held = await self.places.wanted(now)
        waited, self._wanted = wanted & self._wanted, wanted
        share = math.ceil((len(wanted) + held) / self.workers)  # of every place held or not
        if len(self.held) > share + 1:
            await self._hand_back(len(self.held) - share)
            return
        # up to the fair share; past it, one place that waited a whole tick (nobody under
        # their share took it) — so no place waits for an owner longer than that
        order = self.rng.sample(sorted(wanted), len(wanted))
        room = share - len(self.held)
        claims = order[:room] if room > 0 else sorted(waited)[:1]
        for place in claims:
            now = self.clock()
            if await self.places.claim(self.name, place, now, now + LEASE):
                await self.take(place)

    async def _hand_back(self, surplus: int) -> None:
        """Give up a few places past the fair share (a worker joined, or this one started
        first and took everything): the others take them over at their next tick."""
        idle = [p for p, h in self.held.items() if h.quiet]
        places = self.rng.sample(sorted(idle), min(surplus, REBALANCE, len(idle)))
        if places:
            await self._release(places)
            log.info("worker %s: handed back %d place(s) past its share", self.name, len(places))

    async def _give_up_idle(self, now: float) -> None:
        quiet = [p for p, h in self.held.items() if h.quiet and now - h.busy_at > IDLE]
        if quiet:
            await self._release(set(quiet) - await self.places.busy(quiet))

    async def _release(self, places: Collection[str]) -> None:
        """Give these places' leases up, and stop handling them."""
        if places:
            await self.places.release(self.name, places)
            for place in places:
                await self.drop(place)

    async def take(self, place: str) -> None:
        """A place just claimed: feed its updates, and take its games over (the module). The
        feeding starts first and whatever the take-over meets: a place held is never left
        without it (its updates then wait for the take-over, in order)."""
        chat_id, thread_id = place_parts(place)
        held = self.held[place] = _Held(busy_at=self.clock(), handling=True)
        held.task = asyncio.create_task(self._feed(place, held), name=f"worker: {place}")
        try:
            await self._take_over(place, chat_id, thread_id)
        except Exception:  # the last holder still committing, the database away: the
            # commit it makes is heard (``heard``) and taken up then
            log.warning("worker %s: taking %s over met an error", self.name, place, exc_info=True)
        finally:
            held.handling = False
            held.ready.set()
        for update_id, payload in await self.places.updates_at(place):
            self._hand(held, update_id, payload)
        log.info("worker %s: took %s", self.name, place)

    async def _take_over(self, place: str, chat_id: int, thread_id: int | None) -> None:
        service = self.data.service
        service.forget_chat(chat_id)
        now = self.clock()
        self.gate.restore_chat(
            chat_id, await self.places.calls_to([chat_id], now - FLOOD_HORIZON), now
        )
        table = await service.live_game(chat_id, thread_id)
        if table is not None:
            await resume_game(self.data, table.game_id)
        self.data.presenter.chat_lane(chat_id, thread_id).touch_outbox()
        for tour in await self.data.queries.tournaments.live_tournaments():
            if tour.chat_id == chat_id and (tour.thread_id or None) == thread_id:
                self.data.tournaments.spawn(tour.tournament_id)

    async def drop(self, place: str) -> None:
        """Stop handling a place (lost or given up): its feeding stops, its timers go, and
        what was remembered of its games is forgotten."""
        held = self.held.pop(place, None)
        if held is None:
            return
        if held.task is not None:
            held.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await held.task
        chat_id, thread_id = place_parts(place)
        table: Table | None = None
        with contextlib.suppress(Exception):  # (the database away: the timers stay armed)
            table = await self.data.service.live_game(chat_id, thread_id)
        if table is not None:
            _disarm(self.data, table)
        self.data.service.forget_chat(chat_id)

    def holds(self, table: Table) -> bool:
        """Whether this worker holds the place of ``table`` (shows its changes, arms its
        timers)."""
        return place_name(table.chat_id, table.thread_id) in self.held

    async def heard(self, game_id: int | None) -> None:
        """Another worker committed ``game_id`` (a move from its Mini App; ``None``: some
        commits may have gone unheard): catch up with it, one task a game."""
        games = [game_id] if game_id is not None else list(self.data.service.tables.live)
        for game in games:
            if game in self._catching:
                self._again.add(game)
                continue
            task = asyncio.create_task(self._catch_up(game), name=f"worker: game {game}")
            self._catching[game] = task
            task.add_done_callback(functools.partial(self._caught_up, game))

    def _caught_up(self, game_id: int, _task: asyncio.Task[None]) -> None:
        self._catching.pop(game_id, None)
        if game_id in self._again:
            self._again.discard(game_id)
            asyncio.get_running_loop().create_task(self.heard(game_id))

    async def _catch_up(self, game_id: int) -> None:
        """Forget the game's copy and read it again; its place's holder takes it up as at a
        restart (computers owed, timer, redraw), any other worker tells its pages."""
        service = self.data.service
        service.forget(game_id)
        try:
            table = await service.game(game_id)
            if table is not None and self.holds(table):
                change = await service.resume(game_id)
                if change is not None:
                    publish(self.data, change)
                return
        except Exception:
            log.exception("worker %s: catching up with game %d failed", self.name, game_id)
        self.data.hub.changed(game_id)

    async def poll(self) -> None:
        """Hand the held places their updates kept since the last look."""
        for update_id, payload, place in await self.places.updates_after(self._cursor):
            self._cursor = max(self._cursor, update_id)
            held = self.held.get(place)
            if held is not None:
                self._hand(held, update_id, payload)

    def _hand(self, held: _Held, update_id: int, payload: str) -> None:
        if update_id in self._handed:
            return
        self._handed[update_id] = None
        while len(self._handed) > REMEMBERED:
            self._handed.popitem(last=False)
        held.queue.put_nowait((update_id, payload))

    async def _feed(self, place: str, held: _Held) -> None:
        await held.ready.wait()  # the take-over first
        while True:
            update_id, payload = await held.queue.get()
            if self._stopping:  # left in the inbox for the next owner
                return
            held.handling = True
            try:
                update = Update.de_json(json.loads(payload), self.bot)
                await self.process(update)
            except Exception:
                log.exception("worker %s: update %d of %s failed", self.name, update_id, place)
            finally:
                held.handling = False
                held.busy_at = self.clock()

    async def stop(self) -> None:
        """Finish the updates in hand, stop every loop, give every place up."""
        self._stopping = True
        for task in self._loops:
            task.cancel()
        for task in self._loops:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for place, held in list(self.held.items()):
            for _ in range(100):  # the update in hand ends (its move commits) first
                if not held.handling:
                    break
                await asyncio.sleep(0.05)
            await self.drop(place)
        await self.calls.flush()
        with contextlib.suppress(Exception):
            await self.places.leave(self.name)
        log.info("worker %s stopped", self.name)


def _disarm(data: BotData, table: Table) -> None:
    """Remove a game's timers (another worker arms them now)."""
    name = timer_name(table)
    queue = data.job_queue
    for job in [*queue.get_jobs_by_name(name), *queue.get_jobs_by_name(f"{name}:warn")]:
        job.schedule_removal()
