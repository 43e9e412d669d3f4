"""How a process of the bot runs and stops: its signals, PTB's start-up failures told in one
line, and a worker's run (``run_until_stopped``).

The single bot, the intake and every worker stop the same way (``stop_on_signals``): the
first SIGINT, SIGTERM or SIGABRT ends the running loop with ``SystemExit`` and the orderly
stop follows; a repeated signal while stopping is only logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from typing import Any

from telegram.ext import Application

from handlers.worker import Worker
from kozelbot.config import Settings
from kozelbot.core import logs

log = logging.getLogger("kozelbot")


def configure_logs(settings: Settings) -> None:
    """Every process's log: its format and level, the token kept out, httpx quiet."""
    logs.configure(settings.log_level, settings.log_format, settings.token)
    logging.getLogger("httpx").setLevel(logging.WARNING)


def stop_on_signals() -> None:
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


class BootstrapFailureFilter(logging.Filter):
    """PTB logs a failed start-up (unreachable server, refused token) with a traceback;
    ``run`` explains it in one line instead, so keep PTB's line but drop the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().endswith("Aborting.") or "Invalid token" in record.getMessage():
            record.exc_info = None
            record.exc_text = None
        return True


def run_until_stopped(
    application: Application[Any, Any, Any, Any, Any, Any], worker: Callable[[], Worker | None]
) -> None:
    """A worker's process (``kozelbot worker``): start the application as ``run_polling``
    does but with no updater, then the ``worker`` its start built, and run until a signal;
    then the worker gives its places up (the others take them at once) and the application
    stops as ``run_polling``'s does."""
    loop = asyncio.get_event_loop()
    try:
        loop.run_until_complete(application.initialize())
        if application.post_init is not None:
            loop.run_until_complete(application.post_init(application))
        loop.run_until_complete(application.start())
        running = worker()
        if running is not None:
            loop.run_until_complete(running.start())
        loop.run_forever()  # until a signal (SystemExit)
    except (SystemExit, KeyboardInterrupt):
        pass
    finally:
        loop.run_until_complete(_stop(application, worker()))


async def _stop(
    application: Application[Any, Any, Any, Any, Any, Any], worker: Worker | None
) -> None:
    if worker is not None:
        await worker.stop()
    await stop_application(application)


async def stop_application(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Stop as ``run_polling`` does: the updater if it polls, the application and its
    ``post_stop`` if it runs, then its shutdown and ``post_shutdown``."""
    updater = application.updater
    if updater is not None and updater.running:
        await updater.stop()
    if application.running:
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown is not None:
        await application.post_shutdown(application)
