"""A tournament's table as a match: seats kept for the people drawn, the no-show rule, and
the clock's decision — pure changes of a ``Table`` the service makes under the game's lock
(``GameService.change``), as ``kozelbot.tables.seating`` does for ordinary lobbies.

A tournament table opens as a lobby whose seats are *reserved* (``Table.reserved``): each
person drawn takes their own seat (Join, or the link in their private message), nobody else
may sit, and the options are the tournament's. When the last of them sits down the match
starts; ``NO_SHOW_SECONDS`` after the table opened it starts anyway, computers in the seats of
whoever has not come (``no_shows``).

**Decision** (issue #29: a stop must not decide a table in favour of whoever asks for it):
the people at a tournament table stop it only with the other side's consent —
``consent_needed``: every person seated, on both sides, and at least one person on each
side (computers, a no-show's included, never consent). A chat admin seated at the table is
one of them: their ``/stop`` is their vote (``stops_by_vote``). Once all agree the match
ends as the round clock ends it (``decide``: the score decides); until then it plays on, and
the round clock decides it when its time runs out. A chat admin who is not at the table
stops it at once (the organiser's call) and the score decides it (``result_of``); an
admin's ``/tournament stop`` still ends every table without a result.

**Decision** (issue #29: slow play, running the round clock down while ahead): a person's
move that takes ``SLOW_SHARE`` of the move time or more is counted against their seat
(``note_pace``: ``Table.tally``'s ``slow``), and so is a time-out (``timeouts``, counted by
the timer); ``SLOW_MARK`` of them in a match mark the person (``slow_players``: 🐢 in the
standings). The round clock still decides on the score when it strikes — the mark is for the
organiser to see, it takes no points. A move in a secret step (``GameState.hidden_turn``) is
never counted: a public mark would tell who was asked.
"""

from __future__ import annotations

from kozelbot.core.protocol import AnyState, MatchOver
from kozelbot.core.seats import Seats
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.tournament.model import TableResult
from kozelbot.tables import ledger
from kozelbot.tables.change import TableError
from kozelbot.tables.ledger import NOTHING, Logged

TABLE = Seats(4, pairs=True)
"""A tournament's table: two pairs, 0+2 against 1+3."""
SLOW_SHARE = 0.8
"""A move that takes this share of its move time or more counts as slow."""
SLOW_MARK = 3
"""Slow moves and time-outs in one match that mark a person for slow play (🐢)."""


def reserve(table: Table, reserved: list[int | None], names: list[str] | None = None) -> None:
    """Keep each seat for the person drawn to it (``names``: theirs, seat by seat); the
    seats stay as drawn (no seating draw at the start) and computers take the seats drawn
    as ``None``."""
    table.reserved = list(reserved)
    table.reserved_names = list(names or [])
    table.options = {**table.options, "seating": "ordered"}


def no_shows(table: Table) -> list[int]:
    """People drawn to the table whose seat a computer holds because they never came."""
    if table.reserved is None or table.status is TableStatus.LOBBY:
        return []
    return [
        user
        for user, player in zip(table.reserved, table.seats, strict=False)
        if user is not None and player is not None and player.is_computer
    ]


def check_may_sit(table: Table, user_id: int) -> int:
    """The seat kept for ``user_id`` at a tournament table (``reserved`` when the person
    was not drawn here, or the match already began without them)."""
    assert table.reserved is not None
    if user_id not in table.reserved or table.status is not TableStatus.LOBBY:
        raise TableError("reserved", table)
    return table.reserved.index(user_id)


def all_came(table: Table) -> bool:
    """Whether everyone drawn to the table sits at it."""
    assert table.reserved is not None
    return all(
        user is None or table.seats[seat] is not None for seat, user in enumerate(table.reserved)
    )


