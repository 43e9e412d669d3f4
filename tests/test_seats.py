"""Seat geometry (RULES.md §0): partners opposite, clockwise turns, each for self."""

from __future__ import annotations

from kozelbot.core.seats import Seats

PAIRS = Seats(4, pairs=True)


def test_pairs_sit_opposite_zero_and_two_against_one_and_three() -> None:
    assert [PAIRS.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [PAIRS.partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert PAIRS.members(0) == (0, 2) and PAIRS.members(1) == (1, 3)
    assert PAIRS.sides == 2


def test_each_for_self_every_seat_is_a_side_without_a_partner() -> None:
    three = Seats(3, pairs=False)
    assert [three.side_of(s) for s in range(3)] == [0, 1, 2]
    assert three.partner(1) is None and three.sides == 3 and three.members(2) == (2,)
    duel = Seats(2, pairs=False)
    assert duel.after(1) == 0 and duel.before(0) == 1


def test_turns_go_clockwise_and_wrap() -> None:
    assert PAIRS.after(3) == 0 and PAIRS.after(1, 2) == 3 and PAIRS.before(0) == 3
    assert PAIRS.distance(3, 1) == 2 and PAIRS.distance(2, 2) == 0
    assert PAIRS.clockwise(2) == [2, 3, 0, 1]
    assert PAIRS.clockwise(2, among=[0, 1]) == [0, 1]
    assert PAIRS.clockwise(1, among=[3, 1]) == [1, 3]
