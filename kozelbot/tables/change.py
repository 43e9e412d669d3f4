"""What one table operation did (``Change``), and why one was refused (``TableError``).

The service returns a ``Change`` for every accepted operation; the presentation layer turns
it into messages, and storage commits its records in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kozelbot.core.protocol import AnyState
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


@dataclass
class Change:
    """What one accepted operation did: the new table and what happened, for presenters."""

    table: Table
    state: AnyState | None = None
    events: list[Any] = field(default_factory=list)
    moves: list[MoveRecord] = field(default_factory=list)
    deals: list[DealRecord] = field(default_factory=list)
    result: MatchResult | None = None
    outbox: list[OutboxItem] = field(default_factory=list)
    """Group posts owed for this change (results), committed with it."""
    started: bool = False
    acted: Any = None
    """The move a person's press made (the one played instead, if the rules replaced it)."""
    away: list[int] = field(default_factory=list)
    """Seats whose owners just missed their second move in a row: a computer plays them."""
    back: list[int] = field(default_factory=list)
    """Seats whose owners came back from being away."""
    vote: tuple[int, int] | None = None
    """A stop vote's count: (votes so far, votes needed)."""
    abandoned: list[tuple[int, int]] = field(default_factory=list)
    """(person, seat) of whoever left the running match, or lost their seat while away to
    a take-over (they get a warning, RULES.md §3)."""
    waiting: bool = False
    """A newcomer was put on the list for the next deal's free seat (``Table.waiting``)."""
    taken_over: list[int] = field(default_factory=list)
    """Seats people who were waiting took over as this change dealt a new deal."""


def computer(seat: int) -> Player:
    """A computer player for an empty seat (named by the presenters, in the reader's language)."""
    return Player(user_id=None, name=f"cpu{seat}")
