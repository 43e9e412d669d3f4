"""The follow-suit engine's shape (issue #16): a state is built from a rules value, so a variant
the registry has never heard of plays through the family alone; scoring reads named rules
fields; a state copies cheaply and independently (a searching computer player plays on copies);
every phase has its step."""

from __future__ import annotations

import dataclasses
import random

import pytest
from pydantic import BaseModel

from kozelbot.core.cards import parse_cards
from kozelbot.core.fairplay import shuffle_seed
from kozelbot.core.options import Preset
from kozelbot.core.protocol import DealScored, advance, shuffle_rng
from kozelbot.families import registry as games
from kozelbot.families.follow import FAMILY
from kozelbot.families.follow.presets import PRESETS, HvalenyiOptions, build_hvalenyi
from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.scoring import settle
from kozelbot.families.follow.state import STEPS, MatchState
from kozelbot.families.follow.vocabulary import Outcome, Phase
from kozelbot.tools.simulate import play_match

MINI = "hvalenyi_mini"


def _mini(options: BaseModel) -> Rules:
    """Hvalenyi as the options say, with Lyusya off: a side taking every trick scores by its
    card points like any other deal."""
    return dataclasses.replace(build_hvalenyi(options), name=MINI, all_tricks="none")


@pytest.fixture
def mini_variant(monkeypatch: pytest.MonkeyPatch) -> str:
    """A variant known to the follow-suit family only (not to ``kozelbot.families.registry``)."""
    monkeypatch.setitem(FAMILY.rules.presets, MINI, Preset(MINI, HvalenyiOptions, _mini))
    assert MINI not in games.PRESETS
    return MINI


def test_a_variant_only_the_family_knows_plays_a_whole_match_through_play_match(
    mini_variant: str,
) -> None:
    state = FAMILY.rules.new_state(mini_variant, {"deck": 32, "move_time": 0})
    assert isinstance(state, MatchState)
    assert state.rules.all_tricks == "none" and state.rules.deck == 32
    assert state.options["lyusya"] == "win"  # the options model's default, stored
    scored: list[DealScored] = []
    play_match(state, 7, on_deal=lambda _, result: scored.append(result))
    assert state.over and scored
    assert {result.outcome for result in scored} <= {"normal", "eggs"}


def test_a_sweep_without_lyusya_is_scored_by_its_points(mini_variant: str) -> None:
    """Pair 0+2 holds every trump and takes all eight tricks: 120 points, the 90+ award."""
    state = FAMILY.rules.new_state(mini_variant, {"deck": 32})
    assert isinstance(state, MatchState)
    state.deal_hands(
        [
            parse_cards("QC QS QH QD JC JS JH JD"),
            parse_cards("AS 10S KS 9S 8S 7S KC 9C"),
            parse_cards("AD 10D KD 9D 8D 7D AC 10C"),
            parse_cards("AH 10H KH 9H 8H 7H 8C 7C"),
        ]
    )
    events: list[object] = []
    while not state.needs_chance:
        seat = state.to_act()[0]
        events += state.apply(seat, FAMILY.players.choose(state, seat))
    result = next(e for e in events if isinstance(e, DealScored))
    assert (result.outcome, result.tricks_won, result.award) == ("normal", (8, 0), (4, 0))


def test_a_stored_state_of_such_a_variant_loads_with_its_rules(mini_variant: str) -> None:
    state = FAMILY.rules.new_state(mini_variant, {"deck": 32})
    state.chance(shuffle_rng(3, 0))
    loaded = FAMILY.rules.load(state.dump())
    assert isinstance(loaded, MatchState)
    assert loaded == state and loaded.rules == state.rules
    seed = shuffle_seed("00" * 32, 0, f"{mini_variant}:{state.seed_context()}", "players")
    assert [pile for pile, _ in FAMILY.rules.deal_from_seed(seed)] == [
        "seat 0",
        "seat 1",
        "seat 2",
        "seat 3",
    ]


def test_a_state_built_from_a_rules_value_plays_without_any_registry() -> None:
    rules = dataclasses.replace(PRESETS["kryuk"].rules({}), name="kryuk_nowhere", target=4)
    state = MatchState.of(rules)
    assert state.variant == "kryuk_nowhere" and state.rules is rules
    advance(state, 11, lambda seat: True, FAMILY.players.choose)
    assert state.over and state.winner is not None and state.score[state.winner] >= 4


def test_a_state_built_from_a_name_takes_the_familys_preset() -> None:
    for variant in PRESETS:
        assert MatchState(variant, {}).rules == FAMILY.rules.new_state(variant, {}).rules


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_a_copy_is_equal_and_independent(variant: str) -> None:
    state = FAMILY.rules.new_state(variant, {})
    rng = random.Random(2)
    for shuffle in range(60):  # into the second deal (an opening in kryuk and sixes)
        if state.needs_chance:
            state.chance(shuffle_rng(5, shuffle))
            if state.deal_no == 1:
                break
        while not state.needs_chance and not state.over:
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    for _ in range(3):
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    before = state.dump()
    copy = state.copy()
    assert copy == state and copy.dump() == before and copy.rules is state.rules
    while not copy.needs_chance and not copy.over:
        seat = copy.to_act()[0]
        copy.apply(seat, rng.choice(copy.legal_actions(seat)))
    assert copy.dump() != before
    assert state.dump() == before


def test_every_phase_has_a_step() -> None:
    assert set(STEPS) == set(Phase)


def test_the_all_tricks_award_at_nil_is_the_rules_field() -> None:
    """Kryuk's all eight tricks at 0:0 score ``all_tricks_nil_award``, whatever it is set to."""
    rules = dataclasses.replace(PRESETS["kryuk"].rules({}), all_tricks_nil_award=7)
    settled = settle(
        rules,
        Outcome.ALL_TRICKS,
        1,
        points=(0, 120),
        obligation=0,
        score=(0, 0),
        eggs=0,
        carry=2,
        first_deal=False,
    )
    assert (settled.award, settled.zeroed, settled.ends_match) == ((0, 9), None, False)


def test_a_refused_redeal_awards_the_rules_field_and_keeps_the_eggs_waiting() -> None:
    rules = dataclasses.replace(PRESETS["sixes"].rules({}), refused_redeal_award=3)
    settled = settle(
        rules,
        Outcome.REFUSED_REDEAL,
        0,
        points=(0, 0),
        obligation=1,
        score=(2, 2),
        eggs=0,
        carry=1,
        first_deal=False,
    )
    assert (settled.award, settled.carry, settled.carried) == ((3, 0), 1, 0)
