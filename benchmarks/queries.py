"""How fast the boards, stats and history read with many stored matches (target ≤ 20 ms each).

Fills a fresh temporary database with ``--matches`` finished matches (10^5 by default) over
many group chats, people and variants, then times every read the /top, /stats and /history
commands make, through the public methods of ``storage.boards`` and ``storage.games``
(aiosqlite's thread hop included), and prints the median and p95 in milliseconds per query
as a table, then one JSON line.

    python benchmarks/queries.py [--matches N] [--real R] [--reps K] [--seed S]

The population: ``--chats`` groups (one in ten not public), each with a pool of regulars
drawn from ``--people`` people (a few people play in many groups); every match picks a variant
(hvalenyi most often), four seats (a seat is a computer one time in five), six deals or so
with a small trace. One match in ten is someone's /play in their private chat (scope
``private``). The cover game is played each for self (three or four sides) half the time.

How it is filled: the last ``--real`` matches (2,000 by default) go through the real path,
``create_game`` then ``save_game`` with deals and result, one transaction each (their write
time is printed too). The ones before are a bulk load, for speed: per batch of 1,000 one
transaction that inserts the finished ``games`` rows, then calls the very code ``save_game``
runs for deals and a result (``Games.add_deals`` and ``Games.add_result``: the match, its
players, ratings, counts and warnings), so every row is exactly what ``save_game`` writes.
Only the move log is not written (no read here touches it; it would add about a hundred rows
per match).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kozelbot.core.records import ChatSettings, DealRecord, MatchPlayer, MatchResult
from kozelbot.core.table import CORE_TALLIES, Player, Table, TableStatus
from kozelbot.families.registry import rules_of
from storage import Storage

VARIANTS = {"hvalenyi": 50, "kryuk": 15, "sixes": 10, "belka": 10, "cover": 15}
"""Variants and how often each is played."""
BATCH = 1000
START = 1_700_000_000.0


def _int(rng: random.Random, low: int, high: int) -> int:
    """``rng.randint`` for the many small draws of a match, several times faster."""
    return low + int(rng.random() * (high - low + 1))


class Clock:
    """A clock that moves half a minute per reading: finish times are distinct and ordered."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        self.now += 30.0
        return self.now


