"""``kozelbot simulate``: whole matches between computer players, for statistics and checks.

The computers play at the ``computer`` option's level, ``normal`` unless ``--option
computer=…`` says otherwise (``strong`` thinks ``decisions.DEFAULT_BUDGET_MS`` a move, so its
matches depend on the machine's speed). Prints one JSON summary line; ``--trace FILE``
writes one JSON object per deal (``kozelbot.trace``). Match ``i`` of seed ``S`` is the same
whatever else runs (at the ``easy`` and ``normal`` levels).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import IO, Any

from kozelbot.computer import levels
from kozelbot.computer.levels import QUICK_LEVEL
from kozelbot.core.options import OptionError
from kozelbot.core.protocol import AnyState, DealScored, advance
from kozelbot.families.registry import PRESETS, new_state, preset


def play_match(
    state: AnyState,
    seed: int,
    *,
    on_deal: Any = None,
    max_deals: int = 10_000,
    level: str = QUICK_LEVEL,
) -> AnyState:
    """Play ``state`` to its end with computer players of ``level`` (the normal player's by
    default: reproducible from the seed); ``on_deal(state, result)`` per deal."""
    rng = random.Random(f"{seed}:{level}")

    def choose(current: AnyState, seat: int) -> Any:
        return levels.choose(level, current, seat, rng)

    def moved(seat: int, action: Any, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, DealScored) and on_deal is not None:
                on_deal(state, event)

    advance(
        state,
        seed,
        lambda seat: True,
        choose,
        on_move=moved,
        on_events=lambda events: moved(-1, None, events),
        limit=max_deals * 200,
    )
    if not state.over:
        raise RuntimeError("match did not end")
    return state


def options_of(variant: str, words: Sequence[str], players: int | None) -> dict[str, Any]:
    """A variant's options from ``KEY=VALUE`` words and a number of players (fewer than four
    play each for self where the preset has pairs), the computers ``normal`` unless the
    words say otherwise; ``OptionError`` for a bad word."""
    chosen = preset(variant)
    words = list(words)
    if not any(word.partition("=")[0] == "computer" for word in words):
        words.insert(0, f"computer={QUICK_LEVEL}")
    if players is not None:
        words.append(f"players={players}")
        explicit = {w.partition("=")[0] for w in words[:-1]}
        if players != 4 and "mode" in chosen.keys and "mode" not in explicit:
            words.append("mode=self")  # only pairs need four
    return chosen.parse(words).model_dump()


def run(argv: Sequence[str], out: IO[str]) -> int:
    """Parse the ``simulate`` arguments, play, print the summary; return the exit code."""
    parser = argparse.ArgumentParser(prog="kozelbot simulate")
    parser.add_argument("--variant", default="hvalenyi", choices=sorted(PRESETS))
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trace", metavar="FILE")
    parser.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4),
        help="hvalenyi: 2 or 4; cover: 2 to 4 (fewer than 4: each for self)",
    )
    args = parser.parse_args(argv)
    try:
        options = options_of(args.variant, args.option, args.players)
    except OptionError as error:
        parser.error(f"bad --option {error}")
    master = random.Random(args.seed)
    sides = 2 if options.get("mode", "pairs") == "pairs" else int(options.get("players", 4))
    wins = [0] * sides
    deals = 0
    started = time.perf_counter()
    trace_file = open(args.trace, "w", encoding="utf-8") if args.trace else None  # noqa: SIM115
    players = [f"cpu{seat}" for seat in range(int(options.get("players", 4)))]
    try:
        for match in range(args.matches):
            match_seed = master.getrandbits(48)

            def record(state: AnyState, result: DealScored, match: int = match) -> None:
                nonlocal deals
                deals += 1
                if trace_file is not None:
                    line = state.deal_trace(result, match=match, players=players)
                    trace_file.write(json.dumps(line, ensure_ascii=False) + "\n")

            final = play_match(
                new_state(args.variant, options),
                match_seed,
                on_deal=record,
                level=str(options["computer"]),
            )
            assert final.winner is not None
            wins[final.winner] += 1
    finally:
        if trace_file is not None:
            trace_file.close()
    seconds = time.perf_counter() - started
    summary = {
        "variant": args.variant,
        "options": options,
        "matches": args.matches,
        "deals": deals,
        "seconds": round(seconds, 3),
        "wins": wins,
    }
    out.write(json.dumps(summary) + "\n")
    return 0
