"""The game protocol (``kozelbot.core.protocol``), checked the same way for every preset and option.

Property: every state reached in seeded matches survives the JSON round trip unchanged —
``load(dump(s)) == s`` compares every field (eggs multiplier, carried eggs, seat suits, the
talon, hand-offs …), and the JSON itself is stable. A restore that dropped any field fails.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kozelbot.core.protocol import AnyState, DealScored, advance, shuffle_rng
from kozelbot.families.registry import (
    FAMILIES,
    PRESETS,
    load_state,
    new_state,
    players_of,
    preset,
    rules_of,
)

SETUPS: list[tuple[str, tuple[str, ...]]] = [
    ("hvalenyi", ()),
    ("hvalenyi", ("deck=32",)),
    ("hvalenyi", ("six_clubs=ordinary", "lyusya=zero")),
    ("hvalenyi", ("players=2",)),
    ("hvalenyi", ("players=2", "deck=32", "lyusya=zero")),
    ("kryuk", ()),
    ("sixes", ()),
    ("sixes", ("no_shamok=true", "ace_discard_ban=true", "royal=true")),
    ("belka", ()),
    ("belka", ("deck=36", "ace_discard_ban=true")),
    ("cover", ()),
    ("cover", ("hand=4",)),
    ("cover", ("mode=self", "players=3")),
    ("cover", ("mode=self", "players=2", "poshka=true", "opening=seed000", "save=21")),
]
"""Every preset with its defaults, plus option combinations that change the engine's path."""
SETUPS += [(name, ()) for name in PRESETS if (name, ()) not in SETUPS]


def _options(variant: str, words: tuple[str, ...]) -> dict[str, Any]:
    return preset(variant).parse(words).model_dump()


def _check_round_trip(state: AnyState) -> None:
    data = state.dump()
    text = json.dumps(data)
    back = load_state(json.loads(text))
    assert back == state
    assert back.dump() == data


@pytest.mark.parametrize(("variant", "words"), SETUPS, ids=lambda v: str(v))
def test_every_state_of_seeded_matches_survives_the_json_round_trip(
    variant: str, words: tuple[str, ...]
) -> None:
    family = players_of(variant)
    for match in range(3):
        state = new_state(variant, _options(variant, words))
        seed = 1000 + match
        _check_round_trip(state)

        def moved(seat: int, action: Any, events: list[Any], state: AnyState = state) -> None:
            _check_round_trip(state)

        advance(
            state,
            seed,
            lambda seat: True,
            family.choose,
            on_move=moved,
            on_events=lambda events, state=state: _check_round_trip(state),
        )
        assert state.over


def test_a_restore_that_drops_a_field_is_caught() -> None:
    """The property test can fail: a state with eggs restored without them is not equal."""
    state = new_state("hvalenyi", {})
    data = state.dump()
    data["eggs"] = 1
    assert load_state(data) != state


@pytest.mark.parametrize("variant", list(PRESETS))
def test_actions_read_back_from_the_move_log_notation(variant: str) -> None:
    """Every legal action of a seeded match parses back from ``str(action)`` to itself."""
    rules, players = rules_of(variant), players_of(variant)
    state = new_state(variant, _options(variant, ()))
    for _ in range(300):
        if state.over:
            break
        if state.needs_chance:
            state.chance(shuffle_rng(5, state.shuffles))
            continue
        seat = state.to_act()[0]
        for action in state.legal_actions(seat):
            assert rules.parse_action(str(action)) == action
        state.apply(seat, players.choose(state, seat))


def test_every_preset_belongs_to_exactly_one_family() -> None:
    names = [name for family in FAMILIES for name in family.rules.presets]
    assert sorted(names) == sorted(PRESETS)
    assert len(names) == len(set(names))


@pytest.mark.parametrize(("variant", "words"), SETUPS, ids=lambda v: str(v))
def test_each_deal_scored_once_with_per_side_results(variant: str, words: tuple[str, ...]) -> None:
    state = new_state(variant, _options(variant, words))
    results: list[DealScored] = []

    def moved(seat: int, action: Any, events: list[Any]) -> None:
        results.extend(e for e in events if isinstance(e, DealScored))

    advance(state, 77, lambda seat: True, players_of(variant).choose, on_move=moved)
    assert [r.deal_no for r in results] == list(range(len(results)))
    sides = len(results[0].score)
    assert sides == (
        2 if "mode=self" not in words else int(dict(w.split("=") for w in words).get("players", 4))
    )
    assert all(len(r.score) == sides and len(r.award) == sides for r in results)
    assert state.deals_scored == len(results)