@dataclass
class Population:
    """Who plays where; filled from one seeded ``random.Random``."""

    rng: random.Random
    chats: list[int]
    pools: dict[int, list[int]]
    people: int
    private_chats: set[int] = field(default_factory=set)

    @classmethod
    def make(cls, rng: random.Random, chats: int, people: int) -> Population:
        chat_ids = [-1_000_000_000_000 - n for n in range(chats)]
        pools = {}
        for chat in chat_ids:
            size = rng.randint(6, 40)
            # a few people (the low ids) are in many groups: rng.paretovariate skews to them
            pools[chat] = sorted(
                {
                    min(people, int(rng.paretovariate(0.6)))
                    if rng.random() < 0.2
                    else rng.randint(1, people)
                    for _ in range(size)
                }
            )
        return cls(rng, chat_ids, pools, people)

    def match(self, game_id: int) -> tuple[Table, list[DealRecord], MatchResult]:
        """One finished match (its table, deals and result), as the service would save it."""
        rng = self.rng
        variant = rng.choices(list(VARIANTS), weights=list(VARIANTS.values()))[0]
        if rng.random() < 0.1:  # someone's /play against the computer
            person = _int(rng, 1, self.people)
            chat_id, uids = person, [person, None, None, None]
            self.private_chats.add(person)
        else:
            chat_id = rng.choice(self.chats)
            pool = self.pools[chat_id]
            picked = rng.sample(pool, min(4, len(pool)))
            uids = [uid if rng.random() < 0.8 else None for uid in picked]
            uids[0] = picked[0]  # somebody started it
        each_for_self = variant == "cover" and rng.random() < 0.5
        if each_for_self and rng.random() < 0.5:
            uids = uids[:3]
        sides = list(range(len(uids))) if each_for_self else [s % 2 for s in range(len(uids))]
        winner = rng.choice(sorted(set(sides)))
        level = rng.choice(["normal", "easy"])
        names = [f"P{uid}" if uid is not None else "Computer" for uid in uids]
        deals = _int(rng, 3, 10)
        side_count = len(set(sides))
        table = Table(
            game_id=game_id,
            chat_id=chat_id,
            variant=variant,
            options={"computer": level},
            creator_id=uids[0] or 0,
            seed=rng.getrandbits(32),
            seats=[
                *(Player(user_id=u, name=n) for u, n in zip(uids, names, strict=True)),
                *[None] * (4 - len(uids)),
            ],
            version=1,
            status=TableStatus.FINISHED,
        )
        records = [
            DealRecord(
                game_id=game_id,
                deal_no=n,
                outcome=rng.choice(["plain", "catch", "egg", "lyusya"]),
                points=tuple(_int(rng, 0, 120) for _ in range(side_count)),
                award=tuple(_int(rng, 0, 4) for _ in range(side_count)),
                multiplier=1,
                score=tuple(_int(rng, 0, 12) for _ in range(side_count)),
                trace={"trump": "H", "tricks": [[s, "AS", "KS"] for s in range(4)]},
            )
            for n in range(1, deals + 1)
        ]
        result = MatchResult(
            game_id=game_id,
            chat_id=chat_id,
            variant=variant,
            options=dict(table.options),
            winner_side=winner,
            score=tuple(12 if s == winner else _int(rng, 0, 11) for s in sorted(set(sides))),
            deals=deals,
            players=tuple(
                MatchPlayer(
                    seat=seat,
                    user_id=uid,
                    name=names[seat],
                    side=sides[seat],
                    won=sides[seat] == winner,
                    tally={
                        key: _int(rng, 0, 3)
                        for key in (*CORE_TALLIES, *rules_of(variant).tally_keys)
                    }
                    | {"deals": deals, "points": _int(rng, 0, 60 * deals)},
                    level=level if uid is None else None,
                )
                for seat, uid in enumerate(uids)
            ),
            scope="private" if chat_id > 0 else "group",
        )
        return table, records, result


async def bulk_fill(storage: Storage, population: Population, count: int) -> None:
    """Matches 1..count, written as ``save_game`` writes them (see the module docstring)."""
    games = storage.games
    for first in range(1, count + 1, BATCH):
        batch = [population.match(gid) for gid in range(first, min(first + BATCH, count + 1))]
        async with storage.database.write() as tx:
            now = storage.database.clock()
            await tx.executemany(
                "INSERT INTO games (game_id, chat_id, status, version, deadline, data,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)",
                [
                    (t.game_id, t.chat_id, t.status.value, t.version, t.to_json(), now, now)
                    for t, _, _ in batch
                ],
            )
            await games.add_deals(tx, [d for _, deals, _ in batch for d in deals], now)
            for _, _, result in batch:
                await games.add_result(tx, result, storage.database.clock())


async def real_fill(
    storage: Storage, population: Population, first: int, count: int
) -> list[float]:
    """Matches through ``create_game`` and ``save_game``; the save times in seconds."""
    times = []
    for game_id in range(first, first + count):
        table, deals, result = population.match(game_id)
        lobby = table.model_copy(update={"game_id": 0, "version": 0, "status": TableStatus.LOBBY})
        created = await storage.games.create_game(lobby)
        ended = created.model_copy(update={"version": 1, "status": TableStatus.FINISHED})
        deals = [d.model_copy(update={"game_id": created.game_id}) for d in deals]
        result = result.model_copy(update={"game_id": created.game_id})
        started = time.perf_counter()
        await storage.games.save_game(ended, deals=deals, result=result)
        times.append(time.perf_counter() - started)
    return times


