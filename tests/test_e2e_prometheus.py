"""Issue #33 item 5: a real Prometheus scrapes a real bot.

The bot runs against the emulator with ``KOZEL_METRICS_PORT`` set; Debian's Prometheus runs
on the example configuration of ``deploy/prometheus`` (``prometheus.yml`` with its rules,
``alerts.yml``), its intervals cut to 1 s and its target moved to the bot's port. After a
few cards, what Prometheus stored is read back through its HTTP API: the scrape succeeds,
the counters moved, the press histogram has the cards, and the rules are loaded and
evaluate without error on the bot's real series (on a healthy bot none fires, none is
even pending).

Skipped only without ``/usr/bin/prometheus`` (``.ci/run`` installs it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from botapi_emulator import BotApiEmulator
from tests.e2e import ROOT, BotRunner, bot_settings, seat_four
from tests.postgres import free_port
from tests.prometheus_server import PROMETHEUS, Prometheus, server

pytestmark = pytest.mark.skipif(
    not PROMETHEUS.exists(),
    reason=f"{PROMETHEUS} is missing: apt-get install prometheus (.ci/run does)",
)

DEPLOY = ROOT / "deploy" / "prometheus"
CARDS = 3


def example_config(port: int) -> str:
    """``deploy/prometheus/prometheus.yml`` scraping and evaluating every second, its
    target the bot's ``port``."""
    text = (DEPLOY / "prometheus.yml").read_text(encoding="utf-8")
    for old, new in (
        ("scrape_interval: 15s", "scrape_interval: 1s"),
        ("evaluation_interval: 15s", "evaluation_interval: 1s"),
        ('"127.0.0.1:9464"', f'"127.0.0.1:{port}"'),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


@pytest.fixture
async def bot_port(emu: BotApiEmulator, db_path: Path) -> AsyncIterator[int]:
    """The bot, its operator's endpoints on a free port; that port."""
    port = free_port()
    runner = BotRunner(bot_settings(emu, db_path, metrics_port=port))
    await runner.start()
    try:
        yield port
    finally:
        await runner.stop()


@pytest.fixture
async def prometheus(bot_port: int) -> AsyncIterator[Prometheus]:
    """Prometheus on the example configuration, scraping the bot."""
    rules = (DEPLOY / "alerts.yml").read_text(encoding="utf-8")
    async with server(example_config(bot_port), {"alerts.yml": rules}) as running:
        yield running


async def test_prometheus_scrapes_the_bot_and_evaluates_the_rules_on_its_series(
    emu: BotApiEmulator, prometheus: Prometheus
) -> None:
    players = await seat_four(emu)

    async def scraped() -> bool:
        return await prometheus.value('up{job="kozelbot"} == 1') == 1

    # The first scrape waits for target discovery, which Prometheus 2.42 sends every 5 s.
    await prometheus.until(scraped, what="a successful scrape of the bot")
    before = await prometheus.value('sum(kozel_moves_total{job="kozelbot"})') or 0.0
    for _ in range(CARDS):
        await players.next_turn()
        await players.play_one()

    async def counted() -> bool:
        moves = await prometheus.value('sum(kozel_moves_total{job="kozelbot"})')
        presses = await prometheus.value(
            'sum(kozel_press_seconds_count{job="kozelbot", kind="card"})'
        )
        return moves is not None and moves >= before + CARDS and (presses or 0) >= CARDS

    await prometheus.until(counted, what=f"{CARDS} moves and card presses scraped")
    ok = await prometheus.value('sum(kozel_bot_api_calls_total{job="kozelbot", outcome="ok"})')
    assert ok is not None and ok > 0
    inf = await prometheus.value(
        'sum(kozel_press_seconds_bucket{job="kozelbot", kind="card", le="+Inf"})'
    )
    assert inf is not None and inf >= CARDS  # the histogram's buckets came with its count
    assert await prometheus.value('kozel_live_matches{job="kozelbot", variant="hvalenyi"}') == 1
    await rules_evaluated(prometheus, since=datetime.now(UTC))


async def rules_evaluated(prometheus: Prometheus, since: datetime) -> None:
    """Every rule of ``alerts.yml`` is loaded, in its group, and evaluated after ``since``
    with no error on the bot's own series (a misspelt function or matcher would show as
    ``err``); on a healthy bot none fires, none is even pending."""
    written = (DEPLOY / "alerts.yml").read_text(encoding="utf-8")
    alerts = {line.split(":", 1)[1].strip() for line in written.splitlines() if "- alert:" in line}

    async def evaluated() -> bool:
        rules = [r for g in await prometheus.rules() for r in g["rules"]]
        return len(rules) == len(alerts) and all(
            r["health"] == "ok" and datetime.fromisoformat(r["lastEvaluation"]) > since
            for r in rules
        )

    await prometheus.until(evaluated, what="every rule evaluated without error")
    groups = await prometheus.rules()
    assert sorted(g["name"] for g in groups) == [
        "kozelbot-latency",
        "kozelbot-process",
        "kozelbot-telegram",
    ]
    rules = {r["name"]: r for g in groups for r in g["rules"]}
    assert set(rules) == alerts
    assert all(r["type"] == "alerting" and not r.get("lastError") for r in rules.values())
    assert {r["state"] for r in rules.values()} == {"inactive"}  # not even pending
