"""Issue #33 items 1–2: the operator's metrics and health endpoints.

The meter's series (``kozelbot.core.metrics``), how the flood gate reports every Bot API call,
and, end to end against the emulator, a bot with ``KOZEL_METRICS_PORT`` set: ``/metrics``
after a few cards (calls, presses, moves, live matches, transactions, the process), and
``/readyz`` ready, then not ready for each planted fault (a silent long poll, a stuck outbox,
a database that does not answer). With the port unset nothing listens and nothing is timed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from telegram import Bot
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from botapi_emulator import BotApiEmulator, Webhook
from handlers.delivery import OUTCOMES, FloodGate, outcome_of
from handlers.monitor import OUTBOX_STUCK, UPDATES_GRACE, Readiness
from handlers.timing import FIRST, LAST
from kozelbot.core.metrics import API_OUTCOMES, BUSY_METHODS, OFF, PrometheusMeter
from kozelbot.core.records import OutboxItem
from tests.e2e import TOKEN, BotRunner, bot_settings, seat_four
from tests.postgres import free_port

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a scrape by (name, sorted labels)."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def scrape(meter: PrometheusMeter) -> Samples:
    return samples(generate_latest(meter.registry).decode())


# -- the meter -------------------------------------------------------------------------------


def test_the_meter_keeps_each_series_under_its_name() -> None:
    meter = PrometheusMeter(lambda: 1_000.0)
    meter.api_call("sendMessage", "ok")
    meter.api_call("sendMessage", "ok")
    meter.api_call("editMessageText", "retry_after", 3.0)
    meter.press("card", 0.04)
    meter.changed("hvalenyi", moves=3, deals=1, match_over=True)
    meter.decision("strong", 0.3, 0.6)
    meter.transaction(0.002)
    meter.db_retry()
    meter.update()
    meter.level("kozel_live_matches", "x", ("variant",), lambda: {("belka",): 2})
    found = scrape(meter)
    assert value(found, "kozel_bot_api_calls_total", method="sendMessage", outcome="ok") == 2
    assert (
        value(found, "kozel_bot_api_calls_total", method="editMessageText", outcome="retry_after")
        == 1
    )
    assert value(found, "kozel_bot_api_retry_after_seconds_total", method="editMessageText") == 3
    assert value(found, "kozel_press_seconds_count", kind="card") == 1
    assert value(found, "kozel_press_seconds_bucket", kind="card", le="0.05") == 1
    assert value(found, "kozel_press_seconds_bucket", kind="card", le="0.025") == 0
    assert value(found, "kozel_moves_total", variant="hvalenyi") == 3
    assert value(found, "kozel_deals_finished_total", variant="hvalenyi") == 1
    assert value(found, "kozel_matches_finished_total", variant="hvalenyi") == 1
    assert value(found, "kozel_decision_budget_used_bucket", level="strong", le="0.5") == 1
    assert value(found, "kozel_decision_budget_used_bucket", level="strong", le="0.25") == 0
    assert value(found, "kozel_db_transaction_seconds_count") == 1
    assert value(found, "kozel_db_busy_retries_total") == 1
    assert value(found, "kozel_updates_total") == 1
    assert value(found, "kozel_update_poll_timestamp_seconds") == 1_000.0
    assert value(found, "kozel_live_matches", variant="belka") == 2
    assert any(name.startswith("process_") for name, _ in found)


def test_two_meters_never_mix_their_counts() -> None:
    """One registry per bot: two bots in one process (the tests, the sandbox) keep apart."""
    first, second = PrometheusMeter(time.time), PrometheusMeter(time.time)
    first.api_call("getMe", "ok")
    assert value(scrape(second), "kozel_bot_api_calls_total", method="getMe", outcome="ok") == 0


def test_the_meter_that_is_off_keeps_nothing() -> None:
    for report in (
        lambda: OFF.api_call("sendMessage", "ok"),
        lambda: OFF.press("card", 1.0),
        lambda: OFF.changed("belka", 1, 1, True),
        lambda: OFF.decision("strong", 1.0, 1.0),
        lambda: OFF.transaction(1.0),
        OFF.db_retry,
        OFF.update,
        OFF.heard,
    ):
        assert report() is None
    assert not hasattr(OFF, "registry")


# -- the flood gate reports every call -------------------------------------------------------


def _call(error: Exception | None) -> Callable[..., Coroutine[Any, Any, bool]]:
    async def call() -> bool:
        if error is not None:
            raise error
        return True

    return call


@pytest.mark.parametrize(
    ("error", "outcome"),
    [
        (None, "ok"),
        (RetryAfter(7), "retry_after"),
        (TimedOut(), "timed_out"),
        (NetworkError("reset"), "network_error"),
        (BadRequest("message is not modified"), "bad_request"),
        (Forbidden("bot was blocked by the user"), "forbidden"),
    ],
)
async def test_the_flood_gate_counts_each_call_by_method_and_outcome(
    error: Exception | None, outcome: str
) -> None:
    meter = PrometheusMeter(time.time)
    gate = FloodGate(meter=meter)
    await gate.initialize()
    for endpoint, data in (("sendMessage", {"chat_id": -5}), ("answerCallbackQuery", {})):
        try:
            await gate.process_request(_call(error), (), {}, endpoint, data, None)
        except Exception as raised:
            assert raised is error
    await gate.shutdown()
    found = scrape(meter)
    for method in ("sendMessage", "answerCallbackQuery"):
        assert value(found, "kozel_bot_api_calls_total", method=method, outcome=outcome) == 1
    asked = value(found, "kozel_bot_api_retry_after_seconds_total", method="sendMessage")
    assert asked == (7 if outcome == "retry_after" else 0)


def test_an_error_of_another_kind_is_an_error() -> None:
    assert outcome_of(ValueError("x")) == "error"


def test_every_outcome_the_gate_names_is_one_the_meter_starts_at_zero() -> None:
    """The busy calls' series exist from the start, for every outcome ``outcome_of`` can
    give, so ``rate()`` counts the first 429 after a start."""
    named = {name for _, name in OUTCOMES} | {"ok", "error"}
    assert named == set(API_OUTCOMES)
    found = scrape(PrometheusMeter(time.time))
    for method in BUSY_METHODS:
        for outcome in API_OUTCOMES:
            key = ("kozel_bot_api_calls_total", (("method", method), ("outcome", outcome)))
            assert found[key] == 0
    assert found[("kozel_press_seconds_count", (("kind", "card"),))] == 0


# -- readiness -------------------------------------------------------------------------------


async def test_a_long_poll_silent_past_its_bound_is_not_ready() -> None:
    now = [10_000.0]
    meter = PrometheusMeter(lambda: now[0])
    readiness = Readiness(meter, webhook=False, poll_timeout=30, clock=lambda: now[0])
    assert "never" in (await readiness.updates(None) or "")  # type: ignore[arg-type]
    meter.heard()
    assert await readiness.updates(None) is None  # type: ignore[arg-type]
    now[0] += 30 + UPDATES_GRACE + 1
    reason = await readiness.updates(None)  # type: ignore[arg-type]
    assert reason is not None and "long poll" in reason


async def test_behind_a_webhook_a_delivery_error_is_not_ready_and_silence_alone_is(
    emu: BotApiEmulator,
) -> None:
    """Behind a webhook a quiet bot hears nothing: that alone is ready. Telegram (the
    emulator) failing to deliver to the webhook (a closed port) is not."""
    meter = PrometheusMeter(time.time)
    async with Bot(TOKEN, base_url=f"{emu.api_root}/bot") as bot:
        assert await Readiness(meter, webhook=True, poll_timeout=30).updates(bot) is None
        emu.set_webhook(Webhook(f"http://127.0.0.1:{free_port()}/kozel"))
        user = emu.add_user("Аня")
        emu.send_text(user, user, "/start")
        await emu.wait_for(lambda: emu.webhook_last_error is not None, timeout=10)
        reason = await Readiness(meter, webhook=True, poll_timeout=30).updates(bot)
    assert reason is not None and reason.startswith("updates: Telegram cannot deliver")


# -- end to end ------------------------------------------------------------------------------


@pytest.fixture
async def metered(emu: BotApiEmulator, db_path: Path) -> AsyncIterator[tuple[BotRunner, str]]:
    """The bot with its operator's endpoints on a free port; their root address."""
    port = free_port()
    runner = BotRunner(bot_settings(emu, db_path, metrics_port=port))
    await runner.start()
    try:
        yield runner, f"http://127.0.0.1:{port}"
    finally:
        await runner.stop()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_a_scrape_after_a_few_cards_shows_calls_presses_moves_and_the_process(
    emu: BotApiEmulator, metered: tuple[BotRunner, str]
) -> None:
    bot, root = metered
    players = await seat_four(emu)
    for _ in range(3):
        await players.next_turn()
        await players.play_one()
    await bot.drain()
    status, text = await get(f"{root}/metrics")
    assert status == 200
    found = samples(text)
    assert value(found, "kozel_bot_api_calls_total", method="sendMessage", outcome="ok") > 0
    assert value(found, "kozel_bot_api_calls_total", method="answerCallbackQuery", outcome="ok")
    assert value(found, "kozel_press_seconds_count", kind="card") >= 3
    assert value(found, "kozel_press_seconds_count", kind="command") >= 1  # /newgame, /join
    assert value(found, "kozel_moves_total", variant="hvalenyi") >= 3
    assert value(found, "kozel_live_matches", variant="hvalenyi") == 1
    assert value(found, "kozel_live_lobbies", variant="hvalenyi") == 0
    assert value(found, "kozel_db_transaction_seconds_count") > 0
    assert value(found, "kozel_updates_total") > 0
    assert value(found, "kozel_update_poll_timestamp_seconds") > time.time() - 60
    assert value(found, "kozel_outbox_depth") == 0
    assert value(found, "kozel_thinking_queue") == 0
    assert value(found, "process_cpu_seconds_total") > 0
    assert (await get(f"{root}/healthz"))[0] == 200
    assert await get(f"{root}/readyz") == (200, "ready\n")


