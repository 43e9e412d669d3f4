"""The Mini App's HTTP side (issue #18), served by the bot's own process with aiohttp.

Every request carries the raw ``initData`` Telegram gave the page (the ``X-Telegram-Init-Data``
header; a move, in its JSON body), checked by ``auth``; anything unproven is answered 401 and
nothing of it is acted on. ``initData`` in an address is refused (400 ``init_in_url``: proxies
log addresses), and so is every malformed input (400 naming the field, ``inputs``).

What a person gets is ``kozelbot.views.page``: their own seat's view, or the table's when they are
not seated — for a group's table, to members of the group only (a private match, to its own
person only).

- ``GET /webapp/`` and ``/webapp/static/…``: the page (``static/``: HTML, CSS, the card
  drawings and the script; nothing from other origins but Telegram's own script).
- ``GET /webapp/api/state?game=ID``: the payload, once.
- ``GET /webapp/api/stream?game=ID``: Server-Sent Events (read by the page with ``fetch``, so
  that ``initData`` goes in the header) — the payload from scratch on every (re)connect, then
  again after each committed change of what this reader sees (``streams``: one broadcast a
  change; ``pages``: each distinct page built once and shared), and a comment after
  ``hub.HEARTBEAT`` quiet seconds to keep proxies from closing it. A stream ends with an
  ``event: closed`` saying why (``replaced`` by the person's newer one, ``full`` table,
  ``expired`` initData) and what the page should say.
- ``GET /webapp/api/replay?game=ID``: a finished match frame by frame (``kozelbot.views.frames``),
  every hand shown; 409 while it is being played.
- ``POST /webapp/api/move`` with ``{"init", "game", "deal", "action"}`` (the move in the move
  log's notation, ``play:QC``): applied by the same service call as a button press — the
  same lock, move log and refusals (409 with the refusal's text and the legal moves, 403 for
  someone not seated, 429 past the press rate), then shown as a press is.

The read routes (state, stream, replay) are rate-limited per person (429 ``slow_down``:
``KOZEL_WEBAPP_READ_BURST`` at once, then ``KOZEL_WEBAPP_READ_RATE`` a second).

Every answer carries a Content-Security-Policy (nothing but this origin and Telegram's own
script; framing only by Telegram's web clients and this origin — the sandbox's phone frame),
``nosniff`` and ``no-store``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from handlers.members import TelegramUnavailable, is_member
from handlers.press import Refusal, act, seat_at, within_rate
from handlers.publish import publish
from handlers.throttle import Throttle
from handlers.webapp.auth import InitDataError, WebAppUser, check_init_data
from handlers.webapp.inputs import move_body, read_query, refuse
from handlers.webapp.pages import Built, Pages
from handlers.webapp.streams import Streams
from kozelbot.core import logs
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table
from kozelbot.families.registry import rules_of
from kozelbot.views.frames import NotReplayable, frames
from kozelbot.views.replay import NotExportable, export

if TYPE_CHECKING:
    from handlers.deps import BotData

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = frozenset({"page.js", "cards.js", "replay.js", "start.js", "page.css"})
REPLAYS_KEPT = 32
"""Finished matches' replays kept drawn, by match and language (they never change)."""
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
ROUTES = (
    ("GET", "/webapp/", "index"),
    ("GET", "/webapp/static/{name}", "static"),
    ("GET", "/webapp/api/state", "state"),
    ("GET", "/webapp/api/stream", "stream"),
    ("POST", "/webapp/api/move", "move"),
    ("GET", "/webapp/api/replay", "replay"),
)
"""Every route of the Mini App: method, path, the ``WebApp`` method that answers it."""


