"""``kozelbot arena``: two computer levels play each other in duplicate, and the figures say
which is stronger.

Duplicate: every match's deals come from its seed (``kozelbot.core.protocol.shuffle_rng``), and each
match is played once per seating — in pairs A holds one pair and then the other; when each
plays for self A holds each seat in turn against B at all the others — so that both levels
meet the same cards. The summary (one JSON line) gives A's match wins over every game with a
95 % Wilson interval, each level's mean award per deal (its side's eyes, points, pairs, or the
cover game's loser points: lower is better there), and each level's decision time, mean and
95th percentile, in milliseconds. ``--jobs`` plays matches in that many processes; a seed
gives the same summary whatever the jobs (times apart).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from kozelbot.computer import levels
from kozelbot.core.decisions import DEFAULT_BUDGET_MS
from kozelbot.core.options import OptionError
from kozelbot.core.protocol import AnyState, DealScored, advance
from kozelbot.families.registry import PRESETS, new_state
from kozelbot.tools.simulate import options_of

Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


@dataclass
class Game:
    """One game of a duplicate match: whether A won, and what each level's sides scored and
    how long each level thought."""

    a_won: bool
    deals: int
    awards: dict[str, list[int]] = field(default_factory=dict)
    """Level → its sides' award in every deal."""
    thinking: dict[str, list[float]] = field(default_factory=dict)
    """Level → seconds of every decision."""


def seatings(state: AnyState) -> list[list[int]]:
    """The sides A holds in each game of a duplicate match: each pair in turn, or each seat
    in turn when every seat is its own side."""
    sides = sorted({state.side_of(seat) for seat in range(state.players)})
    return [[side] for side in sides]


def play_game(
    variant: str,
    options: dict[str, Any],
    a: str,
    b: str,
    seed: int,
    a_sides: list[int],
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> Game:
    """One game: A's level at the seats of ``a_sides``, B's at the others."""
    state = new_state(variant, options)
    level = [a if state.side_of(seat) in a_sides else b for seat in range(state.players)]
    rngs = {name: random.Random(f"{seed}:{name}") for name in (a, b)}
    game = Game(a_won=False, deals=0, awards={a: [], b: []}, thinking={a: [], b: []})

    def choose(current: AnyState, seat: int) -> Any:
        started = time.perf_counter()
        action = levels.choose(level[seat], current, seat, rngs[level[seat]], budget_ms)
        game.thinking[level[seat]].append(time.perf_counter() - started)
        return action

    def scored(events: list[Any]) -> None:
        for event in events:
            if isinstance(event, DealScored):
                game.deals += 1
                for side, award in enumerate(event.award):
                    game.awards[a if side in a_sides else b].append(award)

    advance(
        state,
        seed,
        lambda seat: True,
        choose,
        on_move=lambda s, x, events: scored(events),
        on_events=scored,
        limit=2_000_000,
    )
    assert state.winner is not None
    game.a_won = state.winner in a_sides
    return game


def play_match(job: tuple[str, dict[str, Any], str, str, int, float]) -> list[Game]:
    """Every game of one duplicate match (a process pool's unit of work)."""
    variant, options, a, b, seed, budget_ms = job
    sides = seatings(new_state(variant, options))
    return [play_game(variant, options, a, b, seed, held, budget_ms) for held in sides]


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    spread = Z95 * math.sqrt(rate * (1 - rate) / games + Z95**2 / (4 * games**2))
    centre = rate + Z95**2 / (2 * games)
    scale = 1 + Z95**2 / games
    return (centre - spread) / scale, (centre + spread) / scale


def _mean(values: list[int]) -> float:
    return round(statistics.fmean(values), 4) if values else 0.0


def _times(seconds: list[float]) -> dict[str, float | int]:
    if not seconds:
        return {"decisions": 0, "mean_ms": 0.0, "p95_ms": 0.0}
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "decisions": len(ordered),
        "mean_ms": round(1000 * statistics.fmean(ordered), 3),
        "p95_ms": round(1000 * p95, 3),
    }


def summary(
    variant: str,
    options: dict[str, Any],
    a: str,
    b: str,
    matches: int,
    games: list[Game],
    seconds: float,
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> dict[str, Any]:
    """The arena's figures (see the module docstring)."""
    wins = sum(game.a_won for game in games)
    low, high = wilson(wins, len(games))
    awards: dict[str, list[int]] = {a: [], b: []}
    thinking: dict[str, list[float]] = {a: [], b: []}
    for game in games:
        for name in (a, b):
            awards[name] += game.awards.get(name, [])
            thinking[name] += game.thinking.get(name, [])
    return {
        "variant": variant,
        "options": options,
        "a": a,
        "b": b,
        "matches": matches,
        "games": len(games),
        "deals": sum(game.deals for game in games),
        "a_wins": wins,
        "a_win_rate": round(wins / len(games), 4) if games else 0.0,
        "a_win_interval": [round(low, 4), round(high, 4)],
        "mean_award_per_deal": {name: _mean(v) for name, v in awards.items()},
        "decision_time": {name: _times(v) for name, v in thinking.items()},
        "budget_ms": budget_ms,
        "seconds": round(seconds, 2),
    }


def run(argv: Sequence[str], out: IO[str]) -> int:
    """Parse the ``arena`` arguments, play, print the summary; return the exit code."""
    parser = argparse.ArgumentParser(prog="kozelbot arena")
    parser.add_argument("--variant", default="hvalenyi", choices=sorted(PRESETS))
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--players", type=int, choices=(2, 3, 4))
    parser.add_argument("--a", default="normal", choices=levels.LEVELS)
    parser.add_argument("--b", default="easy", choices=levels.LEVELS)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET_MS,
        metavar="MS",
        help="the strong level's thinking time per decision",
    )
    args = parser.parse_args(argv)
    if args.a == args.b:
        parser.error("--a and --b must be different levels")
    if args.matches < 1 or args.jobs < 1:
        parser.error("--matches and --jobs must be at least 1")
    try:
        options = options_of(args.variant, args.option, args.players)
    except OptionError as error:
        parser.error(f"bad --option {error}")
    master = random.Random(args.seed)
    jobs = [
        (args.variant, options, args.a, args.b, master.getrandbits(48), args.budget)
        for _ in range(args.matches)
    ]
    started = time.perf_counter()
    if args.jobs == 1:
        results = [play_match(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(play_match, jobs, chunksize=max(1, len(jobs) // (8 * args.jobs)))
    games = [game for match in results for game in match]
    figures = summary(
        args.variant,
        options,
        args.a,
        args.b,
        args.matches,
        games,
        time.perf_counter() - started,
        args.budget,
    )
    out.write(json.dumps(figures, ensure_ascii=False) + "\n")
    return 0
