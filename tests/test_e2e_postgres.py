"""The real bot on PostgreSQL (issue #32), end to end through the emulator: a whole match, and
a match that goes on after the database server restarts in the middle of a deal.

The server is the throwaway cluster of ``tests/postgres.py`` (Debian's postgresql); each test
gets a database of its own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from botapi_emulator import BotApiEmulator
from storage import Storage
from storage.errors import DatabaseInUse
from tests import postgres
from tests.e2e import BotRunner, bot_settings, play_cards, run_kozelbot, seat_four
from tests.engines import look


@pytest.fixture
async def database(pg_cluster: postgres.Cluster) -> str:
    """A fresh PostgreSQL database (this file is about that engine only)."""
    return pg_cluster.new_database()


@pytest.fixture
async def pg_bot(emu: BotApiEmulator, database: str, tmp_path: Path) -> AsyncIterator[BotRunner]:
    """The bot on ``database`` (its flood journal beside a file in the test's folder)."""
    runner = BotRunner(bot_settings(emu, tmp_path / "flood.db", database_url=database))
    await runner.start()
    try:
        yield runner
    finally:
        await runner.stop()


def check_the_log(database: str) -> int:
    """Every game's move log runs 1, 2, 3 … with no gap and no move twice; how many moves."""
    rows = look(database, "SELECT game_id, seq FROM moves ORDER BY game_id, seq")
    by_game: dict[object, list[object]] = {}
    for game_id, seq in rows:
        by_game.setdefault(game_id, []).append(seq)
    assert by_game, "no move was logged"
    for seqs in by_game.values():
        assert seqs == list(range(1, len(seqs) + 1))
    return len(rows)


async def test_four_people_play_a_whole_match_on_postgresql(
    emu: BotApiEmulator, pg_bot: BotRunner, database: str
) -> None:
    players = await seat_four(emu)
    await play_cards(emu, pg_bot, players, 10_000)
    assert "🏆" in players.group_text()
    assert not emu.flood_errors
    check_the_log(database)
    ((finished,),) = look(database, "SELECT COUNT(*) FROM matches")
    assert finished == 1
    ((seated,),) = look(database, "SELECT COUNT(*) FROM match_players WHERE user_id IS NOT NULL")
    assert seated == 4
    # The boards read it back: the chat's history lists everyone who played, /stats answers.
    group = players.group
    for command, expected in (("/history", players.users[0].first_name), ("/stats", "1")):
        before = emu.last_message(group.id)
        emu.send_text(players.users[0], group.id, command)
        await emu.wait_for(lambda b=before: emu.last_message(group.id) is not b)
        reply = emu.last_message(group.id)
        assert reply is not None and expected in reply.text, (command, reply)


async def test_a_match_goes_on_after_the_database_server_restarts_mid_deal(
    emu: BotApiEmulator, pg_bot: BotRunner, database: str, pg_cluster: postgres.Cluster
) -> None:
    players = await seat_four(emu)
    assert await play_cards(emu, pg_bot, players, 6) == 6
    before = look(database, "SELECT COUNT(*) FROM moves")[0][0]
    pg_cluster.restart_server()  # every connection to it is cut
    await play_cards(emu, pg_bot, players, 10_000)
    assert "🏆" in players.group_text()
    assert not emu.flood_errors
    check_the_log(database)
    after = look(database, "SELECT COUNT(*) FROM moves")[0][0]
    assert isinstance(before, int) and isinstance(after, int) and after > before


async def test_a_card_pressed_while_the_database_is_down_waits_for_it(
    emu: BotApiEmulator, pg_bot: BotRunner, database: str, pg_cluster: postgres.Cluster
) -> None:
    players = await seat_four(emu)
    assert await play_cards(emu, pg_bot, players, 5) == 5
    pg_cluster.stop()
    loop = asyncio.get_running_loop()
    back = loop.run_in_executor(None, lambda: (time.sleep(2.0), pg_cluster.start_again()))
    started = time.monotonic()
    answer = await players.play_one()  # the bot waits for the server, then takes the card
    await back
    assert not answer.show_alert, answer.text
    assert time.monotonic() - started >= 1.5
    await play_cards(emu, pg_bot, players, 10_000)
    assert "🏆" in players.group_text()
    check_the_log(database)


async def test_storage_reads_and_writes_again_after_the_server_restarts(
    pg_cluster: postgres.Cluster, database: str
) -> None:
    async with await Storage.open(database) as storage:
        await storage.people.upsert_chat(-100, "Kozel club")
        pg_cluster.restart_server()
        assert await storage.people.chat_language(-100) is None  # a read first
        pg_cluster.restart_server()
        await storage.people.set_chat_language(-100, "uk")  # a write first
        assert await storage.people.chat_language(-100) == "uk"


async def test_a_second_bot_on_the_same_database_is_refused_in_one_line(
    emu: BotApiEmulator, pg_bot: BotRunner, database: str, tmp_path: Path
) -> None:
    env = {
        "KOZEL_BOT_TOKEN": "123:ABC",
        "KOZEL_API_URL": emu.api_root,
        "KOZEL_DATABASE_URL": database,
    }
    code, output = await run_kozelbot(env, tmp_path)
    assert code == 1
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and "another kozelbot is running on the database" in lines[0], output
    assert "kozel-test" not in output  # the password
    # A tool reading the database (no lock) still may: the replay export of a match.
    async with await Storage.open(database) as reader:
        assert await reader.games.live_games() == []


async def test_the_lock_goes_with_the_bot_that_held_it(
    pg_cluster: postgres.Cluster, database: str
) -> None:
    first = await Storage.open(database, exclusive=True)
    with pytest.raises(DatabaseInUse):
        await Storage.open(database, exclusive=True)
    await first.close()
    second = await Storage.open(database, exclusive=True)
    pg_cluster.restart_server()  # the lock is the connection's: taken again on reconnecting
    assert await second.people.chat_language(-100) is None
    with pytest.raises(DatabaseInUse):
        await Storage.open(database, exclusive=True)
    await second.close()


async def test_the_metrics_count_the_reconnects_and_the_bot_is_ready_again(
    emu: BotApiEmulator, database: str, pg_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    """Issue #33 on PostgreSQL: a server restart mid-match is counted in
    ``kozel_db_busy_retries_total``, write transactions are timed, and ``/readyz`` is ready
    again once play goes on."""
    port = postgres.free_port()
    runner = BotRunner(
        bot_settings(emu, tmp_path / "flood.db", database_url=database, metrics_port=port)
    )
    await runner.start()
    try:
        players = await seat_four(emu)
        await play_cards(emu, runner, players, 3)
        pg_cluster.restart_server()  # every connection to it is cut
        await play_cards(emu, runner, players, 3)
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                text = await response.text()
            async with session.get(f"http://127.0.0.1:{port}/readyz") as response:
                ready = response.status, await response.text()
    finally:
        await runner.stop()
    found = {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels
    }
    assert found["kozel_db_busy_retries_total"] >= 1
    assert found["kozel_db_transaction_seconds_count"] > 6
    assert ready == (200, "ready\n")
