"""Computer players thinking off the event loop (issue #17): a process pool that runs the
strong level's search (``Players.decide``) on a committed state, so a thinking computer never
delays another chat — the bot's event loop only awaits the answer.

A decision is reproducible: the state's dump, the seat, the RNG's seed text and the budget
are all it is given. If the pool breaks (a worker killed), the ``Thinker`` starts a new one
and thinks once more in it; the service falls back to the quick level if that fails too.

Under load (issue #29): the tables' decisions come first, the 🔍 analyses' reviews after
them (``DECISION``, ``REVIEW``); a request identical to one in flight joins it; and a
decision thinks less instead of queueing — its budget is what is left of
``KOZEL_AI_BUDGET_MS`` since it was asked, shared with the decisions waiting behind it
(``share``), so its latency, queue included, stays within the budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kozelbot.computer.analysis import Position, Review, review
from kozelbot.computer.levels import SEARCHING
from kozelbot.core import decisions
from kozelbot.core.decisions import Decision
from kozelbot.core.metrics import OFF, Meter
from kozelbot.families.registry import load_state, players_of

log = logging.getLogger(__name__)
T = TypeVar("T")


def think(dump: dict[str, Any], seat: int, seed: str, budget_ms: float) -> Decision:
    """The strong level's decision for ``seat`` of the state ``dump`` (in a worker)."""
    state = load_state(dump)
    return players_of(state.variant).decide(state, seat, random.Random(seed), budget_ms)


THINKING_LEVEL = "/".join(sorted(SEARCHING))
"""The level whose decisions the pool thinks (and the metrics name): ``strong``."""

_WAITING: Any = None
"""In a worker: the pool's "a table's decision waits" event (``_start_worker``)."""


def _review(position: Position, seed: str, budget_ms: float) -> Review:
    """``analysis.review`` with the budget last, as the dispatcher passes it (in a worker);
    it stops early when a table's decision waits for the worker (``decisions.YIELD``)."""
    decisions.YIELD = None if _WAITING is None else _WAITING.is_set
    try:
        return review(position, budget_ms, seed)
    finally:
        decisions.YIELD = None


WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the bot's: on a busy machine the event
loop (answers, edits) is served first, the thinking with what is left."""


WATCH_SECONDS = 1.0
"""How often a worker checks that the bot that started it is still alive."""

DECISION = 0
"""The priority of a table's decision (and a 💡 hint): first in the queue."""
REVIEW = 1
"""The priority of a 🔍 analysis's review: only when no decision waits."""
FLOOR_MS = 1.0
"""The least budget a decision is given, however long the queue: the search still looks
at its two samples (``decisions.Budget.least``)."""
MEASURED = 2000
"""Decisions whose latency and budget the thinker keeps (``Thinker.measured``)."""
REPORTED = 100
"""Every this many decisions the thinker logs their latency and budgets (benchmarks read
it: ``benchmarks/load.py``)."""


class Overloaded(Exception):
    """A decision's budget was spent in the queue before a worker was free: whoever asked
    answers it the quick way (``turns.think``: the quick level moves)."""


def share(budget_ms: float, workers: int, waited_ms: float, behind: int) -> float:
    """A decision's budget as it starts in a worker: what is left of ``budget_ms`` after
    ``waited_ms`` in the queue, and no more than its share of the budget with ``behind``
    decisions waiting after it for ``workers`` workers — so the queue drains within the
    budget instead of growing. At least ``FLOOR_MS``; ``0`` when nothing is left (the
    decision is not thought: ``Overloaded``).

    **Decision**: the strong level thinks less under load rather than answering late; a
    person waiting on three computers gets three short thoughts, not three long queues,
    and past the budget the quick level's move, not a late one."""
    left = budget_ms - waited_ms
    if left <= 0:
        return 0.0
    fair = budget_ms * workers / (behind + workers)
    return max(FLOOR_MS, min(left, fair))


