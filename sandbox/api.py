"""The sandbox page's HTTP API (aiohttp, JSON, same origin), and its Server-Sent Events feed.

``GET /`` and ``/static/<file>`` serve the page from ``sandbox/static``; ``/api/...`` is what
the page does: read the state and a chat's messages, follow every change as events, and act as
one of the four people (write, press a button, follow a deep link), rename them, pick their
language, and switch watch mode and Telegram's flood limits. Bad input is a 400 with
``{"ok": false, "error": ...}``. POSTs must be ``application/json`` and every request must
name a local host (``botapi_emulator.hosts``, as the emulator does), so that no other web page
can drive the sandbox from a browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from botapi_emulator import User
from botapi_emulator.hosts import is_local_host

from .miniapp import mount, page_address
from .watch import MAX_DELAY, MIN_DELAY
from .world import LANGUAGES, MAX_NAME_LENGTH, JsonDict, World

if TYPE_CHECKING:
    from .host import Host

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
PING_SECONDS = 15.0
"""A comment line this often keeps an idle event stream (and proxies) alive."""
PRESS_SECONDS = 10.0
"""How long ``/api/press`` waits for the bot's answer."""
MAX_TEXT_LENGTH = 4096
MAX_NEWGAME_LENGTH = 200

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadInput(ValueError):
    """A request the API refuses (400); the message says why."""


def make_app(sandbox: Host) -> web.Application:
    """The page and its API for one running sandbox."""
    api = _Api(sandbox)
    app = web.Application(middlewares=[_guard], client_max_size=64 * 1024)
    app.router.add_get("/", api.index)
    app.router.add_get("/static/{name}", api.static)
    app.router.add_get("/api/state", api.state)
    app.router.add_get("/api/messages", api.messages)
    app.router.add_get("/api/events", api.events)
    app.router.add_get("/api/photo", api.photo)
    app.router.add_post("/api/send", api.send)
    app.router.add_post("/api/press", api.press)
    app.router.add_post("/api/start", api.start)
    app.router.add_post("/api/person", api.person)
    app.router.add_post("/api/watch", api.watch)
    app.router.add_post("/api/limits", api.limits)
    app.router.add_post("/api/webapp", api.webapp)
    mount(app, sandbox)
    return app


def _failure(status: int, error: str) -> web.Response:
    return web.json_response({"ok": False, "error": error}, status=status)


