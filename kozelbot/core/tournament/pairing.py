"""The ``pairs`` pairing: which fixed pair meets which in a round — a round robin when the
rounds cover everyone, a Swiss system otherwise.

A pair's number is its index in ``Tournament.pairs``. At a table the first pair's two people
sit on seats 0 and 2, the second's on 1 and 3 (``kozelbot.core.seats``). Who met whom is read
back from the earlier rounds' tables, and byes from ``Round.byes`` (pair numbers), so each
round is computed from the stored rounds alone.

Round robin (``is_round_robin``): the circle method. **Decision**: over pair numbers in
order — the pairs were numbered in a random order when the tournament started, so the
schedule needs no randomness of its own, and round ``k`` is the same whenever it is computed
(it reads only how many rounds came before). With an odd number of pairs a dummy joins and
its opponent has the bye. Rounds beyond one cycle start the cycle again.

Swiss (otherwise): pairs are ranked by match points, then the tie-break, then a seeded random
order (round 1 is wholly random); the highest-ranked pair left meets the highest-ranked pair
left it has not met, backtracking when that leaves the rest unpairable, so nobody meets
twice. Seats carry no advantage here, so there are no colours: the higher-ranked pair takes
seats 0+2, and tables are numbered top down. With an odd number of pairs the bye goes to the
lowest-ranked pair that has not had one.

**Decision** (the issue expects a rematch-free Swiss always to exist; it need not): six pairs
whose first three rounds form two groups of three (each pair having met the other group's
three) have nobody left to meet in round four. So a Swiss round is only accepted when the
rounds still to come can be paired too, without a rematch and with byes still going round (a
look-ahead). It needs no search while every pair has met at most ``n // 2 - r`` others with
``r`` rounds to go (``n`` pairs): then the pairs not yet met always contain a perfect
matching (Dirac's theorem on a Hamiltonian cycle), one pair set aside for the bye when ``n``
is odd. Beyond that bound the look-ahead searches, within ``LOOKAHEAD_NODES`` steps; past
that budget it trusts the round. If byes cannot go round without a rematch, a pair may have
a second bye (the fewest byes first). ``PairingError`` when no rematch-free round exists at
all (rounds paired here avoid that, unless an earlier look-ahead ran out of steps) or the
search runs out of steps.

Library: caissify-pairings 0.5.0 (looked at) is chess-specific: its engines assign white and
black from colour histories and float histories and sort by rating; its ``casual`` engine
pairs greedily within score groups, without backtracking, and hands out extra byes to
whoever it cannot pair; and it would add ``networkx``. A colour-free 2-vs-2 Swiss with a
no-rematch guarantee is a small search of its own, so it is written here.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from kozelbot.core.seats import Seats
from kozelbot.core.tournament.model import Round, TableDraw

TABLE = Seats(4, pairs=True)
"""A table of four in pairs: a pair sits opposite itself, 0+2 against 1+3."""
PAIRING_NODES = 100_000
"""Steps the search for this round's Swiss pairing may take before it gives up."""
LOOKAHEAD_NODES = 20_000
"""Steps the look-ahead over later rounds may take per call before it trusts the round."""


class PairingError(ValueError):
    """No rematch-free round was found for the pairs."""


def is_round_robin(pairs: int, rounds: int) -> bool:
    """The rounds cover a round robin of ``pairs`` pairs: ``pairs - 1`` rounds for an even
    number, ``pairs`` for an odd one (each pair has a bye)."""
    return rounds >= (pairs - 1 if pairs % 2 == 0 else pairs)


