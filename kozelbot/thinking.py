"""Computer players thinking off the event loop (issue #17): a process pool that runs the
strong level's search (``Family.decide``) on a committed state, so a thinking computer never
delays another chat — the bot's event loop only awaits the answer.

A decision is reproducible: the state's dump, the seat, the RNG's seed text and the budget
are all it is given. If the pool breaks (a worker killed), the ``Thinker`` starts a new one
and thinks once more in it; the service falls back to the quick level if that fails too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from kozelbot.analysis import Position, Review, review
from kozelbot.decisions import Decision
from kozelbot.games import family_of, load_state

log = logging.getLogger(__name__)
T = TypeVar("T")


def think(dump: dict[str, Any], seat: int, seed: str, budget_ms: float) -> Decision:
    """The strong level's decision for ``seat`` of the state ``dump`` (in a worker)."""
    state = load_state(dump)
    return family_of(state.variant).decide(state, seat, random.Random(seed), budget_ms)


WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the bot's: on a busy machine the event
loop (answers, edits) is served first, the thinking with what is left."""


WATCH_SECONDS = 1.0
"""How often a worker checks that the bot that started it is still alive."""


def _start_worker(bot_pid: int) -> None:
    """A worker's initializer: give the CPU to the bot's event loop first, and end with the
    bot — killed outright (``kill -9``), a bot leaves its workers waiting for work that
    never comes, which nothing else would stop."""
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


class Thinker:
    """The pool of worker processes the strong level thinks in."""

    def __init__(self, budget_ms: float, workers: int | None = None) -> None:
        self.budget_ms = budget_ms
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: workers start from a clean interpreter, not a copy of the bot's threads
            # (aiosqlite, the HTTP client), as direct children of the bot (no forkserver
            # left behind if the bot is killed), and import the rules once each.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                             initializer=_start_worker,
                                             initargs=(os.getpid(),))  # fmt: skip
        return self._pool

    async def decide(self, dump: dict[str, Any], seat: int, seed: str) -> Decision:
        """The decision, thought in a worker process; the event loop runs on meanwhile."""
        return await self._run(think, dump, seat, seed, self.budget_ms)

    async def review(self, position: Position, seed: str) -> Review:
        """One play of a deal reviewed (``analysis.review``) in a worker process."""
        return await self._run(review, position, self.budget_ms, seed)

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
        """Stop the workers (a decision being thought is dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
