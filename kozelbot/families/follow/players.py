"""The family's computer players as the computer layer meets them (``Players`` of
``kozelbot.core.protocol``): each answers for a seat of a match from that seat's view alone —
the simple player (``ai``), the strong level's search (``strong``), the move made for a person
whose time ran out, and the search representation's playouts for the benchmark."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from kozelbot.core.decisions import Decision
from kozelbot.families.follow import strong
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.search.playout import playouts
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import Action, KeepHand, PlayCard


def choose(state: MatchState, seat: int) -> Action:
    """The simple player's move for ``seat``, from its view."""
    return choose_action(state.view_for(seat))


def searches(state: MatchState, seat: int) -> bool:
    """Whether the strong level searches for ``seat`` at this step (``strong.searches``)."""
    return strong.searches(state.view_for(seat))


def decide(
    state: MatchState,
    seat: int,
    rng: random.Random,
    budget_ms: float,
    keep: Action | None = None,
) -> Decision:
    """The strong level's move for ``seat``, from its view: every legal card is valued, so
    ``keep`` needs nothing more."""
    return strong.decide(state.view_for(seat), rng, budget_ms)


def on_timeout(state: MatchState, seat: int, rng: random.Random) -> Action:
    """RULES.md §3: the computer's move, or a random legal card where the preset says so.

    **Decision** (hidden steps: a redeal offer, a hand-off decision): a person who let the
    time run out asked for nothing, so the hand is kept; a return still owed is made as
    the computer would."""
    if state.hidden_turn and KeepHand() in state.legal_actions(seat):
        return KeepHand()
    if state.rules.timeout_random:
        legal = state.legal_actions(seat)
        if legal and all(isinstance(a, PlayCard) for a in legal):
            return rng.choice(legal)
    return choose_action(state.view_for(seat))


def search_playout(variant: str, options: Mapping[str, Any]) -> Callable[[random.Random], int]:
    """Random playouts through the search representation: a shuffled first deal played to
    its end with random legal cards at each call (``search.playout``)."""
    return playouts(PRESETS[variant].rules(options))