def _start_worker(bot_pid: int, waiting: Any = None) -> None:
    """A worker's initializer: give the CPU to the bot's event loop first, and end with the
    bot — killed outright (``kill -9``), a bot leaves its workers waiting for work that
    never comes, which nothing else would stop. ``waiting`` is set while a table's decision
    waits for a worker (a review then stops early)."""
    global _WAITING
    _WAITING = waiting
    with contextlib.suppress(OSError, AttributeError):  # not allowed, or not on this system
        os.nice(WORKER_NICE)
    threading.Thread(target=_watch, args=(bot_pid,), daemon=True).start()


def _watch(bot_pid: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != bot_pid:  # the bot is gone: its workers were handed to init
            os._exit(0)


def default_workers() -> int:
    """One worker per core but one (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(order=True)
class Job:
    """One search waiting for a worker: ordered by priority, then by arrival. ``function``
    gets ``args`` and, last, the budget it is given when it starts."""

    priority: int
    number: int
    function: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    key: Hashable = field(compare=False)
    asked: float = field(compare=False)
    sheds: bool = field(compare=False)
    """A decision not thought when its budget was spent waiting (``Overloaded``)."""
    future: asyncio.Future[Any] = field(compare=False)


class Thinker:
    """The pool of worker processes the strong level thinks in, with the queue in front of
    it: decisions before reviews, at most ``workers - 1`` reviews at once when there are
    several workers (one is kept for the tables), identical requests joined."""

    def __init__(self, budget_ms: float, workers: int | None = None, meter: Meter = OFF) -> None:
        self.budget_ms = budget_ms
        self.meter = meter
        """Hears every decision's time (queue included) against the budget."""
        self.workers = workers or default_workers()
        self.review_slots = max(1, self.workers - 1)
        """Workers reviews may hold at once."""
        self.measured: deque[tuple[float, float]] = deque(maxlen=MEASURED)
        """The latest decisions' latency (queue included) and budget, in ms."""
        self.started: deque[tuple[int, Hashable]] = deque(maxlen=MEASURED)
        """Priority and key of the latest searches started, in order (tests, benchmarks)."""
        self._pool: ProcessPoolExecutor | None = None
        self._waiting_event: Any = None
        """Set while a decision waits for a worker (the workers' reviews stop early)."""
        self._waiting: list[Job] = []
        self._flying: dict[Hashable, asyncio.Future[Any]] = {}
        self._running = 0
        self._reviews_running = 0
        self._numbers = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()
        self._decided = 0
        self.shed = 0
        """Decisions not thought: their budget was spent in the queue (``Overloaded``)."""

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: workers start from a clean interpreter, not a copy of the bot's threads
            # (aiosqlite, the HTTP client), as direct children of the bot (no forkserver
            # left behind if the bot is killed), and import the rules once each.
            context = multiprocessing.get_context("spawn")
            self._waiting_event = event = context.Event()
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(), event),
            )
        return self._pool

    @property
    def backlog(self) -> int:
        """Searches asked and not finished (waiting or running)."""
        return len(self._waiting) + self._running

    async def decide(
        self, dump: dict[str, Any], seat: int, seed: str, *, sheds: bool = True
    ) -> Decision:
        """The decision, thought in a worker process; the event loop runs on meanwhile.
        Decisions go before every review waiting; the same seat and seed asked again while
        the first is thought joins it (the seed names the state: a match's seed and move).
        ``Overloaded`` if its budget was spent waiting (unless not ``sheds``: a 💡 hint is
        thought however short its time)."""
        decision: Decision = await self._ask(
            DECISION, ("decide", seed, seat), think, dump, seat, seed, sheds=sheds
        )
        return decision

    async def review(self, position: Position, seed: str) -> Review:
        """One play of a deal reviewed (``analysis.review``) in a worker process, when no
        table's decision waits."""
        found: Review = await self._ask(
            REVIEW, ("review", seed, position.seat), _review, position, seed, sheds=False
        )
        return found

    async def _ask(
        self, priority: int, key: Hashable, function: Callable[..., Any], *args: Any, sheds: bool
    ) -> Any:
        future = self._flying.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._flying[key] = future
            job = Job(
                priority, next(self._numbers), function, args, key, time.monotonic(), sheds, future
            )
            heapq.heappush(self._waiting, job)
            if sheds:
                asyncio.get_running_loop().call_later(self.budget_ms / 1000, self._expire, job)
            self._pump()
        return await asyncio.shield(future)

    def _expire(self, job: Job) -> None:
        """A decision still waiting when its budget is spent is not thought: whoever asked
        is answered at once (``Overloaded``), not when a worker is free."""
        if job not in self._waiting:
            return  # started (or closed) meanwhile
        self._waiting.remove(job)
        heapq.heapify(self._waiting)
        self._flying.pop(job.key, None)
        self._signal()
        self.shed += 1
        if not job.future.done():
            job.future.set_exception(Overloaded())
            job.future.exception()  # retrieved: whoever asked may be gone
        self._measure(job, 0.0)

    def _pump(self) -> None:
        """Start waiting searches while a worker is free: decisions first; a review only
        while a review slot is free too."""
        while self._waiting and self._running < self.workers:
            job = self._waiting[0]
            if job.priority == REVIEW and self._reviews_running >= self.review_slots:
                break  # no decision waits (they sort first); the reviews wait for a slot
            heapq.heappop(self._waiting)
            self._running += 1
            self._reviews_running += job.priority == REVIEW
            task = asyncio.get_running_loop().create_task(self._work(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        self._signal()

    def _signal(self) -> None:
        """Tell the workers whether a decision waits (their reviews stop early if so)."""
        if self._waiting_event is None:
            return
        if any(job.priority == DECISION for job in self._waiting):
            self._waiting_event.set()
        else:
            self._waiting_event.clear()

    async def _work(self, job: Job) -> None:
        budget = self.budget_ms
        if job.priority == DECISION:
            behind = sum(j.priority == DECISION for j in self._waiting)
            waited = (time.monotonic() - job.asked) * 1000
            budget = share(self.budget_ms, self.workers, waited, behind)
            if budget <= 0 and not job.sheds:
                budget = FLOOR_MS
        try:
            if budget <= 0:
                self.shed += 1
                raise Overloaded
            self.started.append((job.priority, job.key))
            result = await self._run(job.function, *job.args, budget)
        except asyncio.CancelledError:  # the pool was closed
            job.future.cancel()
            raise
        except Exception as error:  # handed to whoever asked
            if not job.future.done():
                job.future.set_exception(error)
                job.future.exception()  # retrieved: whoever asked may be gone
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._flying.pop(job.key, None)
            self._running -= 1
            self._reviews_running -= job.priority == REVIEW
            if job.priority == DECISION:
                self._measure(job, budget)
            self._pump()

    def _measure(self, job: Job, budget: float) -> None:
        took = time.monotonic() - job.asked
        self.measured.append((took * 1000, budget))
        self.meter.decision(THINKING_LEVEL, took, self.budget_ms / 1000)
        self._decided += 1
        if self._decided % REPORTED == 0:
            self._report()

    def _report(self) -> None:
        """Log the last ``REPORTED`` decisions' latency (queue included) and budgets."""
        last = list(self.measured)[-REPORTED:]
        latency = sorted(m[0] for m in last)
        budget = sorted(m[1] for m in last)
        log.info(
            "thinking: %d decisions, latency p50 %.0f p95 %.0f max %.0f ms, budget p50 "
            "%.0f ms, not thought %d, backlog %d",
            len(last),
            latency[len(last) // 2],
            latency[len(last) * 95 // 100],
            latency[-1],
            budget[len(last) // 2],
            sum(b <= 0 for b in budget),
            self.backlog,
        )

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            try:
                return await loop.run_in_executor(self._executor(), function, *args)
            except BrokenProcessPool:
                log.warning("the thinking pool broke; starting a new one")
                self._pool = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the workers (a decision being thought is dropped, those waiting too)."""
        for job in self._waiting:
            job.future.cancel()
        self._waiting.clear()
        self._flying.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
