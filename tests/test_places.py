"""Issue #32: places and their leases (``storage.places``), on both engines.

A place is held by one worker at a time: a claim succeeds only on a free place or on one
whose lease ran out; a worker renewing finds which places it still holds; the places that
need an owner are those with updates waiting, a live game or tournament, or posts owed.
"""

from __future__ import annotations

import asyncio

from kozelbot.core.table import place_name, place_parts
from storage import Storage
from storage.places import Places
from tests import postgres
from tests.test_storage import new_table


async def test_a_place_is_held_by_one_worker_until_its_lease_runs_out(storage: Storage) -> None:
    places = storage.places
    assert await places.claim("a", "-5", now=100.0, until=105.0)
    assert not await places.claim("b", "-5", now=104.9, until=109.9)  # still a's
    assert await places.renew("a", until=108.0) == {"-5"}
    assert not await places.claim("b", "-5", now=107.0, until=112.0)  # renewed
    assert await places.claim("b", "-5", now=108.5, until=113.5)  # ran out: b takes it
    assert await places.renew("a", until=110.0) == set()  # a learns it lost the place
    assert await places.renew("b", until=114.0) == {"-5"}


async def test_of_two_workers_claiming_one_place_at_once_one_wins(database: str) -> None:
    """Two processes' connections race for the same free places: each place goes to one."""
    first, second = await Storage.open(database), await Storage.open(database)
    try:
        names = [f"-{n}" for n in range(1, 21)]

        async def claim_all(places: Places, worker: str) -> list[bool]:
            return [await places.claim(worker, name, 10.0, 15.0) for name in names]

        a, b = await asyncio.gather(claim_all(first.places, "a"), claim_all(second.places, "b"))
        assert all(x != y for x, y in zip(a, b, strict=True))
        held = await first.places.renew("a", 15.0) | await second.places.renew("b", 15.0)
        assert held == set(names)
    finally:
        await first.close()
        await second.close()


async def test_the_places_wanting_an_owner(storage: Storage) -> None:
    places = storage.places
    lobby = new_table(-100)
    await storage.games.create_game(lobby)
    topic = new_table(-200, thread_id=7)
    await storage.games.create_game(topic)
    await places.keep([(1, "{}", "42"), (2, "{}", "-300")])
    assert await places.wanted(now=0.0) == ({"-100", "-200/7", "42", "-300"}, 0)
    await places.claim("a", "-300", now=0.0, until=10.0)
    assert await places.wanted(now=5.0) == ({"-100", "-200/7", "42"}, 1)  # held
    assert await places.wanted(now=11.0) == ({"-100", "-200/7", "42", "-300"}, 0)  # ran out
    assert await places.busy(["-300", "-999"]) == {"-300"}


async def test_an_update_kept_twice_stays_once_and_is_read_by_place(storage: Storage) -> None:
    places = storage.places
    await places.keep([(7, '{"a":1}', "-1"), (8, '{"b":2}', "-2")])
    await places.keep([(7, '{"a":"again"}', "-1"), (9, '{"c":3}', "-1")])
    assert await places.updates_at("-1") == [(7, '{"a":1}'), (9, '{"c":3}')]
    assert await places.updates_after(7) == [(8, '{"b":2}', "-2"), (9, '{"c":3}', "-1")]
    assert await places.last_update() == 9
    await storage.inbox.done([7])
    assert await places.updates_at("-1") == [(9, '{"c":3}')]


async def test_workers_beat_and_the_dead_are_not_counted(storage: Storage) -> None:
    places = storage.places
    assert await places.beat("a", now=100.0, dead_after=5.0) == 1
    assert await places.beat("b", now=101.0, dead_after=5.0) == 2
    assert await places.beat("b", now=107.0, dead_after=5.0) == 1  # a stopped beating
    await places.claim("b", "-1", now=107.0, until=112.0)
    await places.leave("b")
    assert await places.renew("b", until=120.0) == set()
    assert await places.claim("c", "-1", now=108.0, until=113.0)  # at once, not at 112


async def test_message_calls_are_shared_and_forgotten_past_the_horizon(storage: Storage) -> None:
    places = storage.places
    now = storage.database.clock()
    await places.record_calls([(now - 500, -1), (now - 2, -1), (now - 1, 5)], horizon=130)
    assert await places.calls_to([-1], since=now - 60) == [(now - 2, -1)]
    assert await places.calls_to([-1, 5], since=now - 1000) == [(now - 2, -1), (now - 1, 5)]
    assert await places.calls_to([2**70], since=0) == []  # a forged id finds nothing


async def test_a_game_and_a_seat_have_the_place_of_their_table(storage: Storage) -> None:
    created = await storage.games.create_game(new_table(-100, thread_id=3))
    assert created.game_id is not None
    assert await storage.places.game_place(created.game_id) == "-100/3"
    assert await storage.places.seat_place(1) == "-100/3"  # Anna (user 1) sits there
    assert await storage.places.seat_place(5) is None
    assert await storage.places.game_place(10**6) is None
    assert await storage.places.game_place(2**70) is None


def test_place_names_read_back() -> None:
    assert place_name(-100) == "-100"
    assert place_name(-100, 0) == "-100"  # stored as 0: no topic
    assert place_name(-100, 12) == "-100/12"
    assert place_parts("-100/12") == (-100, 12)
    assert place_parts("42") == (42, None)


async def test_processes_starting_at_once_on_a_new_postgresql_database_all_open_it(
    pg_cluster: postgres.Cluster,
) -> None:
    """An intake and its workers started together on a new database: each migrates or waits
    for the one migrating (CREATE TABLE IF NOT EXISTS alone is not safe against itself)."""
    url = pg_cluster.new_database()
    opened = await asyncio.gather(*(Storage.open(url) for _ in range(6)), return_exceptions=True)
    try:
        assert [o for o in opened if isinstance(o, BaseException)] == []
    finally:
        for storage in opened:
            if isinstance(storage, Storage):
                await storage.close()
