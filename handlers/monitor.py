"""The operator's HTTP endpoints (issue #33): Prometheus ``/metrics``, ``/healthz``, ``/readyz``.

Served on ``KOZEL_METRICS_LISTEN:KOZEL_METRICS_PORT`` while the port is set (nothing
listens otherwise), apart from the Mini App's server: an operator's endpoints are not for
the public.

- ``/healthz``: 200 while the process serves HTTP at all (a liveness probe).
- ``/readyz``: 200 ``ready`` only when the bot can do its job, else 503 with one reason a
  line: updates are arriving (``Readiness.updates``), the database answers within
  ``DATABASE_PATIENCE``, and the outbox is not stuck (its oldest post younger than
  ``OUTBOX_STUCK``).
- ``/metrics``: the ``PrometheusMeter``'s registry in the text format; what only the
  database knows (the outbox, live tournaments) is read just before, so a scrape sees it
  as it is.

**Decision** (the issue asks for "the last long poll or webhook call within a bound"): while
polling, a long poll answers at least every ``poll_timeout`` seconds even when nobody plays,
so silence past ``poll_timeout + UPDATES_GRACE`` means the loop is stuck or Telegram is out
of reach. Behind a webhook a quiet bot hears nothing at all, so silence alone proves
nothing: there the bot asks Telegram (``getWebhookInfo``, at most once per
``WEBHOOK_CHECK_EVERY``) and is not ready when Telegram reports a recent delivery error, or
updates waiting for it while none arrived within the bound.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from telegram import Bot, WebhookInfo
from telegram.error import TelegramError

from handlers.deps import BotData
from kozelbot.core.metrics import PrometheusMeter

log = logging.getLogger(__name__)

UPDATES_GRACE = 30.0
"""Seconds past the long poll's timeout after which a silent update loop is not ready."""
WEBHOOK_SILENCE = 120.0
"""Seconds behind a webhook with updates waiting at Telegram and none arriving: not ready."""
WEBHOOK_CHECK_EVERY = 30.0
"""Least seconds between two ``getWebhookInfo`` asked by ``/readyz``."""
DATABASE_PATIENCE = 5.0
"""Seconds the database has to answer ``/readyz``'s question."""
OUTBOX_STUCK = 300.0
"""Seconds after which a post still owed to a chat means the outbox is stuck."""


@dataclass
class Readiness:
    """What ``/readyz`` weighs: how updates arrive, and when the loop last heard Telegram."""

    meter: PrometheusMeter
    webhook: bool
    poll_timeout: float
    clock: Callable[[], float] = time.time
    _webhook_info: tuple[float, WebhookInfo | None] = field(default=(-1e18, None))

    async def updates(self, bot: Bot) -> str | None:
        """Why updates are not arriving, or ``None`` when they are."""
        now = self.clock()
        heard = self.meter.last_update
        if not self.webhook:
            bound = self.poll_timeout + UPDATES_GRACE
            if heard is None or now - heard > bound:
                since = "never" if heard is None else f"{now - heard:.0f} s ago"
                return f"updates: the long poll last answered {since} (bound {bound:.0f} s)"
            return None
        info = await self._webhook(bot, now)
        if info is None:
            return "updates: Telegram did not say how the webhook is doing (getWebhookInfo)"
        if info.last_error_date is not None and now - info.last_error_date.timestamp() < (
            WEBHOOK_SILENCE
        ):
            return f"updates: Telegram cannot deliver to the webhook: {info.last_error_message}"
        silent = heard is None or now - heard > WEBHOOK_SILENCE
        if info.pending_update_count and silent:
            return (
                f"updates: {info.pending_update_count} waiting at Telegram, none arrived"
                f" in {WEBHOOK_SILENCE:.0f} s"
            )
        return None

    async def _webhook(self, bot: Bot, now: float) -> WebhookInfo | None:
        asked, info = self._webhook_info
        if now - asked >= WEBHOOK_CHECK_EVERY:
            try:
                info = await bot.get_webhook_info()
            except TelegramError as error:
                log.warning("readiness: getWebhookInfo failed: %s", error)
                info = None
            self._webhook_info = (now, info)
        return info


