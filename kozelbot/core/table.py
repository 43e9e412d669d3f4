"""A group's table: the lobby, who sits where, and the match state.

Which Telegram messages show it is the presenter's business (``kozelbot.core.records.MessageRef``),
kept apart so that sending a message never bumps the game's version.

``Table`` is what storage saves for a live game, as one JSON document with a version number
that every accepted change bumps (optimistic concurrency: a stale writer is refused).
The engine state inside it is the JSON of ``kozelbot.engine.MatchState``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class GameAlreadyRunning(Exception):
    """The chat already has a live game (storage refuses a second one)."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} already has a live game")
        self.chat_id = chat_id


class SeatTaken(Exception):
    """A person already sits at another live game (storage refuses a second seat)."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} already sits at another live game")
        self.user_id = user_id


def place_name(chat_id: int, thread_id: int | None = None) -> str:
    """The name of a place — a chat, or one forum topic of it (a thread id of 0 is none) —
    where one game can be played: ``"<chat_id>"`` or ``"<chat_id>/<thread_id>"`` (the key
    of the leases of many workers, issue #32)."""
    return str(chat_id) if not thread_id else f"{chat_id}/{thread_id}"


def place_parts(place: str) -> tuple[int, int | None]:
    """(chat id, thread id) of a place's name; ``ValueError`` if it is not one."""
    chat, _, thread = place.partition("/")
    return int(chat), (int(thread) if thread else None)


class StaleVersion(Exception):
    """A save based on an old version of the table; nothing was written."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} changed meanwhile")
        self.game_id = game_id


class TableAlreadyOpen(Exception):
    """A tournament's table already has its match (storage refuses a second one for the same
    tournament, round and table); nothing was written. ``game_id`` is the match it has."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"this tournament table is already open as game {game_id}")
        self.game_id = game_id


class TableStatus(StrEnum):
    """Lifecycle of a game: ``lobby`` → ``playing`` → ``finished`` (or ``stopped``)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    STOPPED = "stopped"

    @property
    def live(self) -> bool:
        """Lobby and playing games occupy their chat."""
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


class Player(BaseModel):
    """Whoever holds a seat; ``user_id`` is ``None`` for a computer player."""

    model_config = ConfigDict(frozen=True)

    user_id: int | None = None
    name: str
    away: bool = False
    """The person missed two moves in a row: a computer plays the seat for them until they
    come back ("I'm here" or /hand), and anyone not seated may take the seat over."""

    @property
    def is_computer(self) -> bool:
        """Computer players fill empty seats and replace players who leave."""
        return self.user_id is None

    @property
    def computer_plays(self) -> bool:
        """A computer makes this seat's moves (a computer player, or a person away)."""
        return self.user_id is None or self.away


def _empty_seats() -> list[Player | None]:
    return [None, None, None, None]


def _counts() -> dict[str, int]:
    return {}


class TournamentTable(BaseModel):
    """Where a tournament's table stands in it (issue #19): storage keeps one match per
    tournament, round and table, so a table is never opened twice."""

    model_config = ConfigDict(frozen=True)

    tournament_id: int
    round_no: int
    table_no: int


CORE_TALLIES = ("deals", "points", "timeouts")
"""What a seat's ``Table.tally`` counts over a match in every family, for /stats: deals
played, the card points its side took, moves the timer made for it. Each family adds its
own counts by name (``Rules.tally_keys``: catches, egg deals, hand-offs …)."""


