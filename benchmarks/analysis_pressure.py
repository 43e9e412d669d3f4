"""🔍 analyses under pressure (issue #29 item 5): does one person pressing 🔍 as fast as the
bot allows slow another chat's computers?

One process, the real thinking pool (``KOZEL_AI_BUDGET_MS``-like ``--budget``, the bot's
default worker count unless ``--workers``): a table's computers ask for decisions one after
another (a short pause between them, as a table shows each move) while, in the second half
of the run, one person presses 🔍: eight presses of one deal at once (the bot's burst), then
two a second (its rate) on the next deals of their /history, each analysis asked of the
Coach as the handler asks it. Prints one JSON line: the decisions' latency (queue included)
p50/p95/max without and with the presses, their ratio, and how many reviews the pool
searched.

    python benchmarks/analysis_pressure.py [--seconds 20] [--budget 150] [--workers N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code

from benchmarks.measures import percentile, rounded
from kozelbot.computer import analysis, thinking
from kozelbot.computer.coach import AdviceError, Coach
from kozelbot.computer.thinking import Thinker
from kozelbot.core.table import Player
from kozelbot.tables.service import GameService
from storage import Storage

T = TypeVar("T")
OVERLOADED: type[Exception] = getattr(thinking, "Overloaded", ArithmeticError)
"""A decision not thought (its budget spent waiting; the quick level moves at once). The
script runs on checkouts before issue #29 too, which have none (nothing raises the
stand-in)."""
ANN = 1
DEALS = 6
"""Scored deals of the person's match: what they press 🔍 under."""
PAUSE = 0.05
"""Seconds a table waits between its computers' decisions (showing each move)."""


class CountingThinker(Thinker):
    """The real thinker, counting the searches it starts."""

    def __init__(self, budget_ms: float, workers: int | None) -> None:
        super().__init__(budget_ms, workers)
        self.searches = 0

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        self.searches += 1
        return await super()._run(function, *args)


async def played_match(storage: Storage) -> tuple[int, int]:
    """A person's match against quick computers, played until ``DEALS`` deals are scored
    (or it ends): the game and its scored deals."""
    service = GameService(
        storage.games,
        rng=random.Random(5),
        clock=time.time,
        entropy=random.Random("pressure").randbytes,
    )
    change = await service.lobby.play_private(Player(user_id=ANN, name="Аня"), ["computer=normal"])
    game_id = change.table.game_id
    while (deals := len(await storage.games.deals(game_id))) < DEALS:
        table = await service.game(game_id)
        assert table is not None
        if not table.status.live:
            break
        state = service.state_of(table)
        seat = table.seat_of(ANN)
        assert state is not None and seat is not None
        await service.act(game_id, ANN, state.deal_shown or 0, state.legal_actions(seat)[0])
    return game_id, deals


async def table_decisions(
    thinker: Thinker,
    asked: list[analysis.Position],
    until: float,
    latencies: list[float],
    shed: list[int],
) -> None:
    """Another chat's computers: one decision after another, each timed queue included
    (one not thought counts too: the quick level answers it at once)."""
    number = 0
    while time.monotonic() < until:
        position = asked[number % len(asked)]
        start = time.monotonic()
        try:
            await thinker.decide(position.dump, position.seat, f"table:{number}")
        except OVERLOADED:
            shed.append(number)
        latencies.append(1000 * (time.monotonic() - start))
        number += 1
        await asyncio.sleep(PAUSE)


async def press_analyses(
    storage: Storage,
    thinker: Thinker,
    game_id: int,
    deals: int,
    until: float,
    counts: dict[str, int],
) -> None:
    """One person pressing 🔍: a burst of eight on one deal, then two presses a second on
    the next deals (a new Coach each round of the deals: nothing is answered from memory)."""
    presses: set[asyncio.Task[None]] = set()

    async def one(coach: Coach, deal_no: int) -> None:
        try:
            await coach.analyse(game_id, deal_no, ANN)
            counts["answered"] += 1
        except AdviceError as error:
            counts[error.code] = counts.get(error.code, 0) + 1

    def press(coach: Coach, deal_no: int) -> None:
        counts["presses"] += 1
        task = asyncio.ensure_future(one(coach, deal_no))
        presses.add(task)
        task.add_done_callback(presses.discard)

    coach = Coach(storage.games, thinker)
    for _ in range(8):
        press(coach, 0)
    deal_no = 1
    while time.monotonic() < until:
        await asyncio.sleep(0.5)
        if deal_no == deals:
            coach, deal_no = Coach(storage.games, thinker), 0
        press(coach, deal_no)
        deal_no += 1
    for task in list(presses):
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def figures(latencies: list[float]) -> dict[str, Any]:
    return {
        "decisions": len(latencies),
        "p50_ms": rounded(percentile(latencies, 50)),
        "p95_ms": rounded(percentile(latencies, 95)),
        "max_ms": rounded(max(latencies, default=None)),
    }


async def run(seconds: float, budget: float, workers: int | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kozel-pressure-") as workdir:
        storage = await Storage.open(Path(workdir) / "pressure.db")
        thinker = CountingThinker(budget, workers)
        try:
            game_id, deals = await played_match(storage)
            table = await storage.games.game(game_id)
            assert table is not None
            moves = await storage.games.moves(game_id)
            asked = [
                p
                for deal in range(deals)
                for p in analysis.positions(table.variant, table.options, table, moves, deal, ANN)
            ]
            await thinker.decide(asked[0].dump, asked[0].seat, "warm")  # the workers start
            quiet: list[float] = []
            shed_alone: list[int] = []
            await table_decisions(thinker, asked, time.monotonic() + seconds / 2, quiet, shed_alone)
            before = thinker.searches
            pressed: list[float] = []
            shed: list[int] = []
            counts = {"presses": 0, "answered": 0}
            until = time.monotonic() + seconds / 2
            await asyncio.gather(
                table_decisions(thinker, asked, until, pressed, shed),
                press_analyses(storage, thinker, game_id, deals, until, counts),
            )
            searched = thinker.searches - before - (len(pressed) - len(shed))
        finally:
            thinker.close()
            await storage.close()
    alone, under = figures(quiet), figures(pressed)
    alone["not_thought"], under["not_thought"] = len(shed_alone), len(shed)
    return {
        "scenario": "analysis_pressure",
        "budget_ms": budget,
        "workers": thinker.workers,
        "seconds": seconds,
        "decisions_alone": alone,
        "decisions_with_presses": under,
        "p95_ratio": rounded(under["p95_ms"] / alone["p95_ms"], 2)
        if alone["p95_ms"] and under["p95_ms"]
        else None,
        "analysis_presses": counts,
        "reviews_searched": searched,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--budget", type=float, default=150.0)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.seconds, args.budget, args.workers)), ensure_ascii=False))


if __name__ == "__main__":
    main()
