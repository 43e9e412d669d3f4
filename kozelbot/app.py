"""The composition root: builds the PTB ``Application`` and wires storage, service and handlers,
and runs the bot's processes — the single bot (``run``: polling or a webhook), the intake and
the workers of a bot past one process (``run_intake``, ``run_worker``) — and ``export_match``.

The only module of ``kozelbot`` that sees Telegram, the database and the handlers at once;
nothing imports it but ``kozelbot.__main__`` (and tests/benchmarks that run the real bot).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    Bot,
    LinkPreviewOptions,
)
from telegram.constants import ParseMode
from telegram.error import InvalidToken, NetworkError
from telegram.ext import Application, ApplicationBuilder, ContextTypes, Defaults

import handlers
from handlers import monitor
from handlers.delivery import FloodGate
from handlers.deps import BotData
from handlers.intake import Intake
from handlers.intake_hook import serve as serve_hook
from handlers.intake_poll import serve as serve_polling
from handlers.lifetime import (
    BootstrapFailureFilter,
    configure_logs,
    run_until_stopped,
    stop_on_signals,
)
from handlers.menus import set_command_menus
from handlers.monitor import Monitor
from handlers.resume import resume_games
from handlers.showing import wire_showing
from handlers.throttle import Throttle
from handlers.timing import time_updates
from handlers.tournament_run import TournamentRunner
from handlers.transport import AiohttpRequest
from handlers.webapp.server import WebApp
from handlers.worker import SharedCalls, Worker
from kozelbot.computer.coach import Coach
from kozelbot.computer.thinking import Thinker
from kozelbot.config import Settings
from kozelbot.core.metrics import OFF, Meter, PrometheusMeter
from kozelbot.tables.director import Director
from kozelbot.tables.queries import Queries
from kozelbot.tables.service import GameService
from kozelbot.views import replay
from kozelbot.views.replay import NotExportable, ReplayFile
from storage import Storage
from storage.db import open_problem
from storage.flood import FloodJournal
from storage.listen import GameChanges
from storage.postgres import PostgresConnection

log = logging.getLogger("kozelbot")


class AppData(BotData):
    """``BotData`` as the composition root holds it: with the storage it opened (and
    closes), and the operator's endpoints it serves. Handlers see ``BotData``, whose
    ``queries`` are storage's parts."""

    storage: Storage
    monitor: Monitor | None = None
    intake: Intake
    webhook: bool = False
    """Updates arrive by webhook (``run``), not by long polling: readiness asks Telegram."""
    worker: Worker | None = None
    """This process is one worker of many (``run_worker``)."""


@dataclass(frozen=True)
class Role:
    """What a worker's ``_open`` is handed: its name, the flood gate and its shared journal."""

    name: str
    gate: FloodGate
    calls: SharedCalls


KozelApplication = Application[Any, Any, Any, Any, AppData, Any]


def build_application(
    settings: Settings,
    *,
    rng: random.Random | None = None,
    entropy: Callable[[int], bytes] | None = None,
    worker: str | None = None,
) -> KozelApplication:
    """The bot, ready for ``run_polling`` (or ``async with`` + ``start`` in tests); with
    ``worker`` (its name), one worker of many (``run_worker``): no updater, its updates
    read from the inbox of the places it holds (``handlers.worker``).

    ``rng`` makes the reproducible choices (table seeds, computers); ``entropy`` what must
    not be guessed (match secrets, invite links): ``secrets`` unless a test or a seeded
    sandbox passes a seeded source to replay matches exactly."""
    token = settings.token
    if not token:
        raise ValueError("KOZEL_BOT_TOKEN is not set")
    root = settings.api_url.rstrip("/")
    meter = PrometheusMeter(time.time) if settings.metrics_port else OFF
    intake = Intake()
    calls = SharedCalls(None) if worker else None
    limiter = FloodGate(
        overall_max_rate=settings.overall_max_rate,
        group_max_rate=settings.group_max_rate,
        group_period=settings.group_period,
        private_max_rate=settings.private_max_rate,
        private_period=settings.private_period,
        # the windows outlive a restart; a worker's are shared with the other workers
        journal=calls or FloodJournal.beside(settings.db_path),
        meter=meter,
    )
    defaults = Defaults(
        parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True)
    )
    builder = ApplicationBuilder()
    if worker:
        builder = builder.updater(None)
    application: KozelApplication = (
        builder.token(token)
        .base_url(f"{root}/bot")
        .base_file_url(f"{root}/file/bot")
        .defaults(defaults)
        .request(AiohttpRequest())
        .get_updates_request(
            AiohttpRequest(connection_pool_size=1, on_answer=meter.heard, journal=intake.received)
        )
        .rate_limiter(limiter)
        .concurrent_updates(True)
        .context_types(ContextTypes(bot_data=AppData))
        .post_init(
            lambda app: _open(
                app,
                settings,
                meter,
                intake,
                rng or random.Random(),
                entropy or secrets.token_bytes,
                Role(worker, limiter, calls) if worker and calls else None,
            )
        )
        .post_stop(_flush)
        .post_shutdown(_close)
        .build()
    )
    handlers.register(application)
    intake.register(application)
    if settings.metrics_port:  # off, nothing is timed
        time_updates(application, meter)
    return application


