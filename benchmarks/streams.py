"""Issue #29 item 4: a move's press → answer with 1,000 Mini App streams open on its table,
against the same with none, in one run.

Runs the real bot as a separate process (``python -m kozelbot``, the Mini App on) against
the Bot API emulator. Four people sit at one group's table; ``--streams`` other members of
the group (onlookers: each a different person, as the per-person cap of 3 streams a table
wants) are added. Then two phases, each ``--moves`` moves made in the page (``POST
/webapp/api/move``, the mover's legal card picked at random, "play on" when a redeal is
offered):

1. no stream open;
2. ``--streams`` streams open (``initData`` in the header), each having read its first page.

A move is timed from the POST to its answer (the answer carries the mover's new page). After
each move the next waits until every open stream has read the change (the fan-out, also
timed) and ``--pause`` more seconds, as people do not tap faster than the table moves.
The two phases alternate ``--rounds`` times (each ``--moves``/``--rounds`` moves), so that
both see the same load from whatever else runs on the machine. Prints one JSON line: for
each kind of phase p50/p99 press → answer (ms), its three slowest moves (the p99 of 60
moves is nearly the slowest one: a stall of the machine shows there) and the fan-out
p50/p99 (ms), and the ratio of the p99s (the target is at most 2).

**Decision**: this process (the emulator, the people, the 1,000 readers) collects its
garbage between phases only, so that its own pauses are not counted as the bot's.

**Decision**: the emulated people read and press faster than a person may, so the run
raises ``KOZEL_WEBAPP_READ_BURST``/``_RATE`` and ``KOZEL_PRESS_BURST``/``_RATE`` (nobody
is told to slow down); the stream caps stay at their defaults (3 a person, 1,000 a table).

    python benchmarks/streams.py [--streams 1000] [--moves 60] [--rounds 3] [--pause 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load import free_port, start_bot, stop_bot
from benchmarks.measures import percentile
from benchmarks.pages import init_data
from benchmarks.players import LoadEmulator
from botapi_emulator import User
from tests.e2e import TOKEN, fast_limits, seat_four

FAN_OUT_TIMEOUT = 30.0
CLOSED_WAIT = 3.0
"""Seconds for the bot to notice that the streams were closed (it looks once a second)."""


class Watchers:
    """The open streams: how many pages they have read in all."""

    def __init__(self) -> None:
        self.frames = 0
        self.tasks: list[asyncio.Task[None]] = []
        self.opened = 0
        self.changed = asyncio.Event()

    async def follow(self, session: aiohttp.ClientSession, url: str, user: User) -> None:
        headers = {"X-Telegram-Init-Data": init_data(user, TOKEN)}
        async with session.get(url, headers=headers, timeout=None) as response:
            if response.status != 200:
                raise RuntimeError(f"stream refused: {response.status} {await response.text()}")
            first = True
            async for line in response.content:
                if line.startswith(b"event: table"):
                    self.frames += 1
                    if first:
                        self.opened += 1
                        first = False
                    self.changed.set()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def until(self, frames: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.frames < frames:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True


async def state(session: aiohttp.ClientSession, base: str, user: User, game: int) -> Any:
    headers = {"X-Telegram-Init-Data": init_data(user, TOKEN)}
    async with session.get(f"{base}/state?game={game}", headers=headers) as response:
        assert response.status == 200, await response.text()
        return await response.json()


def pick(legal: list[str], rng: random.Random) -> str:
    if "keep" in legal:
        return "keep"
    cards = [m for m in legal if m.startswith("play:")]
    return rng.choice(cards) if cards else legal[0]


async def phase(
    session: aiohttp.ClientSession,
    base: str,
    game: int,
    by_seat: dict[int, User],
    moves: int,
    pause: float,
    rng: random.Random,
    watchers: Watchers,
) -> dict[str, Any]:
    """``moves`` moves made in the page: press → answer and fan-out times (seconds)."""
    answers: list[float] = []
    fan_outs: list[float] = []
    refused = 0
    page = await state(session, base, next(iter(by_seat.values())), game)
    for _ in range(moves * 20):  # a bounded loop: waits for a turn count as steps too
        if page["status"] != "playing" or len(answers) >= moves:
            break
        to_act = (page["view"] or {}).get("to_act") or []
        if not to_act:
            await asyncio.sleep(0.2)
            page = await state(session, base, by_seat[min(by_seat)], game)
            continue
        mover = by_seat[to_act[0]]
        mine = await state(session, base, mover, game)
        if not mine["legal"]:
            await asyncio.sleep(0.05)
            page = mine
            continue
        body = {
            "init": init_data(mover, TOKEN),
            "game": game,
            "deal": mine["deal"],
            "action": pick(mine["legal"], rng),
        }
        expected = watchers.frames + watchers.opened
        start = time.monotonic()
        async with session.post(f"{base}/move", json=body) as response:
            answer = await response.json()
        answers.append(time.monotonic() - start)
        if response.status != 200:
            refused += 1
            page = mine
            continue
        if watchers.opened and await watchers.until(expected, FAN_OUT_TIMEOUT):
            fan_outs.append(time.monotonic() - start)
        page = answer["page"]
        await asyncio.sleep(pause)
    gc.collect()  # between phases, not during them
    return {"answers": answers, "fan_outs": fan_outs, "refused": refused}


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


async def run(streams: int, moves: int, pause: float, seed: int, rounds: int) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="kozel-streams-"))
    rng = random.Random(seed)
    port = free_port()
    extra = {
        "KOZEL_WEBAPP_URL": "https://load.example/webapp/",
        "KOZEL_WEBAPP_PORT": str(port),
        "KOZEL_WEBAPP_LISTEN": "127.0.0.1",
        "KOZEL_WEBAPP_READ_BURST": "100000",
        "KOZEL_WEBAPP_READ_RATE": "100000",
        "KOZEL_PRESS_BURST": "1000",
        "KOZEL_PRESS_RATE": "1000",
        "KOZEL_LOG_LEVEL": "WARNING",
    }
    base = f"http://127.0.0.1:{port}/webapp/api"
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        LoadEmulator(token=TOKEN, limits=fast_limits()) as emu,
        aiohttp.ClientSession(connector=connector) as session,
    ):
        bot = await start_bot(emu, workdir, extra)
        watchers = Watchers()
        try:
            players = await seat_four(emu)
            onlookers = [
                emu.add_user(first_name=f"W{n}", language_code="ru") for n in range(streams)
            ]
            for person in onlookers:
                emu.add_member(players.group, person)
            game = await _game_of(session, base, players.users)
            by_seat = {}
            for user in players.users:
                by_seat[(await state(session, base, user, game))["seat"]] = user
            quiet: list[dict[str, Any]] = []
            busy: list[dict[str, Any]] = []
            opened_in: list[float] = []
            for _ in range(rounds):  # alternated, so that both see the machine's other load
                quiet.append(
                    await phase(session, base, game, by_seat, moves // rounds, pause, rng, watchers)
                )
                watchers = Watchers()
                opening = time.monotonic()
                url = f"{base}/stream?game={game}"
                for person in onlookers:
                    watchers.tasks.append(
                        asyncio.create_task(watchers.follow(session, url, person))
                    )
                while watchers.opened < streams:
                    failed = [t for t in watchers.tasks if t.done()]
                    if failed:
                        failed[0].result()
                    await asyncio.sleep(0.05)
                opened_in.append(time.monotonic() - opening)
                busy.append(
                    await phase(session, base, game, by_seat, moves // rounds, pause, rng, watchers)
                )
                await watchers.close()
                watchers = Watchers()
                await asyncio.sleep(CLOSED_WAIT)  # the bot notices the closed streams
        finally:
            await watchers.close()
            await stop_bot(bot)
    return {
        "streams": streams,
        "rounds": rounds,
        "opened_in_s": [round(s, 1) for s in opened_in],
        "without_streams": summary(quiet),
        "with_streams": summary(busy),
        "p99_ratio": ratio(summary(busy), summary(quiet)),
    }


def summary(phases: list[dict[str, Any]]) -> dict[str, Any]:
    """The phases' moves together."""
    answers = [a for p in phases for a in p["answers"]]
    fan_outs = [f for p in phases for f in p["fan_outs"]]
    return {
        "moves": len(answers),
        "refused": sum(p["refused"] for p in phases),
        "press_answer_ms": {"p50": ms(percentile(answers, 50)), "p99": ms(percentile(answers, 99))},
        "slowest_ms": [ms(a) for a in sorted(answers)[-3:]],
        "fan_out_ms": None
        if not fan_outs
        else {"p50": ms(percentile(fan_outs, 50)), "p99": ms(percentile(fan_outs, 99))},
    }


def ratio(busy: dict[str, Any], quiet: dict[str, Any]) -> float | None:
    low, high = quiet["press_answer_ms"]["p99"], busy["press_answer_ms"]["p99"]
    return None if not low or high is None else round(high / low, 2)


async def _game_of(session: aiohttp.ClientSession, base: str, users: list[User]) -> int:
    """The table's game number: the first game the seated people's page can read."""
    for game in range(1, 100):
        headers = {"X-Telegram-Init-Data": init_data(users[0], TOKEN)}
        async with session.get(f"{base}/state?game={game}", headers=headers) as response:
            if response.status == 200 and (await response.json())["seat"] is not None:
                return game
    raise RuntimeError("no game found")


def main() -> None:
    gc.disable()  # the measuring side must not pause mid-move (see ``phase``)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--pause", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    result = asyncio.run(run(args.streams, args.moves, args.pause, args.seed, args.rounds))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
