"""Button data: every family's move fits, reads back, and forged data is not ours."""

from __future__ import annotations

import pytest

from kozelbot import callbacks
from kozelbot.callbacks import ActButton, PlayButton, RedealButton
from kozelbot.cards import Card
from kozelbot.games import family_of


@pytest.mark.parametrize(
    "action",
    ["give:QC", "return:10H", "keep", "call:plain", "call:shtany", "call:double_shtany",
     "call:mirror"],
)  # fmt: skip
def test_act_buttons_round_trip_and_carry_a_move_the_family_reads(action: str) -> None:
    packed = ActButton(2**40, 17, action).pack()
    assert len(packed.encode()) <= callbacks.MAX_BYTES
    assert callbacks.parse(packed) == ActButton(2**40, 17, action)
    assert str(family_of("sixes").parse_action(action)) == action


def test_card_and_redeal_buttons_name_their_move() -> None:
    assert PlayButton(1, 0, Card.parse("10H")).action == "play:10H"
    assert RedealButton(1, 0, True).action == "redeal"
    assert RedealButton(1, 0, False).action == "keep"


@pytest.mark.parametrize(
    "data",
    ["a:1:0", "a:1:0:", "a:x:0:keep", "a:1:0:Give:QC", "a:1:0:call:" + "x" * 17,
     "a:1:0:give:QC:QS", "a:1:0:play:10H;drop", "a:1:0:"+"k" * 17],
)  # fmt: skip
def test_forged_act_data_is_not_ours(data: str) -> None:
    assert callbacks.parse(data) is None


@pytest.mark.parametrize("action", ["give:ZZ", "call:poker", "return:", "jump", "play:11H"])
def test_a_well_formed_button_with_an_unknown_move_is_refused_by_the_family(action: str) -> None:
    """``parse`` accepts the shape; the family's ``parse_action`` refuses the content (the
    hand handler answers "This button is not valid")."""
    with pytest.raises(ValueError):
        family_of("kryuk").parse_action(action)
