"""A tournament as storage keeps it: one JSON document with a version (as ``Table``).

A tournament runs in one group (a forum or a plain group): registration, then ``rounds``
rounds, each drawn once (``Round``) and played at tables of four that are ordinary matches
(``TableDraw.game_id``), then a champion. Competitors are people (``rotating``: the draw
makes new partners each round) or fixed pairs (``pairs``: a pair sits opposite itself, seats
0+2 or 1+3). Everything here is data; the draw, the pairing, the standings and the director
that moves a tournament along are their own modules.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

NO_SHOW_SECONDS = 180.0
"""A seated person who has not come to their table this long after it opened is replaced
by a computer (and marked as a no-show) — issue #19."""

WIN, DRAW, LOSS, BYE_ROTATING, BYE_PAIRS = 2, 1, 0, 1, 2
"""Match points. A win 2, a draw 1 (a match the clock decides at a level score), a loss 0.

**Decision** (the issue leaves the bye's worth open): in ``pairs`` a bye is a win, as in
Swiss chess (the bye goes to the lowest-ranked pair, who have not had one); in ``rotating``
a bye is a draw, since a person at a table of four wins about half their matches. A bye
adds nothing to the deal-point difference and is not an opponent for Buchholz."""


class Format(StrEnum):
    """How competitors meet."""

    ROTATING = "rotating"
    """Individual: each round draws new tables of four (partners and opponents repeat as
    little as possible); a person scores their side's match points."""
    PAIRS = "pairs"
    """Fixed partners: round robin when the rounds cover everyone, Swiss otherwise."""


class Status(StrEnum):
    """``registration`` → ``running`` → ``finished`` (or ``stopped`` by an admin)."""

    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    STOPPED = "stopped"

    @property
    def live(self) -> bool:
        """Registration and running tournaments occupy their group."""
        return self in (Status.REGISTRATION, Status.RUNNING)


class Entrant(BaseModel):
    """Someone registered; in ``pairs`` the one who pressed Join names ``partner_id``, who
    confirms (``confirmed``) — only confirmed pairs are drawn."""

    model_config = ConfigDict(frozen=True)

    user_id: int
    name: str
    partner_id: int | None = None
    confirmed: bool = False


class TableResult(BaseModel):
    """How a table's match ended, per side (0: seats 0+2, 1: seats 1+3)."""

    model_config = ConfigDict(frozen=True)

    winner_side: int | None
    """``None``: a draw (the clock decided a match standing level)."""
    score: tuple[int, int]
    """The match score per side when it ended (the variant's own: eyes, or loser points)."""
    points: tuple[int, int]
    """Card points per side over all the match's deals (the tie-break's deal points)."""
    by_clock: bool = False
    """Decided by the score when the round's time ran out (or the match was stopped)."""


class TableDraw(BaseModel):
    """One table of a round: who sits where, and the match played there."""

    number: int
    """1, 2, … within the round."""
    seats: list[int | None]
    """User id per seat (``None``: a computer fills it). Partners are seats 0+2 and 1+3."""
    game_id: int | None = None
    """The match, once opened (storage refuses a second match for the same table)."""
    thread_id: int | None = None
    """The forum topic the bot opened for the table ("Тур 2 · стол 1"); ``None`` in a plain
    group."""
    opened_at: float | None = None
    deadline: float | None = None
    """When the clock decides the match (epoch seconds), once opened."""
    ended_at: float | None = None
    """When its result was recorded."""
    no_shows: list[int] = Field(default_factory=list)
    """People replaced by a computer because they did not come within ``NO_SHOW_SECONDS``."""
    slow: list[int] = Field(default_factory=list)
    """People marked for slow play at the table (``tables.slow_players``: 🐢)."""
    result: TableResult | None = None


class Round(BaseModel):
    """One round, drawn once and stored before any of its tables opens."""

    number: int
    """1, 2, …"""
    tables: list[TableDraw]
    byes: list[int] = Field(default_factory=list)
    """Competitors sitting this round out: user ids (``rotating``) or pair numbers
    (``pairs``)."""

    @property
    def finished(self) -> bool:
        """Every table has its result."""
        return all(table.result is not None for table in self.tables)


class Tournament(BaseModel):
    """One tournament of one group, from registration to champion."""

    tournament_id: int = 0
    """Assigned by storage on creation."""
    chat_id: int
    thread_id: int | None = None
    """The topic the registration was opened in (forums); standings are posted there."""
    forum: bool = False
    """The group is a forum: a round's tables open at once, each in a topic of its own;
    else they play one after another in the group."""
    chat_title: str | None = None
    creator_id: int
    variant: str
    options: dict[str, Any] = Field(default_factory=dict)
    """The tables' options (the variant's ``KEY=VALUE`` words, validated)."""
    format: Format = Format.ROTATING
    rounds: int = 3
    round_time: int = 60
    """Minutes a round's match may run before the clock decides it by the score."""
    computer_fill: bool = True
    """Entrants not a multiple of a table: computers fill the seats (``True``) or the last
    ones drawn sit out with a bye, in turn (``False``)."""
    status: Status = Status.REGISTRATION
    seed: int
    """The draw's random choices derive from it (a seed reproduces the draw)."""
    starts_at: float | None = None
    """When registration closes and round 1 is drawn (``None``: at the Start button)."""
    entrants: list[Entrant] = Field(default_factory=list)
    pairs: list[tuple[int, int]] = Field(default_factory=list)
    """``pairs``: the confirmed pairs as drawn, fixed at the start; a pair's number is its
    index here."""
    played: list[Round] = Field(default_factory=list)
    """The rounds drawn so far, in order; the last may be in play."""
    version: int = 0
    created_at: float = 0.0
    finished_at: float | None = None
    messages: dict[str, int] = Field(default_factory=dict)
    """The group messages that show it, by kind (``registration``, ``standings``): edited in
    place. The presenter's bookkeeping, kept here so a restart edits the same messages."""
    announced: int = 0
    """Rounds whose draw was posted to the group (posts follow the rounds after a restart:
    each is sent once it is due, then marked)."""
    pictured: int = 0
    """Rounds whose standings picture was posted (the final one included)."""

    @property
    def current(self) -> Round | None:
        """The round in play (drawn and not finished), if any."""
        if self.played and not self.played[-1].finished:
            return self.played[-1]
        return None

    def entrant(self, user_id: int) -> Entrant | None:
        """The entrant with this user id, if registered."""
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def to_json(self) -> str:
        """The document storage saves."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str) -> Tournament:
        """Read a document saved by ``to_json``."""
        return cls.model_validate_json(text)
