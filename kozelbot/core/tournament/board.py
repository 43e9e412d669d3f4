"""What the standings show, as plain data: the standings message and the picture both draw
from these (``standings.py`` computes them, ``picture.py`` draws them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Row:
    """One competitor's line of the standings."""

    rank: int
    """1, 2, …; competitors level on every tie-break share a rank."""
    competitor: int
    """A user id (``rotating``) or a pair's number (``pairs``)."""
    name: str
    """The person's name, or the pair's two names ("Аня & Борис")."""
    points: int
    """Match points (``model.WIN`` …)."""
    deal_diff: int
    """Card points their side took minus the opponents', over every match played."""
    buchholz: int | None
    """``pairs``: the sum of the opponents' match points; ``None`` in ``rotating``."""
    played: int
    """Matches played (byes not counted)."""
    byes: int


@dataclass(frozen=True, slots=True)
class Cell:
    """One competitor's result in one round (``rotating``) or against one pair (``pairs``)."""

    outcome: str
    """``win``, ``draw``, ``loss``, ``bye``, ``playing`` or ``""`` (not yet / never)."""
    text: str
    """What the cell says: the match score from the competitor's side ("12:7"), or the
    table in play ("стол 2"); empty for a bye or nothing."""


@dataclass(frozen=True, slots=True)
class Cross:
    """The cross table: one row per competitor (in standings order), one column per round
    (``rotating``) or per pair (``pairs``, the diagonal empty)."""

    columns: tuple[str, ...]
    """Column headings: round numbers ("1", "2", …) or pair numbers."""
    rows: tuple[tuple[Row, tuple[Cell, ...]], ...]
