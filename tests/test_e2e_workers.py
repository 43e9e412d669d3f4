"""Issue #32: one intake and two workers on one PostgreSQL database, end to end.

``kozelbot intake`` polls the emulator into the inbox; two ``kozelbot worker`` processes
share the places. A whole match is played while the worker holding the group's table is
killed mid-deal (SIGKILL): the other takes the table over within the lease, every hand is
delivered, no move is lost or logged twice, and the emulator (which answers 429 to any flood,
on Telegram's limits scaled in time) never had to.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from botapi_emulator import BotApiEmulator
from botapi_emulator.models import User
from tests import postgres
from tests.e2e import BotProcess, Players, hand_sends, run_kozelbot, seat_four
from tests.engines import look
from tests.postgres import free_port
from tests.test_e2e_postgres import check_the_log
from tests.test_e2e_webapp import init_for, post_move


@pytest.fixture
async def database(pg_cluster: postgres.Cluster) -> str:
    return pg_cluster.new_database()


class Bot:
    """The intake and the workers, each a ``python -m kozelbot`` process."""

    def __init__(self, emu: BotApiEmulator, database: str, tmp_path: Path) -> None:
        self.database = database
        self.processes: dict[str, BotProcess] = {}
        for name in ("intake", "w1", "w2"):  # (started by ``start``, or one by one)
            folder = tmp_path / name
            folder.mkdir()
            role = "intake" if name == "intake" else "worker"
            env = {"KOZEL_DATABASE_URL": database, "KOZEL_WORKER_NAME": name}
            self.processes[name] = BotProcess(
                emu, folder / "flood.db", folder, env=env, args=[role]
            )

    async def start(self, *names: str) -> None:
        for name in names or list(self.processes):
            await self.processes[name].start()

    @contextlib.asynccontextmanager
    async def running(self, emu: BotApiEmulator, *names: str) -> AsyncIterator[None]:
        """The processes ``names`` (all by default) started, once the intake listens; their
        logs printed if the test fails; every process stopped at the end."""
        await self.start(*names)
        try:
            polling = "--webhook" not in self.processes["intake"].args
            await emu.wait_for(
                lambda: bool(emu.calls("getUpdates")) if polling else emu.webhook is not None,
                timeout=30,
            )
            yield
        except BaseException:
            print(self.logs())
            raise
        finally:
            await self.stop()

    async def stop(self) -> None:
        for process in self.processes.values():
            await process.stop()

    def owner(self, chat_id: int) -> str | None:
        """The worker holding the chat's place."""
        rows = look(self.database, f"SELECT worker FROM leases WHERE place = '{chat_id}'")
        return str(rows[0][0]) if rows else None

    def holds(self, worker: str) -> set[str]:
        """The places a worker holds."""
        rows = look(self.database, f"SELECT place FROM leases WHERE worker = '{worker}'")
        return {str(row[0]) for row in rows}

    async def owned_by(self, emu: BotApiEmulator, chat_id: int, worker: str) -> float:
        """Wait until ``worker`` holds the chat's place; the seconds it took."""
        began = time.monotonic()
        await emu.wait_for(lambda: self.owner(chat_id) == worker, timeout=20)
        return time.monotonic() - began

    def logs(self) -> str:
        return "\n".join(
            f"--- {name}\n{p.log.read_text(errors='replace')}" for name, p in self.processes.items()
        )


async def _play(emu: BotApiEmulator, players: Players, cards: int) -> int:
    played = 0
    while played < cards and not players.match_over:
        await emu.settle(quiet=0.2, timeout=30)  # every edit of the last move has arrived
        if players.whose_turn() is None:
            await emu.wait_for(
                lambda: players.whose_turn() is not None or players.match_over, timeout=30
            )
            continue
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
        played += 1
    return played


