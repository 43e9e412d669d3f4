"""Random-playout speed of the engine: deals per second with uniformly random legal moves,
and whole computer-player matches per second. Prints one JSON line.

    python benchmarks/playout.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from kozelbot.engine import MatchState, Phase, PlayCard, shuffle_rng
from kozelbot.simulate import play_match


def random_deals(count: int, seed: int) -> float:
    """Play ``count`` deals with random legal moves (no redeals); return seconds taken."""
    rng = random.Random(seed)
    started = time.perf_counter()
    played = 0
    state = MatchState("hvalenyi", {})
    while played < count:
        if state.phase is Phase.OVER:
            state = MatchState("hvalenyi", {})
        if state.phase is Phase.DEALING:
            state.deal(shuffle_rng(seed, state.shuffles))
            continue
        seat = state.to_act()[0]
        actions = state.legal_actions(seat)
        if state.phase is Phase.REDEAL:
            state.apply(seat, actions[1])  # keep: every redeal would be a deal not played
            continue
        action = rng.choice(actions)
        assert isinstance(action, PlayCard)
        if state.apply(seat, action)[-1].__class__.__name__ in ("DealScored", "MatchOver"):
            played += 1
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seconds = random_deals(args.deals, args.seed)
    started = time.perf_counter()
    deals = 0
    for match in range(args.matches):
        state = play_match(MatchState("hvalenyi", {}), args.seed * 1000 + match)
        deals += state.deal_no
    ai_seconds = time.perf_counter() - started
    print(json.dumps({
        "random_deals": args.deals,
        "random_deals_per_second": round(args.deals / seconds),
        "ai_matches": args.matches,
        "ai_deals_per_second": round(deals / ai_seconds),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
