"""The computer's levels, one way to choose a move for each, shared by the tables (the
service's computer seats) and the arena that measures them.

``easy`` plays a uniformly random legal move; ``normal`` is the family's computer player
(``Family.choose``, which sees only its seat's view). Both are reproducible: ``easy`` draws
from an RNG the caller seeds.
"""

from __future__ import annotations

import random
from typing import Any

from kozelbot.game import GameState
from kozelbot.games import family_of

LEVELS = ("easy", "normal")
"""Every level, weakest first."""
DEFAULT_LEVEL = "normal"


def choose(level: str, state: GameState, seat: int, rng: random.Random) -> Any:
    """The move ``level`` makes for ``seat`` (``ValueError`` for a level that is not one)."""
    if level == "easy":
        return rng.choice(state.legal_actions(seat))
    if level == "normal":
        return family_of(state.variant).choose(state, seat)
    raise ValueError(f"no computer level {level!r}")
