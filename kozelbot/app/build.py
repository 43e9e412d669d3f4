"""The bot's ``Application``, built and wired: storage, the game service, the handlers, the
lanes; what its start (``post_init``), stop (``post_stop``) and shutdown do."""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from telegram import (
    Bot,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    LinkPreviewOptions,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import Application, ApplicationBuilder, ContextTypes, Defaults

import handlers
from handlers import monitor
from handlers.delivery import Backoff, FloodGate
from handlers.deps import BotData
from handlers.intake import Intake
from handlers.lifecycle import ChatLifecycle
from handlers.live import LiveMessages
from handlers.message_book import MessageBook
from handlers.monitor import Monitor
from handlers.outbox import Outbox
from handlers.presenter import Presenter
from handlers.publish import publish, sync_timer
from handlers.selection import Selections
from handlers.sender import Sender
from handlers.throttle import Throttle
from handlers.timing import time_updates
from handlers.tournament_run import TournamentRunner
from handlers.transport import AiohttpRequest
from handlers.webapp.server import WebApp
from handlers.worker import SharedCalls, Worker
from kozelbot.computer.coach import Coach
from kozelbot.computer.thinking import Thinker
from kozelbot.config import Settings
from kozelbot.core.i18n import LANGUAGES
from kozelbot.core.metrics import OFF, Meter, PrometheusMeter
from kozelbot.tables.director import Director
from kozelbot.tables.queries import Queries
from kozelbot.tables.service import GameService
from kozelbot.views.links import WebAppLinks
from storage import Storage
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
    # The presenter and its parts; what it meets about a chat goes to the chat lifecycle.
    translators = data.translators()
    # Retry jitter draws from its own RNG: the game's seeds stay reproducible.
    data.sender = Sender(application.bot, Backoff(random.Random()))
    data.messages = MessageBook(data.queries)
    data.selections = Selections()
    mini_app = settings.webapp_url
    data.links = links = (
        WebAppLinks(mini_app, settings.webapp_name, application.bot.username) if mini_app else None
    )
    live = LiveMessages(
        data.service,
        data.queries,
        data.sender,
        data.messages,
        data.selections,
        translators,
        links,
        data.hub.viewing,
    )
    outbox = Outbox(data.queries, data.service, data.sender, data.messages, translators.chat, links)
    data.presenter = Presenter(
        data.service,
        data.sender,
        data.messages,
        live,
        outbox,
        data.selections,
        translators,
        report=lambda event: data.lifecycle.met(event),
        group_interval=settings.group_interval,
        private_interval=settings.private_interval,
        reply_budget=settings.reply_budget,
        viewing=data.hub.viewing,
    )
    data.lifecycle = ChatLifecycle(
        data.service, data.queries, data.presenter, on_change=lambda change: publish(data, change)
    )
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
    if mini_app:
        data.webapp = WebApp(data)
        if settings.webapp_port:
            await data.webapp.start(settings.webapp_listen, settings.webapp_port)
    if isinstance(meter, PrometheusMeter):
        data.monitor = await monitor.start(data, meter, webhook=data.webhook)
    if role is None:
        await intake.replay(application)  # presses and commands a crash left unhandled


async def set_command_menus(bot: Bot, default_language: str) -> None:
    """The command menu per language and scope: the group commands in groups, the private
    ones in private chats (and by default); the default language's menu also serves every
    language the bot has no catalog for."""
    scopes = (
        (BotCommandScopeDefault(), True),
        (BotCommandScopeAllPrivateChats(), True),
        (BotCommandScopeAllGroupChats(), False),
    )
    for language in LANGUAGES:
        for scope, private in scopes:
            try:
                await bot.set_my_commands(
                    handlers.command_list(language, private),
                    scope=scope,
                    language_code=None if language == default_language else language,
                )
            except TelegramError as error:
                log.warning("could not set the command menu (%s): %s", language, error)


async def resume_games(data: AppData) -> int:
    """Continue every lobby and match found in storage; return how many."""
    tables = await data.storage.games.live_games()
    for table in tables:
        change = await data.service.resume(table.game_id)
        if change is None:
            continue
        publish(data, change)
        sync_timer(data, change.table)
    if tables:
        log.info("resumed %d game(s)", len(tables))
    return len(tables)


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
