"""The cover game's computer players as the computer layer meets them (``Players`` of
``kozelbot.core.protocol``): the simple player (``ai``) from a seat's view and its legal
moves, the strong level's search (``strong``), the move made for a person whose time ran out,
and the search representation's playouts for the benchmark."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from kozelbot.families.cover import ai
from kozelbot.families.cover.search.playout import playouts
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.strong import decide, searches
from kozelbot.families.cover.vocabulary import Action

__all__ = ["choose", "decide", "on_timeout", "search_playout", "searches"]


def choose(state: CoverState, seat: int) -> Action:
    """The simple player's move for ``seat``, from its view and its legal moves."""
    return ai.choose(state.view_for(seat), state.legal_actions(seat))


def on_timeout(state: CoverState, seat: int, rng: random.Random) -> Action:
    """RULES.md §3: the move the simple player would make."""
    return choose(state, seat)


def search_playout(variant: str, options: Mapping[str, Any]) -> Callable[[random.Random], int]:
    """Random playouts through the search representation (``search.playout``)."""
    return playouts(variant, dict(options))
