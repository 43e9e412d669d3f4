"""The Mini App's open page streams: one table's change sent to all of them (issue #29 item 4).

A stream is a Server-Sent Events answer held open by its own task, which writes the first
page, the keep-alives and, at the end, an ``event: closed`` saying why (``hub``'s limits,
its initData too old). What changes in between is not written by that task: a committed
change of a game starts one *broadcast* for the game (changes arriving meanwhile coalesce
into one more), which walks the game's readers, takes each one's page from ``pages`` (built
once per distinct seat and language, then shared) and, where what that reader sees changed,
writes the shared, already framed chunk straight to its connection. No task wakes per stream
and per change: 1,000 streams cost about a millisecond or two per change instead of a task
switch, a page build and a JSON dump each. The broadcast gives the event loop back every
``BATCH`` readers, so a press arriving meanwhile waits for one batch, not for all of them.

**Decision**: a reader whose connection holds more than ``SLOW_BUFFER`` unsent bytes (a
page that stopped reading) is cut off; its page reconnects when it reads again. An
onlooker's membership of the group is asked again at a change at most every ``RECHECK``
seconds (by its own task: that may wait for Telegram).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiohttp import HttpVersion11, web

from handlers.webapp.auth import WebAppUser
from handlers.webapp.hub import Reader
from handlers.webapp.pages import Built, Pages
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table

if TYPE_CHECKING:
    from handlers.deps import BotData

BATCH = 100
"""Readers written between two yields of the event loop in a broadcast."""
SLOW_BUFFER = 1 << 20
"""Unsent bytes past which a reader's connection is cut off."""
RECHECK = 60.0
"""Seconds after which an onlooker's stream asks again, at the next change, whether they
are still one of the group (the answer is cached as long: ``deps.LOOKUP_TTL``)."""
STREAM_HEADERS = {"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}


def closing_text(reason: str, t: Translator) -> str:
    """What the page says when its stream was closed for ``reason``."""
    if reason == "replaced":
        return t("The table is open in another window")
    if reason == "full":
        return t("Too many people are watching this table: try again later")
    if reason == "expired":
        return t("This page is too old: open the table again from the chat")
    return t("Connection lost — reconnecting…")


class Streams:
    """The open streams over the bot's ``data``; ``table`` reads a game's latest committed
    table, ``may_watch`` refuses (403) someone who may not watch a chat's table; every
    stream answers with ``headers``."""

    def __init__(
        self,
        data: BotData,
        pages: Pages,
        table: Callable[[int], Awaitable[Table]],
        may_watch: Callable[[int, int], Awaitable[None]],
        headers: dict[str, str],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.data = data
        self.headers = {**headers, **STREAM_HEADERS}
        self.pages = pages
        self.table = table
        self.may_watch = may_watch
        self.clock = clock
        self._dirty: set[int] = set()
        self._broadcasts: dict[int, asyncio.Task[None]] = {}
        data.hub.broadcast = self.changed

    async def serve(
        self, request: web.Request, user: WebAppUser, t: Translator, table: Table, built: Built
    ) -> web.StreamResponse:
        """Hold the stream of ``table`` for ``user`` open (its first page ``built``) until it
        is to end."""
        settings = self.data.settings
        response = web.StreamResponse(headers=self.headers)
        direct = request.version >= HttpVersion11
        if direct:  # the broadcast frames its chunks itself
            response.enable_chunked_encoding()
        await response.prepare(request)
        expires = user.auth_date + settings.webapp_max_age

        def check() -> str | None:
            transport = request.transport
            if transport is None or transport.is_closing():
                return "gone"
            return "expired" if self.clock() > expires else None

        game_id = table.game_id
        seated = table.seat_of(user.user_id) is not None
        try:
            with self.data.hub.watch(
                game_id,
                user.user_id,
                seated=seated,
                check=check,
                per_person=settings.webapp_streams_per_person,
                per_game=settings.webapp_streams_per_game,
            ) as reader:
                reader.checked = time.monotonic()
                reader.transport = request.transport if direct else None
                await self._serve(response, reader, built, t)
        finally:
            latest = self.data.service.snapshot(game_id)
            at = None if latest is None else latest.seat_of(user.user_id)
            if at is not None and not self.data.hub.viewing(game_id, user.user_id):
                self.data.presenter.show_hand(game_id, at)  # the hand catches up
        return response

    async def _serve(
        self, response: web.StreamResponse, reader: Reader, built: Built, t: Translator
    ) -> None:
        """Write the first page, then what the broadcast leaves to this task (a keep-alive, a
        reader without a direct connection, an onlooker to check again), until the end."""
        with contextlib.suppress(ConnectionResetError):
            await self._write(response, reader, built)
            reader.t = t  # from now on the broadcasts write to it too
            latest = self.data.service.snapshot(reader.game_id)
            if latest is not None and latest.version != built.version:
                reader.changed = True  # a change came while the first page was written
            while True:
                await reader.wait()
                if reader.closing is not None:
                    if reader.closing != "gone":
                        reason = reader.closing
                        said = json.dumps(
                            {"reason": reason, "text": closing_text(reason, reader.t)},
                            ensure_ascii=False,
                        )
                        await response.write(f"event: closed\ndata: {said}\n\n".encode())
                    return
                if reader.changed:
                    reader.changed = reader.beat = False
                    found = await self._page_of(reader, check=True)
                    if found is None:
                        return
                    await self._write(response, reader, found)
                elif reader.beat:
                    reader.beat = False
                    await response.write(b": keep-alive\n\n")
                    reader.quiet_since = time.monotonic()

    async def _write(self, response: web.StreamResponse, reader: Reader, built: Built) -> None:
        if built.shown is not reader.last and built.shown != reader.last:
            await response.write(built.frame)
            reader.last = built.shown
            reader.quiet_since = time.monotonic()

    async def _page_of(self, reader: Reader, *, check: bool) -> Built | None:
        """The reader's page of the newest table (``None``: the stream is to end — the
        game is gone, or the onlooker is no longer one of the group)."""
        try:
            table = await self.table(reader.game_id)
            seat = table.seat_of(reader.user_id)
            if seat is None and check and time.monotonic() - reader.checked > RECHECK:
                reader.checked = time.monotonic()
                with contextlib.suppress(web.HTTPServiceUnavailable):
                    # Telegram did not answer: no decision; asked again after RECHECK
                    await self.may_watch(table.chat_id, reader.user_id)
        except web.HTTPException:
            return None
        reader.seated = seat is not None
        state = self.data.service.state_of(table) if table.state is not None else None
        return self.pages.get(table, state, seat, reader.t)

    # -- the broadcast ------------------------------------------------------------------

    def changed(self, game_id: int) -> None:
        """A change of the game was committed: broadcast it (once more, if one runs)."""
        self._dirty.add(game_id)
        running = self._broadcasts.get(game_id)
        if running is None or running.done():
            task = asyncio.get_running_loop().create_task(self._broadcast(game_id))
            self._broadcasts[game_id] = task
            task.add_done_callback(lambda _: self._forget(game_id, task))

    def _forget(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._broadcasts.get(game_id) is task:
            del self._broadcasts[game_id]

    async def _broadcast(self, game_id: int) -> None:
        """Send the game's newest pages to its readers until no change is left unsent."""
        hub = self.data.hub
        while game_id in self._dirty:
            self._dirty.discard(game_id)
            table = self.data.service.snapshot(game_id)
            if table is None:  # not in memory: each reader reads it itself
                for reader in hub.readers(game_id):
                    reader.changed = True
                    reader.nudge()
                continue
            state = self.data.service.state_of(table) if table.state is not None else None
            now = time.monotonic()
            for n, reader in enumerate(hub.readers(game_id), start=1):
                self._send(reader, table, state, now)
                if n % BATCH == 0:
                    await asyncio.sleep(0)
                    if game_id in self._dirty:
                        break  # a newer change: start over with it

    def _send(self, reader: Reader, table: Table, state: object, now: float) -> None:
        """One reader's page of ``table``, written to its connection if it changed."""
        if reader.closing is not None or reader.t is None:
            return
        seat = table.seat_of(reader.user_id)
        transport = reader.transport
        if transport is None or (seat is None and now - reader.checked > RECHECK):
            reader.changed = True  # its own task reads and writes it
            reader.nudge()
            return
        reader.seated = seat is not None
        built = self.pages.get(table, state, seat, reader.t)  # type: ignore[arg-type]
        if built.shown is reader.last or built.shown == reader.last:
            return
        if transport.is_closing() or transport.get_write_buffer_size() > SLOW_BUFFER:
            reader.close("gone")
            transport.abort()
            return
        transport.write(built.chunk)
        reader.last = built.shown
        reader.quiet_since = now
