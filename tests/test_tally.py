"""The searching players' stopping rule (``kozelbot.core.tally``): a clear best stops the search
early, a close call or too few samples never does, and weights count by their effective
number."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from kozelbot.core.tally import EVERY, FIRST, Tally


def fill(
    tally: Tally[str],
    samples: int,
    values: Callable[[int], dict[str, float]],
    weight: Callable[[int], float] = lambda i: 1.0,
) -> None:
    for i in range(samples):
        for move, value in values(i).items():
            tally.add(move, value)
        tally.close(weight(i))


def test_equivalent_moves_settle_at_the_first_check_and_not_before() -> None:
    tally = Tally("ab")
    fill(tally, FIRST - 1, lambda i: {"a": i % 3, "b": i % 3})
    assert not tally.settled("ab")
    fill(tally, 1, lambda i: {"a": 1.0, "b": 1.0})
    assert tally.settled("ab")


def test_a_clear_lead_settles_a_close_one_does_not() -> None:
    rng = random.Random(1)
    noise = [rng.gauss(0, 2) for _ in range(400)]
    clear = Tally("ab")
    fill(clear, FIRST, lambda i: {"a": noise[i] + 1.0, "b": noise[i] + rng.gauss(0, 0.3)})
    assert clear.settled("ab")
    close = Tally("ab")
    fill(close, 200, lambda i: {"a": noise[i] + rng.gauss(0, 1), "b": noise[i] + rng.gauss(0, 1)})
    assert (200 - FIRST) % EVERY == 0 and not close.settled("ab")


def test_checks_come_only_every_few_samples() -> None:
    tally = Tally("ab")
    fill(tally, FIRST + 1, lambda i: {"a": 1.0, "b": 0.0})
    assert not tally.settled("ab")
    fill(tally, EVERY - 1, lambda i: {"a": 1.0, "b": 0.0})
    assert tally.settled("ab")


def test_the_best_must_lead_every_other_move() -> None:
    tally = Tally("abc")
    rng = random.Random(2)
    fill(tally, FIRST, lambda i: {"a": 2.0, "b": 0.0, "c": 2.0 + rng.gauss(0, 1)})
    assert not tally.settled("abc")
    assert tally.settled("ab")


def test_means_are_weighted_and_a_dropped_move_keeps_its_own_samples() -> None:
    tally = Tally("ab")
    fill(tally, 2, lambda i: {"a": float(i), "b": 5.0}, weight=lambda i: (1.0, 3.0)[i])
    fill(tally, 2, lambda i: {"a": 10.0})
    assert tally.mean("b") == pytest.approx(5.0)
    assert tally.mean("a") == pytest.approx((0 * 1 + 1 * 3 + 10 * 2) / 6)
    assert tally.ranked("ab") == ["b", "a"]


def test_one_heavy_sample_is_not_enough_evidence() -> None:
    tally = Tally("ab")
    fill(
        tally,
        FIRST,
        lambda i: {"a": 1.0 + (i % 2), "b": 0.0},
        weight=lambda i: 1.0 if i == 0 else 1e-9,
    )
    assert not tally.settled("ab")
