"""Random-playout speed of the engines, through the game protocol only: deals per second with
uniformly random legal moves, and whole computer-player matches, for every preset. Prints
one JSON line per preset (``--variant`` picks one; ``--option KEY=VALUE`` sets options).

Each family's search representation (``Players.search_playout``:
``kozelbot/families/follow/search``, ``kozelbot/families/cover/search``) plays the same way,
and the same line gives its random playout — whole deals, shuffled and played to the end
with uniformly random legal cards through its make — as ``search_random_deals_per_second``,
and its ratio to the protocol's figure of the same run (``search_speedup``).

    python benchmarks/playout.py [--deals N] [--matches M] [--seed S] [--variant V]

Redeal offers are always declined (``keep``): a redeal is a deal not played, and the figure
counts deals played.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code

from kozelbot.core.protocol import DealScored, shuffle_rng
from kozelbot.families.registry import PRESETS, new_state, players_of
from kozelbot.tools.simulate import options_of, play_match

SEARCH_FACTOR = 4
"""The search representation plays this many times ``--deals`` (about as long a run)."""
DECLINE = {"keep"}
"""Actions preferred when offered, so that a deal is played instead of dealt again."""


def random_deals(variant: str, options: dict[str, Any], count: int, seed: int) -> float:
    """Play ``count`` deals with random legal moves; return the seconds taken."""
    rng = random.Random(seed)
    started = time.perf_counter()
    played = 0
    state = new_state(variant, options)
    while played < count:
        if state.over:
            state = new_state(variant, options)
        if state.needs_chance:
            state.chance(shuffle_rng(seed, state.shuffles))
            continue
        seat = state.to_act()[0]
        actions = state.legal_actions(seat)
        # The family lists a decline ("keep") last; checking one action keeps this cheap.
        action = actions[-1] if str(actions[-1]) in DECLINE else rng.choice(actions)
        if any(isinstance(event, DealScored) for event in state.apply(seat, action)):
            played += 1
    return time.perf_counter() - started


def search_deals(variant: str, options: dict[str, Any], count: int, seed: int) -> float:
    """Play ``count`` random deals through the family's search representation; return the
    seconds taken."""
    playout = players_of(variant).search_playout(variant, options)
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(count):
        playout(rng)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=sorted(PRESETS))
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    setups: list[tuple[str, list[str]]] = (
        [(args.variant, args.option)]
        if args.variant
        else [(name, []) for name in PRESETS] + [("hvalenyi", ["players=2"])]
    )
    for variant, words in setups:
        options = options_of(variant, words, None)  # the normal computer player
        seconds = random_deals(variant, options, args.deals, args.seed)
        search = search_deals(variant, options, args.deals * SEARCH_FACTOR, args.seed)
        started = time.perf_counter()
        deals = 0
        for match in range(args.matches):
            state = play_match(new_state(variant, options), args.seed * 1000 + match)
            deals += state.deals_scored
        ai_seconds = time.perf_counter() - started
        print(
            json.dumps(
                {
                    "variant": variant,
                    "options": words,
                    "random_deals": args.deals,
                    "random_deals_per_second": round(args.deals / seconds),
                    "search_random_deals_per_second": round(args.deals * SEARCH_FACTOR / search),
                    "search_speedup": round(seconds * SEARCH_FACTOR / search, 1),
                    "ai_matches": args.matches,
                    "ai_deals_per_second": round(deals / ai_seconds),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
