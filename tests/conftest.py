"""Shared fixtures: the Bot API emulator and the bot running against it."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from botapi_emulator import BotApiEmulator
from kozelbot.core import decisions
from storage import Storage
from tests import postgres
from tests.e2e import TEST_BUDGET_MS, TOKEN, BotRunner, bot_settings, fast_limits

# The strong computer thinks briefly in tests (tools and services built without a budget).
decisions.DEFAULT_BUDGET_MS = TEST_BUDGET_MS


@pytest.fixture
async def emu() -> AsyncIterator[BotApiEmulator]:
    """A running emulator with time-scaled flood limits."""
    emulator = BotApiEmulator(token=TOKEN, bot_username="kozel_test_bot", limits=fast_limits())
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.stop()
    # Whatever a test checks, the bot never sent malformed requests or broken HTML.
    assert emulator.internal_errors == []
    malformed = [
        c for c in emulator.history if c.error_code == 400 and "parse" in (c.description or "")
    ]
    assert malformed == []
    # Internal names of computer seats never reach people.
    leaked = [c for c in emulator.history if re.search(r"\bcpu\d", str(c.params.get("text", "")))]
    assert leaked == []


class FakeClock:
    """A clock that ticks one second per reading, so timestamps are distinct and known."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[postgres.Cluster]:
    """A throwaway PostgreSQL server for this test process (``tests/postgres.py``)."""
    with postgres.cluster() as running:
        yield running


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, db_path: Path) -> str:
    """Where a test's database lives, once on each engine: a fresh SQLite file, or a fresh
    database on the throwaway PostgreSQL server."""
    if request.param == "sqlite":
        return str(db_path)
    cluster: postgres.Cluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture
async def storage(database: str) -> AsyncIterator[Storage]:
    """A fresh database on each engine, with a ticking fake clock."""
    opened = await Storage.open(database, clock=FakeClock())
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """The usual umask (022: new files readable by everybody), whatever the test runner has
    (the files that must stay private are created 0600 regardless)."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh database file."""
    return tmp_path / "kozel.db"


@pytest.fixture
async def bot(emu: BotApiEmulator, db_path: Path) -> AsyncIterator[BotRunner]:
    """The bot, running against ``emu`` on ``db_path``."""
    runner = BotRunner(bot_settings(emu, db_path))
    await runner.start()
    try:
        yield runner
    finally:
        await runner.stop()


TOURNAMENT_MINUTE = 0.6
"""Seconds in a tournament minute in the tests: a 5-minute round lasts 3 s, the no-show
wait 1.8 s."""


@pytest.fixture
async def tournament_bot(emu: BotApiEmulator, db_path: Path) -> AsyncIterator[BotRunner]:
    """The bot, with a tournament clock ``TOURNAMENT_MINUTE`` seconds to the minute."""
    runner = BotRunner(bot_settings(emu, db_path, tournament_minute=TOURNAMENT_MINUTE))
    await runner.start()
    try:
        yield runner
    finally:
        await runner.stop()
