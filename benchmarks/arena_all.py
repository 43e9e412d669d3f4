"""The arena's acceptance runs (issue #17) in one go: ``kozelbot arena`` for every
configuration the issue names, one JSON line each (plus the configuration), so the README's
table is the output of one command.

    python benchmarks/arena_all.py [--a strong] [--b normal] [--matches 400] [--budget 150]
                                   [--jobs J] [--seed S] [--only CONFIG ...]

``--only`` takes a variant (every configuration of it) or one configuration as the JSON's
``config`` names it (``'cover mode=self players=3'``), repeated to run several, in the order
given.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code

from kozelbot.tools import arena

CONFIGS: tuple[tuple[str, list[str]], ...] = (
    ("hvalenyi", []),
    ("hvalenyi", ["players=2"]),
    ("kryuk", []),
    ("sixes", []),
    ("belka", []),
    ("cover", []),
    ("cover", ["mode=self", "players=3"]),
)
"""Every preset of both families, as the issue lists them."""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", default="strong")
    parser.add_argument("--b", default="normal")
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--budget", type=float, default=150.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="a variant (all its configurations) or one configuration, "
        "as 'cover mode=self players=3'; repeat for several",
    )
    args = parser.parse_args()

    def rank(config: tuple[str, list[str]]) -> int | None:
        """Where ``--only`` names the configuration (``None``: not at all)."""
        names = (config[0], " ".join([config[0], *config[1]]))
        return next((i for i, only in enumerate(args.only) if only in names), None)

    chosen = [c for c in CONFIGS if not args.only or rank(c) is not None]
    chosen.sort(key=lambda config: rank(config) or 0)
    for variant, words in chosen:
        argv = [
            "--variant",
            variant,
            "--a",
            args.a,
            "--b",
            args.b,
            "--matches",
            str(args.matches),
            "--budget",
            str(args.budget),
            "--jobs",
            str(args.jobs),
            "--seed",
            str(args.seed),
        ]
        for word in words:
            argv += ["--option", word]
        out = io.StringIO()
        arena.run(argv, out)
        figures = json.loads(out.getvalue())
        figures["config"] = " ".join([variant, *words])
        print(json.dumps(figures, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
