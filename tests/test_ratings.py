"""Ratings (``kozelbot.core.ratings``): openskill's Plackett–Luce over teams, winner first and the
other sides tied, computers as fixed pseudo-players."""

from __future__ import annotations

import pytest

from kozelbot.core.ratings import (
    COMPUTER_SKILL,
    MODEL,
    PRIOR,
    Contender,
    Skill,
    rate_match,
    shown,
)

ANNA, BORIS, VERA, GLEB = 1, 2, 3, 4


def pairs(*, winner: int = 0, skills: dict[int, Skill] | None = None) -> dict[int, Skill]:
    """Anna and Vera (seats 0, 2: side 0) against Boris and Gleb (seats 1, 3: side 1)."""
    skills = skills or {}
    seats = [(ANNA, 0), (BORIS, 1), (VERA, 0), (GLEB, 1)]
    return rate_match(
        [Contender(side=side, user_id=uid, skill=skills.get(uid)) for uid, side in seats],
        winner,
    )


def test_the_shown_rating_is_mu_minus_three_sigma_on_the_display_scale() -> None:
    """1000 + 20 × (mu − 3σ), halves rounded away from zero (as SQLite's ROUND)."""
    assert shown(30.0, 2.0) == 1480
    assert Skill(25.0, 25 / 3).shown == 1000 == PRIOR.shown  # a newcomer: a friendly 1000
    assert Skill(20.4, 1.0).shown == 1348
    assert shown(0.125, 0.0) == 1003  # 1002.5: away from zero, as SQL (not to the even 1002)


def test_the_winners_rise_and_the_losers_fall() -> None:
    after = pairs(winner=0)
    for uid in (ANNA, VERA):
        assert after[uid].mu > PRIOR.mu
        assert after[uid].shown > PRIOR.shown
    for uid in (BORIS, GLEB):
        assert after[uid].mu < PRIOR.mu
    # everyone's uncertainty shrinks with a match played
    assert all(s.sigma < PRIOR.sigma for s in after.values())


def test_both_partners_move_and_the_weaker_partner_gains_more() -> None:
    strong = Skill(32.0, 3.0)
    after = pairs(winner=0, skills={ANNA: strong})
    assert after[ANNA].mu > strong.mu and after[VERA].mu > PRIOR.mu
    assert after[VERA].mu - PRIOR.mu > after[ANNA].mu - strong.mu


def test_an_upset_moves_ratings_more_than_an_expected_result() -> None:
    skills = {ANNA: Skill(35.0, 3.0), VERA: Skill(35.0, 3.0)}
    expected = pairs(winner=0, skills=skills)
    upset = pairs(winner=1, skills=skills)
    assert abs(upset[ANNA].mu - 35.0) > abs(expected[ANNA].mu - 35.0)


def test_a_computer_is_a_fixed_pseudo_player_and_the_person_still_moves() -> None:
    """Anna with a normal computer partner against two easy computers."""
    contenders = [
        Contender(side=0, user_id=ANNA),
        Contender(side=1, level="easy"),
        Contender(side=0, level="normal"),
        Contender(side=1, level="easy"),
    ]
    won = rate_match(contenders, 0)
    lost = rate_match(contenders, 1)
    assert set(won) == set(lost) == {ANNA}  # computers are never rated nor returned
    assert won[ANNA].mu > PRIOR.mu > lost[ANNA].mu
    # the computers' strength is a constant: the next match sees the same pseudo-players
    assert {
        "strong": Skill(29.5, 2.0),
        "normal": Skill(25.0, 2.0),
        "easy": Skill(18.0, 2.0),
    } == COMPUTER_SKILL
    assert Contender(side=1).rating().mu == COMPUTER_SKILL["normal"].mu  # no level: normal


def test_beating_easy_computers_earns_less_than_beating_normal_ones() -> None:
    def win_against(level: str) -> float:
        return rate_match([Contender(side=0, user_id=ANNA), Contender(side=1, level=level)], 0)[
            ANNA
        ].mu

    assert win_against("easy") < win_against("normal") < win_against("strong")


def test_the_strong_level_s_strength_predicts_the_arena_s_win_rate() -> None:
    """A pair of strong computers beats a pair of normal ones about 9 times in 10 by the
    model, as the arena measured (README, "The arena")."""
    strong = [Contender(side=0, level="strong").rating() for _ in range(2)]
    normal = [Contender(side=1, level="normal").rating() for _ in range(2)]
    assert 0.88 < MODEL.predict_win([strong, normal])[0] < 0.92


def test_each_for_self_with_three_sides_ranks_the_winner_first_and_ties_the_rest() -> None:
    contenders = [
        Contender(side=0, user_id=ANNA),
        Contender(side=1, user_id=BORIS),
        Contender(side=2, user_id=VERA),
    ]
    after = rate_match(contenders, 1)
    assert after[BORIS].mu > PRIOR.mu
    assert after[ANNA].mu < PRIOR.mu and after[VERA].mu < PRIOR.mu
    assert after[ANNA] == pytest.approx(after[VERA])  # tied second, whatever their score


def test_rating_is_deterministic() -> None:
    skills = {ANNA: Skill(28.0, 5.0), GLEB: Skill(21.0, 4.0)}
    assert pairs(winner=1, skills=skills) == pairs(winner=1, skills=skills)


def test_a_match_of_one_side_or_without_people_changes_nothing() -> None:
    assert rate_match([Contender(side=0, user_id=ANNA, skill=Skill(30.0, 4.0))], 0) == {
        ANNA: Skill(30.0, 4.0)
    }
    assert rate_match([Contender(side=0), Contender(side=1)], 0) == {}


def test_a_person_in_two_seats_is_refused() -> None:
    with pytest.raises(ValueError, match="two seats"):
        rate_match([Contender(side=0, user_id=ANNA), Contender(side=1, user_id=ANNA)], 0)
