"""Button data: every family's move fits, reads back, and forged data is not ours."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from kozelbot.core import callbacks
from kozelbot.core.callbacks import ActButton
from kozelbot.core.cards import Card
from kozelbot.families.cover.buttons import ChosenButton, SelectButton
from kozelbot.families.follow.buttons import PlayButton, RedealButton
from kozelbot.families.registry import rules_of


@pytest.mark.parametrize(
    "action",
    [
        "give:QC",
        "return:10H",
        "keep",
        "call:plain",
        "call:shtany",
        "call:double_shtany",
        "call:mirror",
    ],
)
def test_act_buttons_round_trip_and_carry_a_move_the_family_reads(action: str) -> None:
    packed = ActButton(2**40, 17, action).pack()
    assert len(packed.encode()) <= callbacks.MAX_BYTES
    assert callbacks.parse(packed) == ActButton(2**40, 17, action)
    assert str(rules_of("sixes").parse_action(action)) == action


def test_card_and_redeal_buttons_name_their_move() -> None:
    assert PlayButton(1, 0, Card.parse("10H")).action == "play:10H"
    assert RedealButton(1, 0, True).action == "redeal"
    assert RedealButton(1, 0, False).action == "keep"


@pytest.mark.parametrize(
    "data",
    [
        "a:1:0",
        "a:1:0:",
        "a:x:0:keep",
        "a:1:0:Give:QC",
        "a:1:0:call:" + "x" * 17,
        "a:1:0:give:QC:QS",
        "a:1:0:play:10H;drop",
        "a:1:0:" + "k" * 17,
    ],
)
def test_forged_act_data_is_not_ours(data: str) -> None:
    assert callbacks.parse(data) is None


@pytest.mark.parametrize("action", ["give:ZZ", "call:poker", "return:", "jump", "play:11H"])
def test_a_well_formed_button_with_an_unknown_move_is_refused_by_the_family(action: str) -> None:
    """``parse`` accepts the shape; the family's ``parse_action`` refuses the content (the
    hand handler answers "This button is not valid")."""
    with pytest.raises(ValueError):
        rules_of("kryuk").parse_action(action)


def test_every_button_is_declared_once_and_round_trips_through_its_prefix() -> None:
    """Issue #16 item 4: a button's prefix is declared on its class and nowhere else."""
    samples = [
        PlayButton(7, 2, Card.parse("10H")),
        RedealButton(7, 0, False),
        ActButton(7, 1, "call:mirror"),
        SelectButton(7, 3, Card.parse("QS")),
        ChosenButton(7, 3, "beat"),
        callbacks.LobbyButton(7, "join"),
        callbacks.OptionButton(7, "move_time"),
        callbacks.BackButton(7),
        callbacks.SettingsButton("language"),
        callbacks.HistoryButton(7, -1),
        callbacks.VoteButton(7),
        callbacks.SealButton(7, -1),
        callbacks.HintButton(7, 0),
        callbacks.AnalysisButton(7, 2),
        callbacks.TournamentButton(7, "join"),
        callbacks.SeatButton(7),
    ]
    assert {type(b) for b in samples} == set(callbacks.BUTTONS.values())
    for button in samples:
        packed = button.pack()
        assert packed.startswith(type(button).prefix + ":")
        assert callbacks.parse(packed) == button
        assert re.match(callbacks.pattern(type(button)), packed)
        assert not re.match(callbacks.pattern(callbacks.VoteButton), packed) or (
            isinstance(button, callbacks.VoteButton)
        )


def test_a_prefix_cannot_be_declared_twice() -> None:
    with pytest.raises(TypeError, match="taken"):

        @dataclass(frozen=True)
        class Another(callbacks.Callback):  # the vote button's prefix
            prefix = "v"
            game_id: int


@pytest.mark.parametrize(
    "make",
    [
        lambda: ChosenButton(1, 0, "jump"),
        lambda: callbacks.LobbyButton(1, "sit"),
        lambda: callbacks.HistoryButton(1, -2),
        lambda: ActButton(1, 0, "Give:QC"),
    ],
)
def test_a_button_that_breaks_its_fields_rules_cannot_be_made(make: Any) -> None:
    with pytest.raises(ValueError):
        make()
