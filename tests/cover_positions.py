"""Scripted positions of the cover game for the render tests: hands and talon written out."""

from __future__ import annotations

from typing import Any

from kozelbot.core.cards import DECK_36, parse_cards
from kozelbot.families.cover.board import Round
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import Phase


def position(options: dict[str, Any], hands: list[str], talon: str = "") -> CoverState:
    """A first game whose hands (one string per seat) and talon (top first) are exactly
    these, seat 0 to lead, trump ♦."""
    state = CoverState("cover", dict(options))
    state.deal_deck(list(DECK_36))
    game = state.current
    assert game is not None
    game.hands = [list(parse_cards(h)) for h in hands]
    game.talon = list(parse_cards(talon))
    game.round = Round(leader=0, first_leader=0, last_beater=0)
    state.phase = Phase.LEAD
    return state
