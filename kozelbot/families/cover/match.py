"""The fields of one cover match and the questions every step asks of them.

``CoverMatch`` is the match's data (score, eggs, who is out, the game in progress) with its
small pure questions (``players``, ``in_play``, ``side_of``, ``game``, ``beats`` …). The steps
(``lead``, ``answer``, ``rebeat``, ``level``) and their helpers take a ``CoverMatch``;
``state.CoverState`` adds the phase table that dispatches to them, the chance step and the
JSON, so the steps never import ``state``. Who acts and what is legal depend on that table:
``CoverMatch`` only declares them (``to_act``, ``legal_actions``), ``CoverState`` answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field

from kozelbot.core.cards import Card, Suit
from kozelbot.core.protocol import DealScored
from kozelbot.families.cover.board import CoverGame
from kozelbot.families.cover.presets import PRESETS, CoverRules, configure
from kozelbot.families.cover.strength import beats
from kozelbot.families.cover.vocabulary import Action, Phase


@dataclass(eq=True)
class CoverMatch:
    """A whole cover match: loser points, eggs, who is out, and the game in progress."""

    variant: str
    options: dict[str, Any]
    phase: Phase = Phase.DEALING
    score: list[int] = field(default_factory=list)
    eggs: int = 0
    game_no: int = 0
    shuffles: int = 0
    out: list[int] = field(default_factory=list)
    current: CoverGame | None = None
    last_result: DealScored | None = None
    winner: int | None = None
    trump: Suit = Suit.DIAMONDS
    """The trump for the next game (it changes when the talon's bottom card is drawn)."""
    next_leader: int | None = None
    dealer: int = 0
    seeds: list[str] = field(default_factory=list)
    """Fair play: the seed text of this game's shuffle (``GameState.seeds``)."""
    rules: Annotated[CoverRules, Field(exclude=True)] = field(
        default=None,
        repr=False,  # type: ignore[assignment]
    )
    """The rules this match plays by; not stored (the variant and options make them again).
    Left out, they are those of the family's preset named ``variant`` with these options
    (which are then validated and completed)."""

    def __post_init__(self) -> None:
        if self.rules is None:
            self.options, self.rules = configure(PRESETS[self.variant], self.options)
        if not self.score:
            self.score = [0] * self.rules.sides

    # -- protocol ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def needs_chance(self) -> bool:
        return self.phase is Phase.DEALING

    @property
    def deal_shown(self) -> int | None:
        return None if self.current is None else self.current.game_no

    @property
    def deals_scored(self) -> int:
        return self.game_no

    @property
    def hidden_turn(self) -> bool:
        """Never: every cover step's actor is public (a claim names its claimant and N)."""
        return False

    def accepts(self, deal_no: int) -> bool:
        return (
            self.phase not in (Phase.DEALING, Phase.OVER)
            and self.current is not None
            and self.current.game_no == deal_no
        )

    def side_of(self, seat: int) -> int:
        return self.rules.seats.side_of(seat)

    def leader(self) -> int | None:
        """The side with the fewest loser points (``None``: several tie for it); a seat
        already out of the match (``self`` mode) is behind everyone still in."""
        standing = [(side in self.out, points) for side, points in enumerate(self.score)]
        best = min(standing)
        sides = [side for side, key in enumerate(standing) if key == best]
        return sides[0] if len(sides) == 1 else None

    def in_play(self) -> list[int]:
        """The seats not out, lowest first."""
        return [s for s in range(self.players) if s not in self.out]

    @property
    def game(self) -> CoverGame:
        """The game in progress (or just scored); there is none before the first deal."""
        game = self.current
        assert game is not None
        return game

    def beats(self, card: Card, top: Card, trump: Suit) -> bool:
        """Whether ``card`` may cover ``top`` under ``trump`` at this table."""
        return beats(card, top, trump, self.rules.poshka)

    # -- who acts, what is legal: answered by the phase table (``state.STEPS``) ----------

    def to_act(self) -> tuple[int, ...]:
        """Whose turn it is now (empty between games and after the match)."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (a claim included, out of turn)."""
        raise NotImplementedError
