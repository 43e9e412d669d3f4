"""What every step of a round shares: the ``Step`` shape the state's phase table dispatches
to (OpenSpiel's phase switch, pokerkit's verify/apply), the idle step of the phases in which
nobody moves, and the refusal of a move that belongs to another phase."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from kozelbot.families.cover.hands import level_count
from kozelbot.families.cover.vocabulary import (
    Action,
    Beat,
    Claim,
    Discard,
    Event,
    IllegalMove,
    Lead,
    Level,
    Otboy,
    Pass,
)

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


class Step(Protocol):
    """One phase's rules. ``verify`` is called after the state checked the turn and that the
    cards are in hand; ``apply`` only after ``verify`` passed, and returns the events beyond
    the move itself."""

    def to_act(self, state: CoverMatch) -> tuple[int, ...]:
        """Whose turn it is (a claim may still come from elsewhere)."""

    def legal(self, state: CoverMatch, seat: int) -> list[Action]:
        """What ``seat`` may do now, claims included."""

    def verify(self, state: CoverMatch, seat: int, action: Action) -> None:
        """Raise the ``IllegalMove`` that says why ``action`` is refused; pass if legal."""

    def apply(self, state: CoverMatch, seat: int, action: Action) -> list[Event]:
        """Make the (verified) move."""


class Idle:
    """The phases in which no seat moves: before a deal and after the match."""

    def to_act(self, state: CoverMatch) -> tuple[int, ...]:
        return ()

    def legal(self, state: CoverMatch, seat: int) -> list[Action]:
        return []

    def verify(self, state: CoverMatch, seat: int, action: Action) -> None:
        raise IllegalMove("no game in progress")

    def apply(self, state: CoverMatch, seat: int, action: Action) -> list[Event]:
        raise IllegalMove("no game in progress")


IDLE = Idle()


def refuse(state: CoverMatch, seat: int, action: Action) -> None:
    """Raise the refusal of a move this phase does not take (``reason`` as for any phase)."""
    if isinstance(action, Lead):
        raise IllegalMove("not a lead now")
    if isinstance(action, Beat):
        raise IllegalMove("no beat now")
    if isinstance(action, Discard):
        raise IllegalMove("nothing to discard")
    if isinstance(action, Pass):
        raise IllegalMove("no pass now")
    if isinstance(action, Otboy):
        raise IllegalMove("no Відбій now")
    if isinstance(action, Level):
        raise IllegalMove("add exactly", level_count(state, seat))
    if isinstance(action, Claim):
        raise IllegalMove("no claim")
    raise IllegalMove("unknown move")
