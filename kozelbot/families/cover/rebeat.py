"""The re-beat of a classic round (RULES.md §2): once everyone has answered the last beat, the
last beater may beat again (their own top cards) or call Відбій (ru «Отбой»), which ends the
round. A quick round has no re-beat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.families.cover.answer import beat, verify_beat
from kozelbot.families.cover.board import Move
from kozelbot.families.cover.hands import beats_available
from kozelbot.families.cover.step import refuse
from kozelbot.families.cover.turns import end_round
from kozelbot.families.cover.vocabulary import Action, Beat, Event, Otboy

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def to_act(state: CoverMatch) -> tuple[int, ...]:
    return (state.game.round.turn,)


def legal(state: CoverMatch, seat: int) -> list[Action]:
    if seat != state.game.round.turn:
        return []
    return [*(Beat(c) for c in beats_available(state, seat)), Otboy()]


def verify(state: CoverMatch, seat: int, action: Action) -> None:
    if isinstance(action, Beat):
        verify_beat(state, seat, action)
    elif not isinstance(action, Otboy):
        refuse(state, seat, action)


def apply(state: CoverMatch, seat: int, action: Action) -> list[Event]:
    if isinstance(action, Beat):
        return beat(state, seat, action)
    state.game.round.add(Move(seat, "otboy"))
    return end_round(state)