class Table(BaseModel):
    """One game of one group chat, from lobby to result."""

    game_id: int = 0
    """Assigned by storage on creation."""
    chat_id: int
    thread_id: int | None = None
    """The forum topic the game lives in (one game per topic); ``None`` outside forums.
    In the bot's private chat (``chat_id`` > 0) the game is a person's match against the
    computer (/play)."""
    chat_title: str | None = None
    """The group's name, shown in private hand messages (people may play in several)."""
    variant: str
    options: dict[str, Any]
    creator_id: int
    status: TableStatus = TableStatus.LOBBY
    seed: int
    """The computer players' and the timer's choices derive from it."""
    secret: str = ""
    """Hex secret each deal's shuffle seed is derived from (``kozelbot.core.fairplay``): sealed in
    the lobby (its SHA-256 shown before anyone joins), revealed when the match ends. A deal's
    seed is committed (its SHA-256 shown) before the first card and revealed with its result,
    and one revealed seed tells nothing of another. Empty in games begun before fair play:
    their shuffles still derive from ``seed``."""
    contributions: list[str] = Field(default_factory=list)
    """What the players' seed is made of (``kozelbot.core.fairplay``): one line per join
    (``join:<user>:<id Telegram gave it>``) and per ``/seed`` word (``seed:<user>:<word>``),
    gathered while the lobby is open, after the match seal was shown."""
    client_seed: str = ""
    """The players' seed, fixed when the match starts (SHA-256 of ``contributions``); every
    shuffle's key mixes it with the secret. Empty in games begun before it."""
    invite: str = ""
    """A random word (``[A-Za-z0-9_-]``) that the lobby's deep links carry
    (``join-<game>-<invite>``): a game's number can be guessed, its invite cannot. Empty in
    games begun before invites, whose old links are refused."""
    seats: list[Player | None] = Field(default_factory=lambda: _empty_seats())
    waiting: list[Player] = Field(default_factory=list)
    """People who asked, during the match, for a seat a computer holds: they sit down when
    the next deal is dealt (a take-over never shows a hand in play), in the order they
    asked. They count as seated at this table (one table at a time)."""
    state: dict[str, Any] | None = None
    version: int = 0
    move_seq: int = 0
    """Moves appended to the move log so far."""
    deadline: float | None = None
    """Epoch seconds when the current human turn times out, or an unstarted lobby closes."""
    closed_reason: str | None = None
    """Why a game stopped early: ``expired`` (a lobby nobody started), else ``None``."""
    timeouts: list[int] = Field(default_factory=lambda: [0, 0, 0, 0])
    missed: list[int] = Field(default_factory=lambda: [0, 0, 0, 0])
    """Time-outs in a row per seat (two hand the seat to a computer until its owner is back)."""
    turn_time: float = 0.0
    """The move time the current ``deadline`` was set with (its owner is warned at half)."""
    stop_votes: list[int] = Field(default_factory=list)
    """People who voted to stop the match (a majority of those seated ends it)."""
    stop_vote_until: float | None = None
    """When the running stop vote lapses (two minutes after it began)."""
    tally: list[dict[str, int]] = Field(default_factory=lambda: [_counts() for _ in range(4)])
    """Per seat, the counts so far (``CORE_TALLIES`` and the family's own), by name; they go
    with the result to /stats."""
    created_at: float = 0.0
    tournament: TournamentTable | None = None
    """A tournament's table (issue #19); ``None`` for every other match."""
    reserved: list[int | None] | None = None
    """A tournament's table: the person each seat is kept for (``None``: a computer's), as
    the draw seated them. Only they may sit there; ``None`` for an open lobby."""
    reserved_names: list[str] = Field(default_factory=list)
    """The names of the people ``reserved`` keeps the seats for, seat by seat (``""`` for
    a computer's): the lobby names whom it waits for (issue #30 item 12). Empty in tables
    opened before."""

    @property
    def private(self) -> bool:
        """A match against the computer in the bot's private chat (/play), rated apart."""
        return self.chat_id > 0

    @property
    def place(self) -> tuple[int, int | None]:
        """Where the game lives: its chat and forum topic."""
        return (self.chat_id, self.thread_id)

    def seat_of(self, user_id: int) -> int | None:
        """The seat a user holds, if any."""
        for seat, player in enumerate(self.seats):
            if player is not None and player.user_id == user_id:
                return seat
        return None

    def is_waiting(self, user_id: int) -> bool:
        """Whether a person waits for the next deal's free seat."""
        return any(p.user_id == user_id for p in self.waiting)

    @property
    def people(self) -> frozenset[int]:
        """Everyone this live game holds: seated people and those waiting for a seat."""
        return frozenset(
            p.user_id
            for p in (*(p for _s, p in self.humans), *self.waiting)
            if p.user_id is not None
        )

    @property
    def humans(self) -> list[tuple[int, Player]]:
        """Seats held by people, with their players."""
        return [(s, p) for s, p in enumerate(self.seats) if p is not None and not p.is_computer]

    def to_json(self) -> str:
        """The document storage saves."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, text: str) -> Table:
        """Read a document saved by ``to_json``."""
        return cls.model_validate_json(text)
