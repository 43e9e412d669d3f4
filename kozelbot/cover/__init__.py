"""Family C of RULES.md §2: the cover games (seeds 003 and 000), behind the game protocol.

Its engine (``state``), preset (``presets``) and computer player (``ai``) are complete and
played by ``kozelbot simulate``; it is not offered at a Telegram table until its
multi-select keyboard exists (``texts`` is ``None``; issue #7).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kozelbot.cover.ai import choose
from kozelbot.cover.presets import PRESETS
from kozelbot.cover.state import CoverState, parse_action
from kozelbot.game import GameState


def _state(state: GameState) -> CoverState:
    assert isinstance(state, CoverState)
    return state


class CoverFamily:
    """The cover family behind the game protocol."""

    name = "cover"
    presets = PRESETS
    texts = None

    def new_state(self, variant: str, options: Mapping[str, Any]) -> CoverState:
        return CoverState(variant, dict(options))

    def load(self, data: Mapping[str, Any]) -> CoverState:
        return CoverState.load(data)

    def parse_action(self, text: str) -> Any:
        return parse_action(text)

    def choose(self, state: GameState, seat: int) -> Any:
        game = _state(state)
        return choose(game.view_for(seat), game.legal_actions(seat))

    def on_timeout(self, state: GameState, seat: int, rng: random.Random) -> Any:
        return self.choose(state, seat)

    def move_time(self, state: GameState, options: Mapping[str, Any]) -> int:
        return int(options.get("move_time", 0))

    def after_refusal(self, state: GameState, seat: int, action: Any) -> Any | None:
        return None


FAMILY = CoverFamily()
