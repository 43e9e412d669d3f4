"""Issue #29 items 4 and 9, the Mini App's limits, end to end: the real bot against the
emulator with the Mini App on. A person's streams on one table are capped (a new one closes
their oldest) and so is a table's (a new one closes its oldest onlooker's); one change builds
each distinct page once, shared by every stream that shows it; the read routes are
rate-limited per person; ``initData`` in a stream's address is refused (proxies log
addresses), and a stream whose ``initData`` grows too old is closed."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest

import handlers.webapp.pages
from botapi_emulator import BotApiEmulator
from botapi_emulator.models import User
from tests.e2e import BotRunner, Players, bot_settings, seat_four
from tests.test_e2e_webapp import _game_id, free_port, init_for, post_move, to_move


async def start_bot(
    emu: BotApiEmulator, db_path: Path, **overrides: object
) -> tuple[BotRunner, str]:
    port = free_port()
    runner = BotRunner(
        bot_settings(
            emu, db_path, webapp_url="https://kozel.example/app/", webapp_port=port, **overrides
        )
    )
    await runner.start()
    return runner, f"http://127.0.0.1:{port}/webapp/api"


@pytest.fixture
async def limited(emu: BotApiEmulator, db_path: Path) -> AsyncIterator[tuple[BotRunner, str]]:
    runner, base = await start_bot(
        emu, db_path, webapp_streams_per_game=4, webapp_read_burst=50, webapp_read_rate=50.0
    )
    try:
        yield runner, base
    finally:
        await runner.stop()


class Stream:
    """One open stream, ``initData`` in its header: the payloads it brought, how it ended."""

    def __init__(
        self, session: aiohttp.ClientSession, base: str, user: User, game_id: int, age: float = 5.0
    ) -> None:
        self.session, self.base, self.user, self.game_id = session, base, user, game_id
        self.age = age
        self.payloads: list[dict[str, Any]] = []
        self.closed: dict[str, Any] | None = None
        self.ended = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        headers = {"X-Telegram-Init-Data": init_for(self.user, age=self.age)}
        response = await self.session.get(
            f"{self.base}/stream?game={self.game_id}", headers=headers, timeout=None
        )
        assert response.status == 200, await response.text()
        self.task = asyncio.create_task(self._read(response))
        await wait_until(lambda: bool(self.payloads))

    async def _read(self, response: aiohttp.ClientResponse) -> None:
        event = None
        try:
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "table":
                    self.payloads.append(json.loads(line[6:]))
                elif line.startswith("data: ") and event == "closed":
                    self.closed = json.loads(line[6:])
        finally:
            response.close()
            self.ended.set()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


async def wait_until(test: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def onlookers(emu: BotApiEmulator, players: Players, count: int) -> list[User]:
    """People of the group who are not seated (they may watch)."""
    people = [emu.add_user(first_name=f"Зритель {n}", language_code="ru") for n in range(count)]
    for person in people:
        emu.add_member(players.group, person)
    return people


async def test_a_person_s_fourth_stream_closes_their_oldest(
    emu: BotApiEmulator, limited: tuple[BotRunner, str]
) -> None:
    runner, base = limited
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    mover = players.users[0]
    async with aiohttp.ClientSession() as session:
        streams = [Stream(session, base, mover, game_id) for _ in range(4)]
        for stream in streams[:3]:
            await stream.open()
        assert not any(s.ended.is_set() for s in streams[:3])
        await streams[3].open()
        await asyncio.wait_for(streams[0].ended.wait(), 5)
        assert streams[0].closed is not None and streams[0].closed["reason"] == "replaced"
        await asyncio.sleep(0.3)
        assert not any(s.ended.is_set() for s in streams[1:])
        for stream in streams:
            await stream.close()


async def test_a_full_table_s_new_stream_closes_its_oldest_onlooker_s(
    emu: BotApiEmulator, limited: tuple[BotRunner, str]
) -> None:
    runner, base = limited
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    seated = Stream(session := aiohttp.ClientSession(), base, players.users[0], game_id)
    async with session:
        await seated.open()
        watchers = [Stream(session, base, u, game_id) for u in onlookers(emu, players, 4)]
        for watcher in watchers[:3]:  # the table's four streams: one seated, three watching
            await watcher.open()
        await watchers[3].open()
        await asyncio.wait_for(watchers[0].ended.wait(), 5)
        assert watchers[0].closed is not None and watchers[0].closed["reason"] == "full"
        await asyncio.sleep(0.3)
        assert not seated.ended.is_set() and not any(w.ended.is_set() for w in watchers[1:])
        for stream in (seated, *watchers):
            await stream.close()


async def test_one_change_builds_each_distinct_page_once(
    emu: BotApiEmulator, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner, base = await start_bot(emu, db_path)
    try:
        players = await seat_four(emu)
        game_id = _game_id(runner, players.group.id)
        mover, _ = await to_move(players)
        builds: list[int | None] = []
        real = handlers.webapp.pages.page

        def counted(table: Any, state: Any, seat: int | None, *more: Any) -> dict[str, Any]:
            builds.append(seat)
            return real(table, state, seat, *more)

        monkeypatch.setattr(handlers.webapp.pages, "page", counted)
        async with aiohttp.ClientSession() as session:
            mine = Stream(session, base, mover, game_id)
            await mine.open()
            watchers = [Stream(session, base, u, game_id) for u in onlookers(emu, players, 6)]
            for watcher in watchers:
                await watcher.open()
            first = mine.payloads[-1]
            builds.clear()
            status, _ = await post_move(
                session, base, init_for(mover), game_id, first["deal"], first["legal"][0]
            )
            assert status == 200
            for stream in (mine, *watchers):
                await wait_until(lambda s=stream: len(s.payloads) > 1)
            # Two distinct pages after the change (the mover's seat, an onlooker's), each
            # built once, whatever the number of streams showing them.
            assert sorted(builds, key=str) == sorted([first["seat"], None], key=str)
            for stream in (mine, *watchers):
                await stream.close()
    finally:
        await runner.stop()


async def test_the_read_routes_are_rate_limited_per_person(
    emu: BotApiEmulator, db_path: Path
) -> None:
    runner, base = await start_bot(emu, db_path, webapp_read_burst=3, webapp_read_rate=0.1)
    try:
        players = await seat_four(emu)
        game_id = _game_id(runner, players.group.id)
        mover, other = players.users[:2]
        async with aiohttp.ClientSession() as session:
            answers = []
            for _ in range(4):
                async with session.get(
                    f"{base}/state?game={game_id}",
                    headers={"X-Telegram-Init-Data": init_for(mover)},
                ) as r:
                    answers.append((r.status, await r.json()))
            assert [s for s, _ in answers[:3]] == [200, 200, 200]
            assert answers[3] == (429, {"error": "slow_down"})
            for route in ("stream", "replay"):
                async with session.get(
                    f"{base}/{route}?game={game_id}",
                    headers={"X-Telegram-Init-Data": init_for(mover)},
                ) as r:
                    assert r.status == 429 and (await r.json())["error"] == "slow_down"
            async with session.get(
                f"{base}/state?game={game_id}", headers={"X-Telegram-Init-Data": init_for(other)}
            ) as r:
                assert r.status == 200  # another person's reads are their own
    finally:
        await runner.stop()


async def test_init_data_in_the_stream_s_address_is_refused(
    emu: BotApiEmulator, limited: tuple[BotRunner, str]
) -> None:
    runner, base = limited
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    query = urlencode({"game": game_id, "init": init_for(players.users[0])})
    async with aiohttp.ClientSession() as session:
        for route in ("stream", "state", "replay"):
            async with session.get(f"{base}/{route}?{query}") as response:
                assert response.status == 400
                assert (await response.json())["error"] == "init_in_url"


async def test_a_stream_is_closed_once_its_init_data_is_too_old(
    emu: BotApiEmulator, db_path: Path
) -> None:
    runner, base = await start_bot(emu, db_path, webapp_max_age=10)
    try:
        players = await seat_four(emu)
        game_id = _game_id(runner, players.group.id)
        async with aiohttp.ClientSession() as session:
            stream = Stream(session, base, players.users[0], game_id, age=7.0)
            fresh = Stream(session, base, players.users[1], game_id)
            await stream.open()
            await fresh.open()
            await asyncio.wait_for(stream.ended.wait(), 8)
            assert stream.closed is not None and stream.closed["reason"] == "expired"
            assert stream.closed["text"]  # what the page says: open it again from the chat
            assert not fresh.ended.is_set()
            await fresh.close()
    finally:
        await runner.stop()