async def test_a_stuck_outbox_makes_the_bot_not_ready(
    emu: BotApiEmulator, metered: tuple[BotRunner, str]
) -> None:
    """A post owed for longer than ``OUTBOX_STUCK`` (planted in the outbox of a chat the
    bot never sends to: its lanes do not know it) is a reason, in the body of a 503."""
    bot, root = metered
    assert bot.app is not None
    players = await seat_four(emu)
    storage = bot.app.bot_data.storage
    game = await storage.games.live_game(players.group.id)
    assert game is not None
    assert await get(f"{root}/readyz") == (200, "ready\n")
    old = time.time() - OUTBOX_STUCK - 5
    async with storage.database.write() as tx:
        item = OutboxItem(chat_id=-999, game_id=game.game_id, kind="match_over", payload={})
        await storage.posts.add(tx, game.game_id, [item], old)
    status, body = await get(f"{root}/readyz")
    assert status == 503
    assert "outbox: 1 post(s) owed" in body
    found = samples((await get(f"{root}/metrics"))[1])
    assert value(found, "kozel_outbox_depth") == 1
    assert value(found, "kozel_outbox_oldest_seconds") >= OUTBOX_STUCK


async def test_a_database_that_does_not_answer_makes_the_bot_not_ready(
    metered: tuple[BotRunner, str],
) -> None:
    bot, root = metered
    assert bot.app is not None
    data = bot.app.bot_data
    meter = data.meter
    assert isinstance(meter, PrometheusMeter)
    for _ in range(100):  # the first long poll answers within a second
        if meter.last_update is not None:
            break
        await asyncio.sleep(0.05)
    database = data.storage.database
    async with database.lock:  # a write that never ends holds the database
        status, body = await asyncio.wait_for(get(f"{root}/readyz"), 15)
        assert status == 503
        assert body.startswith("database: no answer within")
        status, text = await get(f"{root}/metrics")  # the scrape itself still answers
        assert status == 200 and "kozel_bot_api_calls_total" in text
    assert (await get(f"{root}/readyz"))[0] == 200


async def test_with_the_port_unset_nothing_listens_and_nothing_is_timed(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    assert bot.app is not None
    data = bot.app.bot_data
    assert data.meter is OFF and data.monitor is None
    assert FIRST not in bot.app.handlers and LAST not in bot.app.handlers
