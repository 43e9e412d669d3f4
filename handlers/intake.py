"""No update lost to a crash (issue #32): every update is kept in the inbox before Telegram
is told it arrived, and deleted once handled.

Telegram forgets an update as soon as a later ``getUpdates`` offset confirms it, and PTB's
updater asks for the next batch while the previous one is still being handled: a bot killed
then (SIGKILL, a power cut) used to lose the presses and commands in flight. Now:

1. ``received`` reads every batch the long poll answers, in the transport, before PTB sees it
   and so before the next ``getUpdates`` can confirm it, and writes it to the inbox in one
   transaction (with the deletion of the updates handled since the previous batch). If the
   write fails, the poll fails too (``NetworkError``): PTB asks again with the same offset,
   and Telegram sends the batch again.
2. ``DONE``, a handler after every other, notes each handled update; the notes are deleted
   with the next batch, or after ``FLUSH_AFTER`` seconds without one.
3. At a start, ``replay`` hands whatever the inbox still holds to the application before the
   first poll. Telegram sends again what was not confirmed yet; ``GATE``, a handler before
   every other, lets only the first of the two through. At a stop (SIGTERM), ``handle_left``
   handles what the stop kept from reaching the application (the poll it cut).

**Decision** (a move exactly once, the rest at least once): the move a press makes deletes
the press from the inbox in its own transaction (``storage.inbox.settle``), so a move
committed just before a crash is not handed over again (its press may stay unanswered: the
table and the hand show the move). Any other update handled in the last ``FLUSH_AFTER``
seconds before a crash is handled again after it: a refused press is refused again, a
command may be answered twice. Behind a webhook, PTB answers Telegram before the update is
handled, and nothing is kept: a webhook bot may still lose an update in flight to a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from telegram import Update
from telegram.error import NetworkError
from telegram.ext import Application, ApplicationHandlerStop, TypeHandler

from handlers.deps import Context
from kozelbot.tables.queries import UpdateInbox

log = logging.getLogger(__name__)

GATE, DONE = -2000, 2000
"""The handler groups around every other (the bot's own use -1000 to 1000)."""
FLUSH_AFTER = 1.0
"""Seconds a handled update may stay in the inbox when no new batch carries its deletion."""


class Intake:
    """The inbox's side of the update loop (see the module)."""

    def __init__(self) -> None:
        self.inbox: UpdateInbox | None = None
        """Set once storage is open (``kozelbot.app``); until then nothing is kept."""
        self._handled: list[int] = []
        self._replayed: dict[int, bool] = {}
        """Updates handed over from the inbox at the start → whether one copy went in."""
        self._flush: asyncio.TimerHandle | None = None
        self._flushing: set[asyncio.Task[None]] = set()

    async def received(self, body: bytes) -> None:
        """Keep the updates of a ``getUpdates`` answer before it is read (the transport's
        ``journal``); a failed write fails the poll."""
        if self.inbox is None:
            return
        try:
            answer = json.loads(body)
            results = answer.get("result") if isinstance(answer, dict) else None
        except ValueError:
            return  # not JSON: PTB reports it as it does today
        updates = [
            (item["update_id"], json.dumps(item, ensure_ascii=False, separators=(",", ":")))
            for item in results or ()
            if isinstance(item, dict) and isinstance(item.get("update_id"), int)
        ]
        handled, self._handled = self._handled, []
        if not updates and not handled:
            return
        try:
            # shielded: a stop cancels the poll, but a batch read must be written whole
            # (``handle_left`` then handles it)
            await asyncio.shield(self.inbox.keep(updates, handled))
        except Exception as error:
            self._handled = handled + self._handled
            raise NetworkError(f"the inbox could not keep the updates: {error}") from error

    def finished(self, update_id: int) -> None:
        """An update was handled: delete it from the inbox with the next batch, or soon."""
        self._handled.append(update_id)
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(FLUSH_AFTER, self._start_flush)

    def _start_flush(self) -> None:
        self._flush = None
        task = asyncio.get_running_loop().create_task(self.flush())
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def flush(self) -> None:
        """Delete the updates handled since the last write."""
        handled, self._handled = self._handled, []
        if not handled or self.inbox is None:
            return
        try:
            await self.inbox.done(handled)
        except Exception as error:  # kept for the next batch; handled again after a crash
            self._handled = handled + self._handled
            log.warning("could not mark %d update(s) handled: %s", len(handled), error)

    async def replay(self, application: Application[Any, Any, Any, Any, Any, Any]) -> int:
        """Hand the updates the inbox still holds (received before a crash, not handled) to
        the application, oldest first; how many."""
        if self.inbox is None:
            return 0
        waiting = await self.inbox.waiting()
        for update_id, payload in waiting:
            await application.update_queue.put(self._handed_over(update_id, payload, application))
        if waiting:
            log.info("handling %d update(s) received before the restart", len(waiting))
        return len(waiting)

    async def handle_left(self, application: Application[Any, Any, Any, Any, Any, Any]) -> int:
        """At a stop, once the application has handled every update it was handed: handle
        the updates kept and never handed over (the stop cut the poll that read them, after
        they were kept and maybe confirmed); how many."""
        await self.flush()
        if self.inbox is None:
            return 0
        left = await self.inbox.waiting()
        for update_id, payload in left:
            await application.process_update(self._handed_over(update_id, payload, application))
        return len(left)

    def _handed_over(
        self, update_id: int, payload: str, application: Application[Any, Any, Any, Any, Any, Any]
    ) -> Update:
        """A kept update as the application reads it, noted for ``GATE`` (one copy only)."""
        self._replayed[update_id] = False
        return Update.de_json(json.loads(payload), application.bot)

    async def close(self) -> None:
        """Write the last deletions (the bot is stopping)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        for task in list(self._flushing):
            with contextlib.suppress(Exception):
                await task
        await self.flush()

    def register(self, application: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """The gate before every handler and the note after them."""

        async def gate(update: object, context: Context) -> None:
            if not isinstance(update, Update):
                return
            if update.update_id in self._replayed:
                if self._replayed[update.update_id]:
                    raise ApplicationHandlerStop  # Telegram's copy of one handed over
                self._replayed[update.update_id] = True
            if self.inbox is not None:
                self.inbox.handling(update.update_id)  # a move it makes settles it

        async def done(update: object, context: Context) -> None:
            if isinstance(update, Update):
                self.finished(update.update_id)

        application.add_handler(TypeHandler(Update, gate), group=GATE)
        application.add_handler(TypeHandler(Update, done), group=DONE)
