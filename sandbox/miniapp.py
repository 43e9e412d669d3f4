"""The Mini App inside the sandbox (issue #18 item 7): its page and API served by the
sandbox's own server, and ``initData`` signed with this run's bot token exactly as Telegram
signs it, so the whole path — button, page, stream, move — runs offline.

``POST /api/webapp`` ``{"person", "url"}``: the address the sandbox page opens in its phone
frame for a button ``person`` pressed — a ``web_app`` button (the bot's Mini App address with
its query) or the app's direct link (``https://t.me/<bot>/<name>?startapp=…``): this server's
``/webapp/`` with the same query, and the launch parameters Telegram puts after ``#``
(``tgWebAppData``: the signed initData naming the person; ``tgWebAppStartParam``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlencode, urlsplit

from aiohttp import web

from botapi_emulator import User
from handlers.webapp.auth import sign
from handlers.webapp.server import ROUTES

from .bot import WEBAPP_NAME, WEBAPP_URL

if TYPE_CHECKING:
    from .host import Host


def mount(app: web.Application, sandbox: Host) -> None:
    """The Mini App's routes on the sandbox's server, answered by the running bot's."""
    for method, path, name in ROUTES:
        app.router.add_route(method, path, _delegate(sandbox, name))


def _delegate(sandbox: Host, name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def handle(request: web.Request) -> web.StreamResponse:
        bot = sandbox.bot
        application = None if bot is None else bot.application
        webapp = None if application is None else application.bot_data.webapp
        if webapp is None:
            raise web.HTTPServiceUnavailable(text="the bot is restarting")
        return await webapp.handle(name, request)

    return handle


def init_data(person: User, token: str, start: str | None, now: float) -> str:
    """``initData`` for ``person`` as Telegram makes it: the fields, and their hash."""
    user = {"id": person.id, "first_name": person.first_name}
    if person.language_code:
        user["language_code"] = person.language_code
    fields = {
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(now)),
        "chat_type": "private" if start is None else "group",
    }
    if start is not None:
        fields["start_param"] = start
    return urlencode({**fields, "hash": sign(fields, token)})


def page_address(url: str, person: User, token: str, now: float | None = None) -> str | None:
    """Where the sandbox opens the Mini App a button names (``None``: not the Mini App)."""
    parts = urlsplit(url)
    start: str | None = None
    query = ""
    if url.startswith(WEBAPP_URL):
        query = parts.query
    elif parts.netloc in ("t.me", "telegram.me") and parts.path.rstrip("/").endswith(
        "/" + WEBAPP_NAME
    ):
        start = (parse_qs(parts.query).get("startapp") or [""])[0]
    else:
        return None
    signed = init_data(person, token, start, time.time() if now is None else now)
    launch = {"tgWebAppData": signed, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "web"}
    if start is not None:
        launch["tgWebAppStartParam"] = start
    return "/webapp/" + ("?" + query if query else "") + "#" + urlencode(launch)
