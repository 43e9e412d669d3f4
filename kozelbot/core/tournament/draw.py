"""The ``rotating`` draw: each round seats the people at new tables of four, so that partners
and opponents repeat as little as possible.

A table's partners are seats 0+2 and 1+3 (``kozelbot.core.seats``); the two sides are opponents.
Who partnered or opposed whom is read from the earlier rounds' tables (computer seats,
``None``, are ignored), so each round is drawn from the stored rounds alone.

The cost of a draw sums, over every table, ``PARTNER`` for each earlier time two partners at
it were partners before, and ``OPPONENT`` for each earlier time two opponents at it were
opponents before (a pair who opposed twice costs ``2 * OPPONENT`` when they oppose again).
**Decision** (the weights): ``PARTNER`` is 100 times ``OPPONENT``: one repeated partnership
costs more than every repeated opposition a table can reasonably hold (four opposing pairs,
each met at most a handful of times), so the draw gives up any number of repeated opponents
to avoid one repeated partner. Sitting with a computer costs nothing.

The search is seeded and bounded: ``STARTS`` random seatings, each improved by swapping two
people (between tables or between sides of one table) while a swap lowers the cost; the
cheapest seating found wins, and the search stops early at a cost of zero. Every random
choice comes from the ``random.Random`` passed in, so a seed reproduces the draw.

Entrants not a multiple of four: with ``computer_fill`` computers take the missing seats;
without it the spare people sit the round out with a bye.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from kozelbot.core.seats import Seats
from kozelbot.core.tournament.model import Round, TableDraw

PARTNER = 100
"""The cost of seating two people as partners again, per earlier time they partnered."""
OPPONENT = 1
"""The cost of seating two people as opponents again, per earlier time they opposed."""
STARTS = 16
"""Random seatings the search starts from (each improved to a local minimum)."""
MAX_PASSES = 50
"""Improvement passes over every swap at most per start (a bound the search never needs in
practice: each pass that continues has lowered the cost)."""

TABLE = Seats(4, pairs=True)
"""A table of four in pairs: partners opposite, 0+2 against 1+3."""
_PARTNERS = tuple(TABLE.members(side) for side in range(TABLE.sides))
_OPPONENTS = tuple((a, b) for a in TABLE.members(0) for b in TABLE.members(1))
_COMPUTER_SEATS = (3, 2, 1)
"""Where a table's computers sit, first to last (see ``_layout``)."""


@dataclass
class Meetings:
    """Who met whom in earlier rounds: counts per unordered pair of user ids (lower id
    first), and byes per person."""

    partners: Counter[tuple[int, int]] = field(default_factory=Counter)
    opponents: Counter[tuple[int, int]] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)


def _key(a: int, b: int) -> tuple[int, int]:
    """An unordered pair of user ids as a counter's key."""
    return (a, b) if a < b else (b, a)


def meetings(earlier: Sequence[Round]) -> Meetings:
    """Count the partnerships, oppositions and byes of ``earlier`` rounds (computer seats
    ignored; a table counts as drawn, whether or not its match has finished)."""
    met = Meetings()
    for drawn in earlier:
        met.byes.update(drawn.byes)
        for table in drawn.tables:
            seats = table.seats
            for a, b in _PARTNERS:
                if (x := seats[a]) is not None and (y := seats[b]) is not None:
                    met.partners[_key(x, y)] += 1
            for a, b in _OPPONENTS:
                if (x := seats[a]) is not None and (y := seats[b]) is not None:
                    met.opponents[_key(x, y)] += 1
    return met


def draw_cost(tables: Sequence[TableDraw], met: Meetings) -> int:
    """The cost of seating ``tables`` after the earlier rounds counted in ``met`` (the
    module docstring's definition)."""
    total = 0
    for table in tables:
        seats = table.seats
        for a, b in _PARTNERS:
            if (x := seats[a]) is not None and (y := seats[b]) is not None:
                total += PARTNER * met.partners[_key(x, y)]
        for a, b in _OPPONENTS:
            if (x := seats[a]) is not None and (y := seats[b]) is not None:
                total += OPPONENT * met.opponents[_key(x, y)]
    return total


