"""The ``pairs`` pairing (issue #19): a round robin meets everyone once, a Swiss never
rematches, byes go round, the higher-ranked pair takes seats 0+2, a seed reproduces a round.
Who met whom is read back from the seats here, independently of the module."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kozelbot.core.tournament.model import BYE_PAIRS, LOSS, WIN, Round, TableDraw
from kozelbot.core.tournament.pairing import PairingError, is_round_robin, pair_round


def make_pairs(count: int) -> list[tuple[int, int]]:
    """Pairs 0, 1, … of people (10, 11), (20, 21), …"""
    return [(10 * (n + 1), 10 * (n + 1) + 1) for n in range(count)]


def meetings_of(pairs: list[tuple[int, int]], drawn: Round) -> list[tuple[int, int]]:
    """A round's meetings as pair numbers (seats 0+2, seats 1+3), checking the seats."""
    number = {two: n for n, two in enumerate(pairs)}
    found = []
    for table in drawn.tables:
        s = table.seats
        first, second = (s[0], s[2]), (s[1], s[3])
        assert first in number and second in number, s  # each pair sits opposite itself
        found.append((number[first], number[second]))
    return found


def play(count: int, rounds: int, seed: int) -> tuple[list[tuple[int, int]], list[Round]]:
    """A whole tournament of ``count`` pairs with seeded random results."""
    pairs = make_pairs(count)
    rng, results = random.Random(seed), random.Random(-seed - 1)
    points: Counter[int] = Counter()
    played: list[Round] = []
    for _ in range(rounds):
        drawn = pair_round(pairs, played, points, {}, rounds, rng)
        played.append(drawn)
        for a, b in meetings_of(pairs, drawn):
            winner = results.choice((a, b))
            points[winner] += WIN
            points[b if winner == a else a] += LOSS
        for bye in drawn.byes:
            points[bye] += BYE_PAIRS
    return pairs, played


def assert_no_rematch_and_fair_byes(
    count: int, pairs: list[tuple[int, int]], rounds: list[Round]
) -> None:
    """Every pair plays or has the bye each round; no two pairs meet twice; nobody has a
    second bye before everyone has had one."""
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for drawn in rounds:
        found = meetings_of(pairs, drawn)
        seated = [p for meeting in found for p in meeting]
        assert sorted(seated + drawn.byes) == list(range(count))
        assert len(drawn.byes) == count % 2
        for a, b in found:
            assert frozenset((a, b)) not in met, (drawn.number, a, b)
            met.add(frozenset((a, b)))
        byes.update(drawn.byes)
        counts = [byes[p] for p in range(count)]
        assert max(counts) - min(counts) <= 1


def test_six_fixed_pairs_three_rounds_of_swiss_no_rematch() -> None:
    assert not is_round_robin(6, 3)
    for seed in range(200):
        pairs, played = play(6, 3, seed)
        assert_no_rematch_and_fair_byes(6, pairs, played)


def test_swiss_never_rematches_up_to_its_last_round() -> None:
    for count, rounds, seeds in (
        (4, 2, 50),
        (5, 4, 50),
        (6, 4, 100),
        (7, 6, 40),
        (8, 6, 40),
        (9, 8, 20),
        (10, 8, 20),
        (12, 10, 5),
        (20, 8, 3),
    ):
        assert not is_round_robin(count, rounds)
        for seed in range(seeds):
            pairs, played = play(count, rounds, seed)
            assert_no_rematch_and_fair_byes(count, pairs, played)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8, 11, 16])
def test_round_robin_meets_every_pair_exactly_once(count: int) -> None:
    rounds = count - 1 if count % 2 == 0 else count
    assert is_round_robin(count, rounds) and not is_round_robin(count, rounds - 1)
    pairs, played = play(count, rounds, count)
    met = Counter(frozenset(m) for drawn in played for m in meetings_of(pairs, drawn))
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
    byes = Counter(p for drawn in played for p in drawn.byes)
    assert byes == (Counter(range(count)) if count % 2 else Counter())
    assert_no_rematch_and_fair_byes(count, pairs, played)


def test_round_robin_rounds_do_not_depend_on_the_seed_or_the_results() -> None:
    pairs = make_pairs(6)
    _, first = play(6, 5, 1)
    _, second = play(6, 5, 2)
    assert first == second
    # Each round is computed from the earlier ones alone, the same whenever asked.
    again = pair_round(pairs, first[:3], {}, {}, 5, random.Random(99))
    assert again == first[3]


def test_round_robin_turns_seats_zero_and_two_round() -> None:
    pairs, played = play(4, 3, 0)
    on_zero = Counter(a for drawn in played for a, _ in meetings_of(pairs, drawn))
    assert max(on_zero.values()) < 3  # no pair keeps seats 0+2 in every round


def test_round_robin_starts_again_after_one_cycle() -> None:
    pairs, played = play(4, 6, 0)
    schedule = [meetings_of(pairs, drawn) for drawn in played]
    assert schedule[3:] == schedule[:3]


