"""The follow-suit presets of RULES.md §1: each an options model and a ``Rules`` builder."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kozelbot.cards import Card, Suit, parse_cards
from kozelbot.follow.rules import Rules
from kozelbot.options import Preset


class _Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MoveTime(_Options):
    """Options every follow-suit table has."""

    seating: Literal["random", "ordered"] = "random"
    """Who sits opposite whom: shuffled at the start, or in join order."""
    move_time: int = Field(default=60)
    """Seconds per move; on time-out the move is made for the player. 0 switches it off.

    **Decision**: the seed allows a minute to an hour; we allow 10–3600 s (and 0), since
    group tables often want quicker games (the kryuk seed uses 10–15 s)."""

    @field_validator("move_time")
    @classmethod
    def _move_time_range(cls, value: int) -> int:
        if value != 0 and not 10 <= value <= 3600:
            raise ValueError("move_time must be 0 or 10..3600")
        return value


class HvalenyiOptions(MoveTime):
    """Table options of Хвалёный козёл (RULES.md §1.1)."""

    deck: Literal[36, 32] = 36
    """36 cards (9 each) or 32 cards without sixes (8 each)."""
    six_clubs: Literal["top", "ordinary"] = "top"
    """``top``: 6♣ (шамок) is the highest trump and catches Q♣; ``ordinary``: a plain club."""
    lyusya: Literal["win", "zero"] = "win"
    """All tricks to one pair: ``win`` ends the match, ``zero`` wipes the other pair's eyes."""


def build_hvalenyi(options: BaseModel) -> Rules:
    """Rules of Хвалёный козёл for the chosen options (RULES.md §1.1)."""
    assert isinstance(options, HvalenyiOptions)
    top = options.six_clubs == "top" and options.deck == 36
    ladder = parse_cards(("6C " if top else "") + "QC QS QH QD JC JS JH JD")
    return Rules(
        name="hvalenyi",
        deck=options.deck,
        ladder=tuple(ladder),
        trump_suit=Suit.DIAMONDS,
        target=12,
        first_lead_card=Card.parse("JC"),
        catch=(Card.parse("6C"), Card.parse("QC")) if top else None,
        redeal_below=14,
        lyusya=options.lyusya,
    )


PRESETS: dict[str, Preset] = {
    "hvalenyi": Preset("hvalenyi", HvalenyiOptions, build_hvalenyi),
}