def draw_rotating(
    people: Sequence[int], earlier: Sequence[Round], rng: random.Random, *, computer_fill: bool
) -> Round:
    """Draw round ``len(earlier) + 1`` for ``people`` (user ids), seating them at tables of
    four at the lowest cost the seeded search finds (the module docstring).

    With ``computer_fill`` there are ``ceil(n / 4)`` tables and computers (``None``) take the
    missing seats; without it ``n % 4`` people sit out with a bye (``Round.byes``), chosen
    among those with the fewest byes so far, ties broken by ``rng`` — so nobody has a second
    bye before everyone has had one. ``ValueError`` for a repeated user id, for fewer than
    four people without ``computer_fill``, or fewer than two with it.
    """
    if len(set(people)) != len(people):
        raise ValueError("a person appears twice in the draw")
    if computer_fill and len(people) < 2:
        raise ValueError("a table with computers needs at least two people")
    if not computer_fill and len(people) < 4:
        raise ValueError("a table needs four people")
    met = meetings(earlier)
    # Sorted first, so the draw does not depend on the order the caller lists people in.
    ordered = sorted(people)
    byes: list[int] = []
    if not computer_fill and (spare := len(ordered) % 4):
        rng.shuffle(ordered)
        ordered.sort(key=lambda user: met.byes[user])  # stable: the shuffle breaks ties
        byes, ordered = sorted(ordered[:spare]), sorted(ordered[spare:])
    layout = _layout(len(ordered))
    seats = _search(ordered, layout, met, rng)
    tables = [TableDraw(number=i + 1, seats=seats[4 * i : 4 * i + 4]) for i in range(len(layout))]
    return Round(number=len(earlier) + 1, tables=tables, byes=byes)


def _layout(people: int) -> list[tuple[bool, bool, bool, bool]]:
    """Which seats of each table hold a person (``True``) rather than a computer.

    **Decision** (the issue leaves the spread open): ``ceil(people / 4)`` tables; the
    computers are spread as evenly as they go — no table has two before every table has one
    — and sit at the last tables. At a table the people take the first seats and computers
    the last (seat 3, then 2, then 1): with one computer its partner is a person; with two,
    the two people sit on opposite sides, so their match is decided between them rather than
    by the two of them against two computers.
    """
    tables = -(-people // 4)
    computers = 4 * tables - people
    layout = []
    for i in range(tables):
        here = computers // tables + (1 if i >= tables - computers % tables else 0)
        empty = set(_COMPUTER_SEATS[:here])
        layout.append((0 not in empty, 1 not in empty, 2 not in empty, 3 not in empty))
    return layout


def _search(
    people: list[int],
    layout: list[tuple[bool, bool, bool, bool]],
    met: Meetings,
    rng: random.Random,
) -> list[int | None]:
    """The cheapest seating the bounded search finds: ``people`` placed in the person seats
    of ``layout``, flattened table by table (``None`` for a computer)."""
    n = len(people)
    computer = n  # an index whose rows cost nothing
    partner = [[0] * (n + 1) for _ in range(n + 1)]
    opponent = [[0] * (n + 1) for _ in range(n + 1)]
    for i, x in enumerate(people):
        for j, y in enumerate(people):
            if i != j:
                partner[i][j] = PARTNER * met.partners[_key(x, y)]
                opponent[i][j] = OPPONENT * met.opponents[_key(x, y)]

    def table_cost(s: list[int]) -> int:
        """One table's cost, its seats given as indices into ``people``."""
        a, b, c, d = s
        return (
            partner[a][c]
            + partner[b][d]
            + opponent[a][b]
            + opponent[a][d]
            + opponent[c][b]
            + opponent[c][d]
        )

    slots = [(t, s) for t, seats in enumerate(layout) for s in range(4) if seats[s]]
    # Two people on the same side of one table change nothing when they swap.
    swaps = [
        (slots[i], slots[j])
        for i in range(len(slots))
        for j in range(i + 1, len(slots))
        if slots[i][0] != slots[j][0] or TABLE.side_of(slots[i][1]) != TABLE.side_of(slots[j][1])
    ]
    best: list[list[int]] = []
    best_cost = -1
    order = list(range(n))
    for _ in range(STARTS):
        rng.shuffle(order)
        tables = [[computer] * 4 for _ in layout]
        for (t, s), index in zip(slots, order, strict=True):
            tables[t][s] = index
        costs = [table_cost(seats) for seats in tables]
        for _ in range(MAX_PASSES):
            improved = False
            for (t, s), (u, v) in swaps:
                before = costs[t] if t == u else costs[t] + costs[u]
                tables[t][s], tables[u][v] = tables[u][v], tables[t][s]
                new_t = table_cost(tables[t])
                new_u = new_t if t == u else table_cost(tables[u])
                after = new_t if t == u else new_t + new_u
                if after < before:
                    costs[t], costs[u] = new_t, new_u
                    improved = True
                else:
                    tables[t][s], tables[u][v] = tables[u][v], tables[t][s]
            if not improved:
                break
        total = sum(costs)
        if best_cost < 0 or total < best_cost:
            best, best_cost = [list(seats) for seats in tables], total
        if best_cost == 0:
            break
    return [None if index == computer else people[index] for seats in best for index in seats]
