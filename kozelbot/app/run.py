"""The bot's processes, each until a signal stops it: the single bot (``run``: polling or a
webhook), the intake and the workers of a bot past one process (``run_intake``,
``run_worker``), and ``export_match`` for the command line; each checks the database first
and turns a bad setting into one line and exit code 1."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import signal
import socket
import sqlite3
from urllib.parse import urlsplit

from aiohttp import web
from telegram import (
    Bot,
)
from telegram.error import InvalidToken, NetworkError

from handlers.delivery import Backoff
from handlers.intake_hook import IntakeHook
from handlers.intake_poll import IntakePoller
from handlers.transport import AiohttpRequest
from kozelbot.app.build import KozelApplication, build_application, set_command_menus
from kozelbot.config import Settings
from kozelbot.core import logs
from kozelbot.views import replay
from kozelbot.views.replay import NotExportable, ReplayFile
from storage import Storage
from storage.errors import DatabaseInUse, DatabaseUnavailable, SchemaTooNew, StorageError
from storage.postgres import is_database_url, redact

log = logging.getLogger("kozelbot")


def _stop_on_signals() -> None:
    """SIGINT, SIGTERM and SIGABRT stop the bot once, as PTB's own handlers do (SystemExit
    out of the running loop, then the orderly stop); a repeated signal while it is stopping
    is only logged. PTB's handlers would raise again, out of the shutdown hooks, leaving the
    database's worker thread open and the process hung."""
    loop = asyncio.new_event_loop()  # the loop PTB's run_polling/run_webhook then runs
    asyncio.set_event_loop(loop)
    received: list[int] = []

    def stop(sig: int) -> None:
        received.append(sig)
        if len(received) == 1:
            raise SystemExit(0)
        log.warning("already stopping (signal %d again): finishing the shutdown first", sig)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGABRT):
        with contextlib.suppress(NotImplementedError):  # (event loops without signals)
            loop.add_signal_handler(sig, stop, sig)


async def database_problem(database: str, *, exclusive: bool = True) -> str | None:
    """Open (and migrate) the database once before the bot starts: what is wrong with it in
    one line an operator can act on (unreachable, refused login, a schema newer than this
    release), or ``None``."""
    try:
        opened = await Storage.open(database, exclusive=exclusive)
    except SchemaTooNew as error:
        return f"database: {error} (run the newer release, or restore a backup)"
    except DatabaseUnavailable as error:
        return f"database: {error} (check KOZEL_DATABASE_URL and the server)"
    except DatabaseInUse as error:
        return f"database: {error}"
    except (StorageError, OSError, sqlite3.Error) as error:
        setting = "KOZEL_DATABASE_URL" if is_database_url(database) else "KOZEL_DB_PATH"
        return f"database {redact(database)}: {error} (check {setting})"
    await opened.close()
    return None


ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
"""The updates the bot asks Telegram for."""
BOOTSTRAP_RETRIES = 3
"""Start-up attempts beyond the first when the Bot API server cannot be reached."""


class _BootstrapFailureFilter(logging.Filter):
    """PTB logs a failed start-up (unreachable server, refused token) with a traceback;
    ``run`` explains it in one line instead, so keep PTB's line but drop the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().endswith("Aborting.") or "Invalid token" in record.getMessage():
            record.exc_info = None
            record.exc_text = None
        return True


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
    logs.configure(settings.log_level, settings.log_format, settings.token)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("telegram.ext").addFilter(_BootstrapFailureFilter())
    if (problem := asyncio.run(database_problem(settings.database))) is not None:
        log.error("%s", problem)
        return 1
    application = build_application(settings)
    _stop_on_signals()
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
                stop_signals=None,  # ours (_stop_on_signals)
            )
        else:
            application.run_polling(
                timeout=settings.poll_timeout,
                bootstrap_retries=BOOTSTRAP_RETRIES,
                allowed_updates=allowed_updates,
                stop_signals=None,  # ours (_stop_on_signals)
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
    logs.configure(settings.log_level, settings.log_format, settings.token)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    problem = _needs_postgresql(settings, "worker") or asyncio.run(
        database_problem(settings.database, exclusive=False)
    )
    if problem is not None:
        log.error("%s", problem)
        return 1
    application = build_application(settings, worker=worker_name(settings))
    _stop_on_signals()
    loop = asyncio.get_event_loop()
    started = False
    try:
        loop.run_until_complete(application.initialize())
        assert application.post_init is not None
        loop.run_until_complete(application.post_init(application))
        loop.run_until_complete(application.start())
        started = True
        worker = application.bot_data.worker
        assert worker is not None
        loop.run_until_complete(worker.start())
        loop.run_forever()  # until a signal (SystemExit)
    except (SystemExit, KeyboardInterrupt):
        pass
    except InvalidToken:
        log.error("the Bot API server at %s refused the token", settings.api_url)
        return 1
    finally:
        loop.run_until_complete(_stop_worker(application, started))
    return 0


async def _stop_worker(application: KozelApplication, started: bool) -> None:
    """Give the places up (the others take them at once), then stop as ``run`` does."""
    worker = application.bot_data.worker
    if worker is not None:
        await worker.stop()
    if started and application.running:
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown is not None:
        await application.post_shutdown(application)


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
    logs.configure(settings.log_level, settings.log_format, settings.token)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    problem = _needs_postgresql(settings, "intake") or asyncio.run(
        database_problem(settings.database)
    )
    if problem is not None:
        log.error("%s", problem)
        return 1
    _stop_on_signals()
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
            await _serve_hook(bot, storage, webhook, port, listen)
        else:
            await bot.delete_webhook()
            poller = IntakePoller(
                bot,
                storage.places,
                poll_timeout=settings.poll_timeout,
                allowed_updates=ALLOWED_UPDATES,
                backoff=Backoff(random.Random()),
            )
            log.info("intake: polling %s into the inbox", settings.api_url)
            await poller.run()
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


async def _serve_hook(bot: Bot, storage: Storage, webhook: str, port: int, listen: str) -> None:
    """Serve the webhook (``handlers.intake_hook``) and point Telegram at it, with a secret
    token drawn afresh at each start; until cancelled."""
    secret = secrets.token_urlsafe(32)
    hook = IntakeHook(bot, storage.places, secret)
    runner = web.AppRunner(hook.app("/" + urlsplit(webhook).path.lstrip("/")))
    await runner.setup()
    try:
        await web.TCPSite(runner, listen, port).start()
        await bot.set_webhook(webhook, secret_token=secret, allowed_updates=ALLOWED_UPDATES)
        log.info("intake: %s (served on %s:%d) into the inbox", webhook, listen, port)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
