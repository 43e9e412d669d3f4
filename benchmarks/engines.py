"""One bot process on SQLite against the same bot on PostgreSQL, in one run (issue #32).

Runs ``benchmarks/load.py`` with the arguments given after ``--``, alternating the embedded
SQLite file and a throwaway PostgreSQL cluster (``load.py --postgresql``: Debian's server,
fsync and synchronous commits on) for ``--rounds`` rounds, so both engines meet the same
machine noise. Prints each run's figures, then the medians and the ratio PostgreSQL ÷
SQLite: cards a second, card press → answer (or, with ``--webapp``, tap → view) p50 and p99,
bot CPU per card, 429s, stuck tables and leaks.

    python benchmarks/engines.py [--rounds N] -- --webapp --mix 1,0,0 --games 300 --seconds 45
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

LOAD = Path(__file__).resolve().parent / "load.py"
FIGURES = (
    "cards_per_second",
    "card_press_answer_ms_p50",
    "card_press_answer_ms_p99",
    "tap_to_view_ms_p50",
    "tap_to_view_ms_p99",
    "bot_cpu_ms_per_card",
    "flood_429s",
    "games_stuck",
    "leaks",
)


def run_load(args: list[str], postgresql: bool) -> dict[str, Any]:
    """One ``load.py`` run's JSON line."""
    argv = [sys.executable, str(LOAD), *args, *(["--postgresql"] if postgresql else [])]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="runs of each engine (2)")
    parser.add_argument("load", nargs=argparse.REMAINDER, help="-- then load.py's arguments")
    args = parser.parse_args()
    load_args = [a for a in args.load if a != "--"]
    runs: dict[str, list[dict[str, Any]]] = {"sqlite": [], "postgresql": []}
    for round_no in range(args.rounds):
        for engine in ("sqlite", "postgresql"):
            result = run_load(load_args, engine == "postgresql")
            runs[engine].append(result)
            shown = {k: result.get(k) for k in FIGURES if result.get(k) is not None}
            print(json.dumps({"round": round_no + 1, "engine": engine, **shown}), flush=True)
    summary: dict[str, Any] = {}
    for key in FIGURES:
        values = {e: [r[key] for r in rs if r.get(key) is not None] for e, rs in runs.items()}
        if not all(values.values()):
            continue
        lite, pg = statistics.median(values["sqlite"]), statistics.median(values["postgresql"])
        summary[key] = {
            "sqlite": lite,
            "postgresql": pg,
            "ratio": round(pg / lite, 2) if lite else None,
        }
    print(json.dumps({"medians": summary}, ensure_ascii=False))


if __name__ == "__main__":
    main()
