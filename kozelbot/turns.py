"""Play between presses: a move applied and logged, the computer seats and chance steps run
until a person must act (the move timer set for them), and the moves made for people whose
time ran out (RULES.md §3) — changes of a ``Change`` the service then commits."""

from __future__ import annotations

import random
from typing import Any

from kozelbot import ledger, levels, seating
from kozelbot.change import Change
from kozelbot.game import GameState, advance
from kozelbot.games import family_of
from kozelbot.levels import DEFAULT_LEVEL
from kozelbot.records import MoveSource
from kozelbot.table import TableStatus

MISSED_TO_AWAY = 2
"""Time-outs in a row after which a computer plays the seat until its owner is back."""


def apply_move(change: Change, seat: int, action: Any, source: MoveSource) -> None:
    """Apply a move (``apply`` verifies it: a ``GameError`` changes nothing) and log it."""
    state = change.state
    assert state is not None
    deal_no = state.deal_shown
    assert deal_no is not None
    ledger.record_move(change, seat, action, state.apply(seat, action), source, deal_no)


def play_on(change: Change, now: float) -> None:
    """Deal and let computer seats act until a person must act or the match is over; then
    set (or clear) the move timer of whoever must act."""
    state, table = change.state, change.table
    assert state is not None
    family = family_of(table.variant)

    def moved(seat: int, action: Any, events: list[Any]) -> None:
        # A move never changes the deal shown (a scored deal stays until the next deal).
        deal_no = state.deal_shown
        assert deal_no is not None
        ledger.record_move(change, seat, action, events, MoveSource.COMPUTER, deal_no)

    def computer_seat(seat: int) -> bool:
        player = table.seats[seat]
        return player is None or player.computer_plays

    def choose(state: GameState, seat: int) -> Any:
        player = table.seats[seat]
        # The table's level plays its computer seats; someone away gets the normal player.
        level = str(table.options.get("computer", DEFAULT_LEVEL))
        if player is not None and not player.is_computer:
            level = DEFAULT_LEVEL
        rng = random.Random(f"{table.seed}:{table.move_seq}:{level}")  # the match replays
        return levels.choose(level, state, seat, rng)

    advance(state, table, computer_seat, choose, on_move=moved,
            on_events=lambda events: ledger.owe(change, events),
            before_chance=lambda: seating.seat_waiting(change))  # fmt: skip
    if state.over:
        table.status = TableStatus.FINISHED
    move_time = family.move_time(state, table.options)
    waiting = table.status is TableStatus.PLAYING and bool(state.to_act())
    if not waiting or move_time <= 0:
        table.deadline = None
    elif change.moves or change.started or table.deadline is None or change.back:
        table.deadline = now + move_time
        table.turn_time = move_time


def time_out(change: Change) -> None:
    """Move (the computer's choice) for every person whose time ran out.

    After ``MISSED_TO_AWAY`` time-outs in a row the seat passes to the computer until its
    owner is back. A time-out in a secret step (``GameState.hidden_turn``) makes the move
    but counts nothing: the mark, and a seat handed to the computer, would tell everyone who
    was asked. **Decision**: a seat passes only while someone else at the table is present —
    were everyone away, the computers would play the whole match out in an instant; the timer
    then keeps moving for them one turn at a time instead."""
    state, table = change.state, change.table
    assert state is not None
    family = family_of(table.variant)
    rng = random.Random(f"{table.seed}:{table.move_seq}")
    secret = state.hidden_turn
    for seat in state.to_act():
        player = table.seats[seat]
        if player is None or player.computer_plays or seat not in state.to_act():
            continue
        if not secret:
            table.timeouts[seat] += 1
            table.missed[seat] += 1
            ledger.count(table, seat, "timeouts")
        apply_move(change, seat, family.on_timeout(state, seat, rng), MoveSource.TIMEOUT)
        present = [s for s, p in table.humans if s != seat and not p.away]
        if not secret and table.missed[seat] >= MISSED_TO_AWAY and present:
            table.seats[seat] = player.model_copy(update={"away": True})
            change.away.append(seat)
