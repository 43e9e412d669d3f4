"""The follow-suit family's own hand buttons: a card to play, and the answer to a redeal
offer (the other moves travel as ``kozelbot.core.callbacks.ActButton``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kozelbot.core.callbacks import MoveButton
from kozelbot.core.cards import Card
from kozelbot.families.follow.vocabulary import Action, AskRedeal, KeepHand, PlayCard


@dataclass(frozen=True, slots=True)
class PlayButton(MoveButton):
    """A card of a private hand."""

    prefix = "c"
    game_id: int
    deal_no: int
    card: Card

    @property
    def action(self) -> str:
        """The move it stands for, in the move log's notation."""
        return f"play:{self.card}"

    def move(self, parse_action: Callable[[str], object]) -> Action:
        return PlayCard(self.card)


@dataclass(frozen=True, slots=True)
class RedealButton(MoveButton):
    """Answer to the redeal offer: ``redeal`` True asks for it, False keeps the hand."""

    prefix = "r"
    game_id: int
    deal_no: int
    redeal: bool

    @property
    def action(self) -> str:
        return "redeal" if self.redeal else "keep"

    def move(self, parse_action: Callable[[str], object]) -> Action:
        return AskRedeal() if self.redeal else KeepHand()
