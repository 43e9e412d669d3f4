"""How long the bot takes to answer (issue #33): every update is timed from the moment the
application takes it up to the end of its handlers, and told to the meter by kind.

Two ``TypeHandler``s bracket the bot's own handlers: ``FIRST`` runs before every other
group and notes the start, ``LAST`` after all of them and reports the time (PTB runs one
update's groups one after another in one task, so the start travels in a context
variable). A press is answered inside its handler (``handlers.press``), so its time is the
press→answer latency; a command's reply is queued on its chat's lane by then (the lane
sends it within the chat's flood window), so a command's time is the bot's own share.
A Mini App move is timed by its route (``handlers.webapp.server``).
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from typing import Any

from telegram import Update
from telegram.ext import Application, TypeHandler

from handlers.deps import Context
from kozelbot.core import callbacks
from kozelbot.core.metrics import Meter

FIRST, LAST = -1000, 1000
"""The handler groups that bracket every other (``handlers.register`` uses 0)."""

_started: ContextVar[float | None] = ContextVar("update_started", default=None)


def kind_of(update: Update) -> str | None:
    """What an update is, as the press latency names it: ``card`` (a hand's button),
    ``button`` (any other), ``command``; ``None``: not timed."""
    if update.callback_query is not None:
        button = callbacks.parse(update.callback_query.data)
        return "card" if isinstance(button, callbacks.HandButton) else "button"
    message = update.message
    if message is not None and message.text is not None and message.text.startswith("/"):
        return "command"
    return None


def time_updates(application: Application[Any, Any, Any, Any, Any, Any], meter: Meter) -> None:
    """Count every update and time what the bot does with it (see the module)."""

    async def first(update: object, context: Context) -> None:
        meter.update()
        _started.set(time.perf_counter())

    async def last(update: object, context: Context) -> None:
        started = _started.get()
        if started is None or not isinstance(update, Update):
            return
        kind = kind_of(update)
        if kind is not None:
            meter.press(kind, time.perf_counter() - started)

    application.add_handler(TypeHandler(Update, first), group=FIRST)
    application.add_handler(TypeHandler(Update, last), group=LAST)
