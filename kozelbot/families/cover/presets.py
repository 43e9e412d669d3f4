"""The cover game's preset (RULES.md §2): its table options and the rules they make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationInfo, field_validator

from kozelbot.core.options import Preset, TableOptions
from kozelbot.core.seats import Seats


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
    """Engine parameters of one cover table: what its options chose, then the figures of
    RULES.md §2 the engine reads (a variant may name others). A state is built from this
    value; presets only map a name and options to it."""

    hand: int
    """Cards in a full hand: 6 classic, 4 quick."""
    classic: bool
    """Classic rounds (re-beats, Відбій; the trump changes at the last draw), or quick ones
    (one answer each; diamonds always trump)."""
    pairs: bool
    players: int
    poshka: bool
    cut_opening: bool
    """Seed 000's opening: the trump by a cut card; the dealer leads."""
    save: int
    """Card points from which a side takes only ``saved_loss`` loser points."""
    safe: int = 61
    """Card points from which a side takes no loser points."""
    saved_loss: int = 2
    """Loser points for ``save`` to ``safe`` − 1 card points."""
    poor_loss: int = 4
    """Loser points for 1 to ``save`` − 1 card points."""
    blank_loss: int = 6
    """Loser points for no card points at all."""
    eggs: int = 60
    """Card points every side must have exactly for eggs (nobody scores; the next game
    counts double)."""
    lose_at: int = 12
    """Loser points that lose the match (pairs) or put a player out (each for self)."""
    four_of_a_kind_loss: int = 12
    """Loser points everyone else gets when four aces or four sixes in a hand end the match."""
    claim_from: int = 4
    """Cards of one suit that let a seat claim the lead ("У мене N")."""
    cut_lead_trumps: int = 4
    """Trumps that take the first lead from the dealer in seed 000's opening (козырная
    молотка, "the trump hammer")."""
    seats: Seats = field(init=False, repr=False, compare=False)
    """Who sits where (``kozelbot.core.seats``), from ``players`` and ``pairs``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", Seats(self.players, self.pairs))

    @property
    def sides(self) -> int:
        """How many sides play: two pairs, or one per seat."""
        return self.seats.sides

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return self.seats.side_of(seat)


def build_cover(options: BaseModel) -> CoverRules:
    """The rules a cover table's options make."""
    assert isinstance(options, CoverOptions)
    return CoverRules(
        hand=options.hand,
        classic=options.hand == 6,
        pairs=options.mode == "pairs",
        players=options.players,
        poshka=options.poshka,
        cut_opening=options.opening == "seed000",
        save=options.save,
    )


PRESETS: dict[str, Preset] = {"cover": Preset("cover", CoverOptions, build_cover)}
"""The family's presets by name (``Rules.presets``)."""


def configure(preset: Preset, options: Mapping[str, Any]) -> tuple[dict[str, Any], CoverRules]:
    """A preset's validated options (every default filled in, as stored) and the rules they
    make (raises ``OptionError``)."""
    chosen = preset.options_from(options)
    rules = preset.build(chosen)
    assert isinstance(rules, CoverRules)
    return chosen.model_dump(), rules