async def test_a_match_goes_on_when_the_worker_holding_its_table_is_killed_mid_deal(
    emu: BotApiEmulator, database: str, tmp_path: Path
) -> None:
    bot = Bot(emu, database, tmp_path)
    async with bot.running(emu):
        players = await seat_four(emu)
        await _play(emu, players, 6)
        owner = bot.owner(players.group.id)
        assert owner in ("w1", "w2"), bot.logs()
        survivor = "w2" if owner == "w1" else "w1"
        await bot.processes[owner].kill()
        taken_over = await bot.owned_by(emu, players.group.id, survivor)
        await emu.settle(quiet=0.2, timeout=30)
        user, message, data = players.next_press()
        query = emu.press_nowait(user, user.id, message.message_id, data)
        answer = await emu.wait_answer(query, timeout=30)  # the table goes on elsewhere …
        assert not answer.show_alert, answer.text
        await _play(emu, players, 10_000)  # … to the match's end
        assert players.match_over, players.group_text()
    assert taken_over < 10  # the lease (5 s) ran out, and the survivor claimed the place
    assert check_the_log(database) > 8
    [(deals,)] = look(database, "SELECT COUNT(*) FROM deals")
    for user in players.users:  # every deal's hand delivered to everyone, once
        assert hand_sends(emu, user.id) == {deal: 1 for deal in range(1, int(deals) + 1)}
    assert emu.flood_errors == []
    assert look(database, "SELECT COUNT(*) FROM inbox") == [(0,)]


async def test_a_worker_without_postgresql_says_so_in_one_line(tmp_path: Path) -> None:
    code, out = await run_kozelbot(
        {"KOZEL_BOT_TOKEN": "1:x", "KOZEL_DB_PATH": str(tmp_path / "k.db")}, tmp_path, "worker"
    )
    assert code == 1
    assert "KOZEL_DATABASE_URL is not set" in out
    assert len(out.strip().splitlines()) == 1, out


async def test_workers_join_and_leave_without_stopping_the_others(
    emu: BotApiEmulator, database: str, tmp_path: Path
) -> None:
    """A worker that joins takes its share of the new tables; one that stops (SIGTERM)
    gives its tables up at once, and they go on with the other."""
    bot = Bot(emu, database, tmp_path)
    async with bot.running(emu, "intake", "w1"):
        first = await seat_four(emu)
        await _play(emu, first, 2)
        assert bot.owner(first.group.id) == "w1"
        await bot.start("w2")  # joins: w1 goes on as it was
        await emu.wait_for(
            lambda: bool(look(database, "SELECT 1 FROM workers WHERE worker = 'w2'"))
        )
        second = await seat_four(emu, names=("Дина", "Егор", "Жанна", "Зоя"))
        await emu.wait_for(lambda: bool(bot.holds("w2")), timeout=20)
        await _play(emu, second, 2)
        await _play(emu, first, 2)
        await bot.processes["w1"].stop()  # SIGTERM: its leases are given up as it ends
        waited = await bot.owned_by(emu, first.group.id, "w2")
        await _play(emu, first, 3)
        await _play(emu, second, 3)
    assert waited < 3.0  # not the lease's 5 s: given up, and claimed at the next tick
    check_the_log(database)
    assert emu.flood_errors == []


async def test_a_move_timer_fires_once_on_the_worker_that_took_the_table_over(
    emu: BotApiEmulator, database: str, tmp_path: Path
) -> None:
    """Nobody presses after the worker holding the table is killed: the other arms the
    turn's timer at its stored deadline, and the move it makes is logged once."""
    bot = Bot(emu, database, tmp_path)
    async with bot.running(emu):
        players = await seat_four(emu, options="seating=ordered move_time=10")
        await _play(emu, players, 2)
        await emu.settle(quiet=0.2, timeout=30)
        before = look(database, "SELECT COUNT(*) FROM moves")
        turn = players.turn_key()
        owner = bot.owner(players.group.id)
        assert owner in ("w1", "w2")
        await bot.processes[owner].kill()
        await players.moved_on(turn, timeout=30)  # the timer played for the one away
    [(moves,)] = look(database, "SELECT COUNT(*) FROM moves")
    assert int(moves) == int(before[0][0]) + 1, "the timed-out move, once"
    check_the_log(database)


