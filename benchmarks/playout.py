"""Random-playout speed of the engines, through the game protocol only: deals per second with
uniformly random legal moves, and whole computer-player matches, for every preset. Prints
one JSON line per preset (``--variant`` picks one; ``--option KEY=VALUE`` sets options).

    python benchmarks/playout.py [--deals N] [--matches M] [--seed S] [--variant V]

Redeal offers are always declined (``keep``): a redeal is a deal not played, and the figure
counts deals played.

Where the family has a search representation (``Family.search_position``: the cover
games), the same number of deals is also played out through it, with uniformly random legal
moves made in place (``search_random_deals_per_second``; each deal dealt by the engine's
chance step in a fresh match and turned into a position, which the figure counts too), and
``search_ratio`` says how many times faster that is than ``random_deals_per_second``,
measured in the same run.
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

from kozelbot.game import DealScored, shuffle_rng
from kozelbot.games import PRESETS, family_of, new_state, preset
from kozelbot.simulate import play_match

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


def search_deals(variant: str, options: dict[str, Any], count: int, seed: int) -> float | None:
    """Play ``count`` deals with random legal moves through the family's search position
    (``make`` only); return the seconds taken, or ``None`` if the family has none."""
    family = family_of(variant)
    rng = random.Random(seed)
    started = time.perf_counter()
    played = shuffles = 0
    while played < count:
        state = new_state(variant, options)
        state.chance(shuffle_rng(seed, shuffles))
        shuffles += 1
        position = family.search_position(state)
        if position is None:
            if state.over:
                continue  # four of a kind dealt: the match ended before any move
            return None
        choice = rng.choice
        while not position.over:
            position.make(choice(position.legal(position.to_act()[0])))
        played += 1
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
        [(args.variant, args.option)] if args.variant
        else [(name, []) for name in PRESETS] + [("hvalenyi", ["players=2"])]
    )  # fmt: skip
    for variant, words in setups:
        options = preset(variant).parse(words).model_dump()
        seconds = random_deals(variant, options, args.deals, args.seed)
        search_seconds = search_deals(variant, options, args.deals, args.seed)
        search = {} if search_seconds is None else {
            "search_random_deals_per_second": round(args.deals / search_seconds),
            "search_ratio": round(seconds / search_seconds, 2),
        }  # fmt: skip
        started = time.perf_counter()
        deals = 0
        for match in range(args.matches):
            state = play_match(new_state(variant, options), args.seed * 1000 + match)
            deals += state.deals_scored
        ai_seconds = time.perf_counter() - started
        print(json.dumps({
            "variant": variant,
            "options": words,
            "random_deals": args.deals,
            "random_deals_per_second": round(args.deals / seconds),
            **search,
            "ai_matches": args.matches,
            "ai_deals_per_second": round(deals / ai_seconds),
        }), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
