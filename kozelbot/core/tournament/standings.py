"""The standings and the cross table of a tournament, computed from its stored rounds
(``board``'s plain data, which the standings message and the picture draw).

Only finished tables count (``TableDraw.result``); side 0 is seats 0+2, side 1 seats 1+3.
A side's match points are ``WIN``, ``DRAW`` (``winner_side`` is ``None``) or ``LOSS``; its
deal difference is its card points minus the other side's.

``rotating``: the competitor is a person, who scores their side's result; the ranking is
match points, then the deal difference. ``pairs``: the competitor is a pair (its number in
``Tournament.pairs``, named "A & B"), ranked by match points, then Buchholz (the sum of the
current match points of every pair it met at a finished table), then the deal difference.
A bye scores ``BYE_ROTATING`` or ``BYE_PAIRS`` and counts in ``byes``, not ``played``; it adds
no deal points and no Buchholz opponent. **Decision**: a bye counts as soon as the round is
drawn, since nothing can change it.

Competitors level on every key share a rank (1, 2, 2, 4), listed by name, then id.

**Decision** (no-shows, ``TableDraw.no_shows``): a person replaced by a computer because
they did not come did not play, so they score ``LOSS`` and no deal points whatever the
table's result (it still counts in ``played``: the round was theirs to play), and their
partner keeps the side's result. In ``pairs`` the pair is the competitor: it keeps the
table's result while one of its two came, and scores as a no-show (``LOSS``, no deal
points) only when neither did. The people drawn stay in ``TableDraw.seats``; a no-show whose
seat was cleared is still found through ``no_shows``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from kozelbot.core.seats import Seats
from kozelbot.core.tournament.board import Cell, Cross, Row
from kozelbot.core.tournament.model import (
    BYE_PAIRS,
    BYE_ROTATING,
    DRAW,
    LOSS,
    WIN,
    Format,
    TableDraw,
    TableResult,
    Tournament,
)

TABLE = Seats(4, pairs=True)
"""A table of four in pairs: 0+2 against 1+3."""
NO_SHOW_TEXT = "—"
"""The cross table's text for a no-show's round (they played no match to give a score of)."""


@dataclass
class _Tally:
    """One competitor's running totals."""

    points: int = 0
    deal_diff: int = 0
    played: int = 0
    byes: int = 0


def standings(t: Tournament) -> list[Row]:
    """Every competitor ever drawn (with zeros before round 1), best first (the module
    docstring)."""
    return _pairs_rows(t) if t.format is Format.PAIRS else _rotating_rows(t)


def cross(t: Tournament) -> Cross:
    """The cross table: rows in standings order; ``rotating`` has one column per round
    drawn, ``pairs`` one per pair (headed by its number plus one, the diagonal empty).

    A cell shows a finished match's score from the competitor's side ("12:7"), ``playing``
    with the table's number while its match runs, ``bye`` for a bye, and ``""`` where there
    is nothing. **Decision**: a no-show's cell (a person, or a pair neither of whom came) is
    ``loss`` with the text ``NO_SHOW_TEXT`` as soon as they are marked, while the table may
    still be playing. **Decision**: a ``pairs`` cell for two pairs who met more than once
    (rounds past one round robin) shows the latest outcome with every score in round order
    ("12:7, 3:12"), or only the table in play while their latest match runs.
    """
    rows = standings(t)
    if t.format is Format.PAIRS:
        columns = tuple(str(number + 1) for number in range(len(t.pairs)))
        cells = {row.competitor: _pair_cells(t, row.competitor) for row in rows}
    else:
        columns = tuple(str(drawn.number) for drawn in t.played)
        cells = {row.competitor: _person_cells(t, row.competitor) for row in rows}
    return Cross(columns=columns, rows=tuple((row, cells[row.competitor]) for row in rows))


def name_of(t: Tournament, user_id: int) -> str:
    """A person's name as registered, else their user id."""
    entrant = t.entrant(user_id)
    return entrant.name if entrant is not None else str(user_id)


def pair_name(t: Tournament, number: int) -> str:
    """A pair's two names, "A & B"."""
    a, b = t.pairs[number]
    return f"{name_of(t, a)} & {name_of(t, b)}"


def _outcome(result: TableResult, side: int) -> tuple[str, int]:
    """A side's outcome and match points."""
    if result.winner_side is None:
        return "draw", DRAW
    return ("win", WIN) if result.winner_side == side else ("loss", LOSS)


def _score(result: TableResult, side: int) -> str:
    """The match score from a side's point of view, theirs first."""
    return f"{result.score[side]}:{result.score[1 - side]}"


def _deal_diff(result: TableResult, side: int) -> int:
    """A side's card points minus the other side's."""
    return result.points[side] - result.points[1 - side]


def _seated(table: TableDraw) -> Iterator[tuple[int, int]]:
    """Each person drawn to a table with their side (cleared no-show seats included, side
    unknown: -1)."""
    found = set()
    for seat, user in enumerate(table.seats):
        if user is not None:
            found.add(user)
            yield user, TABLE.side_of(seat)
    for user in table.no_shows:
        if user not in found:
            yield user, -1


def _ranked(t: Tournament, rows: list[Row]) -> list[Row]:
    """``rows`` ordered best first with shared ranks (``rows`` carry rank 0)."""
    rotating = t.format is not Format.PAIRS

    def keys(row: Row) -> tuple[int, ...]:
        """The ranking keys, best first as the highest."""
        if rotating:
            return (row.points, row.deal_diff)
        return (row.points, row.buchholz or 0, row.deal_diff)

    ordered = sorted(rows, key=lambda row: (tuple(-k for k in keys(row)), row.name, row.competitor))
    ranked: list[Row] = []
    for place, row in enumerate(ordered, start=1):
        level = ranked and keys(ranked[-1]) == keys(row)
        rank = ranked[-1].rank if level else place
        ranked.append(dataclasses.replace(row, rank=rank))
    return ranked


