"""Family F of RULES.md §1: the follow-suit Kozel games (hvalenyi, kryuk, sixes, belka).

Everything specific to the family lives in this package — engine parameters (``rules``) and
presets (``presets``); the state machine (``state``) with its vocabulary (``vocabulary``),
records (``records``), dealing (``dealing``, ``opening``), one module per step (``call``,
``blind``, ``redeal``, ``handoff``, ``play``; ``step`` says what a step is, ``flow`` orders
them), tricks (``tricks``), scoring (``scoring``), views (``view``) and saved layouts
(``formats``); the computer player (``ai``) and the search representation a searching
player will use (``search``), texts and keyboards (``render``) and traces (``trace``). The
rest of the bot reaches it only through ``FAMILY``, an implementation of
``kozelbot.core.protocol.Family``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from kozelbot.core.cards import Card
from kozelbot.core.decisions import Decision
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored, GameError, GameState, MatchOver
from kozelbot.core.table import Table
from kozelbot.core.texts import Keyboard
from kozelbot.families.follow import render, stats, strong
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.buttons import PlayButton, RedealButton
from kozelbot.families.follow.dealing import deal_from_seed
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.render import advice
from kozelbot.families.follow.search.playout import playouts
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import KeepHand, PlayCard, parse_action


def _state(state: GameState) -> MatchState:
    assert isinstance(state, MatchState)
    return state


class FollowFamily:
    """The follow-suit family behind the game protocol."""

    name = "follow"
    presets = PRESETS

    def new_state(self, variant: str, options: Mapping[str, Any]) -> MatchState:
        return MatchState(variant, dict(options))

    def load(self, data: Mapping[str, Any]) -> MatchState:
        return MatchState.load(data)

    def parse_action(self, text: str) -> Any:
        return parse_action(text)

    def choose(self, state: GameState, seat: int) -> Any:
        return choose_action(_state(state).view_for(seat))

    def searches(self, state: GameState, seat: int) -> bool:
        return strong.searches(_state(state).view_for(seat))

    def decide(
        self,
        state: GameState,
        seat: int,
        rng: random.Random,
        budget_ms: float,
        keep: Any = None,
    ) -> Decision:
        # Every legal card is valued (``keep`` needs nothing more).
        return strong.decide(_state(state).view_for(seat), rng, budget_ms)

    def on_timeout(self, state: GameState, seat: int, rng: random.Random) -> Any:
        """RULES.md §3: the computer's move, or a random legal card where the preset says so.

        **Decision** (hidden steps: a redeal offer, a hand-off decision): a person who let the
        time run out asked for nothing, so the hand is kept; a return still owed is made as
        the computer would."""
        match = _state(state)
        if match.hidden_turn and KeepHand() in match.legal_actions(seat):
            return KeepHand()
        if match.rules.timeout_random:
            legal = match.legal_actions(seat)
            if legal and all(isinstance(a, PlayCard) for a in legal):
                return rng.choice(legal)
        return choose_action(match.view_for(seat))

    def move_time(self, state: GameState, options: Mapping[str, Any]) -> int:
        return _state(state).move_time(int(options.get("move_time", 0)))

    def deal_from_seed(self, seed: str) -> list[tuple[str, list[Card]]]:
        return deal_from_seed(seed)

    def search_playout(
        self, variant: str, options: Mapping[str, Any]
    ) -> Callable[[random.Random], int]:
        """Random playouts through the search representation: a shuffled first deal played
        to its end with random legal cards at each call (``search.playout``)."""
        return playouts(PRESETS[variant].rules(options))

    hand_buttons = (PlayButton, RedealButton)
    tally_keys = stats.TALLY_KEYS

    def tallies(self, event: Any, state: GameState) -> tuple[tuple[int, str], ...]:
        return stats.tallies(event, _state(state))

    def after_refusal(self, state: GameState, seat: int, action: Any) -> Any | None:
        """RULES.md §1.2: with exactly one legal card, ``kryuk`` plays it at once."""
        match = _state(state)
        if not match.rules.single_card_autoplay or not isinstance(action, PlayCard):
            return None
        legal = match.legal_actions(seat)
        return legal[0] if len(legal) == 1 and isinstance(legal[0], PlayCard) else None

    multi_select = False

    @property
    def texts(self) -> FollowFamily:
        """The family renders itself (``render``)."""
        return self

    def table_text(self, table: Table, state: GameState, t: Translator) -> str:
        return render.table_text(table, _state(state), t)

    def final_table_text(self, table: Table, result: DealScored, t: Translator) -> str:
        return render.final_table_text(table, result, t)

    def result_text(self, table: Table, result: DealScored, t: Translator) -> str:
        return render.result_text(table, result, t)

    def match_over_text(self, table: Table, over: MatchOver, t: Translator) -> str:
        return render.match_over_text(table, over, t)

    def hand_text(self, table: Table, state: GameState, seat: int, t: Translator) -> str:
        return render.hand_text(table, _state(state), seat, t)

    def hand_keyboard(
        self,
        table: Table,
        state: GameState,
        seat: int,
        t: Translator,
        selected: frozenset[Card] = frozenset(),
    ) -> Keyboard:
        """One card per press: the selection is not used."""
        return render.hand_keyboard(table, _state(state), seat, t)

    def from_selection(self, verb: str, selected: frozenset[Card]) -> Any:
        """Follow-suit moves take one card per press: no verb acts on a selection."""
        raise ValueError(f"no such verb: {verb}")

    def error_text(self, error: GameError, table: Table, t: Translator) -> str:
        return render.game_error_text(error, table, t)

    def done_text(self, action: Any, t: Translator) -> str:
        return render.done_text(action, t)

    def move_label(self, action: Any, t: Translator) -> str:
        return advice.move_label(action, t)

    def prompt_text(self, view: Any, legal: list[Any], t: Translator) -> str | None:
        return None  # the hand's "your turn" and the cards marked say it

    def reason_text(self, reason: str, fields: Mapping[str, Any], t: Translator) -> str:
        return advice.reason_text(reason, fields, t)

    def expected_text(self, variant: str, count: int, t: Translator) -> str:
        return advice.expected_text(variant, count, t)

    def outcome_label(self, outcome: str, t: Translator) -> str | None:
        return stats.outcome_label(outcome, t)

    def tally_parts(self, tallies: Mapping[str, int], t: Translator) -> list[str]:
        return stats.tally_parts(tallies, t)

    def deal_over_text(self, deal_no: int, t: Translator) -> str:
        return render.deal_over_text(deal_no, t)

    def deal_name(self, deal_no: int, t: Translator) -> str:
        return t("Deal {n}", n=deal_no + 1)

    def rules_text(self, variant: str, t: Translator) -> str:
        return render.rules_text(variant, t)

    def title(self, variant: str, t: Translator) -> str:
        return render.variant_title(variant, t)

    def option_labels(
        self, variant: str, options: Mapping[str, Any], t: Translator
    ) -> dict[str, str]:
        return render.option_labels(variant, options, t)


FAMILY = FollowFamily()