async def test_an_intake_behind_a_webhook_keeps_what_telegram_posts_and_refuses_the_rest(
    emu: BotApiEmulator, database: str, tmp_path: Path
) -> None:
    """``kozelbot intake --webhook``: Telegram's POSTs are kept and played by a worker; a
    POST without the secret, or whose body is not an update, is refused and kept nowhere."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook"
    bot = Bot(emu, database, tmp_path)
    bot.processes["intake"].args = ["intake", "--webhook", url, "--port", str(port)]
    async with bot.running(emu, "intake", "w1"):
        players = await seat_four(emu)
        await _play(emu, players, 3)
        async with aiohttp.ClientSession() as session:
            forged = {"update_id": 10**9, "message": {"message_id": 1, "date": 0}}
            secret = emu.webhook.secret_token if emu.webhook else None
            assert secret
            header = {"X-Telegram-Bot-Api-Secret-Token": secret}
            answers = [
                await session.post(url, json=forged),  # no secret
                await session.post(
                    url, json=forged, headers={**header, "X-Telegram-Bot-Api-Secret-Token": "x"}
                ),
                await session.post(url, data=b"\xff{not json", headers=header),
                await session.post(url, data=b"[" * 100_000, headers=header),
                await session.post(url, json=[1, 2], headers=header),
                await session.post(url, json={"update_id": "1"}, headers=header),
            ]
            assert [a.status for a in answers] == [403, 403, 400, 400, 400, 400]
    check_the_log(database)
    assert look(database, f"SELECT COUNT(*) FROM inbox WHERE update_id = {10**9}") == [(0,)]
    assert emu.webhook is not None  # left set: Telegram keeps the updates while it restarts


async def test_the_mini_app_of_either_worker_plays_and_shows_every_commit_within_a_second(
    emu: BotApiEmulator, database: str, tmp_path: Path
) -> None:
    """Each worker serves the Mini App. A card played in the page of the worker that does not
    hold the table is committed there and shown by the one that does (the group's table, the
    next hand); a card pressed in a hand reaches the other worker's page within a second
    (PostgreSQL's LISTEN/NOTIFY)."""
    bot = Bot(emu, database, tmp_path)
    bases: dict[str, str] = {}
    for name in ("w1", "w2"):
        port = free_port()
        bases[name] = f"http://127.0.0.1:{port}/webapp/api"
        bot.processes[name].env_overrides.update(
            KOZEL_WEBAPP_URL="https://kozel.example/app/",
            KOZEL_WEBAPP_PORT=str(port),
            KOZEL_WEBAPP_NAME="table",
        )
    async with bot.running(emu):
        players = await seat_four(emu)
        await _play(emu, players, 2)
        owner = bot.owner(players.group.id)
        assert owner in ("w1", "w2")
        other = bases["w2" if owner == "w1" else "w1"]
        [(game_id,)] = look(
            database, f"SELECT game_id FROM games WHERE chat_id = {players.group.id}"
        )
        async with aiohttp.ClientSession() as session:

            async def page(user: User) -> dict[str, Any]:
                headers = {"X-Telegram-Init-Data": init_for(user)}
                async with session.get(f"{other}/state?game={game_id}", headers=headers) as got:
                    assert got.status == 200, await got.text()
                    payload: dict[str, Any] = await got.json()
                    return payload

            # a card from the page of the worker that does not hold the table
            await emu.settle(quiet=0.2, timeout=30)
            turn = players.turn_key()
            found = players.whose_turn()
            assert found is not None
            mover = found[0]
            mine = await page(mover)
            status, _ = await post_move(
                session, other, init_for(mover), int(game_id), mine["deal"], mine["legal"][0]
            )
            assert status == 200
            await players.moved_on(turn, timeout=10)  # the holder drew the next turn

            # a card from a hand, seen in the other worker's page
            await emu.settle(quiet=0.2, timeout=30)
            watcher = players.users[0]
            before = await page(watcher)
            answer = await players.play_one()
            assert not answer.show_alert, answer.text
            pressed = time.monotonic()
            while (await page(watcher))["view"] == before["view"]:
                assert time.monotonic() - pressed < 1.0, "the other worker's page lags"
                await asyncio.sleep(0.02)
        await _play(emu, players, 3)
    check_the_log(database)
    assert emu.flood_errors == []
