"""Family C of RULES.md §2: the cover games («Козёл с прикупом», seeds 003 and 000), behind
the game protocol; the rest of the bot reaches it through ``FAMILY``.

The package, one job a module:
- ``presets``: table options and the rules value (``CoverRules``) they make;
- ``vocabulary``: phases, actions and their notation, events, errors;
- ``strength``: which card covers which; ``board``: the game's data (hands, talon, round);
- ``dealing``: the shuffle, the deal, the talon, the first leader, seed texts dealt again;
- the steps, each ``to_act`` / ``legal`` / ``verify`` / ``apply`` for its phase: ``lead``,
  ``answer``, ``rebeat``, ``level`` (``step``: what they share; ``claim``: the claim they
  take; ``hands``: the hand rule; ``turns``: who answers next and the end of a round;
  ``draw``: the automatic draw after a trick);
- ``scoring``: loser points, eggs, four of a kind, who is out, the match winner;
- ``view``: what one seat may know; ``trace``: the game's trace;
- ``state``: the match's fields, the phase table, the chance step, dump and load;
- ``ai``: the computer player; ``render``: texts and multi-select keyboards, from views;
- ``search``: the game in play as bits with make/unmake, for a searching computer player.
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
from kozelbot.families.cover import render, stats, strong
from kozelbot.families.cover.ai import choose
from kozelbot.families.cover.buttons import ChosenButton, SelectButton
from kozelbot.families.cover.dealing import deal_from_seed
from kozelbot.families.cover.presets import PRESETS, configure
from kozelbot.families.cover.render import advice
from kozelbot.families.cover.search.playout import playouts
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import parse_action


def _state(state: GameState) -> CoverState:
    assert isinstance(state, CoverState)
    return state


class CoverFamily:
    """The cover family behind the game protocol."""

    name = "cover"
    presets = PRESETS

    multi_select = True

    @property
    def texts(self) -> CoverFamily:
        return self

    def new_state(self, variant: str, options: Mapping[str, Any]) -> CoverState:
        """A new match of one of the family's presets (``presets``), by the rules it makes
        of these options."""
        chosen, rules = configure(self.presets[variant], options)
        return CoverState(variant, chosen, rules=rules)

    def load(self, data: Mapping[str, Any]) -> CoverState:
        """A stored match, by the rules its preset makes of its stored options."""
        chosen, rules = configure(self.presets[str(data["variant"])], data["options"])
        return CoverState.load({**data, "options": chosen}, rules)

    def parse_action(self, text: str) -> Any:
        return parse_action(text)

    def choose(self, state: GameState, seat: int) -> Any:
        game = _state(state)
        return choose(game.view_for(seat), game.legal_actions(seat))

    def searches(self, state: GameState, seat: int) -> bool:
        return strong.searches(_state(state), seat)

    def decide(
        self,
        state: GameState,
        seat: int,
        rng: random.Random,
        budget_ms: float,
        keep: Any = None,
    ) -> Decision:
        return strong.decide(_state(state), seat, rng, budget_ms, keep)

    def on_timeout(self, state: GameState, seat: int, rng: random.Random) -> Any:
        return self.choose(state, seat)

    def move_time(self, state: GameState, options: Mapping[str, Any]) -> int:
        return int(options.get("move_time", 0))

    def deal_from_seed(self, seed: str) -> list[tuple[str, list[Card]]]:
        return deal_from_seed(seed, self.presets)

    def after_refusal(self, state: GameState, seat: int, action: Any) -> Any | None:
        return None

    def search_playout(
        self, variant: str, options: Mapping[str, Any]
    ) -> Callable[[random.Random], int]:
        """Random playouts through the search representation (``search.playout``)."""
        return playouts(variant, dict(options))

    hand_buttons = (SelectButton, ChosenButton)
    tally_keys = stats.TALLY_KEYS

    def tallies(self, event: Any, state: GameState) -> tuple[tuple[int, str], ...]:
        return stats.tallies(event, _state(state))

    def move_label(self, action: Any, t: Translator) -> str:
        return advice.move_label(action, t)

    def prompt_text(self, view: Any, legal: list[Any], t: Translator) -> str | None:
        return render.prompt(view, legal, True, t)

    def reason_text(self, reason: str, fields: Mapping[str, Any], t: Translator) -> str:
        return advice.reason_text(reason, fields, t)

    def expected_text(self, variant: str, count: int, t: Translator) -> str:
        return advice.expected_text(variant, count, t)

    def outcome_label(self, outcome: str, t: Translator) -> str | None:
        return stats.outcome_label(outcome, t)

    def tally_parts(self, tallies: Mapping[str, int], t: Translator) -> list[str]:
        return stats.tally_parts(tallies, t)

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

    def deal_over_text(self, deal_no: int, t: Translator) -> str:
        """What a finished game's hand message says once the next is dealt («Игра 1
        закончена.»: the cover game's unit is a game, not a deal)."""
        return render.deal_over_text(deal_no, t)

    def deal_name(self, deal_no: int, t: Translator) -> str:
        """«Игра 3»: the cover game's unit is a game, not a deal."""
        return t("Game {n}", n=deal_no + 1)

    def hand_keyboard(
        self,
        table: Table,
        state: GameState,
        seat: int,
        t: Translator,
        selected: frozenset[Card] = frozenset(),
    ) -> Keyboard:
        return render.hand_keyboard(table, _state(state), seat, t, selected)

    def from_selection(self, verb: str, selected: frozenset[Card]) -> Any:
        """The move a verb button (Lead, Beat, Discard, Add) makes of the selected cards."""
        return render.from_selection(verb, selected)

    def error_text(self, error: GameError, table: Table, t: Translator) -> str:
        return render.error_text(error, table, t)

    def done_text(self, action: Any, t: Translator) -> str:
        return render.done_text(action, t)

    def rules_text(self, variant: str, t: Translator) -> str:
        return render.rules_text(t)

    def title(self, variant: str, t: Translator) -> str:
        return render.title(t)

    def option_labels(
        self, variant: str, options: Mapping[str, Any], t: Translator
    ) -> dict[str, str]:
        return render.option_labels(options, t)


FAMILY = CoverFamily()