@web.middleware
async def _guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Local hosts only, JSON errors for the API, and no crash on any input."""
    if not is_local_host(request.host):
        return _failure(403, f"the sandbox answers only on 127.0.0.1, not {request.host!r}")
    try:
        return await handler(request)
    except BadInput as error:
        return _failure(400, str(error))
    except web.HTTPException as error:
        if not request.path.startswith("/api/"):
            raise
        return _failure(error.status, error.reason)
    except Exception:
        log.exception("the sandbox failed on %s %s", request.method, request.path)
        return _failure(500, "internal error (see the sandbox's log)")


async def _body(request: web.Request) -> JsonDict:
    """The JSON object a POST carries."""
    if request.content_type != "application/json":
        raise BadInput("send JSON (Content-Type: application/json)")
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError) as error:
        raise BadInput(f"malformed JSON: {error}") from error
    if not isinstance(body, dict):
        raise BadInput("send a JSON object")
    return body


def _int(body: JsonDict, name: str) -> int:
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{name!r} must be an integer" if name in body else f"{name!r} is missing")
    return value


def _str(body: JsonDict, name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str):
        raise BadInput(f"{name!r} must be a string" if name in body else f"{name!r} is missing")
    return value


def _bool(body: JsonDict, name: str) -> bool:
    value = body.get(name)
    if not isinstance(value, bool):
        raise BadInput(
            f"{name!r} must be true or false" if name in body else f"{name!r} is missing"
        )
    return value


class _Api:
    """The request handlers; each validates its input, acts, and answers JSON."""

    def __init__(self, sandbox: Host) -> None:
        self.sandbox = sandbox

    @property
    def world(self) -> World:
        return self.sandbox.world

    def _person(self, body: JsonDict) -> User:
        person_id = _int(body, "person")
        try:
            return self.world.person(person_id)
        except KeyError:
            raise BadInput(f"no person {person_id}") from None

    def _chat(self, body: JsonDict, person: User) -> int:
        chat_id = _int(body, "chat")
        if not self.world.is_chat(chat_id):
            raise BadInput(f"no chat {chat_id}")
        try:
            return self.world.chat_of(person, chat_id)
        except KeyError:
            raise BadInput(f"{person.first_name} cannot see the private chat {chat_id}") from None

    # ----------------------------------------------------------------- the page

    async def index(self, request: web.Request) -> web.StreamResponse:
        return self._file("index.html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        return self._file(request.match_info["name"])

    @staticmethod
    def _file(name: str) -> web.StreamResponse:
        path = (STATIC / name).resolve()
        if path.parent != STATIC or not path.is_file():
            raise web.HTTPNotFound(text=f"no file {name!r}")
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    # ----------------------------------------------------------------- reading

    async def state(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(self.sandbox.state_json())

    async def messages(self, request: web.Request) -> web.StreamResponse:
        raw = request.query.get("chat", "")
        try:
            chat_id = int(raw)
        except ValueError:
            raise BadInput(f"'chat' must be a chat id, not {raw!r}") from None
        if not self.world.is_chat(chat_id):
            raise BadInput(f"no chat {chat_id}")
        return web.json_response({"messages": self.world.messages_json(chat_id)})

    async def photo(self, request: web.Request) -> web.StreamResponse:
        """A photo the bot sent (a tournament's standings picture), by its file id."""
        found = self.world.emu.photos.get(request.query.get("id", ""))
        if found is None:
            raise web.HTTPNotFound(text="no such photo")
        return web.Response(
            body=found.data, content_type="image/png", headers={"Cache-Control": "max-age=3600"}
        )

    async def events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        hub = self.sandbox.hub
        queue = hub.connect()
        getter: asyncio.Future[str | None] | None = None
        try:
            await response.write(b": connected\n\n")
            while True:
                if getter is None:
                    getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter}, timeout=PING_SECONDS)
                if not done:
                    await response.write(b": ping\n\n")
                    continue
                line, getter = getter.result(), None
                if line is None:
                    break
                await response.write(f"data: {line}\n\n".encode())
        except (ConnectionResetError, RuntimeError):
            pass  # the page went away (aiohttp raises either when writing to a closed stream)
        finally:
            hub.disconnect(queue)
            if getter is not None:
                getter.cancel()
        with contextlib.suppress(ConnectionResetError, RuntimeError):
            await response.write_eof()
        return response

    # ----------------------------------------------------------------- acting as people

    async def send(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        person = self._person(body)
        chat = self._chat(body, person)
        text = _str(body, "text")
        if not text.strip():
            raise BadInput("the text is empty")
        if len(text) > MAX_TEXT_LENGTH:
            raise BadInput(f"the text is longer than {MAX_TEXT_LENGTH} characters")
        message = self.sandbox.emu.send_text(person, chat, text)
        return web.json_response({"ok": True, "message_id": message.message_id})

    async def press(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        person = self._person(body)
        chat = self._chat(body, person)
        message_id = _int(body, "message_id")
        data = _str(body, "data")
        emu = self.sandbox.emu
        message = emu.lookup(chat, message_id)
        if message is None or message.deleted or not message.from_bot:
            raise BadInput(f"no message {message_id} of the bot in chat {chat}")
        if not any(
            data == button.get("callback_data")
            for row in (message.reply_markup or {}).get("inline_keyboard", [])
            for button in row
        ):
            raise BadInput(f"message {message_id} has no button with data {data!r}")
        query = emu.press_nowait(person, chat, message_id, data)
        try:
            answer = await emu.wait_answer(query, PRESS_SECONDS)
        except TimeoutError:
            return _failure(504, f"the bot did not answer within {PRESS_SECONDS:g} s")
        return web.json_response(
            {
                "ok": True,
                "answer": {"text": answer.text, "alert": answer.show_alert, "url": answer.url},
            }
        )

    async def start(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        person = self._person(body)
        payload = body.get("payload")
        if payload is not None and not isinstance(payload, str):
            raise BadInput("'payload' must be a string or null")
        try:
            message = self.sandbox.emu.start_private_nowait(person, payload or None)
        except AssertionError as error:
            raise BadInput(str(error)) from None
        return web.json_response({"ok": True, "message_id": message.message_id})

    async def person(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        person = self._person(body)
        name = _str(body, "name").strip() if "name" in body else None
        language = _str(body, "language") if "language" in body else None
        if name is None and language is None:
            raise BadInput("give a 'name' or a 'language'")
        if name is not None and not 0 < len(name) <= MAX_NAME_LENGTH:
            raise BadInput(f"a name has 1 to {MAX_NAME_LENGTH} characters")
        if name is not None and any(not char.isprintable() for char in name):
            raise BadInput("a name is one line of printable characters")
        if language is not None and language not in LANGUAGES:
            raise BadInput(f"'language' must be one of {', '.join(LANGUAGES)}")
        self.sandbox.change_person(person, name=name, language=language)
        return web.json_response({"ok": True, "person": self.world.person_json(person)})

    # ----------------------------------------------------------------- switches

    async def watch(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        on = _bool(body, "on")
        delay: float | None = None
        if "delay" in body:
            value = body["delay"]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise BadInput("'delay' must be a number of seconds")
            if not math.isfinite(value) or not MIN_DELAY <= value <= MAX_DELAY:
                raise BadInput(f"'delay' must be {MIN_DELAY:g} to {MAX_DELAY:g} seconds")
            delay = float(value)
        newgame = _str(body, "newgame").strip() if body.get("newgame") is not None else ""
        if len(newgame) > MAX_NEWGAME_LENGTH or "\n" in newgame:
            raise BadInput("'newgame' is one line of /newgame options")
        await self.sandbox.set_watch(on, delay=delay, newgame=newgame)
        return web.json_response({"ok": True, "watch": self.sandbox.watch_json()})

    async def limits(self, request: web.Request) -> web.StreamResponse:
        body = await _body(request)
        on = _bool(body, "on")
        await self.sandbox.set_limits(on)
        return web.json_response({"ok": True, "limits": on})

    async def webapp(self, request: web.Request) -> web.Response:
        """Where a Mini App button opens, for the person who pressed it (``miniapp``)."""
        body = await _body(request)
        person = self._person(body)
        address = page_address(_str(body, "url"), person, self.sandbox.token)
        if address is None:
            raise BadInput("not a Mini App address")
        return web.json_response({"ok": True, "url": address})
