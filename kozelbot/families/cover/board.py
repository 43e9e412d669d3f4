"""What lies on the table during one cover game: the hands, the talon (прикуп, the pile the
hands are refilled from), the trump, the round in progress and what was taken — plain data
that the steps change, stored with the match and copied cheaply for a search."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from kozelbot.core.cards import Card, Suit


@dataclass(slots=True)
class Move:
    """One move of a round, for the trace and for taking a round back after a claim
    (``kind`` is ``lead``, ``beat``, ``discard``, ``pass``, ``otboy`` or ``claim``; a claim
    keeps its ``count``)."""

    seat: int
    kind: str
    cards: tuple[Card, ...] = ()
    onto: tuple[int, ...] = ()
    count: int = 0


@dataclass(slots=True)
class Round:
    """A lead and its answers."""

    leader: int
    first_leader: int
    """Who was to lead before any claim (claim ties go nearest clockwise from here)."""
    stacks: list[list[Card]] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    last_beater: int = -1
    turn: int = -1
    answered: list[int] = field(default_factory=list)
    """Seats that answered since the last beat (or the lead)."""
    discarded: list[int] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    """The moves standing since the round (re)started: the last claim took earlier ones back."""
    log: list[Move] = field(default_factory=list)
    """Every move of the round in order, claims and moves taken back included (the trace)."""
    claims: list[tuple[int, int]] = field(default_factory=list)
    level_pending: list[int] = field(default_factory=list)
    taker: int = -1

    def add(self, move: Move) -> None:
        """Record a lead or an answer: it stands (until a claim) and joins the log."""
        self.moves.append(move)
        self.log.append(move)

    def copy(self) -> Round:
        """An independent copy (moves are never changed once made, so they are shared)."""
        return replace(
            self,
            stacks=[list(stack) for stack in self.stacks],
            discards=list(self.discards),
            answered=list(self.answered),
            discarded=list(self.discarded),
            moves=list(self.moves),
            log=list(self.log),
            claims=list(self.claims),
            level_pending=list(self.level_pending),
        )


@dataclass(slots=True)
class CoverGame:
    """One game: hands, talon, trump, the round in progress, and what was taken."""

    game_no: int
    deck: tuple[Card, ...]
    """The shuffled deck, top first (for the trace)."""
    dealt: tuple[tuple[Card, ...], ...]
    hands: list[list[Card]]
    talon: list[Card]
    """Top first; the last card is the bottom one."""
    trump: Suit
    trump_start: Suit
    first_leader: int
    round: Round
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """Finished rounds, as trace objects (``trace.round_trace``)."""
    points: list[int] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    bottom_shown: bool = False
    bottom: Card | None = None
    """The talon's bottom card once shown to all (the cut card, or drawn at the last draw)."""
    last_taker: int = -1
    last_stacks: list[list[Card]] = field(default_factory=list)
    """The last trick's stacks as they lay when it was taken (the final table shows them)."""
    last_face_down: int = 0
    """How many cards of the last trick lay face down (discards)."""
    dealer: int | None = None
    """The seat that dealt (``None`` in games stored before it was kept)."""

    def copy(self) -> CoverGame:
        """An independent copy. A finished round's trace is never changed once the next
        round is taken, so only the last one is copied."""
        rounds = self.rounds[:-1]
        if self.rounds:
            last = self.rounds[-1]
            rounds.append(
                {**last, "levelling": list(last["levelling"]), "draws": list(last["draws"])}
            )
        return replace(
            self,
            hands=[list(hand) for hand in self.hands],
            talon=list(self.talon),
            round=self.round.copy(),
            rounds=rounds,
            points=list(self.points),
            tricks_won=list(self.tricks_won),
            last_stacks=[list(stack) for stack in self.last_stacks],
        )
