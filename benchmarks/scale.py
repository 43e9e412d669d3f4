"""Past one process (issue #32, item 5): one bot on SQLite, then an intake and 1, then 2
workers on PostgreSQL, under the same CPU-bound load, in one run.

Each run is ``load.py``'s (``run_games``): the real bot against the emulator enforcing
Telegram's strict limits (30 message calls a second overall unless ``--overall-limit``, 20
a minute per group, 3 in 3 s per private chat), tables of two people and two strong
computers (``--mix 0,0,1 --computer strong``: computers at half the seats, each decision
thought for up to ``KOZEL_AI_BUDGET_MS`` in each bot process's pool), the people pressing
their hand messages at a person's pace (``--think``, 2 s give or take half: a table plays
about a card every 2 s). The configurations:

- ``sqlite``: ``python -m kozelbot``, its SQLite file;
- ``1w``: ``kozelbot intake`` and one ``kozelbot worker`` on a throwaway PostgreSQL cluster
  (``tests/postgres.py``, fsync and synchronous commits on, as in production);
- ``2w``: the intake and two workers on it (a fresh database for every run).

**Cards a second at a fixed p99.** The load steps up through ``--tables`` (say 10, 20, 40);
at each step every configuration still in the race runs once, the order rotated from step
to step so that none always meets the machine's other load first. A configuration whose
card press → answer p99 passes ``--bound-ms`` (1 s) leaves the race; its figure is the cards
a second of its last step under the bound (``null`` if none was). The honest caveat: the
steps are coarse, so the figure is a lower bound of the true capacity to within one step;
and once a table's bound is the pace, cards a second only grows with the tables.

Prints one JSON line per run (what was measured), then one line per configuration (its
figure at the bound, and the whole run's CPU per card — every bot process with its thinking
pool and, past one process, the intake), then the ratios ``2w / 1w`` and ``1w / sqlite``
(of the figure at the bound, and of each step both ran), and the totals that must be 0:
lost moves (an accepted card press with no move in the log, a card logged twice in a deal,
a game whose ``seq`` does not run 1..n, a press never answered) and 429s.

    python benchmarks/scale.py [--tables 10,20,40] [--seconds 60] [--think 2]
                               [--bound-ms 1000] [--configs sqlite,1w,2w] [--overall-limit 30]

The emulated people, the emulator and PostgreSQL share the machine with the bot: on two
cores they take a good part of what two workers could use, so the ratio measured here is a
floor of what two workers give on hosts of their own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.load import run_games
from tests import postgres

CONFIGS = {"sqlite": 0, "1w": 1, "2w": 2}
"""Configuration → workers (0: the single process on SQLite)."""
MUST_BE_ZERO = (
    "moves_missing",
    "moves_twice",
    "seq_broken",
    "presses_unanswered",
    "games_stuck",
    "leaks",
    "flood_429s",
)
KEPT = (
    "cards_played",
    "cards_per_second",
    "card_press_answer_ms_p50",
    "card_press_answer_ms_p99",
    "press_answer_ms_p99",
    "bot_cpu_seconds",
    "bot_cpu_ms_per_card",
    "message_calls_per_card",
    "max_message_calls_1s",
    "thinking_budget_ms_p50",
    "thinking_not_thought_share",
    "thinking_latency_ms_p95_worst",
    *MUST_BE_ZERO,
    "log_errors",
    "log_tracebacks",
    "bot_exit_code_before_stop",
    "workdir",
)


def one_run(
    config: str, tables: int, args: argparse.Namespace, cluster: postgres.Cluster | None
) -> dict[str, Any]:
    """One configuration at one step: ``load.py``'s figures, those ``KEPT``."""
    workers = CONFIGS[config]
    database_url = None
    if workers:
        assert cluster is not None
        database_url = cluster.new_database()
    result = asyncio.run(
        run_games(
            tables,
            args.seconds,
            (0.0, 0.0, 1.0),
            args.seed,
            args.computer,
            think=args.think,
            database_url=database_url,
            workers=workers,
            overall_limit=args.overall_limit,
        )
    )
    kept = {key: result.get(key) for key in KEPT}
    kept["cpu_cores_busy"] = round(result["bot_cpu_seconds"] / args.seconds, 2)
    return {"config": config, "tables": tables, **kept}


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a and b else None