def test_swiss_pairs_the_ranking_top_down_higher_pair_on_seats_zero_and_two() -> None:
    pairs = make_pairs(6)
    earlier = [
        Round(
            number=1,
            tables=[
                TableDraw(number=1, seats=[10, 20, 11, 21]),  # 0 v 1
                TableDraw(number=2, seats=[30, 40, 31, 41]),  # 2 v 3
                TableDraw(number=3, seats=[50, 60, 51, 61]),  # 4 v 5
            ],
        ),
    ]
    points = {0: 2, 3: 2, 5: 2}
    tiebreak = {5: 3, 3: 1}  # ranking 5, 3, 0, then 1, 2, 4 by the seeded order
    drawn = pair_round(pairs, earlier, points, tiebreak, 3, random.Random(0))
    found = meetings_of(pairs, drawn)
    assert found[0] == (5, 3)  # first meets second
    assert found[1] in ((0, 2), (0, 4))  # third meets the best it has not met (0 met 1)
    assert found[2] in ((1, 4), (4, 1)) if found[1] == (0, 2) else found[2] in ((1, 2), (2, 1))
    assert [t.number for t in drawn.tables] == [1, 2, 3]


def test_swiss_round_one_is_a_seeded_random_order() -> None:
    pairs = make_pairs(8)
    rounds = {str(pair_round(pairs, [], {}, {}, 3, random.Random(s)).tables) for s in range(10)}
    assert len(rounds) > 1
    once = pair_round(pairs, [], {}, {}, 3, random.Random(5))
    assert once == pair_round(pairs, [], {}, {}, 3, random.Random(5))


def test_the_swiss_bye_goes_to_the_lowest_ranked_pair_without_one() -> None:
    pairs = make_pairs(5)
    earlier = [
        Round(
            number=1,
            tables=[
                TableDraw(number=1, seats=[10, 20, 11, 21]),  # 0 v 1
                TableDraw(number=2, seats=[30, 40, 31, 41]),  # 2 v 3
            ],
            byes=[4],
        ),
    ]
    points = {0: 2, 2: 2, 4: 2}  # 1 and 3 lowest; 4, lowest of all by tiebreak, had a bye
    tiebreak = {0: 5, 2: 4, 4: 3, 1: 2, 3: 1}
    drawn = pair_round(pairs, earlier, points, tiebreak, 4, random.Random(0))
    assert drawn.byes == [3]


def test_swiss_looks_ahead_past_a_dead_end() -> None:
    # After 0-3, 1-4, 2-5 and 0-4, 1-5, 2-3, ranking 0, 5, 1, 3, 2, 4 top down would pair
    # 0-5, 1-3, 2-4: two groups of three that have all met, with round 4 impossible.
    pairs = make_pairs(6)
    earlier = [
        Round(
            number=1,
            tables=[
                TableDraw(number=1, seats=[10, 40, 11, 41]),
                TableDraw(number=2, seats=[20, 50, 21, 51]),
                TableDraw(number=3, seats=[30, 60, 31, 61]),
            ],
        ),
        Round(
            number=2,
            tables=[
                TableDraw(number=1, seats=[10, 50, 11, 51]),
                TableDraw(number=2, seats=[20, 60, 21, 61]),
                TableDraw(number=3, seats=[30, 40, 31, 41]),
            ],
        ),
    ]
    points = {0: 60, 5: 50, 1: 40, 3: 30, 2: 20, 4: 10}
    last = pair_round(pairs, earlier, points, {}, 3, random.Random(0))
    assert meetings_of(pairs, last) == [(0, 5), (1, 3), (2, 4)]  # plain top down: no later
    third = pair_round(pairs, earlier, points, {}, 4, random.Random(0))
    assert meetings_of(pairs, third) != [(0, 5), (1, 3), (2, 4)]
    fourth = pair_round(pairs, [*earlier, third], {}, {}, 4, random.Random(0))
    assert_no_rematch_and_fair_byes(6, pairs, [*earlier, third, fourth])


def test_no_rematch_free_round_is_a_pairing_error() -> None:
    pairs = make_pairs(6)
    rounds = [
        [(0, 3), (1, 4), (2, 5)],
        [(0, 4), (1, 5), (2, 3)],
        [(0, 5), (1, 3), (2, 4)],
    ]
    earlier = [
        Round(
            number=r + 1,
            tables=[
                TableDraw(number=i + 1, seats=[pairs[a][0], pairs[b][0], pairs[a][1], pairs[b][1]])
                for i, (a, b) in enumerate(meetings)
            ],
        )
        for r, meetings in enumerate(rounds)
    ]
    with pytest.raises(PairingError):
        pair_round(pairs, earlier, {}, {}, 4, random.Random(0))


def test_fewer_than_two_pairs_is_refused() -> None:
    with pytest.raises(ValueError):
        pair_round(make_pairs(1), [], {}, {}, 3, random.Random(0))