COUNTED = (
    "matches",
    "match_players",
    "deals",
    "ratings",
    "player_totals",
    "chat_players",
    "global_players",
    "partners",
)


async def count_rows(storage: Storage, table: str) -> int:
    row = await storage.database.fetchone(f"SELECT COUNT(*) AS n FROM {table}")
    return 0 if row is None else int(row["n"])


def figures(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return {"median_ms": round(statistics.median(ms), 3), "p95_ms": round(p95, 3)}


async def timed(call: Callable[[], Awaitable[Any]], reps: int) -> list[float]:
    samples = []
    for _ in range(reps):
        started = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - started)
    return samples


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    population = Population.make(rng, args.chats, args.people)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "queries.db"
        async with await Storage.open(path, clock=Clock()) as storage:
            for chat in population.chats[::10]:  # one group in ten is not on the global board
                await storage.people.set_chat_settings(
                    chat, ChatSettings(variant="hvalenyi", options={}, public=False)
                )
            started = time.perf_counter()
            real = min(args.real, args.matches)
            await bulk_fill(storage, population, args.matches - real)
            bulk_seconds = time.perf_counter() - started
            writes = await real_fill(storage, population, args.matches - real + 1, real)
            fill_seconds = time.perf_counter() - started

            pick = random.Random(args.seed + 1)
            busiest = max(population.chats, key=lambda c: len(population.pools[c]))
            variants = list(VARIANTS)
            people = list(range(1, min(population.people, 2000) + 1))  # the busiest people
            game_ids = range(1, args.matches + 1)
            reads: dict[str, Callable[[], Awaitable[Any]]] = {
                "board chat": lambda: storage.boards.board(
                    pick.choice(variants), chat_id=pick.choice([busiest, *population.chats])
                ),
                "board global": lambda: storage.boards.board(pick.choice(variants), chat_id=None),
                "player_stats": lambda: storage.boards.player_stats(pick.choice(people)),
                "history": lambda: storage.boards.history(pick.choice(population.chats)),
                "match_summary": lambda: storage.boards.match_summary(pick.choice(game_ids)),
                "deals": lambda: storage.games.deals(pick.choice(game_ids)),
                "rating_changes": lambda: storage.boards.rating_changes(pick.choice(game_ids)),
            }
            results = {name: figures(await timed(call, args.reps)) for name, call in reads.items()}
            results["save_game (result)"] = figures(writes) if writes else {}
            sizes = {table: await count_rows(storage, table) for table in COUNTED}
        size_mb = round(path.stat().st_size / 2**20, 1)
    return {
        "matches": args.matches,
        "real_path_matches": real,
        "fill_seconds": round(fill_seconds, 1),
        "bulk_seconds": round(bulk_seconds, 1),
        "db_mb": size_mb,
        "rows": sizes,
        "reads": results,
    }


def print_table(report: dict[str, Any], target_ms: float) -> None:
    print(
        f"{report['matches']} matches ({report['real_path_matches']} through save_game),"
        f" filled in {report['fill_seconds']} s, {report['db_mb']} MB"
    )
    print(f"{'query':<20} {'median ms':>10} {'p95 ms':>10}  ok")
    for name, figure in report["reads"].items():
        if not figure:
            continue
        ok = "yes" if figure["p95_ms"] <= target_ms else "NO"
        print(f"{name:<20} {figure['median_ms']:>10.3f} {figure['p95_ms']:>10.3f}  {ok}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--real", type=int, default=2000, help="matches through save_game")
    parser.add_argument("--chats", type=int, default=3000)
    parser.add_argument("--people", type=int, default=30_000)
    parser.add_argument("--reps", type=int, default=300, help="calls timed per query")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target-ms", type=float, default=20.0)
    args = parser.parse_args()
    report = asyncio.run(run(args))
    print_table(report, args.target_ms)
    print(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    main()
