"""The flow of a round between its moves (RULES.md §2): who answers next, and how the round
ends — the trick to the last beater (the leader if nobody beat), then the levelling, or the
draw when nobody must level.

**Decisions** where RULES.md §2 is silent:
- The leader is the first "last beater" (the hand rule counts from the lead); when the turn
  comes back to the last beater in a classic round they may beat their own top cards or call
  Відбій; with nothing to beat with, the round ends.
- Levelling counts the smallest hand of everyone in play, the trick taker included; the
  taker adds nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.families.cover.draw import draw_and_continue
from kozelbot.families.cover.hands import beat_sets, must_answer
from kozelbot.families.cover.trace import round_trace
from kozelbot.families.cover.vocabulary import Event, Phase, RoundTaken

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def next_turn(state: CoverMatch) -> list[Event]:
    """Move the turn clockwise to the next player with a decision; when it comes back to
    the last beater, a classic round offers the re-beat or Відбій, a quick one ends."""
    game = state.game
    rnd = game.round
    rules = state.rules
    seats = state.in_play()
    seat = rnd.turn
    for _ in range(rules.players):
        seat = rules.seats.after(seat)
        if seat not in seats:
            continue
        if seat == rnd.last_beater or (not rules.classic and seat == rnd.leader):
            break
        if seat in rnd.answered and rules.classic:
            continue
        if not rules.classic and any(m.seat == seat and m.kind != "lead" for m in rnd.moves):
            continue  # quick: each other player answers once
        if must_answer(state, seat):
            rnd.turn = seat
            state.phase = Phase.ANSWER
            return []
        rnd.answered.append(seat)  # nothing to beat with, nothing to shed: skipped
    if rules.classic and next(beat_sets(state, rnd.last_beater), None) is not None:
        rnd.turn = rnd.last_beater
        state.phase = Phase.REBEAT
        return []
    return end_round(state)


def end_round(state: CoverMatch) -> list[Event]:
    """The trick goes to the last beater (the leader if nobody beat); then levelling."""
    game = state.game
    rnd = game.round
    taker = rnd.last_beater
    rnd.taker = taker
    cards = [c for stack in rnd.stacks for c in stack] + rnd.discards
    game.tricks_won[state.side_of(taker)] += 1
    game.last_taker = taker
    game.last_stacks = [list(stack) for stack in rnd.stacks]
    game.last_face_down = len(rnd.discards)
    game.rounds.append(round_trace(rnd))
    seats = state.in_play()
    smallest = min(len(game.hands[s]) for s in seats)
    rnd.level_pending = [
        s
        for s in state.rules.seats.clockwise(taker, seats)
        if s != taker and len(game.hands[s]) > smallest
    ]
    rnd.stacks = [[c] for c in cards]  # kept together until the levelling is done
    rnd.discards = []
    events: list[Event] = [RoundTaken(taker, sum(c.points for c in cards))]
    if rnd.level_pending:
        state.phase = Phase.LEVEL
        return events
    return events + draw_and_continue(state)
