"""The fields of one follow-suit match and the questions every step asks of them.

``Match`` is the match's data (score, eggs, the current deal …) with its small pure questions
(``players``, ``strength``, ``side_of`` …). The steps of a deal (``call``, ``blind``,
``redeal``, ``handoff``, ``play`` and their helpers) take a ``Match``; ``state.MatchState``
adds the phase table that dispatches to them, the chance step and the JSON, so the steps never
import ``state``. Who acts and what is legal depend on that table: ``Match`` only declares
them (``to_act``, ``legal_cards``, ``legal_actions``), ``MatchState`` answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field, replace
from typing import Any, Self

from kozelbot.core.cards import Card, Suit
from kozelbot.core.protocol import DealScored
from kozelbot.core.seats import Seats
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.records import DealState, RedealRequest
from kozelbot.families.follow.rules import Rules, Strength
from kozelbot.families.follow.vocabulary import (
    DEALING,
    HANDOFF,
    IN_DEAL,
    OVER,
    REDEAL,
    Action,
    Phase,
)


@dataclass(eq=True)
class Match:
    """A whole match of a follow-suit preset: score, eggs, and the current deal.

    A dataclass whose fields are the whole state: ``dump``/``load`` are one pydantic
    ``TypeAdapter``, and ``==`` compares everything (the round-trip property test uses it).
    The match plays by a ``Rules`` value: ``MatchState.of(rules)``, or the one the family's
    preset ``variant`` builds from ``options`` (``MatchState(variant, options)``, and
    ``load``)."""

    variant: str
    options: dict[str, Any]
    phase: Phase = Phase.DEALING
    score: list[int] = field(default_factory=lambda: [0, 0])
    eggs: int = 0
    """Eggs deals in a row just before the current one."""
    carry: int = 0
    """Kryuk/sixes: eggs points or pairs waiting for the winner of the next scored deal."""
    had_eggs: bool = False
    """An eggs deal happened in this match (recorded where eggs carry: the losers' title
    of sixes says so)."""
    deal_no: int = 0
    """The number of the deal being played, or of the next one while dealing."""
    shuffles: int = 0
    """Shuffles so far in the match (the bot derives each shuffle's RNG from it)."""
    seeds: list[str] = field(default_factory=list)
    """Fair play: the seed texts of this deal's shuffles (``GameState.seeds``)."""
    redeals: int = 0
    """Redeals asked for (or demanded) in the current deal so far."""
    redeal_requests: list[RedealRequest] = field(default_factory=list)
    """Each redeal asked for (or demanded) in the deal shown, in order (for its trace)."""
    current: DealState | None = None
    last_result: DealScored | None = None
    winner: int | None = None
    seat_suits: list[Suit] | None = None
    """Belka: the suit each seat owns for the match (assigned in the first deal)."""
    dealer: int = 0
    """Two players: who deals (the other leads first); it alternates every deal."""
    last_card: Card | None = None
    """Two players: the last card played in the previous deal (it names the trump suit)."""
    lead_right: int | None = None
    """Kryuk/sixes: who leads the next deal (``None`` before the first)."""
    given_rules: InitVar[Any] = None
    """The ``Rules`` to play by (``MatchState.of``); ``None``: the preset ``variant``'s."""

    def __post_init__(self, given_rules: Rules | None) -> None:
        if given_rules is None:
            chosen = PRESETS[self.variant]
            model = chosen.options_from(self.options)
            self.options = model.model_dump()
            given_rules = chosen.build(model)
        self.rules: Rules = given_rules
        self.seats: Seats = given_rules.seats

    @classmethod
    def of(cls, rules: Rules, options: Mapping[str, Any] | None = None) -> Self:
        """A new match played by ``rules``, under the variant name ``rules.name``; the
        registry is not asked (``load`` needs the variant to be a preset of the family)."""
        return cls(rules.name, dict(options or {}), given_rules=rules)

    def copy(self) -> Self:
        """An equal, independent state (a searching player plays on copies): every list is
        copied, the frozen records and the rules are shared."""
        deal = self.current
        return replace(
            self,
            options=dict(self.options),
            score=list(self.score),
            seeds=list(self.seeds),
            redeal_requests=list(self.redeal_requests),
            current=None if deal is None else deal.copy(),
            seat_suits=None if self.seat_suits is None else list(self.seat_suits),
            given_rules=self.rules,
        )

    # -- the protocol's small questions --------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is OVER

    @property
    def players(self) -> int:
        return self.seats.players

    @property
    def needs_chance(self) -> bool:
        return self.phase is DEALING

    @property
    def deal_shown(self) -> int | None:
        return None if self.current is None else self.current.deal_no

    @property
    def deals_scored(self) -> int:
        return self.deal_no

    @property
    def hidden_turn(self) -> bool:
        """Whether the step now awaited is secret: the redeal offers, kryuk's hand-off (the
        decision and the return), sixes' decision whether to offer one. Every view but the
        asked seat's shows it as ``waiting``; presses of other seats get ``Waiting``."""
        phase = self.phase
        if phase is REDEAL:
            return True
        if phase is not HANDOFF:
            return False
        deal = self.current
        assert deal is not None
        return self.rules.handoff == "hidden" or deal.active_handoff is None

    @property
    def started(self) -> bool:
        """Whether a trick of the current deal was played (an opening's)."""
        deal = self.current
        return deal is not None and bool(deal.tricks)

    def accepts(self, deal_no: int) -> bool:
        return (
            self.phase in IN_DEAL and self.current is not None and self.current.deal_no == deal_no
        )

    def side_of(self, seat: int) -> int:
        return self.seats.side_of(seat)

    def leader(self) -> int | None:
        """The side with more match points (eyes toward the target); ``None`` when level.
        **Decision**: eggs waiting for the next deal count for nobody yet."""
        return _ahead(self.score, higher=True)

    @property
    def multiplier(self) -> int:
        """The eggs multiplier of the current deal: k eggs in a row → ×(k+1) (RULES.md §1.1)."""
        return self.eggs + 1 if self.rules.eggs == "multiply" else 1

    @property
    def strength(self) -> Strength:
        """Strengths under the current deal's trump suit."""
        trump = self.current.trump if self.current is not None else self.rules.trump_suit
        return self.rules.strengths[trump]

    def move_time(self, base: int) -> int:
        """Seconds for the awaited move: the table's move time, plus the preset's bonus for
        a deal's first move (0 stays 0: no timer)."""
        deal = self.current
        if base and deal is not None and not deal.tricks and not deal.trick:
            return base + self.rules.first_move_bonus
        return base

    # -- who acts, what is legal: answered by the phase table (``state.STEPS``) ----------

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now; empty while dealing (a chance step) and after the match."""
        raise NotImplementedError

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` may play now (RULES.md §1 trick rules 2–3); empty if not its turn."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        raise NotImplementedError


def _ahead(score: list[int], *, higher: bool) -> int | None:
    """The one side whose score is best (highest or lowest), or ``None`` if several tie."""
    best = max(score) if higher else min(score)
    sides = [side for side, value in enumerate(score) if value == best]
    return sides[0] if len(sides) == 1 else None
