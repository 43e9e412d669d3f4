"""Play between presses: a move applied and logged, the computer seats and chance steps run
until a person must act (the move timer set for them), and the moves made for people whose
time ran out (RULES.md §3) — each step changes the operation's table and state and returns
what it did (``Logged``, ``Played``), from which the service builds its ``Change``."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from kozelbot.computer import levels
from kozelbot.computer.levels import DEFAULT_LEVEL, QUICK_LEVEL, SEARCHING
from kozelbot.computer.thinking import Overloaded, Thinker
from kozelbot.core.protocol import Action, AnyState, Event, GameError, advance
from kozelbot.core.records import MoveSource
from kozelbot.core.table import Table, TableStatus
from kozelbot.families.registry import players_of, rules_of
from kozelbot.tables import ledger, seating
from kozelbot.tables.change import Change
from kozelbot.tables.ledger import NOTHING, Logged
from kozelbot.tables.seating import Seated

log = logging.getLogger(__name__)

MISSED_TO_AWAY = 2
"""Time-outs in a row after which a computer plays the seat until its owner is back."""


@dataclass(frozen=True, slots=True)
class Played:
    """What play between presses did: what it logged (``ledger.Logged``), who sat down
    between deals (``seating.Seated``) and the seats whose owners just missed their second
    move in a row (a computer plays them). ``a + b``: ``a``'s, then ``b``'s."""

    logged: Logged = NOTHING
    seated: Seated = seating.NOBODY
    away: tuple[int, ...] = ()

    def __add__(self, later: Played) -> Played:
        return Played(
            self.logged + later.logged, self.seated + later.seated, self.away + later.away
        )

    def change(
        self,
        table: Table,
        state: AnyState,
        *,
        started: bool = False,
        acted: Action | None = None,
        back: tuple[int, ...] = (),
    ) -> Change:
        """The one ``Change`` of an operation that let play go on, built from what it did
        (``started``: it started the match; ``acted``: a person's move; ``back``: seats
        whose owners came back before play went on)."""
        logged, seated = self.logged, self.seated
        return Change(
            table,
            state,
            events=logged.events,
            moves=logged.moves,
            deals=logged.deals,
            result=logged.result,
            outbox=logged.outbox,
            started=started,
            acted=acted,
            away=self.away,
            back=(*back, *seated.taken_over),
            abandoned=seated.abandoned,
            taken_over=seated.taken_over,
        )


def apply_move(
    table: Table, state: AnyState, seat: int, action: Action, source: MoveSource
) -> Logged:
    """Apply a move (``apply`` verifies it: a ``GameError`` changes nothing) and log it."""
    deal_no = state.deal_shown
    assert deal_no is not None
    events = state.apply(seat, action)
    return ledger.record_move(table, state, seat, action, events, source, deal_no)


def level_of(table: Table, seat: int) -> str:
    """The level that plays ``seat`` for the computer: the table's for its computer seats;
    the quick one for someone away (they may be back any moment)."""
    player = table.seats[seat]
    if player is not None and not player.is_computer:
        return QUICK_LEVEL
    return str(table.options.get("computer", DEFAULT_LEVEL))


def computer_seat(table: Table, seat: int) -> bool:
    """The computer plays ``seat`` now (an empty seat, a computer's, someone away)."""
    player = table.seats[seat]
    return player is None or player.computer_plays


def thinking_seat(table: Table, state: AnyState) -> int | None:
    """A computer seat to act whose level searches at this step (it thinks off the event
    loop: ``GameService.time_out``), or ``None``."""
    family = players_of(table.variant)
    for seat in state.to_act():
        if (
            computer_seat(table, seat)
            and level_of(table, seat) in SEARCHING
            and family.searches(state, seat)
        ):
            return seat
    return None


def asked_computer(table: Table, state: AnyState, *, searching: bool = True) -> int | None:
    """A computer seat a hidden step (``GameState.hidden_turn``) asks — of any level, or
    only of one that does not search here — or ``None``: it waits like a person before it
    answers (``play_on``, ``pace_hidden``)."""
    if not state.hidden_turn:
        return None
    family = players_of(table.variant)
    for seat in state.to_act():
        if computer_seat(table, seat) and (
            searching or level_of(table, seat) not in SEARCHING or not family.searches(state, seat)
        ):
            return seat
    return None


def computer_seed(table: Table, level: str) -> str:
    """The seed of the computer's next move's RNG: the match replays from its seed."""
    return f"{table.seed}:{table.move_seq}:{level}"


@dataclass(frozen=True, slots=True)
class Question:
    """What a searching computer is asked to think about under the game's lock, thought
    outside it (``GameService.time_out``): the state's dump, the seat to act and its RNG's
    seed, and the committed ``version`` of the table the change was loaded from (moves
    the change made already, a computer's before, are not committed yet)."""

    version: int
    seat: int
    dump: dict[str, Any]
    seed: str


def question(table: Table, state: AnyState) -> Question | None:
    """The question of the searching computer to act in the operation's state, or ``None``
    if no computer must think now."""
    seat = thinking_seat(table, state)
    if seat is None:
        return None
    seed = computer_seed(table, level_of(table, seat))
    return Question(table.version, seat, state.dump(), seed)


def overdue(table: Table, state: AnyState, now: float, *, think_later: bool) -> Played:
    """A deadline passed and no computer must think: the computers a hidden step asks
    answer (their wait is over: ``answer_hidden``), else ``time_out`` moves for the people
    whose time ran out; then play goes on."""
    answered = answer_hidden(table, state)
    done = Played(answered) if answered.moves else time_out(table, state)
    fresh = bool(done.logged.moves)
    return done + play_on(table, state, now, think_later=think_later, fresh=fresh)


def answer_hidden(table: Table, state: AnyState) -> Logged:
    """The computers of a level that does not search, asked in a hidden step, answer in
    line once they have waited (a kryuk partner's return follows its holder's hand-off in
    the same breath, as a searching computer's does); their moves (none: nobody did). A
    person asked beside them keeps their own time (``play_on`` sets it afresh after these
    moves)."""
    answered = NOTHING
    while (seat := asked_computer(table, state, searching=False)) is not None:
        level = level_of(table, seat)
        action = levels.choose(level, state, seat, random.Random(computer_seed(table, level)))
        answered += apply_move(table, state, seat, action, MoveSource.COMPUTER)
    return answered


async def think(asked: Question, thinker: Thinker) -> Any | None:
    """A searching computer's move, thought off the event loop (and off the game's lock);
    ``None`` if thinking failed or the thinker had no time left for it (``answer`` then
    lets the quick level move)."""
    try:
        return (await thinker.decide(asked.dump, asked.seat, asked.seed)).action
    except Overloaded:  # its budget was spent waiting: the quick level answers at once
        return None
    except Exception:  # a broken pool: never stall
        log.exception("thinking failed; the quick level moves")
        return None


def answer(table: Table, state: AnyState, asked: Question, action: Any | None) -> Logged:
    """Apply the thought move to the operation's table and state (the same committed table
    the question was taken from): the quick level's instead if thinking failed or the rules
    refuse it."""
    if action is not None:
        try:
            state.verify(asked.seat, action)
        except GameError as refused:  # its text names cards of a hidden hand: only its code
            log.error("game %s: the thought move is refused (%s)", table.game_id, refused.code)
            action = None
        except Exception:  # a bug in the rules: never stall
            log.exception("game %s: the thought move is refused", table.game_id)
            action = None
    if action is None:
        action = levels.choose(QUICK_LEVEL, state, asked.seat, random.Random(asked.seed))
    return apply_move(table, state, asked.seat, action, MoveSource.COMPUTER)


def play_on(
    table: Table, state: AnyState, now: float, *, think_later: bool = False, fresh: bool = False
) -> Played:
    """Deal and let computer seats act until a person must act, the match is over or — with
    ``think_later`` — a searching computer must think (``thinking_seat``: its deadline is
    now, and the service thinks off the event loop when it comes); then set (or clear) the
    move timer of whoever must act: afresh when anything moved or someone sat down, here or
    before (``fresh``: a move, the start, someone back)."""
    family = players_of(table.variant)
    played = Played()

    def moved(seat: int, action: Action, events: list[Event]) -> None:
        # A move never changes the deal shown (a scored deal stays until the next deal).
        nonlocal played
        deal_no = state.deal_shown
        assert deal_no is not None
        source = MoveSource.COMPUTER
        logged = ledger.record_move(table, state, seat, action, events, source, deal_no)
        played += Played(logged)

    def owed(events: list[Event]) -> None:
        nonlocal played
        played += Played(ledger.owe(table, state, events))

    def seat_waiting() -> None:
        nonlocal played
        played += Played(seated=seating.seat_waiting(table))

    def plays_now(seat: int) -> bool:
        if not computer_seat(table, seat):
            return False
        if think_later and state.hidden_turn:
            return False  # asked in a hidden step: it waits like a person (``pace_hidden``)
        return not (
            think_later and level_of(table, seat) in SEARCHING and family.searches(state, seat)
        )

    def choose(state: AnyState, seat: int) -> Any:
        level = level_of(table, seat)
        return levels.choose(level, state, seat, random.Random(computer_seed(table, level)))

    advance(
        state,
        table,
        plays_now,
        choose,
        on_move=moved,
        on_events=owed,
        before_chance=seat_waiting,
    )
    asked = None if state.over else asked_computer(table, state)
    thinks = None if state.over else thinking_seat(table, state)
    if think_later and (thinks is not None or asked is not None):
        table.deadline = now  # the computer thinks as soon as the change is committed
        table.turn_time = 0
        return played
    if state.over:
        table.status = TableStatus.FINISHED
    move_time = rules_of(table.variant).move_time(state, table.options)
    waiting = table.status is TableStatus.PLAYING and bool(state.to_act())
    if not waiting or move_time <= 0:
        table.deadline = None
    elif (
        fresh
        or played.logged.moves
        or table.deadline is None
        or played.seated.taken_over
        or not table.turn_time
    ):  # (no turn time: the deadline was a thinker's)
        table.deadline = now + move_time
        table.turn_time = move_time
    return played


def time_out(table: Table, state: AnyState) -> Played:
    """Move (the computer's choice) for every person whose time ran out.

    After ``MISSED_TO_AWAY`` time-outs in a row the seat passes to the computer until its
    owner is back. A time-out in a secret step (``GameState.hidden_turn``) makes the move
    but counts nothing: the mark, and a seat handed to the computer, would tell everyone who
    was asked. **Decision**: a seat passes only while someone else at the table is present —
    were everyone away, the computers would play the whole match out in an instant; the timer
    then keeps moving for them one turn at a time instead."""
    family = players_of(table.variant)
    logged, away = NOTHING, []
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
        action = family.on_timeout(state, seat, rng)
        logged += apply_move(table, state, seat, action, MoveSource.TIMEOUT)
        present = [s for s, p in table.humans if s != seat and not p.away]
        if not secret and table.missed[seat] >= MISSED_TO_AWAY and present:
            table.seats[seat] = player.model_copy(update={"away": True})
            away.append(seat)
    return Played(logged, away=tuple(away))


def pace_hidden(table: Table, state: AnyState | None, now: float, wait: float) -> None:
    """A computer about to think in a hidden step (``GameState.hidden_turn``) waits first,
    as a person takes a while to decide (issue #29): answered at once, the step's length
    would name the seat with the weak hand or the last trump. Its deadline — "now", set by
    ``play_on`` — moves ``wait`` seconds on, give or take half.

    **Decision**: the wait is drawn between half and one and a half ``wait`` from the
    position (the table's seed and move number), so a replay waits alike and no fixed
    length marks the computer. Every level waits (``answer_hidden`` answers for those that
    do not search): were one to answer in the same save as the deal, a hidden step that
    shows at all would name a person as the one asked."""
    if wait <= 0 or state is None or not state.hidden_turn:
        return
    if table.turn_time or table.deadline is None or table.deadline > now:
        return  # a person's deadline, or no computer to think now
    rng = random.Random(f"{table.seed}:{table.move_seq}:wait")
    table.deadline = now + wait * rng.uniform(0.5, 1.5)