class Monitor:
    """The endpoints over the running bot's parts (``data``) and its meter."""

    def __init__(self, data: BotData, meter: PrometheusMeter, readiness: Readiness) -> None:
        self.data = data
        self.meter = meter
        self.readiness = readiness
        self.runner: web.AppRunner | None = None

    def application(self) -> web.Application:
        app = web.Application(client_max_size=1024)
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        return app

    async def start(self, listen: str, port: int) -> None:
        """Serve on ``listen:port`` until ``stop``."""
        self.runner = web.AppRunner(self.application(), access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, listen, port).start()

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    async def healthz(self, request: web.Request) -> web.Response:
        """Alive: the process answers."""
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        """Ready, or 503 with why not, one reason a line."""
        reasons = [r for r in await self._reasons() if r is not None]
        if reasons:
            return web.Response(status=503, text="\n".join(reasons) + "\n")
        return web.Response(text="ready\n")

    async def metrics(self, request: web.Request) -> web.Response:
        """Every series, what the database knows read first (a database that does not
        answer leaves those at their last value: the scrape itself never fails on it)."""
        try:
            await asyncio.wait_for(self._read_database(), DATABASE_PATIENCE)
        except Exception as error:  # the scrape goes on; /readyz says what is wrong
            log.warning("metrics: the database did not answer: %s", error)
        body = generate_latest(self.meter.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _read_database(self) -> tuple[int, float | None]:
        queries = self.data.queries
        depth, oldest = await queries.posts.outbox_census()
        self.meter.outbox.set(depth)
        age = 0.0 if oldest is None else max(0.0, self.readiness.clock() - oldest)
        self.meter.outbox_oldest.set(age)
        self.meter.tournaments.set(len(await queries.tournaments.live_tournaments()))
        return depth, oldest

    async def _reasons(self) -> list[str | None]:
        reasons = [await self.readiness.updates(self.data.bot)]
        try:
            depth, oldest = await asyncio.wait_for(self._read_database(), DATABASE_PATIENCE)
        except TimeoutError:
            return [*reasons, f"database: no answer within {DATABASE_PATIENCE:.0f} s"]
        except Exception as error:
            return [*reasons, f"database: {type(error).__name__}: {error}"]
        if oldest is not None and self.readiness.clock() - oldest > OUTBOX_STUCK:
            age = self.readiness.clock() - oldest
            reasons.append(f"outbox: {depth} post(s) owed, the oldest for {age:.0f} s")
        return reasons


def watch(meter: PrometheusMeter, data: BotData) -> None:
    """The levels read from the running bot at each scrape: live lobbies and matches by
    variant (the service's memory of live tables), the thinking pool's queue, the lanes'
    backlog."""

    def tables(status: str) -> Callable[[], dict[tuple[str, ...], float]]:
        def read() -> dict[tuple[str, ...], float]:
            census = data.service.tables.census()
            return {(variant,): n for (s, variant), n in census.items() if s == status}

        return read

    meter.level("kozel_live_lobbies", "Lobbies open, by variant.", ("variant",), tables("lobby"))
    meter.level(
        "kozel_live_matches", "Matches being played, by variant.", ("variant",), tables("playing")
    )
    meter.level(
        "kozel_thinking_queue",
        "Computer decisions and reviews asked of the thinking pool and not finished.",
        (),
        lambda: {(): data.thinker.backlog},
    )
    meter.level(
        "kozel_lane_backlog",
        "Messages waiting on the send lanes (table edits and replies).",
        (),
        lambda: {(): data.presenter.backlog},
    )


async def start(data: BotData, meter: PrometheusMeter, *, webhook: bool) -> Monitor:
    """Serve the endpoints on the settings' ``metrics_listen:metrics_port``."""
    settings = data.settings
    watch(meter, data)
    monitor = Monitor(data, meter, Readiness(meter, webhook, settings.poll_timeout))
    await monitor.start(settings.metrics_listen, settings.metrics_port)
    log.info("metrics on http://%s:%d/metrics", settings.metrics_listen, settings.metrics_port)
    return monitor
