"""The cover game's preset (RULES.md §2): its table options and the rules they make."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ValidationInfo, field_validator

from kozelbot.options import Preset, TableOptions


class CoverOptions(TableOptions):
    """Table options of the cover game (RULES.md §2, seeds 003 and 000)."""

    hand: Literal[6, 4] = 6
    """``6``: classic (re-beats, Відбій, the trump changes at the last draw); ``4``: quick."""
    mode: Literal["pairs", "self"] = "pairs"
    """Two pairs (four players, partners opposite), or each for self."""
    players: Literal[4, 3, 2] = 4
    poshka: bool = False
    """Seed 000: 6♠ beats anything, may join any lead and cannot be beaten."""
    opening: Literal["seed003", "seed000"] = "seed003"
    """``seed000``: trump by a cut card shown to all; the dealer leads unless someone holds
    four trumps."""
    save: Literal[31, 21] = 31
    """Card points from which a side escapes 4 loser points with only 2 (big tables: 21)."""

    @field_validator("players")
    @classmethod
    def _pairs_need_four(cls, value: int, info: ValidationInfo) -> int:
        if info.data.get("mode") == "pairs" and value != 4:
            raise ValueError("pairs need four players (mode=self for 2 or 3)")
        return value


@dataclass(frozen=True, slots=True)
class CoverRules:
    """Engine parameters of one cover table."""

    hand: int
    pairs: bool
    players: int
    poshka: bool
    cut_opening: bool
    save: int

    @property
    def classic(self) -> bool:
        return self.hand == 6

    @property
    def sides(self) -> int:
        return 2 if self.pairs else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.pairs else seat


def build_cover(options: BaseModel) -> CoverRules:
    assert isinstance(options, CoverOptions)
    return CoverRules(
        hand=options.hand,
        pairs=options.mode == "pairs",
        players=options.players,
        poshka=options.poshka,
        cut_opening=options.opening == "seed000",
        save=options.save,
    )


PRESETS: dict[str, Preset] = {"cover": Preset("cover", CoverOptions, build_cover)}