def _row(competitor: int, name: str, tally: _Tally, buchholz: int | None) -> Row:
    """An unranked row (rank 0) from a competitor's totals."""
    return Row(
        rank=0,
        competitor=competitor,
        name=name,
        points=tally.points,
        deal_diff=tally.deal_diff,
        buchholz=buchholz,
        played=tally.played,
        byes=tally.byes,
    )


def _rotating_rows(t: Tournament) -> list[Row]:
    """The ``rotating`` standings."""
    tallies: dict[int, _Tally] = {entrant.user_id: _Tally() for entrant in t.entrants}
    for drawn in t.played:
        for user in drawn.byes:
            tally = tallies.setdefault(user, _Tally())
            tally.points += BYE_ROTATING
            tally.byes += 1
        for table in drawn.tables:
            for user, side in _seated(table):
                tally = tallies.setdefault(user, _Tally())
                if table.result is None:
                    continue
                tally.played += 1
                if user in table.no_shows:
                    tally.points += LOSS
                    continue
                tally.points += _outcome(table.result, side)[1]
                tally.deal_diff += _deal_diff(table.result, side)
    rows = [_row(user, name_of(t, user), tally, None) for user, tally in tallies.items()]
    return _ranked(t, rows)


def _pair_of(t: Tournament) -> dict[int, int]:
    """Each paired person's pair number."""
    return {person: number for number, two in enumerate(t.pairs) for person in two}


def _pair_sides(pair_of: dict[int, int], table: TableDraw) -> tuple[int | None, int | None]:
    """The pair numbers at a table's sides 0 and 1 (``None`` if nobody of it is known)."""
    sides: list[int | None] = [None, None]
    for user, side in _seated(table):
        if side >= 0 and user in pair_of:
            sides[side] = pair_of[user]
    for user, side in _seated(table):
        # A pair whose both seats were cleared: the side its partners' opponents leave.
        if side < 0 and user in pair_of and pair_of[user] not in sides and None in sides:
            sides[sides.index(None)] = pair_of[user]
    return sides[0], sides[1]


def _absent(t: Tournament, table: TableDraw, number: int) -> bool:
    """Neither of pair ``number``'s two came to the table."""
    return all(person in table.no_shows for person in t.pairs[number])


def _pairs_rows(t: Tournament) -> list[Row]:
    """The ``pairs`` standings (Buchholz over finished tables)."""
    tallies = [_Tally() for _ in t.pairs]
    opponents: list[list[int]] = [[] for _ in t.pairs]
    pair_of = _pair_of(t)
    for drawn in t.played:
        for bye in drawn.byes:
            tallies[bye].points += BYE_PAIRS
            tallies[bye].byes += 1
        for table in drawn.tables:
            sides = _pair_sides(pair_of, table)
            if table.result is None:
                continue
            for side, pair in enumerate(sides):
                if pair is None:
                    continue
                tally = tallies[pair]
                tally.played += 1
                other = sides[1 - side]
                if other is not None:
                    opponents[pair].append(other)
                if _absent(t, table, pair):
                    tally.points += LOSS
                    continue
                tally.points += _outcome(table.result, side)[1]
                tally.deal_diff += _deal_diff(table.result, side)
    rows = [
        _row(number, pair_name(t, number), tally, sum(tallies[o].points for o in opponents[number]))
        for number, tally in enumerate(tallies)
    ]
    return _ranked(t, rows)


def _person_cells(t: Tournament, user: int) -> tuple[Cell, ...]:
    """One person's cell per round drawn."""
    cells = []
    for drawn in t.played:
        cell = Cell("bye", "") if user in drawn.byes else Cell("", "")
        for table in drawn.tables:
            for person, side in _seated(table):
                if person != user:
                    continue
                if user in table.no_shows:
                    cell = Cell("loss", NO_SHOW_TEXT)
                elif table.result is None:
                    cell = Cell("playing", str(table.number))
                else:
                    cell = Cell(_outcome(table.result, side)[0], _score(table.result, side))
        cells.append(cell)
    return tuple(cells)


def _pair_cells(t: Tournament, number: int) -> tuple[Cell, ...]:
    """One pair's cell per pair: its meetings with that pair, in round order."""
    pair_of = _pair_of(t)
    meetings: dict[int, list[Cell]] = {}
    for drawn in t.played:
        for table in drawn.tables:
            sides = _pair_sides(pair_of, table)
            if number not in sides or None in sides:
                continue
            side = sides.index(number)
            other = sides[1 - side]
            assert other is not None
            if _absent(t, table, number):
                met = Cell("loss", NO_SHOW_TEXT)
            elif table.result is None:
                met = Cell("playing", str(table.number))
            else:
                met = Cell(_outcome(table.result, side)[0], _score(table.result, side))
            meetings.setdefault(other, []).append(met)
    cells = []
    for other in range(len(t.pairs)):
        met_list = meetings.get(other, [])
        if other == number or not met_list:
            cells.append(Cell("", ""))
        elif met_list[-1].outcome == "playing" or len(met_list) == 1:
            cells.append(met_list[-1])
        else:
            cells.append(Cell(met_list[-1].outcome, ", ".join(met.text for met in met_list)))
    return tuple(cells)
