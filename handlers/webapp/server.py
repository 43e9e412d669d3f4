"""The Mini App's HTTP side (issue #18), served by the bot's own process with aiohttp.

Every request carries the raw ``initData`` Telegram gave the page (the ``X-Telegram-Init-Data``
header, or ``init`` where a header cannot be set: an ``EventSource``), checked by ``auth``;
anything unproven is answered 401 and nothing of it is acted on. What a person gets is
``kozelbot.page``: their own seat's view, or the table's when they are not seated — for a
group's table, to members of the group only (a private match, to its own person only).

- ``GET /webapp/`` and ``/webapp/static/…``: the page (``static/``: HTML, CSS, the card
  drawings and the script; nothing from other origins but Telegram's own script).
- ``GET /webapp/api/state?game=ID``: the payload, once.
- ``GET /webapp/api/stream?game=ID&init=…``: Server-Sent Events — the payload from scratch on
  every (re)connect, then again after each committed change of the table (``hub``), and a
  comment every ``HEARTBEAT`` seconds to keep proxies from closing it.
- ``GET /webapp/api/replay?game=ID``: a finished match frame by frame (``kozelbot.frames``),
  every hand shown; 409 while it is being played.
- ``POST /webapp/api/move`` with ``{"init", "game", "deal", "action"}`` (the move in the move
  log's notation, ``play:QC``): applied by the same service call as a button press — the
  same lock, move log and refusals (409 with the refusal's text and the legal moves, 403 for
  someone not seated, 429 past the press rate), then shown as a press is.

Every answer carries a Content-Security-Policy (nothing but this origin and Telegram's own
script; framing only by Telegram's web clients and this origin — the sandbox's phone frame),
``nosniff`` and ``no-store``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from handlers.flow import publish
from handlers.members import TelegramUnavailable, is_member
from handlers.webapp.auth import InitDataError, WebAppUser, check_init_data
from kozelbot.frames import NotReplayable, frames
from kozelbot.game import GameError
from kozelbot.games import family_of, texts_of
from kozelbot.page import page
from kozelbot.render import table_error_text
from kozelbot.replay import NotExportable, export
from kozelbot.service import TableError
from kozelbot.table import Table

if TYPE_CHECKING:
    from handlers.deps import BotData

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = frozenset({"page.js", "cards.js", "replay.js", "start.js", "page.css"})
REPLAYS_KEPT = 32
"""Finished matches' replays kept drawn, by match and language (they never change)."""
HEARTBEAT = 15.0
"""Seconds between keep-alive comments on an idle stream."""
LOOK = 1.0
"""Seconds between looks at whether an idle stream's page went away."""
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
    """Every answer, refusals included, with the security headers."""
    try:
        response = await handler(request)
    except web.HTTPException as refusal:
        refusal.headers.update(HEADERS)
        raise
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


def _gone(request: web.Request) -> bool:
    """The page closed its connection."""
    transport = request.transport
    return transport is None or transport.is_closing()


def _refuse(status: type[web.HTTPException], reason: str, **more: Any) -> web.HTTPException:
    return status(text=json.dumps({"error": reason, **more}, ensure_ascii=False),
                  content_type="application/json")  # fmt: skip