async def _open(
    application: KozelApplication,
    settings: Settings,
    meter: Meter,
    intake: Intake,
    rng: random.Random,
    entropy: Callable[[int], bytes],
    role: Role | None = None,
) -> None:
    """post_init: open storage, build the service, resume every unfinished game; serve the
    operator's endpoints when metrics are on. A worker (``role``) resumes nothing here: it
    takes each place's games over as it claims the place (``handlers.worker``)."""
    data = application.bot_data
    data.settings = settings
    data.meter = meter
    data.intake = intake
    data.presses = Throttle(settings.press_burst, settings.press_rate)
    data.commands = Throttle(settings.command_burst, settings.command_rate)
    data.bot = application.bot
    assert application.job_queue is not None
    data.job_queue = application.job_queue
    data.storage = storage = await Storage.open(
        settings.database, exclusive=role is None, meter=meter
    )
    data.queries = Queries(
        storage.people,
        storage.boards,
        storage.posts,
        storage.games,
        storage.tournaments,
        storage.notices,
        storage.inbox,
    )
    intake.inbox = storage.inbox
    data.thinker = Thinker(settings.ai_budget_ms, settings.ai_workers or None, meter)
    data.service = GameService(
        data.storage.games,
        rng=rng,
        lobby_ttl=settings.lobby_minutes * 60,
        entropy=entropy,
        thinker=data.thinker,
        hidden_wait=settings.hidden_wait,
    )
    data.coach = Coach(data.storage.games, data.thinker)
    wire_showing(data, application.bot)  # the presenter and its parts
    director = Director(
        data.storage.tournaments,
        data.service,
        clock=data.service.clock,
        rng=rng,
        minute=settings.tournament_minute,
    )
    data.tournaments = TournamentRunner(data, director)
    if role is None:
        await set_command_menus(application.bot, settings.language)  # (workers: the intake)
        await resume_games(data)
        await data.tournaments.resume()
        await data.presenter.resume_posts()
    else:
        role.calls.places = storage.places
        data.worker = worker = Worker(
            data, storage.places, role.name, application.process_update, role.gate, role.calls
        )
        data.holds = worker.holds
        connection = storage.database.connection
        if isinstance(connection, PostgresConnection):  # what the other workers commit
            worker.listen = GameChanges(connection).run
    if settings.webapp_url:
        data.webapp = WebApp(data)
        if settings.webapp_port:
            await data.webapp.start(settings.webapp_listen, settings.webapp_port)
    if isinstance(meter, PrometheusMeter):
        data.monitor = await monitor.start(data, meter, webhook=data.webhook)
    if role is None:
        await intake.replay(application)  # presses and commands a crash left unhandled


SHUTDOWN_FLUSH_SECONDS = 5.0


async def _flush(application: KozelApplication) -> None:
    """post_stop: send what is still queued (deal results, last edits) while the bot can,
    then stop sending. Updates and jobs have stopped by now, and the flood gate and the HTTP
    session are still open: ``app.shutdown()``, which closes them, comes next."""
    data = application.bot_data
    if data.webapp is not None:  # no more moves from the page
        await data.webapp.stop()
    if data.monitor is not None:
        await data.monitor.stop()
    if hasattr(data, "intake") and data.worker is None:  # what the stop cut off
        await data.intake.handle_left(application)
    if hasattr(data, "presenter"):
        try:
            await data.presenter.drain(timeout=SHUTDOWN_FLUSH_SECONDS)
        except TimeoutError:
            log.warning("shutting down with messages still queued")
        await data.presenter.close()


async def _close(application: KozelApplication) -> None:
    """post_shutdown: stop sending (if ``_flush`` did not run: the bot never started), close
    the database and the thinking pool."""
    data = application.bot_data
    if data.monitor is not None:  # (if _flush did not run)
        await data.monitor.stop()
    if hasattr(data, "presenter") and not data.presenter.closed:
        await data.presenter.close()
    if hasattr(data, "thinker"):
        data.thinker.close()
    if hasattr(data, "storage"):
        if hasattr(data, "intake"):
            await data.intake.close()  # the last handled updates out of the inbox
        await data.storage.close()


ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
"""The updates the bot asks Telegram for."""
BOOTSTRAP_RETRIES = 3
"""Start-up attempts beyond the first when the Bot API server cannot be reached."""


