"""What a searching computer player answers (issue #17): its move, what every legal move
was worth to it, and why — shared by the families' strong players, the tables' computer
seats, the 💡 hint and the post-deal analysis."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

DEFAULT_BUDGET_MS = 150
"""Thinking time per decision (``KOZEL_AI_BUDGET_MS``)."""
SPEND = 0.85
"""The share of the budget a search starts samples in: the last sample, begun just before
the deadline, ends within the rest, so the budget holds at the 95th percentile."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A move with its worth: ``values`` pairs every legal move considered with its mean
    value (the deal's award to the seat's side minus the other side's, in the variant's
    unit: eyes, points or loser points avoided), best first; ``samples`` is how many
    deals of hidden cards were searched; ``reason`` is a key of the family's hint texts
    and its fields (the family's ``Reader`` renders it)."""

    action: Any
    values: tuple[tuple[Any, float], ...] = ()
    samples: int = 0
    reason: str = "only"
    fields: Mapping[str, Any] = field(default_factory=dict)

    def value_of(self, action: Any) -> float | None:
        """The value the search gave ``action`` (``None`` if it was not considered)."""
        for move, value in self.values:
            if move == action:
                return value
        return None

    @property
    def margin(self) -> float:
        """How much the chosen move is worth over the next best (0 with one move)."""
        if len(self.values) < 2:
            return 0.0
        return self.values[0][1] - self.values[1][1]


YIELD: Callable[[], bool] | None = None
"""Set in a thinking worker while it reviews a play for a 🔍 analysis: true while a table's
decision waits for the worker, and the review then stops at its least samples, so it never
holds a table's computer up (issue #29; ``thinking._review``)."""


class Budget:
    """A decision's thinking time: ``spent()`` once the search should stop (its deadline
    passed, or ``YIELD`` says a table waits). At least ``least`` samples are always searched,
    however short the budget."""

    __slots__ = ("_clock", "deadline", "least")

    def __init__(
        self, milliseconds: float, *, least: int = 2, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self._clock = clock
        self.deadline = clock() + milliseconds * SPEND / 1000
        self.least = least

    def spent(self, samples: int) -> bool:
        if samples < self.least:
            return False
        return self._clock() >= self.deadline or (YIELD is not None and YIELD())