@web.middleware
async def _secure(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer, refusals included, with the security headers; a refusal that is not
    ours (the router's 404 and 405, a body too large) says its reason in JSON too. Log
    lines name the game a request is about once it is read, for this request only (a
    connection kept alive serves the next in the same task)."""
    try:
        with logs.bound(chat=None, game=None, update=None):
            response = await handler(request)
    except web.HTTPException as refusal:
        if refusal.status >= 400 and refusal.content_type != "application/json":
            reason = (refusal.reason or "refused").lower().replace(" ", "_")
            kept = {k: v for k, v in refusal.headers.items() if k.lower() == "allow"}
            return web.json_response(
                {"error": reason}, status=refusal.status, headers={**kept, **HEADERS}
            )
        refusal.headers.update(HEADERS)
        raise
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


class WebApp:
    """The Mini App's routes over the bot's service (``data``); ``clock`` is wall time."""

    def __init__(self, data: BotData, clock: Callable[[], float] = time.time) -> None:
        self.data = data
        self.clock = clock
        self.runner: web.AppRunner | None = None
        self._replays: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        settings = data.settings
        self.reads = Throttle(settings.webapp_read_burst, settings.webapp_read_rate)
        """Per-person reads (state, stream, replay)."""
        self.pages = Pages(clock)
        self.streams = Streams(data, self.pages, self._table, self._may_watch, HEADERS, clock)

    def application(self) -> web.Application:
        app = web.Application(middlewares=[_secure], client_max_size=64 * 1024)
        for method, path, name in ROUTES:
            app.router.add_route(method, path, getattr(self, name))
        return app

    async def handle(self, name: str, request: web.Request) -> web.StreamResponse:
        """Answer ``request`` with the route ``name`` (of ``ROUTES``), headers and all: how
        another server (the sandbox's) serves the Mini App beside its own pages."""
        return await _secure(request, getattr(self, name))

    async def start(self, listen: str, port: int) -> None:
        """Serve on ``listen:port`` until ``stop``."""
        self.runner = web.AppRunner(self.application())
        await self.runner.setup()
        await web.TCPSite(self.runner, listen, port).start()

    async def stop(self) -> None:
        self.data.hub.stop()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # -- who asks, about which table ----------------------------------------------------

    def _user(self, raw: str) -> WebAppUser:
        settings = self.data.settings
        token = settings.token or ""
        try:
            return check_init_data(raw, token, max_age=settings.webapp_max_age, now=self.clock())
        except InitDataError as error:
            raise refuse(web.HTTPUnauthorized, error.reason) from None

    def _reader(self, request: web.Request) -> tuple[WebAppUser, int]:
        """Who reads which game (a read route's query and header), within their read rate."""
        raw, game_id = read_query(request)
        logs.bind(game=game_id)
        user = self._user(raw)
        if not self.reads.allow(user.user_id):
            raise refuse(web.HTTPTooManyRequests, "slow_down")
        return user, game_id

    async def _table(self, game_id: int) -> Table:
        """The game's latest committed table (404 if there is no such game)."""
        service = self.data.service
        table = service.snapshot(game_id) or await service.game(game_id)
        if table is None:
            raise refuse(web.HTTPNotFound, "no_game")
        return table

    async def _page(self, game_id: int, user: WebAppUser, t: Translator) -> tuple[Table, Built]:
        """The game's table and its page as ``user`` sees it (403 for a stranger)."""
        table = await self._table(game_id)
        seat = table.seat_of(user.user_id)
        if seat is None:
            await self._may_watch(table.chat_id, user.user_id)
        state = self.data.service.state_of(table) if table.state is not None else None
        return table, self.pages.get(table, state, seat, t)

    async def _may_watch(self, chat_id: int, user_id: int) -> None:
        """Someone not seated watches a group's table only as one of the group (as the
        group's message shows it to them); a private match, only its own person. 503
        ``telegram_unavailable`` if Telegram did not answer the membership look-up."""
        try:
            allowed = (
                chat_id == user_id if chat_id > 0 else await is_member(self.data, chat_id, user_id)
            )
        except TelegramUnavailable as error:
            raise refuse(web.HTTPServiceUnavailable, "telegram_unavailable") from error
        if not allowed:
            raise refuse(web.HTTPForbidden, "not_member")

    async def _translator(self, user: WebAppUser) -> Translator:
        return await self.data.user_translator(user.user_id, user.language_code)

    # -- the routes ---------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.FileResponse:
        """The page (it proves nothing yet: its requests do)."""
        return web.FileResponse(STATIC / "index.html")

    async def static(self, request: web.Request) -> web.FileResponse:
        """The page's script, styles and card drawings: these files and no others."""
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise refuse(web.HTTPNotFound, "no_file")
        return web.FileResponse(STATIC / name)

    async def state(self, request: web.Request) -> web.Response:
        user, game_id = self._reader(request)
        _, built = await self._page(game_id, user, await self._translator(user))
        return web.Response(text=built.text, content_type="application/json")

    async def stream(self, request: web.Request) -> web.StreamResponse:
        user, game_id = self._reader(request)
        t = await self._translator(user)
        table, built = await self._page(game_id, user, t)
        return await self.streams.serve(request, user, t, table, built)

    async def replay(self, request: web.Request) -> web.Response:
        """A finished match, frame by frame, every hand shown (the match is over); drawn
        once per language and kept (it never changes), shown to whoever may watch it."""
        user, game_id = self._reader(request)
        games = self.data.queries.records
        table = await games.game(game_id)
        if table is None:
            raise refuse(web.HTTPNotFound, "no_game")
        if table.seat_of(user.user_id) is None:
            await self._may_watch(table.chat_id, user.user_id)
        t = await self._translator(user)
        key = (game_id, t.language)
        body = self._replays.get(key)
        if body is None:
            try:
                file = export(table, await games.deals(game_id), await games.moves(game_id))
            except NotExportable:
                raise refuse(web.HTTPConflict, "live") from None
            try:  # playing the match again takes a moment: off the event loop
                drawn = await asyncio.to_thread(frames, file, t)
            except NotReplayable:
                raise refuse(web.HTTPConflict, "broken") from None
            body = json.dumps(drawn, ensure_ascii=False).encode()
            self._replays[key] = body
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        response = web.Response(body=body, content_type="application/json")
        response.enable_compression()
        return response

    async def move(self, request: web.Request) -> web.Response:
        """A move from the page, down the buttons' press path (``handlers.press``): the
        same rate, checks and service call, its refusals as 429, 403 or 409; timed for the
        metrics (``miniapp``) however it ends."""
        started = time.perf_counter()
        try:
            return await self._move(request)
        finally:
            self.data.meter.press("miniapp", time.perf_counter() - started)

    async def _move(self, request: web.Request) -> web.Response:
        body = await move_body(request)
        logs.bind(game=body.game)
        user = self._user(body.init)
        data = self.data
        t = await self._translator(user)
        try:
            within_rate(data, user.user_id, t)
            table = await self._table(body.game)
            seat_at(table, user.user_id, t)
            try:
                action = rules_of(table.variant).parse_action(body.action)
            except ValueError:
                raise refuse(web.HTTPBadRequest, "move") from None
            change = await act(data, table, user.user_id, body.deal, action, t)
        except Refusal as refusal:
            raise await self._refused(refusal, body.game, user, t) from None
        # The answer is built before the change is shown: a change wakes every stream of the
        # table, and the one who pressed should not wait behind them.
        _, built = await self._page(body.game, user, t)
        if data.holds(change.table):
            publish(data, change)
        else:  # a worker not holding the table: its holder hears of the commit and shows it
            data.hub.changed(change.table.game_id)
        return web.Response(
            text=f'{{"ok": true, "page": {built.text}}}', content_type="application/json"
        )

    async def _refused(
        self, refusal: Refusal, game_id: int, user: WebAppUser, t: Translator
    ) -> web.HTTPException:
        """A refused move as the page reads it: an illegal move with the legal ones."""
        if refusal.code == "slow_down":
            return refuse(web.HTTPTooManyRequests, "slow_down")
        if refusal.code == "not_seated":
            return refuse(web.HTTPForbidden, "not_seated", text=refusal.text)
        if refusal.code == "refused":
            legal = (await self._page(game_id, user, t))[1].payload["legal"]
            return refuse(web.HTTPConflict, "refused", legal=legal, text=refusal.text)
        return refuse(web.HTTPConflict, refusal.code, text=refusal.text)
