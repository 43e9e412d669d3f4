"""Issue #32: how a worker shares the places with the others (``handlers.worker.Worker.tick``),
on one database, with what taking a place over does left out (``take`` and ``drop`` only
note the place here; the end-to-end tests run them whole)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from handlers.delivery import FloodGate
from handlers.worker import LEASE, SharedCalls, Worker, _Held
from storage import Storage


class Noting(Worker):
    """A worker whose take-over and drop only note the place."""

    async def take(self, place: str) -> None:
        self.held[place] = _Held(busy_at=self.clock())

    async def drop(self, place: str) -> None:
        self.held.pop(place, None)


def _worker(
    storage: Storage,
    name: str,
    now: list[float],
    kind: type[Worker] = Noting,
    data: Any = None,
    process: Any = None,
) -> Any:
    """A worker of ``kind`` on ``storage``'s places, on the clock ``now``."""
    return kind(
        data,  # (``Noting`` takes and drops places without a bot)
        storage.places,
        name,
        process=process,
        gate=FloodGate(),
        calls=SharedCalls(storage.places),
        clock=lambda: now[0],
        rng=random.Random(name),
    )


async def _updates(storage: Storage, first: int, places: list[str]) -> None:
    await storage.places.keep([(first + i, "{}", p) for i, p in enumerate(places)])


async def test_new_places_are_shared_at_once_however_many_each_worker_holds(
    tmp_path: Path,
) -> None:
    storage = await Storage.open(tmp_path / "k.db")
    try:
        now = [1000.0]
        a, b = _worker(storage, "a", now), _worker(storage, "b", now)
        await _updates(storage, 1, [f"-{n}" for n in range(1, 21)])
        await a.tick()  # alone yet: it takes them all
        assert len(a.held) == 20
        for _ in range(4):  # b beats: a hands back its surplus, a few a tick, b takes it
            now[0] += 1
            await b.tick()
            await a.tick()
        assert len(a.held) + len(b.held) == 20
        assert abs(len(a.held) - len(b.held)) <= 2
        await _updates(storage, 100, [f"-{n}" for n in range(100, 106)])  # six new tables
        now[0] += 1
        await a.tick()
        await b.tick()
        assert len(a.held) + len(b.held) == 26, "all six taken in one tick each"
        assert not set(a.held) & set(b.held)
    finally:
        await storage.close()


async def test_a_dead_worker_s_places_go_to_the_living_once_its_leases_run_out(
    tmp_path: Path,
) -> None:
    storage = await Storage.open(tmp_path / "k.db")
    try:
        now = [1000.0]
        a, b = _worker(storage, "a", now), _worker(storage, "b", now)
        await _updates(storage, 1, [f"-{n}" for n in range(1, 9)])
        await a.tick()
        await b.tick()
        held_by_a = set(a.held)
        assert held_by_a
        now[0] += LEASE - 0.5  # a stops beating: its leases still hold
        await b.tick()
        assert not held_by_a & set(b.held)
        now[0] += 1.0  # run out
        await b.tick()
        await b.tick()
        assert held_by_a <= set(b.held)
        assert await storage.places.renew("a", now[0] + LEASE) == set()
    finally:
        await storage.close()


class Failing(Worker):
    """A worker whose take-over meets an error (the last holder still committing)."""

    async def _take_over(self, place: str, chat_id: int, thread_id: int | None) -> None:
        raise RuntimeError("the game changed meanwhile")


async def test_a_place_whose_take_over_met_an_error_still_has_its_updates_handled(
    tmp_path: Path,
) -> None:
    """Before, the place was held with nothing feeding it: its updates waited for ever."""
    storage = await Storage.open(tmp_path / "k.db")
    handled: list[int] = []

    async def process(update: Any) -> None:
        handled.append(update.update_id)

    try:
        now = [1000.0]
        worker = _worker(storage, "a", now, Failing, SimpleNamespace(bot=None), process)
        await storage.places.keep([(7, '{"update_id": 7}', "-5")])
        await worker.tick()
        assert "-5" in worker.held
        for _ in range(100):
            if handled:
                break
            await asyncio.sleep(0.01)
        assert handled == [7]
    finally:
        for held in worker.held.values():
            if held.task is not None:
                held.task.cancel()
        await storage.close()
