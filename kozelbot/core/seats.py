"""Seat geometry, in one place: who sits where, who partners whom, who comes next.

Seats are numbered clockwise from 0. In a pairs game partners sit opposite (RULES.md §0: 0+2
against 1+3), so a seat's side is its number modulo 2; otherwise each seat is its own side.
Every family asks this module instead of writing ``% 2`` or ``(seat + 2) % 4`` itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seats:
    """The seats of one table: ``players`` of them, in pairs or each for self."""

    players: int
    pairs: bool

    @property
    def sides(self) -> int:
        """How many sides play: two pairs, or one per seat."""
        return 2 if self.pairs else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat plays for (a pair: 0 for seats 0+2, 1 for 1+3)."""
        return seat % 2 if self.pairs else seat

    def members(self, side: int) -> tuple[int, ...]:
        """The seats of a side, lowest first."""
        return tuple(seat for seat in range(self.players) if self.side_of(seat) == side)

    def partner(self, seat: int) -> int | None:
        """The seat opposite in a pairs game; ``None`` when each plays for self."""
        return self.after(seat, self.players // 2) if self.pairs else None

    def after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places clockwise from ``seat`` (negative: anticlockwise)."""
        return (seat + steps) % self.players

    def before(self, seat: int) -> int:
        """The seat to the right of ``seat`` (who plays just before it)."""
        return self.after(seat, -1)

    def distance(self, start: int, seat: int) -> int:
        """How many places clockwise ``seat`` is from ``start`` (0 for ``start`` itself)."""
        return (seat - start) % self.players

    def clockwise(self, start: int, among: Iterable[int] | None = None) -> list[int]:
        """Every seat (or those ``among``) in turn clockwise, ``start`` first if it is one."""
        chosen = set(range(self.players) if among is None else among)
        return [seat for k in range(self.players) if (seat := self.after(start, k)) in chosen]