class WebApp:
    """The Mini App's routes over the bot's service (``data``); ``clock`` is wall time."""

    def __init__(self, data: BotData, clock: Callable[[], float] = time.time) -> None:
        self.data = data
        self.clock = clock
        self.runner: web.AppRunner | None = None
        self._replays: OrderedDict[tuple[int, str], bytes] = OrderedDict()

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
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # -- who asks, about which table ----------------------------------------------------

    def _user(self, raw: str | None) -> WebAppUser:
        settings = self.data.settings
        token = settings.token or ""
        try:
            return check_init_data(raw or "", token, max_age=settings.webapp_max_age,
                                   now=self.clock())  # fmt: skip
        except InitDataError as error:
            raise _refuse(web.HTTPUnauthorized, error.reason) from None

    @staticmethod
    def _game_id(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.isdigit():
            return int(value)
        raise _refuse(web.HTTPBadRequest, "game")

    async def _table(self, game_id: int) -> Table:
        """The game's latest committed table (404 if there is no such game)."""
        service = self.data.service
        table = service.snapshot(game_id) or await service.game(game_id)
        if table is None:
            raise _refuse(web.HTTPNotFound, "no_game")
        return table

    async def _payload(self, game_id: int, user: WebAppUser) -> dict[str, Any]:
        service = self.data.service
        table = await self._table(game_id)
        seat = table.seat_of(user.user_id)
        if seat is None:
            await self._may_watch(table.chat_id, user.user_id)
        state = service.state_of(table) if table.state is not None else None
        t = await self.data.user_translator(user.user_id, user.language_code)
        return page(table, state, seat, self.clock(), t)

    async def _may_watch(self, chat_id: int, user_id: int) -> None:
        """Someone not seated watches a group's table only as one of the group (as the
        group's message shows it to them); a private match, only its own person. 503
        ``telegram_unavailable`` if Telegram did not answer the membership look-up."""
        try:
            allowed = (chat_id == user_id if chat_id > 0
                       else await is_member(self.data, chat_id, user_id))  # fmt: skip
        except TelegramUnavailable as error:
            raise _refuse(web.HTTPServiceUnavailable, "telegram_unavailable") from error
        if not allowed:
            raise _refuse(web.HTTPForbidden, "not_member")

    # -- the routes ---------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.FileResponse:
        """The page (it proves nothing yet: its requests do)."""
        return web.FileResponse(STATIC / "index.html")

    async def static(self, request: web.Request) -> web.FileResponse:
        """The page's script, styles and card drawings: these files and no others."""
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise _refuse(web.HTTPNotFound, "no_file")
        return web.FileResponse(STATIC / name)

    async def state(self, request: web.Request) -> web.Response:
        user = self._user(request.headers.get("X-Telegram-Init-Data"))
        payload = await self._payload(self._game_id(request.query.get("game")), user)
        return web.json_response(payload)

    async def stream(self, request: web.Request) -> web.StreamResponse:
        raw = request.headers.get("X-Telegram-Init-Data") or request.query.get("init")
        user = self._user(raw)
        game_id = self._game_id(request.query.get("game"))
        payload = await self._payload(game_id, user)
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream",
                                               "X-Accel-Buffering": "no"})  # fmt: skip
        await response.prepare(request)
        try:
            await self._serve(request, response, game_id, user, payload)
        finally:
            seat = payload.get("seat")
            if seat is not None and not self.data.hub.viewing(game_id, user.user_id):
                self.data.presenter.show_hand(game_id, seat)  # the hand catches up
        return response

    async def _serve(
        self, request: web.Request, response: web.StreamResponse, game_id: int,
        user: WebAppUser, payload: dict[str, Any],
    ) -> None:  # fmt: skip
        """Write the payload now and after each change, until the page goes away."""
        last = None
        quiet = 0.0
        with self.data.hub.watch(game_id, user.user_id) as nudges, contextlib.suppress(
            ConnectionResetError
        ):
            while not _gone(request):  # until the page goes away
                shown = {k: v for k, v in payload.items() if k != "seconds_left"}
                if shown != last:
                    text = json.dumps(payload, ensure_ascii=False)
                    await response.write(f"event: table\ndata: {text}\n\n".encode())
                    last, quiet = shown, 0.0
                try:
                    await asyncio.wait_for(nudges.get(), LOOK)
                except TimeoutError:
                    quiet += LOOK
                    if quiet >= HEARTBEAT:
                        await response.write(b": keep-alive\n\n")
                        quiet = 0.0
                    continue
                payload = await self._payload(game_id, user)

    async def replay(self, request: web.Request) -> web.Response:
        """A finished match, frame by frame, every hand shown (the match is over); drawn
        once per language and kept (it never changes), shown to whoever may watch it."""
        user = self._user(request.headers.get("X-Telegram-Init-Data"))
        game_id = self._game_id(request.query.get("game"))
        games = self.data.storage.games
        table = await games.game(game_id)
        if table is None:
            raise _refuse(web.HTTPNotFound, "no_game")
        if table.seat_of(user.user_id) is None:
            await self._may_watch(table.chat_id, user.user_id)
        t = await self.data.user_translator(user.user_id, user.language_code)
        key = (game_id, t.language)
        body = self._replays.get(key)
        if body is None:
            try:
                file = export(table, await games.deals(game_id), await games.moves(game_id))
            except NotExportable:
                raise _refuse(web.HTTPConflict, "live") from None
            try:  # playing the match again takes a moment: off the event loop
                drawn = await asyncio.to_thread(frames, file, t)
            except NotReplayable:
                raise _refuse(web.HTTPConflict, "broken") from None
            body = json.dumps(drawn, ensure_ascii=False).encode()
            self._replays[key] = body
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        response = web.Response(body=body, content_type="application/json")
        response.enable_compression()
        return response

    async def move(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            raise _refuse(web.HTTPBadRequest, "json") from None
        if not isinstance(body, dict):
            raise _refuse(web.HTTPBadRequest, "json")
        user = self._user(body.get("init"))
        data = self.data
        if not data.presses.allow(user.user_id):
            raise _refuse(web.HTTPTooManyRequests, "slow_down")
        game_id, deal_no = self._game_id(body.get("game")), body.get("deal")
        table = await self._table(game_id)
        t = await data.user_translator(user.user_id, user.language_code)
        seat = table.seat_of(user.user_id)
        if seat is None:
            raise _refuse(web.HTTPForbidden, "not_seated", text=table_error_text("not_seated", t))
        if not isinstance(deal_no, int) or not isinstance(body.get("action"), str):
            raise _refuse(web.HTTPBadRequest, "move")
        try:
            action = family_of(table.variant).parse_action(body["action"])
        except ValueError:
            raise _refuse(web.HTTPBadRequest, "move") from None
        try:
            change = await data.service.act(game_id, user.user_id, deal_no, action)
        except GameError as error:
            legal = (await self._payload(game_id, user))["legal"]
            text = texts_of(table.variant).error_text(error, table, t)
            raise _refuse(web.HTTPConflict, "refused", legal=legal, text=text) from None
        except TableError as error:
            raise _refuse(web.HTTPConflict, error.code,
                          text=table_error_text(error.code, t)) from None  # fmt: skip
        publish(data, change)
        return web.json_response({"ok": True, "page": await self._payload(game_id, user)})
