"""The ``rotating`` draw (issue #19): new partners each round, few repeated opponents, every
person seated or on a bye once per round, byes in turn, computers spread, a seed reproduces
the draw. Partners and opponents are counted here from the seats, independently of the
module's own counting."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kozelbot.core.tournament.draw import OPPONENT, PARTNER, draw_cost, draw_rotating, meetings
from kozelbot.core.tournament.model import Round, TableDraw


def tournament(people: int, rounds: int, seed: int, *, computer_fill: bool = True) -> list[Round]:
    """Draw ``rounds`` rounds for people 100, 101, … from one seeded generator."""
    rng = random.Random(seed)
    ids = list(range(100, 100 + people))
    played: list[Round] = []
    for _ in range(rounds):
        played.append(draw_rotating(ids, played, rng, computer_fill=computer_fill))
    return played


def partner_counts(rounds: list[Round]) -> Counter[frozenset[int]]:
    """Times each two people sat opposite each other (seats 0+2, 1+3)."""
    counts: Counter[frozenset[int]] = Counter()
    for drawn in rounds:
        for table in drawn.tables:
            s = table.seats
            for a, b in ((s[0], s[2]), (s[1], s[3])):
                if a is not None and b is not None:
                    counts[frozenset((a, b))] += 1
    return counts


def opponent_counts(rounds: list[Round]) -> Counter[frozenset[int]]:
    """Times each two people sat on opposite sides of a table."""
    counts: Counter[frozenset[int]] = Counter()
    for drawn in rounds:
        for table in drawn.tables:
            s = table.seats
            for a in (s[0], s[2]):
                for b in (s[1], s[3]):
                    if a is not None and b is not None:
                        counts[frozenset((a, b))] += 1
    return counts


def test_no_repeated_partner_in_three_rounds_of_eight() -> None:
    for seed in range(200):
        played = tournament(8, 3, seed)
        assert max(partner_counts(played).values()) == 1, seed


def test_no_repeated_partner_while_one_is_avoidable_for_twelve_and_sixteen() -> None:
    for people, rounds in ((12, 5), (16, 5)):
        for seed in range(20):
            played = tournament(people, rounds, seed)
            assert max(partner_counts(played).values()) == 1, (people, seed)
            assert max(opponent_counts(played).values()) <= 2, (people, seed)


def test_sixteen_people_over_five_rounds_hardly_meet_an_opponent_twice() -> None:
    repeats = 0
    for seed in range(20):
        repeats += sum(n - 1 for n in opponent_counts(tournament(16, 5, seed)).values() if n > 1)
    assert repeats <= 20  # at most one repeated opposition per tournament on average


def test_eight_people_three_rounds_meet_no_opponent_twice() -> None:
    for seed in range(50):
        assert max(opponent_counts(tournament(8, 3, seed)).values()) == 1, seed


def test_four_people_take_the_one_partnering_not_yet_used() -> None:
    earlier = [
        Round(number=1, tables=[TableDraw(number=1, seats=[1, 2, 3, 4])]),
        Round(number=2, tables=[TableDraw(number=1, seats=[1, 3, 2, 4])]),
    ]
    for seed in range(30):
        drawn = draw_rotating([1, 2, 3, 4], earlier, random.Random(seed), computer_fill=False)
        s = drawn.tables[0].seats
        assert {frozenset((s[0], s[2])), frozenset((s[1], s[3]))} == {
            frozenset((1, 4)),
            frozenset((2, 3)),
        }


@pytest.mark.parametrize("computer_fill", [True, False])
def test_every_person_sits_once_or_has_a_bye_each_round(computer_fill: bool) -> None:
    for people in range(4 if not computer_fill else 2, 22):
        ids = set(range(100, 100 + people))
        for drawn in tournament(people, 4, people, computer_fill=computer_fill):
            seated = [u for table in drawn.tables for u in table.seats if u is not None]
            assert len(seated) == len(set(seated))
            assert set(seated) | set(drawn.byes) == ids
            assert not set(seated) & set(drawn.byes)
            assert all(len(table.seats) == 4 for table in drawn.tables)
            assert [table.number for table in drawn.tables] == list(range(1, len(drawn.tables) + 1))


def test_without_computers_the_spare_people_sit_out_and_byes_go_round() -> None:
    for people in (5, 6, 7, 13, 14):
        for seed in range(10):
            played = tournament(people, 2 * people, seed, computer_fill=False)
            byes: Counter[int] = Counter()
            for drawn in played:
                assert len(drawn.byes) == people % 4
                assert all(None not in table.seats for table in drawn.tables)
                byes.update(drawn.byes)
                counts = [byes[u] for u in range(100, 100 + people)]
                # Nobody has a second bye before everyone has had one.
                assert max(counts) - min(counts) <= 1, (people, seed, drawn.number)


def test_the_bye_goes_to_someone_with_the_fewest_byes() -> None:
    earlier = [Round(number=1, tables=[TableDraw(number=1, seats=[1, 2, 3, 4])], byes=[5])]
    for seed in range(30):
        drawn = draw_rotating([1, 2, 3, 4, 5], earlier, random.Random(seed), computer_fill=False)
        assert len(drawn.byes) == 1 and drawn.byes[0] != 5


def test_computers_fill_the_missing_seats_one_per_table_while_they_can() -> None:
    def computers(people: int) -> list[list[int]]:
        drawn = tournament(people, 1, 1)[0]
        return [[s for s, u in enumerate(t.seats) if u is None] for t in drawn.tables]

    assert computers(8) == [[], []]
    assert computers(7) == [[], [3]]
    assert computers(6) == [[3], [3]]
    assert computers(9) == [[3], [3], [3]]
    assert computers(10) == [[], [3], [3]]
    # More computers than tables: spread evenly, people first, so two people face each other.
    assert computers(5) == [[3], [2, 3]]
    assert computers(2) == [[2, 3]]
    assert computers(3) == [[3]]


def test_partners_of_a_computer_cost_nothing() -> None:
    earlier = [Round(number=1, tables=[TableDraw(number=1, seats=[1, 2, 3, None])])]
    met = meetings(earlier)
    assert met.partners == Counter({(1, 3): 1})
    assert met.opponents == Counter({(1, 2): 1, (2, 3): 1})


def test_a_repeated_partner_costs_more_than_a_table_of_repeated_opponents() -> None:
    earlier = [
        Round(number=1, tables=[TableDraw(number=1, seats=[1, 2, 3, 4])]),
        Round(number=2, tables=[TableDraw(number=1, seats=[1, 2, 3, 4])]),
    ]
    met = meetings(earlier)
    same = [TableDraw(number=1, seats=[1, 2, 3, 4])]
    # New partners 1+2 and 3+4; of the opponents only 1-4 and 2-3 met (twice) as such.
    swapped = [TableDraw(number=1, seats=[1, 3, 2, 4])]
    assert draw_cost(same, met) == 2 * 2 * PARTNER + 4 * 2 * OPPONENT
    assert draw_cost(swapped, met) == 2 * 2 * OPPONENT
    # Four opposing pairs who each opposed four times still cost less than one partner.
    assert PARTNER > 4 * 4 * OPPONENT


def test_the_same_seed_draws_the_same_rounds() -> None:
    assert tournament(13, 4, 7) == tournament(13, 4, 7)
    assert tournament(13, 4, 7, computer_fill=False) == tournament(13, 4, 7, computer_fill=False)
    assert len({str(tournament(12, 1, seed)[0].tables) for seed in range(10)}) > 1


def test_the_order_people_are_listed_in_does_not_change_the_draw() -> None:
    ids = list(range(100, 111))
    forward = draw_rotating(ids, [], random.Random(3), computer_fill=False)
    backward = draw_rotating(ids[::-1], [], random.Random(3), computer_fill=False)
    assert forward == backward


def test_the_round_is_numbered_after_the_earlier_ones() -> None:
    played = tournament(8, 3, 0)
    assert [drawn.number for drawn in played] == [1, 2, 3]


def test_too_few_people_or_a_repeated_person_is_refused() -> None:
    rng = random.Random(0)
    with pytest.raises(ValueError):
        draw_rotating([1, 2, 3], [], rng, computer_fill=False)
    with pytest.raises(ValueError):
        draw_rotating([1], [], rng, computer_fill=True)
    with pytest.raises(ValueError):
        draw_rotating([1, 2, 3, 3], [], rng, computer_fill=True)
    assert draw_rotating([1, 2], [], rng, computer_fill=True).tables[0].seats.count(None) == 2
