"""How a process of the bot stops: its signals, and PTB's start-up failures told in one line.

The single bot, the intake and every worker stop the same way (``stop_on_signals``): the
first SIGINT, SIGTERM or SIGABRT ends the running loop with ``SystemExit`` and the orderly
stop follows; a repeated signal while stopping is only logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

log = logging.getLogger("kozelbot")


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