def decide(table: Table, state: AnyState, reason: str = "round_time") -> Logged:
    """The round's time ran out (``reason`` ``round_time``), or everyone at the table agreed
    to stop (``vote``): the match ends on its score now (``GameState.leader``).

    **Decision** (the issue asks for "decided by the current score"): the side ahead on the
    match score wins, a finished match with its result, rated as any other; a level score
    is a draw for the tournament and the match stops without a result (nobody's rating
    moves). The deal in play is not scored: its cards were not all played; what the result
    owes the records is returned."""
    side = state.leader()
    table.deadline = None
    table.closed_reason = reason
    if side is None:
        table.status = TableStatus.STOPPED
        return NOTHING
    logged = ledger.owe(table, state, [MatchOver(side, score_of(state))])
    table.status = TableStatus.FINISHED
    return logged


def consent_needed(table: Table) -> int:
    """Votes that stop a tournament's table: every person seated (the module's
    **Decision**); ``no_consent`` when a side has no person to agree."""
    people = {TABLE.side_of(seat) for seat, _player in table.humans}
    if people != {0, 1}:
        raise TableError("no_consent", table)
    return len(table.humans)


def check_may_leave(table: Table, seat: int) -> None:
    """Refuse (``last_at_table``) the last person's leaving a tournament's running table.

    **Decision** (issue #29): the last person leaving stops a match, and a stopped table is
    decided on its score, so two partners ahead whose opponents never came would take the
    round by leaving. The last person stays seated instead: the match plays on (the timer
    moves for whoever stops answering) until the round clock decides it."""
    if table.tournament is None or table.status is not TableStatus.PLAYING:
        return
    if all(other == seat for other, _player in table.humans):
        raise TableError("last_at_table", table)


def stops_by_vote(table: Table, user_id: int) -> bool:
    """Whether ``user_id``'s ``/stop`` is a vote however much right they have: they sit at a
    tournament's running table (a chat admin too)."""
    playing = table.status is TableStatus.PLAYING
    return playing and table.tournament is not None and table.seat_of(user_id) is not None


def note_pace(table: Table, state: AnyState | None, seat: int, now: float) -> None:
    """A person at a tournament table is about to move at ``now``: a slow move
    (``SLOW_SHARE`` of its move time or more) is counted in their seat's ``slow`` tally.
    Not in a secret step, nor when no move time runs (a computer's thinking set the
    deadline)."""
    if table.tournament is None or state is None or state.hidden_turn:
        return
    if table.deadline is None or table.turn_time <= 0:
        return
    taken = now - (table.deadline - table.turn_time)
    if taken >= SLOW_SHARE * table.turn_time:
        ledger.count(table, seat, "slow")


def slow_players(table: Table) -> list[int]:
    """The people marked for slow play at a tournament table: ``SLOW_MARK`` slow moves and
    time-outs or more in the match (each seat's person as drawn)."""
    marked = []
    for seat, tally in enumerate(table.tally[: len(table.seats)]):
        player = table.seats[seat]
        user = table.reserved[seat] if table.reserved is not None else None
        if user is None and player is not None:
            user = player.user_id
        if user is not None and tally.get("slow", 0) + tally.get("timeouts", 0) >= SLOW_MARK:
            marked.append(user)
    return marked


def score_of(state: AnyState) -> tuple[int, ...]:
    """The match score per side after the last scored deal (zeros before the first)."""
    if state.last_result is not None:
        return tuple(state.last_result.score)
    return tuple(0 for _ in range(max(state.side_of(s) for s in range(state.players)) + 1))


def result_of(table: Table, state: AnyState | None) -> TableResult:
    """A tournament's record of how a table's match ended: the winning side, the score and
    the card points each side took over the match (``Table.tally``'s ``points``: a seat
    counts its side's). A stopped match is decided by its score, as the clock decides (the
    people at the table stop it only when both sides agree: the module's **Decision**)."""
    points = tuple(table.tally[seat].get("points", 0) for seat in (0, 1))
    if state is None:
        return TableResult(
            winner_side=None, score=(0, 0), points=(points[0], points[1]), by_clock=True
        )
    score = score_of(state)
    winner = state.winner if state.over else state.leader()
    return TableResult(
        winner_side=winner,
        score=(score[0], score[1]),
        points=(points[0], points[1]),
        by_clock=table.closed_reason is not None or not state.over,
    )
