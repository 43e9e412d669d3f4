"""The computer's levels, one way to choose a move for each, shared by the tables (the
service's computer seats) and the arena that measures them.

``easy`` plays a uniformly random legal move; ``normal`` is the family's computer player
(``Players.choose``, which sees only its seat's view); ``strong`` searches the hidden cards
within a time budget (``Players.decide``). All are reproducible from the RNG the caller
seeds (``strong`` as far as its budget lets it search as many samples again).
"""

from __future__ import annotations

import random
from typing import Any

from kozelbot.core import decisions
from kozelbot.core.protocol import AnyState
from kozelbot.families.registry import players_of

LEVELS = ("easy", "normal", "strong")
"""Every level, weakest first."""
DEFAULT_LEVEL = "strong"
"""The level of a table's computer seats unless the table or the chat says otherwise."""
QUICK_LEVEL = "normal"
"""The level that answers at once: it plays for someone away from the table."""
SEARCHING = frozenset({"strong"})
"""Levels that think for a while (off the event loop, in the bot)."""


def choose(
    level: str,
    state: AnyState,
    seat: int,
    rng: random.Random,
    budget_ms: float | None = None,
) -> Any:
    """The move ``level`` makes for ``seat`` (``ValueError`` for a level that is not one);
    ``strong`` thinks ``budget_ms`` (``decisions.DEFAULT_BUDGET_MS`` unless given)."""
    if level == "easy":
        return rng.choice(state.legal_actions(seat))
    if level == "normal":
        return players_of(state.variant).choose(state, seat)
    if level == "strong":
        budget = decisions.DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        return players_of(state.variant).decide(state, seat, rng, budget).action
    raise ValueError(f"no computer level {level!r}")
