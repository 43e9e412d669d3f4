"""Levelling (RULES.md §2): after the trick is taken, every player in play holding more cards
than the smallest hand, except the taker, adds the difference face down to the trick; then the
draw follows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.families.cover.draw import draw_and_continue
from kozelbot.families.cover.hands import face_down_choices, level_count
from kozelbot.families.cover.step import refuse
from kozelbot.families.cover.trace import add_levelling
from kozelbot.families.cover.vocabulary import Action, Event, IllegalMove, Level

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def to_act(state: CoverMatch) -> tuple[int, ...]:
    return tuple(state.game.round.level_pending)


def legal(state: CoverMatch, seat: int) -> list[Action]:
    if seat not in state.game.round.level_pending:
        return []
    return [Level(c) for c in face_down_choices(state.game, seat, level_count(state, seat))]


def verify(state: CoverMatch, seat: int, action: Action) -> None:
    if not isinstance(action, Level):
        refuse(state, seat, action)
    elif len(action.cards) != level_count(state, seat):
        raise IllegalMove("add exactly", level_count(state, seat))


def apply(state: CoverMatch, seat: int, action: Action) -> list[Event]:
    assert isinstance(action, Level)
    game = state.game
    rnd = game.round
    for card in action.cards:
        game.hands[seat].remove(card)
    rnd.discards.extend(action.cards)
    rnd.level_pending.remove(seat)
    add_levelling(game, seat, action.cards)
    if not rnd.level_pending:
        return draw_and_continue(state)
    return []