def run(
    settings: Settings,
    *,
    webhook: str | None = None,
    port: int = 8443,
    listen: str = "127.0.0.1",
) -> int:
    """Run the bot until interrupted (polling, or a webhook server); the process exit code.

    With ``webhook`` (the public URL Telegram should POST updates to) the bot serves plain HTTP
    on ``listen:port`` at that URL's path, behind whatever terminates TLS, and checks every POST
    for a secret token drawn afresh at each start.
    """
    allowed_updates = ALLOWED_UPDATES
    configure_logs(settings)
    logging.getLogger("telegram.ext").addFilter(BootstrapFailureFilter())
    if (problem := asyncio.run(open_problem(settings.database))) is not None:
        log.error("%s", problem)
        return 1
    application = build_application(settings)
    stop_on_signals()
    application.bot_data.webhook = webhook is not None
    try:
        if webhook:
            application.run_webhook(
                listen=listen,
                port=port,
                url_path=urlsplit(webhook).path.lstrip("/"),
                webhook_url=webhook,
                secret_token=secrets.token_urlsafe(32),
                allowed_updates=allowed_updates,
                bootstrap_retries=BOOTSTRAP_RETRIES,
                stop_signals=None,  # ours (stop_on_signals)
            )
        else:
            application.run_polling(
                timeout=settings.poll_timeout,
                bootstrap_retries=BOOTSTRAP_RETRIES,
                allowed_updates=allowed_updates,
                stop_signals=None,  # ours (stop_on_signals)
            )
    except InvalidToken:
        log.error(
            "the Bot API server at %s refused the token (check KOZEL_BOT_TOKEN)", settings.api_url
        )
        return 1
    except NetworkError as error:
        log.error(
            "cannot reach the Bot API server at %s: %s (check KOZEL_API_URL and the network)",
            settings.api_url,
            error,
        )
        return 1
    return 0


async def export_match(database: str, game_id: int) -> ReplayFile:
    """``kozelbot export``: the replay file of a finished match, read from the database (a
    SQLite file or a PostgreSQL URL; ``NotExportable`` if there is no such match or it is
    still being played)."""
    storage = await Storage.open(database)
    try:
        table = await storage.games.game(game_id)
        if table is None:
            raise NotExportable(f"no match {game_id}")
        deals = await storage.games.deals(game_id)
        return replay.export(table, deals, await storage.games.moves(game_id))
    finally:
        await storage.close()


def worker_name(settings: Settings) -> str:
    """This worker's name: ``KOZEL_WORKER_NAME``, else the host's name and the process id."""
    return settings.worker_name or f"{socket.gethostname()}:{os.getpid()}"


def _needs_postgresql(settings: Settings, what: str) -> str | None:
    if settings.database_url is None:
        return (
            f"{what}: KOZEL_DATABASE_URL is not set (the intake and the workers share a"
            " PostgreSQL database; one process on SQLite is plain `kozelbot`)"
        )
    return None


def run_worker(settings: Settings) -> int:
    """``kozelbot worker``: one of any number of workers (``handlers.worker``), until
    interrupted; the process exit code."""
    configure_logs(settings)
    problem = _needs_postgresql(settings, "worker") or asyncio.run(
        open_problem(settings.database, exclusive=False)
    )
    if problem is not None:
        log.error("%s", problem)
        return 1
    application = build_application(settings, worker=worker_name(settings))
    stop_on_signals()
    try:
        run_until_stopped(application, lambda: application.bot_data.worker)
    except InvalidToken:
        log.error("the Bot API server at %s refused the token", settings.api_url)
        return 1
    return 0


def run_intake(
    settings: Settings,
    *,
    webhook: str | None = None,
    port: int = 8443,
    listen: str = "127.0.0.1",
) -> int:
    """``kozelbot intake``: Telegram's updates into the inbox for the workers — by long
    polling, or behind a webhook (``webhook``: the public URL; served on ``listen:port``) —
    until interrupted; the process exit code (1: the database or the token refused)."""
    configure_logs(settings)
    problem = _needs_postgresql(settings, "intake") or asyncio.run(open_problem(settings.database))
    if problem is not None:
        log.error("%s", problem)
        return 1
    stop_on_signals()
    loop = asyncio.get_event_loop()
    task = loop.create_task(_intake(settings, webhook, port, listen))
    try:
        return loop.run_until_complete(task)
    except (SystemExit, KeyboardInterrupt):  # a signal: the batch being kept ends whole
        task.cancel()
        loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
        return 0


async def _intake(settings: Settings, webhook: str | None, port: int, listen: str) -> int:
    root = settings.api_url.rstrip("/")
    bot = Bot(
        settings.token or "",
        base_url=f"{root}/bot",
        base_file_url=f"{root}/file/bot",
        request=AiohttpRequest(),
        get_updates_request=AiohttpRequest(connection_pool_size=1),
    )
    storage = await Storage.open(settings.database, exclusive=True)
    try:
        await bot.initialize()
        await set_command_menus(bot, settings.language)
        if webhook:
            await serve_hook(bot, storage.places, webhook, port, listen, ALLOWED_UPDATES)
        else:
            log.info("intake: polling %s into the inbox", settings.api_url)
            await serve_polling(bot, storage.places, settings.poll_timeout, ALLOWED_UPDATES)
    except InvalidToken:
        log.error(
            "the Bot API server at %s refused the token (check KOZEL_BOT_TOKEN)", settings.api_url
        )
        return 1
    finally:
        with contextlib.suppress(Exception):
            await bot.shutdown()
        await storage.close()
    return 0