def summarize(runs: list[dict[str, Any]], configs: list[str], bound: float) -> dict[str, Any]:
    """Each configuration's cards a second at the bound, and its totals."""
    summary: dict[str, Any] = {}
    for config in configs:
        own = [r for r in runs if r["config"] == config]
        under = [
            r
            for r in own
            if r["card_press_answer_ms_p99"] is not None and r["card_press_answer_ms_p99"] <= bound
        ]
        best = max(under, key=lambda r: r["tables"], default=None)
        cards = sum(r["cards_played"] or 0 for r in own)
        cpu = sum(r["bot_cpu_seconds"] or 0 for r in own)
        summary[config] = {
            "tables_at_bound": None if best is None else best["tables"],
            "cards_per_second_at_bound": None if best is None else best["cards_per_second"],
            "card_press_p99_ms_there": None if best is None else best["card_press_answer_ms_p99"],
            "cpu_ms_per_card_all_runs": round(1000 * cpu / cards, 1) if cards else None,
            "lost": sum(
                (r[k] or 0) for r in own for k in ("moves_missing", "moves_twice", "seq_broken")
            )
            + sum(r["presses_unanswered"] or 0 for r in own),
            "flood_429s": sum(r["flood_429s"] or 0 for r in own),
            "stuck": sum(r["games_stuck"] or 0 for r in own),
            "log_errors": sum(r["log_errors"] or 0 for r in own),
        }
    return summary


def ratios(runs: list[dict[str, Any]], summary: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """``a / b``: of the cards a second at the bound, and of each step both ran."""
    if a not in summary or b not in summary:
        return {}
    by = {(r["config"], r["tables"]): r for r in runs}
    steps = sorted({t for c, t in by if c == a} & {t for c, t in by if c == b})
    return {
        f"{a}/{b}": {
            "cards_per_second_at_bound": ratio(
                summary[a]["cards_per_second_at_bound"], summary[b]["cards_per_second_at_bound"]
            ),
            "by_step": {
                str(t): {
                    "cards_per_second": ratio(
                        by[a, t]["cards_per_second"], by[b, t]["cards_per_second"]
                    ),
                    "card_press_p99": ratio(
                        by[a, t]["card_press_answer_ms_p99"], by[b, t]["card_press_answer_ms_p99"]
                    ),
                    "cpu_ms_per_card": ratio(
                        by[a, t]["bot_cpu_ms_per_card"], by[b, t]["bot_cpu_ms_per_card"]
                    ),
                }
                for t in steps
            },
        }
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,20,40", help="the steps, in tables (10,20,40)")
    parser.add_argument("--seconds", type=float, default=60.0, help="each run plays this long")
    parser.add_argument("--think", type=float, default=2.0, help="a person's seconds a press (2)")
    parser.add_argument("--bound-ms", type=float, default=1000.0, help="the p99 bound (1000)")
    parser.add_argument("--configs", default="sqlite,1w,2w", help="which, of sqlite,1w,2w")
    parser.add_argument("--computer", default="strong", choices=("strong", "normal", "easy"))
    parser.add_argument("--overall-limit", type=int, default=30, help="message calls/s (30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    steps = [int(x) for x in args.tables.split(",")]
    configs = [c for c in args.configs.split(",") if c]
    if unknown := set(configs) - set(CONFIGS):
        parser.error(f"unknown configurations: {sorted(unknown)}")
    runs: list[dict[str, Any]] = []
    racing = list(configs)
    with contextlib.ExitStack() as stack:
        cluster = None
        if any(CONFIGS[c] for c in configs):
            cluster = stack.enter_context(postgres.cluster(durable=True))
        for index, tables in enumerate(steps):
            shift = index % len(racing) if racing else 0
            for config in racing[shift:] + racing[:shift]:
                run = one_run(config, tables, args, cluster)
                runs.append(run)
                print(json.dumps(run, ensure_ascii=False), flush=True)
            racing = [
                c
                for c in racing
                if (
                    p99 := next(r for r in reversed(runs) if r["config"] == c)[
                        "card_press_answer_ms_p99"
                    ]
                )
                is not None
                and p99 <= args.bound_ms
            ]
            if not racing:
                break
    summary = summarize(runs, configs, args.bound_ms)
    for config, figures in summary.items():
        print(json.dumps({"config": config, "bound_ms": args.bound_ms, **figures}), flush=True)
    print(
        json.dumps(
            {
                "ratios": {
                    **ratios(runs, summary, "2w", "1w"),
                    **ratios(runs, summary, "1w", "sqlite"),
                },
                "lost_total": sum(s["lost"] for s in summary.values()),
                "flood_429s_total": sum(s["flood_429s"] for s in summary.values()),
            }
        )
    )


if __name__ == "__main__":
    main()
