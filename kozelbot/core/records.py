"""Plain records that cross the storage boundary: moves, deals, results, users, rankings.

They are frozen pydantic models so that storage can serialise them without knowing the
engine, and handlers can read them without knowing SQL.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)


ABANDONS_FLAGGED = 2
"""Warnings from which a player is flagged in lobbies (RULES.md §3 leaves the number open)."""


class MoveSource(StrEnum):
    """Who made a move: the player, a computer seat, or the timer for the player."""

    HUMAN = "human"
    COMPUTER = "computer"
    TIMEOUT = "timeout"


class MoveRecord(_Record):
    """One accepted action, as appended to the move log (``seq`` counts from 1 per game)."""

    game_id: int
    seq: int
    deal_no: int
    seat: int
    action: str
    source: MoveSource
    user_id: int | None = None


class DealRecord(_Record):
    """One scored deal; ``trace`` is the deal's trace object (see ``kozelbot.trace``)."""

    game_id: int
    deal_no: int
    outcome: str
    points: tuple[int, ...]
    """Per side: two in pair games, one per seat when each plays for self."""
    award: tuple[int, ...]
    multiplier: int
    score: tuple[int, ...]
    trace: dict[str, Any]


class MatchPlayer(_Record):
    """A seat of a finished match; ``user_id`` is ``None`` for a computer player."""

    seat: int
    user_id: int | None
    name: str
    side: int
    won: bool
    tally: dict[str, int] = {}
    """The seat's counts over the match, by name (``kozelbot.core.table.CORE_TALLIES`` and the
    family's ``tally_keys``)."""
    level: str | None = None
    """A computer seat's level (its fixed pseudo-player in the ratings); ``None`` for people."""


class MatchResult(_Record):
    """A match that ended by reaching the target (stopped games are not results)."""

    game_id: int
    chat_id: int
    variant: str
    options: dict[str, Any]
    winner_side: int
    score: tuple[int, ...]
    deals: int
    players: tuple[MatchPlayer, ...]
    thread_id: int | None = None
    scope: str = "group"
    """``group``, or ``private`` for a match against the computer (/play): rated apart and
    never on a group's board."""
    rated: bool = True
    """Whether the match updates ratings (finished matches are; stopped ones have no result)."""


class UserRecord(_Record):
    """What the bot knows of a Telegram user."""

    user_id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    language: str | None = None
    """A language the user chose with /language; wins over ``language_code``."""
    private_open: bool = False
    """The user has started the bot's private chat and has not blocked it since."""
    abandons: int = 0
    """Warnings for leaving running matches; finishing a match clears one (RULES.md §3)."""

    @property
    def flagged(self) -> bool:
        """A player who abandons matches repeatedly (трусливый козёл, RULES.md §3)."""
        return self.abandons >= ABANDONS_FLAGGED


class LeaderRow(_Record):
    """One line of a chat's leaderboard."""

    user_id: int
    name: str
    played: int
    won: int


class OutboxItem(_Record):
    """A group post that must reach the chat even across a crash: written with the move that
    caused it, sent in order, deleted once sent. ``kind`` says how the presenter renders
    ``payload`` (``final_table``, ``deal_result``, ``match_over``)."""

    chat_id: int
    game_id: int
    kind: str
    payload: dict[str, Any]
    thread_id: int | None = None
    """The forum topic of the game (``None`` outside forums)."""
    id: int = 0
    """Assigned by storage."""


class MessageRef(_Record):
    """One of the bot's own messages of a game: the group's ``lobby`` or ``table`` message
    (``seat`` -1) or a seat's private ``hand`` message, with the deal it shows."""

    game_id: int
    kind: str
    seat: int
    chat_id: int
    deal_no: int | None
    message_id: int


class RatingChange(_Record):
    """A person's shown rating (``kozelbot.core.ratings.shown``) before and after a rated match."""

    user_id: int
    before: int
    after: int

    @property
    def delta(self) -> int:
        """What the match-over message shows (``+3``, ``-2``)."""
        return self.after - self.before


class BoardRow(_Record):
    """One line of a variant's board: the person's rating in that variant (group matches),
    and the rated matches they played and won that the board counts (in the chat, or in
    public chats for the global board)."""

    user_id: int
    name: str
    rating: int
    matches: int
    wins: int


class Partner(_Record):
    """The partner a person won most matches with (computers are never partners)."""

    user_id: int
    name: str
    wins: int
    """Matches won together."""


class VariantStats(_Record):
    """A person's record in one variant and scope (/stats)."""

    variant: str
    matches: int
    wins: int
    deals: int
    points: int
    """Card points their side took, over every deal they played."""
    points_per_deal: float
    timeouts: int
    tallies: dict[str, int]
    """The family's own counts by name (``Rules.tally_keys``: catches, egg deals …)."""
    abandons: int
    """Running matches of this variant they left."""
    flagged: bool
    """They abandon matches repeatedly (``UserRecord.flagged``, over every variant)."""
    best_partner: Partner | None
    streak: int
    """Wins (positive) or losses (negative) in a row, up to their latest match."""
    rating: int


class HistoryPlayer(_Record):
    """A seat of a finished match as the history shows it (``user_id`` ``None``: computer)."""

    seat: int
    name: str
    side: int
    user_id: int | None


class HistoryRow(_Record):
    """A finished match, for a chat's history and the heading of its deal-by-deal view."""

    game_id: int
    variant: str
    finished_at: float
    score: tuple[int, ...]
    """Per side."""
    winner_side: int
    deals: int
    players: tuple[HistoryPlayer, ...]


class ChatSettings(_Record):
    """A group's standing choices: the variant and its table options (including move time,
    seating and the computer level) its new lobbies start with, and whether its results are
    listed on the global board. The chat's language is kept apart (``storage.people``)."""

    variant: str
    options: dict[str, Any]
    public: bool = True
