"""Bot CPU time per card played, and its memory, through the Bot API emulator.

Runs the real bot as a separate process (``python -m kozelbot``) against the emulator, lets
four emulated people play whole matches by pressing their hand buttons, and reads the bot
process's CPU time (user + system, from /proc) before and after the play. Prints one JSON line.

    python benchmarks/bot_cpu.py [--matches N] [--real-limits]
    python benchmarks/bot_cpu.py --synchronous NORMAL FULL [--runs 2] [--dir FOLDER]
    python benchmarks/bot_cpu.py --metrics [--runs 3]

Also prints Bot API message calls (sends and edits) and callback answers per card, and wall
time per card. ``--synchronous`` runs the bot with each of SQLite's settings in turn (its
default is ``storage.sqlite.SYNCHRONOUS``), alternating for ``--runs`` rounds, one JSON line per
run and then a summary: the mean CPU and wall ms per card of each setting and their ratio to
the first. Put ``--dir`` on the disk the bot will use: on a RAM disk ``fsync`` costs nothing.
``--metrics`` runs the bot with its metrics off and on in turn (``KOZEL_METRICS_PORT``, scraped
every ``SCRAPE_EVERY`` seconds as Prometheus would), with the same summary: the cost of the
metrics per card (issue #33: at most 5 %).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from botapi_emulator import BotApiEmulator
from storage import Storage
from tests.e2e import TOKEN, BotProcess, Players, fast_limits, seat_four
from tests.postgres import free_port

SCRAPE_EVERY = 5.0
"""Seconds between two scrapes of ``/metrics`` while the metrics are on (Prometheus' default
is 15 s: a scrape every 5 s overstates their cost, if anything)."""

MESSAGE_METHODS = {"sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage"}

WITH_SYNCHRONOUS = (
    "import sys, storage.sqlite; storage.sqlite.SYNCHRONOUS = sys.argv[1]; "
    "from kozelbot.__main__ import main; sys.exit(main([]))"
)
"""``python -c`` program that runs the bot with SQLite's ``synchronous`` setting ``argv[1]``."""


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def turn_key(players: Players) -> tuple[int, int, str] | None:
    """Who is to act, on which message showing what: changes with every move."""
    found = players.whose_turn()
    return (
        None
        if found is None
        else (found[0].id, found[1].message_id, found[1].text + str(found[1].buttons))
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play_matches(
    matches: int,
    profile: str | None = None,
    real_limits: bool = False,
    pace: str = "settle",
    synchronous: str | None = None,
    folder: str | None = None,
    metrics: bool = False,
) -> dict[str, float | str]:
    workdir = Path(tempfile.mkdtemp(prefix="kozel-bench-", dir=folder))
    async with BotApiEmulator(token=TOKEN, limits=fast_limits()) as emu:
        bot = BotProcess(emu, workdir / "bench.db", workdir)
        scraper: asyncio.Task[int] | None = None
        if metrics:
            port = free_port()
            bot.env_overrides["KOZEL_METRICS_PORT"] = str(port)
            scraper = asyncio.create_task(scrape_forever(f"http://127.0.0.1:{port}/metrics"))
        if real_limits:  # Telegram's own group limit: the table is coalesced as in a real group
            bot.env_overrides["KOZEL_GROUP_PERIOD"] = "60"
        if profile:
            bot.python_args = ["-m", "cProfile", "-o", profile]
        elif synchronous:
            bot.python_args = ["-c", WITH_SYNCHRONOUS, synchronous]
        await bot.start()
        assert bot.process is not None
        pid = bot.process.pid
        try:
            await emu.wait_for(lambda: bool(emu.calls("getUpdates")), timeout=30)
            cpu_start, wall_start = cpu_seconds(pid), time.perf_counter()
            rss_start = rss_mb(pid)
            presses = 0
            for match in range(matches):
                names = tuple(f"{n}{match}" for n in ("Аня", "Борис", "Вера", "Глеб"))
                players: Players = await seat_four(emu, names=names)
                while not players.match_over:
                    if pace == "settle":
                        await emu.settle(quiet=0.05, timeout=30)
                    await players.next_turn()
                    if players.match_over:
                        break
                    before = turn_key(players)
                    await players.play_one()
                    presses += 1
                    if pace == "turn":
                        await emu.wait_for(
                            lambda b=before, p=players: (
                                turn_key(p) != b  # type: ignore[misc]
                                or p.match_over
                            ),
                            timeout=30,
                        )
            await emu.settle(quiet=0.3, timeout=30)
            cpu = cpu_seconds(pid) - cpu_start
            wall = time.perf_counter() - wall_start
            rss_end = rss_mb(pid)
        finally:
            scrapes = 0
            if scraper is not None:
                scraper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    scrapes = await scraper
            await bot.stop()
    storage = await Storage.open(workdir / "bench.db")
    try:
        cards = 0
        for game_id in range(1, matches + 1):
            moves = await storage.games.moves(game_id)
            cards += sum(1 for m in moves if m.action.startswith("play:"))
    finally:
        await storage.close()
    calls = len(emu.history)
    message_calls = sum(1 for c in emu.history if c.ok and c.method in MESSAGE_METHODS)
    answers = sum(1 for c in emu.history if c.ok and c.method == "answerCallbackQuery")
    return {
        "synchronous": synchronous or "default",
        "metrics": "on" if metrics else "off",
        "scrapes": scrapes,
        "matches": matches,
        "cards_played": cards,
        "presses": presses,
        "bot_cpu_seconds": round(cpu, 3),
        "bot_cpu_ms_per_card": round(1000 * cpu / cards, 2),
        "bot_api_calls": calls,
        "message_calls_per_card": round(message_calls / cards, 2),
        "callback_answers_per_card": round(answers / cards, 2),
        "bot_rss_mb_idle": round(rss_start, 1),
        "bot_rss_mb_after": round(rss_end, 1),
        "wall_seconds": round(wall, 1),
        "wall_ms_per_card": round(1000 * wall / cards, 1),
    }


async def scrape_forever(url: str) -> int:
    """Read ``url`` every ``SCRAPE_EVERY`` seconds until cancelled; how many answered 200
    (returned on cancellation)."""
    answered = 0
    try:
        async with aiohttp.ClientSession() as session:
            while True:
                await asyncio.sleep(SCRAPE_EVERY)
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(url) as response:
                        await response.read()
                        answered += response.status == 200
    except asyncio.CancelledError:
        return answered


def summary(runs: list[dict[str, float | str]], key: str) -> dict[str, object]:
    """Mean CPU and wall ms per card of each setting of ``key``, and their ratios to the first
    one's."""
    settings = list(dict.fromkeys(str(r[key]) for r in runs))
    keys = ("bot_cpu_ms_per_card", "wall_ms_per_card")
    means = {}
    for setting in settings:
        mine = [r for r in runs if r[key] == setting]
        means[setting] = {k: round(statistics.mean(float(r[k]) for r in mine), 2) for k in keys}
    base = means[settings[0]]
    ratios = {
        setting: {key: round(value / base[key], 3) for key, value in figures.items()}
        for setting, figures in means.items()
    }
    return {"summary": means, f"ratio_to_{settings[0]}": ratios, "runs": len(runs)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--profile", metavar="FILE", help="write the bot's cProfile stats here")
    parser.add_argument(
        "--real-limits",
        action="store_true",
        help="the bot keeps Telegram's 20 group messages a minute (default: the "
        "tests' 60x time scale, where every card is worth ~6 s of play)",
    )
    parser.add_argument(
        "--pace",
        choices=("settle", "turn"),
        default="settle",
        help="settle: a person presses once the bot is idle (every edit done); "
        "turn: as soon as their hand shows their turn, as people do",
    )
    parser.add_argument(
        "--synchronous",
        nargs="+",
        type=str.upper,
        metavar="SETTING",
        choices=("NORMAL", "FULL", "EXTRA"),
        help="SQLite's synchronous setting(s) to run the bot with, in turn",
    )
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="run the bot with its metrics off and on in turn (scraped every 5 s)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="rounds of the --synchronous settings or of --metrics off/on (alternating)",
    )
    parser.add_argument(
        "--dir", help="folder for the bot's database (default: the system's temporary folder)"
    )
    args = parser.parse_args()
    if args.profile and args.synchronous:
        parser.error("--profile runs the bot with its default --synchronous")
    if args.metrics and args.synchronous:
        parser.error("--metrics compares the bot with metrics off and on, nothing else")
    runs = []
    turns = [(None, False), (None, True)] if args.metrics else []
    for _ in range(args.runs):
        for setting, metrics in turns or [(s, False) for s in args.synchronous or [None]]:
            result = asyncio.run(
                play_matches(
                    args.matches,
                    args.profile,
                    args.real_limits,
                    args.pace,
                    setting,
                    args.dir,
                    metrics,
                )
            )
            print(json.dumps({**result, "pace": args.pace}), flush=True)
            runs.append(result)
    if len(runs) > 1:
        print(json.dumps(summary(runs, "metrics" if args.metrics else "synchronous")))


if __name__ == "__main__":
    main()
