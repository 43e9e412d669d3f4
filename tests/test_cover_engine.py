"""The cover engine's shape (issue #16): a state is built from a rules value, so a variant the
registry has never heard of plays through the family alone; a state copies cheaply and
independently (a searching computer player plays on copies); every phase has its step."""

from __future__ import annotations

import dataclasses
import random

import pytest
from pydantic import BaseModel

from kozelbot.core.fairplay import shuffle_seed
from kozelbot.core.options import Preset
from kozelbot.core.protocol import DealScored, advance, shuffle_rng
from kozelbot.families import registry as games
from kozelbot.families.cover import FAMILY
from kozelbot.families.cover.presets import CoverOptions, CoverRules, build_cover
from kozelbot.families.cover.state import STEPS, CoverState
from kozelbot.families.cover.vocabulary import Phase

SHORT = "cover_short"


def _short(options: BaseModel) -> CoverRules:
    """The cover rules with a match lost at 6 loser points instead of 12."""
    return dataclasses.replace(build_cover(options), lose_at=6)


@pytest.fixture
def short_variant(monkeypatch: pytest.MonkeyPatch) -> str:
    """A variant known to the cover family only (not to ``kozelbot.families.registry``)."""
    monkeypatch.setitem(FAMILY.rules.presets, SHORT, Preset(SHORT, CoverOptions, _short))
    assert SHORT not in games.PRESETS
    return SHORT


def test_a_variant_only_the_family_knows_plays_a_whole_match_by_its_own_rules(
    short_variant: str,
) -> None:
    state = FAMILY.rules.new_state(short_variant, {"move_time": 0})
    assert state.rules.lose_at == 6 and state.options["hand"] == 6
    scored: list[DealScored] = []
    advance(
        state,
        5,
        lambda seat: True,
        FAMILY.players.choose,
        on_move=lambda seat, action, events: scored.extend(
            e for e in events if isinstance(e, DealScored)
        ),
    )
    assert state.over and scored
    loser = 1 - state.winner if state.winner is not None else None
    assert loser is not None and 6 <= state.score[loser] < 12  # 12 would have played on
    assert all(max(result.score) < 6 for result in scored[:-1])


def test_a_stored_state_of_such_a_variant_loads_with_its_rules(short_variant: str) -> None:
    state = FAMILY.rules.new_state(short_variant, {})
    state.chance(shuffle_rng(3, 0))
    loaded = FAMILY.rules.load(state.dump())
    assert loaded == state and loaded.rules.lose_at == 6
    seed = shuffle_seed("00" * 32, 0, f"{short_variant}:{state.seed_context()}", "players")
    assert [pile for pile, _ in FAMILY.rules.deal_from_seed(seed)][-1] == "talon"


def test_a_state_built_from_a_name_takes_the_familys_preset() -> None:
    assert CoverState("cover", {}).rules == FAMILY.rules.new_state("cover", {}).rules


def test_a_copy_is_equal_and_independent() -> None:
    state = FAMILY.rules.new_state("cover", {"mode": "self", "players": 3})
    state.chance(shuffle_rng(1, 0))
    rng = random.Random(1)
    for _ in range(12):
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    before = state.dump()
    copy = state.copy()
    assert copy == state and copy.dump() == before
    while not copy.needs_chance and not copy.over:
        seat = copy.to_act()[0]
        copy.apply(seat, rng.choice(copy.legal_actions(seat)))
    assert copy.dump() != before
    assert state.dump() == before


def test_every_phase_has_a_step() -> None:
    assert set(STEPS) == set(Phase)
