"""What ``load.py`` measures once a run is over: percentiles, the busiest second, the event
loop's lag, 429s, the bot's log, the cards in its database and any leaked hidden card."""

from __future__ import annotations

import asyncio
import bisect
import re
import sys
import time
from pathlib import Path
from typing import Any

from botapi_emulator import BotApiEmulator
from storage import Storage
from tests import leaks


async def loop_lag(lags: list[float], every: float = 0.05) -> None:
    """Record how late this process's event loop wakes up (ms): the emulator shares it with
    the emulated people, so a late loop bunches the bot's calls as the emulator sees them."""
    while True:
        start = time.monotonic()
        await asyncio.sleep(every)
        lags.append(1000 * (time.monotonic() - start - every))


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in 0..100) of ``values``; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def busiest_second(times: list[float]) -> int:
    """The most events inside any window of one second."""
    times = sorted(times)
    best = 0
    for i, start in enumerate(times):
        best = max(best, bisect.bisect_left(times, start + 1.0, lo=i) - i)
    return best


def max_in_60s(times: list[float]) -> int:
    """The most events inside any window of 60 seconds."""
    times = sorted(times)
    return max(
        (bisect.bisect_left(times, t + 60.0, lo=i) - i for i, t in enumerate(times)), default=0
    )


def rounded(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)


def flood_summary(emu: BotApiEmulator) -> dict[str, int]:
    """The 429s the emulator answered, in all and to groups / private chats."""
    errors = emu.flood_errors
    group = sum(1 for error in errors if error.chat_id < 0)
    return {
        "flood_429s": len(errors),
        "flood_429s_group": group,
        "flood_429s_private": len(errors) - group,
    }


def read_logs(logs: Path | list[Path]) -> str:
    """The text of the bot's log, or of all its processes' logs one after the other."""
    paths = [logs] if isinstance(logs, Path) else logs
    return "\n".join(p.read_text(errors="replace") for p in paths if p.exists())


def bot_log_summary(logs: Path | list[Path]) -> dict[str, Any]:
    """Counts of warnings, errors and rate-limit retries in the bot's log (or logs), and the
    first distinct error/warning lines (their text after the logger name)."""
    text = read_logs(logs)
    lines = text.splitlines()
    distinct: dict[str, int] = {}
    for line in lines:
        if " ERROR " in line or " WARNING " in line or " CRITICAL " in line:
            key = line.split(" ", 2)[-1][:160]
            distinct[key] = distinct.get(key, 0) + 1
    return {
        "log_errors": sum(" ERROR " in line or " CRITICAL " in line for line in lines),
        "log_warnings": sum(" WARNING " in line for line in lines),
        "log_tracebacks": text.count("Traceback"),
        "log_rate_limit_retries": text.count("Rate limit hit"),
        "log_samples": sorted(distinct.items(), key=lambda kv: -kv[1])[:8],
    }


THINKING = re.compile(
    r"thinking: (\d+) decisions, latency p50 (\d+) p95 (\d+) max (\d+) "
    r"ms, budget p50 (\d+) ms, not thought (\d+)"
)


def thinking_summary(logs: Path | list[Path]) -> dict[str, Any]:
    """The bot's thinking from its log (``Thinker`` reports every 100 decisions): how many
    reports, the median of their latency p50 and budget p50, the worst p95 and max (ms;
    latency counts the queue), and the share of decisions not thought (their budget was
    spent waiting: the quick level moved)."""
    text = read_logs(logs)
    found = [tuple(int(x) for x in m.groups()) for m in THINKING.finditer(text)]
    if not found:
        return {"thinking_reports": 0}

    def median(values: list[int]) -> int:
        return sorted(values)[len(values) // 2]

    return {
        "thinking_reports": len(found),
        "thinking_latency_ms_p50": median([f[1] for f in found]),
        "thinking_latency_ms_p95_worst": max(f[2] for f in found),
        "thinking_latency_ms_max": max(f[3] for f in found),
        "thinking_budget_ms_p50": median([f[4] for f in found]),
        "thinking_not_thought_share": round(sum(f[5] for f in found) / sum(f[0] for f in found), 3),
    }


async def count_cards(db_path: Path | str) -> tuple[int, int]:
    """(cards played, games) from the bot's database: ``moves`` rows whose action is
    ``play:…``, over every game id in use."""
    storage = await Storage.open(db_path)
    try:
        cards, game_id = 0, 1
        while await storage.games.game(game_id) is not None:
            moves = await storage.games.moves(game_id)
            cards += sum(1 for move in moves if move.action.startswith("play:"))
            game_id += 1
    finally:
        await storage.close()
    return cards, game_id - 1


async def check_move_log(
    db_path: Path | str, games: int, accepted: list[tuple[int, int, int, str]]
) -> dict[str, int]:
    """The move log against the card presses the bot accepted (answered without an alert):
    ``(game, person, deal, action)`` each. ``moves_missing``: an accepted press with no such
    move in the log; ``moves_twice``: a card logged twice in one deal of a game;
    ``seq_broken``: games whose ``seq`` does not run 1, 2, … n."""
    storage = await Storage.open(db_path)
    logged: set[tuple[int, int | None, int, str]] = set()
    twice = broken = 0
    try:
        for game_id in range(1, games + 1):
            moves = await storage.games.moves(game_id)
            if [m.seq for m in moves] != list(range(1, len(moves) + 1)):
                broken += 1
            cards = [(m.deal_no, m.action) for m in moves if m.action.startswith("play:")]
            twice += len(cards) - len(set(cards))
            logged.update((game_id, m.user_id, m.deal_no, m.action) for m in moves)
    finally:
        await storage.close()
    missing = [press for press in accepted if press not in logged]
    for press in missing[:3]:
        print("accepted press without its move:", press, file=sys.stderr)
    return {"moves_missing": len(missing), "moves_twice": twice, "seq_broken": broken}


async def count_leaks(emu: BotApiEmulator, db_path: Path | str, games: int) -> int:
    """Messages that showed a card to anyone but its holder before it was played
    (``tests/leaks.py``: buttons, and cards named in texts about a deal)."""
    storage = await Storage.open(db_path)
    try:
        found = await leaks.scan(emu, storage, list(range(1, games + 1)))
        for leak in found[:3]:
            print("leak:", leak, file=sys.stderr)
        return len(found)
    finally:
        await storage.close()
