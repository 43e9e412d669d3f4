"""The cover game's match state (RULES.md §2, seeds 003 and 000): the phase table that hands
each move to its step, the chance step, and the JSON round trip, over the fields of a match
(``match.CoverMatch``). The steps take a ``CoverMatch`` and never import this module: imports
run one way, state → steps → match.

The game protocol's shape (``kozelbot.core.protocol``): ``to_act`` / ``legal_actions`` / ``verify``
/ ``apply`` → frozen events, the chance step (``chance(shuffle)`` / ``deal(rng)``; ``deal_deck`` for
a scripted deck), ``view_for(seat)``, ``deal_trace``, ``dump`` / ``load``. One legality authority:
``verify``, which checks the turn and the cards and asks the phase's step (``apply`` verifies once,
then acts; ``legal_actions`` enumerates what ``verify`` accepts).

A state is built from a rules value (``CoverRules``); given only a preset's name and options
it takes the rules from the family's presets.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import TypeAdapter

from kozelbot.core.cards import Card
from kozelbot.core.protocol import DealScored, Shuffle
from kozelbot.families.cover import answer, lead, level, rebeat
from kozelbot.families.cover.dealing import deal_game, seed_context, shuffled
from kozelbot.families.cover.match import CoverMatch
from kozelbot.families.cover.presets import PRESETS, CoverRules, configure
from kozelbot.families.cover.scoring import loser_points, multiplier
from kozelbot.families.cover.step import IDLE, Step
from kozelbot.families.cover.trace import deal_trace
from kozelbot.families.cover.view import View, view_for
from kozelbot.families.cover.vocabulary import (
    Acted,
    Action,
    Claim,
    Event,
    IllegalMove,
    NotYourTurn,
    Phase,
)

STEPS: dict[Phase, Step] = {
    Phase.DEALING: IDLE,
    Phase.LEAD: lead,
    Phase.ANSWER: answer,
    Phase.REBEAT: rebeat,
    Phase.LEVEL: level,
    Phase.OVER: IDLE,
}
"""Each phase's step: who acts, what is legal, and what a move does (OpenSpiel's phase
switch). The draw has no phase: it follows the trick or the levelling at once."""


@dataclass(eq=True)
class CoverState(CoverMatch):
    """A cover match as a state machine (``CoverMatch``'s fields, saved under this name): the
    phase table answers who acts and what is legal, ``apply`` changes the state, the chance
    step deals, ``dump``/``load`` are its JSON (one pydantic ``TypeAdapter``)."""

    @property
    def multiplier(self) -> int:
        """Eggs double the next game's loser points: ×2, ×4 after two eggs in a row…"""
        return multiplier(self.eggs)

    def loser_points(self, points: int) -> int:
        """The loser points for a side's card points (before any eggs multiplier)."""
        return loser_points(self.rules, points)

    # -- moves -------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.current is None:
            return ()
        return STEPS[self.phase].to_act(self)

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now: its turn's moves, and a claim — which may interrupt a
        round out of turn, so it is offered to every eligible seat (``to_act`` names only
        whose turn it is)."""
        if self.current is None:
            return []
        return STEPS[self.phase].legal(self, seat)

    def verify(self, seat: int, action: Action) -> None:
        """Raise the ``GameError`` that explains why ``action`` is illegal; pass if legal."""
        step = STEPS[self.phase]
        game = self.current
        if game is None or step is IDLE:
            raise IllegalMove("no game in progress")
        to_act = step.to_act(self)
        if seat not in to_act and not isinstance(action, Claim):
            raise NotYourTurn(to_act)
        hand = game.hands[seat]
        cards: tuple[Card, ...] = getattr(action, "cards", ())
        if any(c not in hand for c in cards) or len(set(cards)) != len(cards):
            raise IllegalMove("cards not in hand")
        step.verify(self, seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Make a move (verified first): the ``Acted`` event, then what followed."""
        self.verify(seat, action)
        return [Acted(seat, str(action)), *STEPS[self.phase].apply(self, seat, action)]

    # -- chance step -------------------------------------------------------------------

    def seed_context(self) -> str:
        return seed_context(self)

    def chance(self, shuffle: Shuffle | random.Random) -> list[Event]:
        """The chance step: shuffle the deck with the shuffle's RNG (keeping its seed text)
        and deal it."""
        if isinstance(shuffle, random.Random):
            shuffle = Shuffle(shuffle)
        self.seeds = [] if shuffle.seed is None else [shuffle.seed]
        return self.deal_deck(shuffled(shuffle.rng))

    def deal(self, rng: random.Random) -> list[Event]:
        return self.chance(rng)

    def deal_deck(self, deck: list[Card]) -> list[Event]:
        """Deal a game from this deck (top first): one card at a time to the players in
        play, clockwise from the dealer's left; the rest is the talon."""
        return deal_game(self, deck)

    # -- what is shown and kept --------------------------------------------------------

    def view_for(self, seat: int | None) -> View:
        return view_for(self, seat)

    def deal_trace(self, result: DealScored, *, match: int, players: list[str]) -> dict[str, Any]:
        """The trace of the game just scored (``trace.deal_trace`` gives the format)."""
        return deal_trace(self, result, match=match, players=players)

    def copy(self) -> CoverState:
        """An independent copy, far cheaper than a JSON round trip (a search plays on it)."""
        return replace(
            self,
            options=dict(self.options),
            score=list(self.score),
            out=list(self.out),
            current=None if self.current is None else self.current.copy(),
            seeds=list(self.seeds),
        )

    def dump(self) -> dict[str, Any]:
        return _ADAPTER.dump_python(self, mode="json")  # type: ignore[no-any-return]

    @classmethod
    def load(cls, data: Any, rules: CoverRules | None = None) -> CoverState:
        """A stored state (``rules``: what it plays by; by default its preset's)."""
        return _ADAPTER.validate_python(data if rules is None else {**data, "rules": rules})


_ADAPTER: TypeAdapter[CoverState] = TypeAdapter(CoverState)


def new_state(variant: str, options: Mapping[str, Any]) -> CoverState:
    """A new match of one of the family's presets, by the rules it makes of these options."""
    chosen, rules = configure(PRESETS[variant], options)
    return CoverState(variant, chosen, rules=rules)


def load_state(data: Mapping[str, Any]) -> CoverState:
    """A stored match, by the rules its preset makes of its stored options."""
    chosen, rules = configure(PRESETS[str(data["variant"])], data["options"])
    return CoverState.load({**data, "options": chosen}, rules)


def move_time(state: CoverState, options: Mapping[str, Any]) -> int:
    """Seconds for any move: the table's move time (no bonus for a game's first move)."""
    return int(options.get("move_time", 0))


def after_refusal(state: CoverState, seat: int, action: Action) -> Action | None:
    """A refused move stays refused: nothing is played instead."""
    return None
