"""A group's table: the lobby, who sits where, and the match state.

Which Telegram messages show it is the presenter's business (``kozelbot.records.MessageRef``),
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


class StaleVersion(Exception):
    """A save based on an old version of the table; nothing was written."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} changed meanwhile")
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

    @property
    def is_computer(self) -> bool:
        """Computer players fill empty seats and replace players who leave."""
        return self.user_id is None


def _empty_seats() -> list[Player | None]:
    return [None, None, None, None]


class Table(BaseModel):
    """One game of one group chat, from lobby to result."""

    game_id: int = 0
    """Assigned by storage on creation."""
    chat_id: int
    chat_title: str | None = None
    """The group's name, shown in private hand messages (people may play in several)."""
    variant: str
    options: dict[str, Any]
    creator_id: int
    status: TableStatus = TableStatus.LOBBY
    seed: int
    """Every shuffle of this game derives from it, so a seed replays the match."""
    seats: list[Player | None] = Field(default_factory=lambda: _empty_seats())
    state: dict[str, Any] | None = None
    version: int = 0
    move_seq: int = 0
    """Moves appended to the move log so far."""
    deadline: float | None = None
    """Epoch seconds when the current human turn times out, or an unstarted lobby closes."""
    closed_reason: str | None = None
    """Why a game stopped early: ``expired`` (a lobby nobody started), else ``None``."""
    timeouts: list[int] = Field(default_factory=lambda: [0, 0, 0, 0])
    created_at: float = 0.0

    def seat_of(self, user_id: int) -> int | None:
        """The seat a user holds, if any."""
        for seat, player in enumerate(self.seats):
            if player is not None and player.user_id == user_id:
                return seat
        return None

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
