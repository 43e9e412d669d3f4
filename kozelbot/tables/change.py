"""What one table operation did (``Change``), and why one was refused (``TableError``).

The service returns a ``Change`` for every accepted operation; the presentation layer turns
it into messages, and storage commits its records in one transaction. A ``Change`` is
frozen: the operation builds it once, from what its steps returned (``turns.Played``,
``ledger.Logged``, ``seating.Seated``), and nobody writes into it afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from kozelbot.core.protocol import Action, AnyState, Event
from kozelbot.core.records import DealRecord, MatchResult, MoveRecord, OutboxItem
from kozelbot.core.table import Player, Table


class TableError(Exception):
    """A table operation refused for a reason the user should be told; nothing changed.

    Codes: ``no_game``, ``game_running``, ``not_lobby``, ``seated``, ``full``, ``not_seated``,
    ``not_creator``, ``stale`` (an old button or deal), ``finished``, ``elsewhere`` (the person
    sits at another live game, which the error carries), ``no_free_seat`` (a running match
    has no computer-held seat to take), ``not_away`` (nothing to come back to), ``away`` (a
    computer plays the seat until its owner says they are back).
    """

    def __init__(self, code: str, table: Table | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.table = table


@dataclass(frozen=True, slots=True)
class Change:
    """What one accepted operation did: the new table and what happened, for presenters.

    Its table and state are the operation's own copies, committed with it; once it is
    committed they are the cache's, read by renders and never changed."""

    table: Table
    state: AnyState | None = None
    events: tuple[Event, ...] = ()
    moves: tuple[MoveRecord, ...] = ()
    deals: tuple[DealRecord, ...] = ()
    result: MatchResult | None = None
    outbox: tuple[OutboxItem, ...] = ()
    """Group posts owed for this change (results), committed with it."""
    started: bool = False
    acted: Action | None = None
    """The move a person's press made (the one played instead, if the rules replaced it)."""
    away: tuple[int, ...] = ()
    """Seats whose owners just missed their second move in a row: a computer plays them."""
    back: tuple[int, ...] = ()
    """Seats whose owners came back from being away (or that people waiting took over)."""
    vote: tuple[int, int] | None = None
    """A stop vote's count: (votes so far, votes needed)."""
    abandoned: tuple[tuple[int, int], ...] = ()
    """(person, seat) of whoever left the running match, or lost their seat while away to
    a take-over (they get a warning, RULES.md §3)."""
    waiting: bool = False
    """A newcomer was put on the list for the next deal's free seat (``Table.waiting``)."""
    taken_over: tuple[int, ...] = ()
    """Seats people who were waiting took over as this change dealt a new deal."""


def computer(seat: int) -> Player:
    """A computer player for an empty seat (named by the presenters, in the reader's language)."""
    return Player(user_id=None, name=f"cpu{seat}")
