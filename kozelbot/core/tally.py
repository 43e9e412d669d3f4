"""What a searching player has seen of its moves so far, and whether the best is settled
(issue #17): every move's value in every sample (all moves meet the same hidden cards), and
a stopping rule that ends the search once more samples would not change the choice.

**Decision** (the stopping rule): after ``FIRST`` samples, and then every ``EVERY``, the
best move so far is compared with each other one on the samples' paired differences (the
same hidden cards for both, so the noise of the deal cancels); the search stops when the
best is ahead of every other by ``Z`` standard errors of that difference, or when the two
were worth exactly the same in every sample (equivalent cards: 7♠ or 8♠). Weighted samples
count by their effective number, ``(Σw)² / Σw²``. A decision that stays close searches to
its budget, as before; a clear one frees the core for the next.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

FIRST = 24
"""Samples before the first check."""
EVERY = 8
"""Samples between checks."""
Z = 3.0
"""Standard errors the best must lead each other move by."""

M = TypeVar("M", bound=Hashable)


class Tally(Generic[M]):
    """Per-move sample values with their weights: ``add`` each move's value, then ``close``
    the sample with its weight; ``mean``, ``best`` and ``settled`` read them."""

    __slots__ = ("_open", "_values", "weights")

    def __init__(self, moves: Iterable[M]) -> None:
        self._values: dict[M, list[float]] = {move: [] for move in moves}
        self._open: dict[M, float] = {}
        self.weights: list[float] = []

    @property
    def samples(self) -> int:
        return len(self.weights)

    def add(self, move: M, value: float) -> None:
        self._open[move] = value

    def close(self, weight: float = 1.0) -> None:
        """End a sample: every move given a value in it keeps it, with ``weight``."""
        for move, value in self._open.items():
            self._values[move].append(value)
        self._open.clear()
        self.weights.append(weight)

    def mean(self, move: M) -> float:
        """The move's weighted mean over the samples it was searched in (0 with none)."""
        values = self._values[move]
        weights = self.weights[: len(values)]  # a move dropped early: its first samples
        total = sum(weights)
        if not total:
            return 0.0
        return sum(w * v for w, v in zip(weights, values, strict=True)) / total

    def ranked(self, moves: Iterable[M]) -> list[M]:
        """``moves`` best first (ties: in the order given)."""
        return sorted(moves, key=lambda move: -self.mean(move))

    def settled(self, moves: Iterable[M]) -> bool:
        """Whether the best of ``moves`` (each searched in every sample) is clear enough to
        stop: checked only at ``FIRST`` samples and every ``EVERY`` after."""
        n = self.samples
        if n < FIRST or (n - FIRST) % EVERY:
            return False
        order = self.ranked(moves)
        best = self._values[order[0]]
        return all(self._ahead(best, self._values[other]) for other in order[1:])

    def _ahead(self, best: list[float], other: list[float]) -> bool:
        weights = self.weights
        diffs = [b - o for b, o in zip(best, other, strict=True)]
        if not any(diffs):
            return True
        total = sum(weights)
        mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
        spread = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
        effective = total * total / sum(w * w for w in weights)
        if effective < 2:
            return False
        error = math.sqrt(spread / (effective - 1))
        return mean > Z * error if error else mean > 0