def round_robin(pairs: int, index: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``index`` (from 0) of the circle schedule for ``pairs`` pairs: the meetings in
    table order, each (seats 0+2, seats 1+3), and the pair with the bye (odd numbers).

    Pair 0 stays put while the others turn one place per round; pair 0's side alternates
    from round to round, so no pair keeps seats 0+2 throughout.
    """
    size = pairs + pairs % 2
    dummy = pairs if pairs % 2 else None
    others = list(range(1, size))
    turn = index % (size - 1)
    circle = [0, *others[turn:], *others[:turn]]
    meetings = [(circle[i], circle[size - 1 - i]) for i in range(size // 2)]
    if turn % 2:
        meetings[0] = (meetings[0][1], meetings[0][0])
    bye = None
    if dummy is not None:
        bye = next(a if b == dummy else b for a, b in meetings if dummy in (a, b))
    return [(a, b) for a, b in meetings if dummy not in (a, b)], bye


def met_before(
    pairs: Sequence[tuple[int, int]], earlier: Sequence[Round]
) -> tuple[list[set[int]], Counter[int]]:
    """Who each pair met in ``earlier`` rounds (by pair number, from the people seated at
    each table), and the byes per pair."""
    pair_of = {person: number for number, two in enumerate(pairs) for person in two}
    met: list[set[int]] = [set() for _ in pairs]
    byes: Counter[int] = Counter()
    for drawn in earlier:
        byes.update(drawn.byes)
        for table in drawn.tables:
            sides = [
                {pair_of[u] for seat in TABLE.members(side) if (u := table.seats[seat]) in pair_of}
                for side in range(TABLE.sides)
            ]
            for a in sides[0]:
                for b in sides[1]:
                    if a != b:
                        met[a].add(b)
                        met[b].add(a)
    return met, byes


def pair_round(
    pairs: Sequence[tuple[int, int]],
    earlier: Sequence[Round],
    points: Mapping[int, int],
    tiebreak: Mapping[int, int],
    rounds: int,
    rng: random.Random,
) -> Round:
    """Pair round ``len(earlier) + 1`` of ``rounds`` for ``pairs`` (the module docstring):
    the round robin's round when the rounds cover one, else a Swiss round ranked by
    ``points`` and ``tiebreak`` (per pair number; missing: 0). ``ValueError`` for fewer than
    two pairs, ``PairingError`` when no rematch-free Swiss round exists."""
    count = len(pairs)
    if count < 2:
        raise ValueError("a round needs at least two pairs")
    number = len(earlier) + 1
    if is_round_robin(count, rounds):
        meetings, bye = round_robin(count, number - 1)
    else:
        meetings, bye = _swiss(count, earlier, pairs, points, tiebreak, rounds - number, rng)
    tables = [
        TableDraw(number=i + 1, seats=[pairs[a][0], pairs[b][0], pairs[a][1], pairs[b][1]])
        for i, (a, b) in enumerate(meetings)
    ]
    return Round(number=number, tables=tables, byes=[] if bye is None else [bye])


def _swiss(
    count: int,
    earlier: Sequence[Round],
    pairs: Sequence[tuple[int, int]],
    points: Mapping[int, int],
    tiebreak: Mapping[int, int],
    later: int,
    rng: random.Random,
) -> tuple[list[tuple[int, int]], int | None]:
    """A Swiss round's meetings (higher-ranked pair first, tables top down) and bye, with
    ``later`` rounds still to come after it."""
    met_sets, byes = met_before(pairs, earlier)
    met = [sum(1 << other for other in others) for others in met_sets]
    ranked = list(range(count))
    rng.shuffle(ranked)
    ranked.sort(key=lambda p: (-points.get(p, 0), -tiebreak.get(p, 0)))  # stable: keeps ties
    # Fair byes first (nobody's second bye before everyone's first), then any bye at all.
    for fair in (True, False) if count % 2 else (True,):
        lookahead = _Lookahead(count, later, fair)
        budget = _Budget(PAIRING_NODES)
        candidates: list[int | None] = [None]
        if count % 2:
            candidates = [*_bye_candidates(list(reversed(ranked)), byes, fair)]
        for bye in candidates:
            after_byes = [byes[p] + (p == bye) for p in range(count)]
            players = [p for p in ranked if p != bye]
            for meetings in _pairings(players, met, budget):
                if lookahead.feasible(_add(met, meetings), after_byes):
                    return meetings, bye
        if budget.spent:
            raise PairingError(f"the search for round {len(earlier) + 1}'s pairing ran out")
    raise PairingError(f"no pairing without a rematch for round {len(earlier) + 1}")


def _bye_candidates(order: list[int], byes: Mapping[int, int], fair: bool) -> list[int]:
    """Who may have the bye, in ``order`` (lowest rank first) among those with the fewest
    byes: only those (``fair``) or everyone, the fewest byes first."""
    low = min(byes.get(p, 0) for p in order)
    chosen = [p for p in order if not fair or byes.get(p, 0) == low]
    return sorted(chosen, key=lambda p: byes.get(p, 0))


class _Budget:
    """A count of search steps left, shared by one search."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    @property
    def spent(self) -> bool:
        """No steps are left."""
        return self.left <= 0

    def spend(self) -> bool:
        """Take one step; ``False`` when none was left."""
        self.left -= 1
        return self.left >= 0


def _pairings(
    players: list[int], met: list[int], budget: _Budget
) -> Iterator[list[tuple[int, int]]]:
    """Every rematch-free pairing of ``players`` (an even number; ``met`` holds each pair's
    opponents as a bitmask): the first player meets the earliest possible one first, then
    the next player left, and so on. Stops early when ``budget`` is spent."""
    if not players:
        yield []
        return
    top, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        if met[top] >> other & 1:
            continue
        if not budget.spend():
            return
        remaining = rest[:k] + rest[k + 1 :]
        if _each_has_someone(remaining, met):
            for tail in _pairings(remaining, met, budget):
                yield [(top, other), *tail]


def _each_has_someone(players: list[int], met: list[int]) -> bool:
    """Every one of ``players`` has someone among them not yet met (a cheap early check)."""
    mask = sum(1 << p for p in players)
    return all(mask & ~met[p] & ~(1 << p) for p in players)


def _add(met: list[int], meetings: Sequence[tuple[int, int]]) -> list[int]:
    """``met`` (a bitmask of opponents per pair) with ``meetings`` added."""
    after = list(met)
    for a, b in meetings:
        after[a] |= 1 << b
        after[b] |= 1 << a
    return after


class _Lookahead:
    """Whether the rounds still to come can all be paired without a rematch (the module
    docstring), within ``LOOKAHEAD_NODES`` steps shared by every question it is asked, and
    (``fair``) with every bye going to a pair with the fewest byes."""

    def __init__(self, count: int, later: int, fair: bool) -> None:
        self.count = count
        self.fair = fair
        self.later = max(0, later)
        self.budget = _Budget(LOOKAHEAD_NODES)
        self.known: dict[tuple[tuple[int, ...], tuple[int, ...], int], bool] = {}

    def feasible(self, met: list[int], byes: list[int]) -> bool:
        """Every later round can follow ``met`` (opponents as bitmasks) and ``byes`` (per
        pair number)."""
        return self._rounds(met, byes, self.later)

    def _rounds(self, met: list[int], byes: list[int], left: int) -> bool:
        """``left`` more rounds can be paired without a rematch (``True`` once the budget
        is spent: the search trusts what it cannot check)."""
        if left == 0 or max(m.bit_count() for m in met) + left <= self.count // 2:
            return True
        key = (tuple(met), tuple(byes), left)
        if key not in self.known:
            self.known[key] = self._search(met, byes, left)
        return self.known[key]

    def _search(self, met: list[int], byes: list[int], left: int) -> bool:
        """Try every next round (a bye, then a rematch-free pairing) for one that lets the
        rest follow."""
        everyone = list(range(self.count))
        candidates: list[int | None] = [None]
        if self.count % 2:
            candidates = [*_bye_candidates(everyone, dict(enumerate(byes)), self.fair)]
        for bye in candidates:
            after_byes = [count + (p == bye) for p, count in enumerate(byes)]
            players = [p for p in everyone if p != bye]
            for meetings in _pairings(players, met, self.budget):
                if self._rounds(_add(met, meetings), after_byes, left - 1):
                    return True
            if self.budget.spent:
                return True
        return False
