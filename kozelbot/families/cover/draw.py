"""The draw, the automatic step after a trick (RULES.md §2 Draw): the trick is counted to
its taker's side, everyone draws from the talon up to the hand size from the taker clockwise,
then the next round starts, or the game is scored when talon and hands are empty.

When the talon runs short the last cards go one by one around the table. Drawing the
talon's bottom card (classic) shows it, and its suit is trump at once and for the next game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.cover.board import Round
from kozelbot.families.cover.scoring import four_of_a_kind, score_game
from kozelbot.families.cover.trace import add_draws
from kozelbot.families.cover.vocabulary import Event, Phase, TrumpChanged

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def draw_and_continue(state: CoverMatch) -> list[Event]:
    """Count the trick, draw from the taker clockwise, and start the next round (or score
    the game when talon and hands are empty)."""
    game = state.game
    rnd = game.round
    taker = rnd.taker
    cards = [c for stack in rnd.stacks for c in stack] + rnd.discards
    game.points[state.side_of(taker)] += sum(c.points for c in cards)
    events: list[Event] = []
    shown_before = game.bottom_shown
    add_draws(game, _draw(state, taker))
    if game.bottom_shown and not shown_before and game.bottom is not None:
        events.append(TrumpChanged(game.bottom))
    events += four_of_a_kind(state)
    if state.phase is Phase.OVER:
        return events
    seats = [s for s in state.in_play() if game.hands[s]]
    if not seats:
        return events + score_game(state)
    leader = state.rules.seats.clockwise(taker, seats)[0]
    game.round = Round(leader=leader, first_leader=leader, last_beater=leader)
    state.phase = Phase.LEAD
    return events


def _draw(state: CoverMatch, taker: int) -> dict[int, list[Card]]:
    """Each seat in play draws, from the taker clockwise, up to the hand size; what each
    drew, in drawing order."""
    game = state.game
    rules = state.rules
    order = rules.seats.clockwise(taker, state.in_play())
    bottom = game.talon[-1] if game.talon else None
    drawn: dict[int, list[Card]] = {s: [] for s in order}
    need = {s: max(0, rules.hand - len(game.hands[s])) for s in order}
    if sum(need.values()) <= len(game.talon):
        for seat in order:
            drawn[seat] = game.talon[: need[seat]]
            game.talon = game.talon[need[seat] :]
    else:
        while game.talon and any(need.values()):
            for seat in order:
                if game.talon and need[seat]:
                    drawn[seat].append(game.talon.pop(0))
                    need[seat] -= 1
    for seat in order:
        game.hands[seat].extend(drawn[seat])
    if bottom is not None and not game.talon and rules.classic and not game.bottom_shown:
        game.bottom_shown = True  # the bottom card was drawn: shown, and trump at once
        game.bottom = bottom
        game.trump = bottom.suit
        state.trump = bottom.suit
    return drawn
