"""Random playouts of the cover game through the search representation: a match's first
game dealt by the engine's chance step, turned into a position (``build.from_state``) and
played to its end with uniformly random legal moves made in place — the figure
``benchmarks/playout.py`` sets beside the protocol's."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kozelbot.families.cover.presets import PRESETS, configure
from kozelbot.families.cover.search.build import from_state
from kozelbot.families.cover.search.phases import PHASES
from kozelbot.families.cover.state import CoverState


def random_playout(pos: Any, rng: random.Random) -> int:
    """Play ``pos`` to its end with random legal moves; return the moves made."""
    made = 0
    choice = rng.choice
    while not pos.over:
        pos.make(choice(pos.legal(pos.to_act()[0])))
        made += 1
    return made


def playouts(variant: str, options: dict[str, Any]) -> Callable[[random.Random], int]:
    """A function dealing a fresh match's first game of ``options`` at each call and
    playing it out at random (``random_playout``); it returns the moves made. A deal of
    four of a kind, which ends the match before any move, is dealt again."""

    chosen, rules = configure(PRESETS[variant], options)

    def playout(rng: random.Random) -> int:
        while True:
            state = CoverState(variant, chosen, rules=rules)
            state.chance(random.Random(rng.getrandbits(64)))
            if state.phase in PHASES:
                return random_playout(from_state(state), rng)

    return playout
