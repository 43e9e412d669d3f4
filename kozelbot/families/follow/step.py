"""What one step of a deal is (``Step``), and the refusals every step shares.

OpenSpiel's phase table: the state keeps ``{phase: Step}`` and sends every question to the
step of its phase. A step answers four of them for its phase — who may act (``to_act``), what
they may do (``legal``), why a move is refused (``verify`` raises), what a verified move does
(``apply`` → events) — and ``cards``, the cards a seat may play (empty outside trick play).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from kozelbot.core.cards import Card
from kozelbot.families.follow.vocabulary import (
    Action,
    AskRedeal,
    Event,
    KeepHand,
    PlayCard,
    RedealNotAllowed,
    Waiting,
    WrongPhase,
)

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def no_cards(state: Match, seat: int) -> tuple[Card, ...]:
    """No card may be played in this step."""
    return ()


@dataclass(frozen=True, slots=True)
class Step:
    """One phase's rules. ``apply`` is called only after ``verify`` passed."""

    to_act: Callable[[Match], tuple[int, ...]]
    legal: Callable[[Match, int], list[Action]]
    verify: Callable[[Match, int, Action], None]
    apply: Callable[[Match, int, Action], list[Event]]
    cards: Callable[[Match, int], tuple[Card, ...]] = no_cards


def refuse(state: Match, action: Action) -> NoReturn:
    """Refuse an action that belongs to no step of this phase: a redeal answer outside the
    redeal offers, anything else as the wrong phase."""
    if type(action) is not PlayCard and isinstance(action, AskRedeal | KeepHand):
        raise RedealNotAllowed("no redeal now")
    raise WrongPhase(state.phase)


def refuse_hidden(state: Match, seat: int, action: Action) -> None:
    """In a hidden step (``Match.hidden_turn``) every card, and every action of a seat
    not asked, gets the same ``Waiting``, so that no refusal tells who is asked or why."""
    if state.hidden_turn and (type(action) is PlayCard or seat not in state.to_act()):
        raise Waiting(state.started)


def nobody(state: Match) -> tuple[int, ...]:
    """Nobody acts (a chance step, or the match is over)."""
    return ()


def nothing(state: Match, seat: int) -> list[Action]:
    """Nothing may be done."""
    return []


def refuse_all(state: Match, seat: int, action: Action) -> None:
    """Every action is refused."""
    refuse(state, action)


def unreachable(state: Match, seat: int, action: Action) -> list[Event]:
    """``verify`` refused every action, so this is never called."""
    raise AssertionError("no action is legal in this phase")


IDLE = Step(nobody, nothing, refuse_all, unreachable)
"""While dealing (the chance step) and after the match: nobody acts, everything is refused."""
