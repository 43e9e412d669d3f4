"""The cover family's own hand buttons: a card toggled in the selection, and a verb that
acts with the selected cards (the other moves — pass, Отбой/Відбій, a claim — travel as
``kozelbot.core.callbacks.ActButton``)."""

from __future__ import annotations

from dataclasses import dataclass

from kozelbot.core.callbacks import ToggleButton, VerbButton
from kozelbot.core.cards import Card

VERBS = ("lead", "beat", "discard", "level")
"""The verbs that act with selected cards: lead, beat, discard face down, add (levelling)."""


@dataclass(frozen=True, slots=True)
class SelectButton(ToggleButton):
    """A card of the hand: pressing it toggles the card in the selection."""

    prefix = "x"
    game_id: int
    deal_no: int
    card: Card


@dataclass(frozen=True, slots=True)
class ChosenButton(VerbButton):
    """A verb that acts with the selected cards: ``lead``, ``beat``, ``discard``, ``level``."""

    prefix = "y"
    game_id: int
    deal_no: int
    verb: str

    def __post_init__(self) -> None:
        if self.verb not in VERBS:
            raise ValueError(self.verb)
