"""The HTTP server speaking the Bot API, and the asynchronous half of the test API.

:class:`BotApiEmulator` serves ``POST {api_root}/bot<token>/<method>`` on 127.0.0.1 so that an
unmodified PTB ``Application`` built with ``base_url(f"{emu.api_root}/bot")`` polls it like
Telegram. Tests drive it as people (``start_private``, ``send_text``, ``press``) and wait for the
bot to react (``wait_for``, ``settle``). With ``setWebhook`` it POSTs updates to the bot instead
(:mod:`.webhook`); with :class:`~.faults.Faults` it makes a share of the bot's calls fail.
It answers only requests whose ``Host`` names a local host (:mod:`.hosts`), so that no web page
can reach it from a browser by DNS rebinding.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
import traceback
from collections.abc import Callable
from types import TracebackType
from typing import Any

from aiohttp import web

from .errors import ApiError, too_many_requests
from .faults import Faults, InjectedFault
from .hosts import is_local_host
from .limits import Limits
from .methods import BotApiMethods, decode_params
from .models import (
    ApiCall,
    CallbackAnswer,
    ChatMessage,
    JsonDict,
    UploadedFile,
    User,
    chat_id_param,
)
from .state import ChatRef, EmulatorState
from .webhook import WebhookSender

_LOGGER = logging.getLogger(__name__)

_dumps = functools.partial(json.dumps, ensure_ascii=False)

WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)
POLL_TERMINATED = "Conflict: terminated by setWebhook request"
MAX_REFUSED_HOSTS = 100
"""How many refused ``Host`` headers are kept (and logged); later ones are refused silently."""
BAD_GATEWAY_PAGE = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad "
    "Gateway</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n"
)


class BotApiEmulator(EmulatorState):
    """A local Telegram Bot API for one bot, with a test API to act as its users.

    Use as ``async with BotApiEmulator(...) as emu:`` or call :meth:`start` / :meth:`stop`.
    ``clock`` drives the flood limits and the ``retry_after`` windows of injected 429s only
    (injectable for unit tests). ``faults`` makes a share of the bot's calls fail (assign
    ``emu.faults`` to change it at run time); injected faults are listed in ``injected_faults``.
    With ``local_only`` (the default) a request whose ``Host`` header is not ``127.0.0.1``,
    ``localhost`` or ``[::1]`` (with or without a port) is refused with 403 before its token is
    looked at: a page that rebinds its own name to 127.0.0.1 cannot drive the emulator.
    """

    def __init__(
        self,
        token: str = "123456:TEST",
        bot_username: str = "kozel_test_bot",
        *,
        limits: Limits | None = None,
        bot_first_name: str = "KozelBot",
        clock: Callable[[], float] = time.monotonic,
        host: str = "127.0.0.1",
        port: int = 0,
        faults: Faults | None = None,
        local_only: bool = True,
    ) -> None:
        self._change_event = asyncio.Event()
        super().__init__(
            token,
            bot_username,
            bot_first_name=bot_first_name,
            limits=limits,
            clock=clock,
            faults=faults,
        )
        self.host = host
        self.port = port
        self.local_only = local_only
        self.refused_hosts: set[str] = set()
        """The ``Host`` headers refused (``local_only``), each logged once (the first 100)."""
        self.internal_errors: list[str] = []
        self._methods = BotApiMethods(self).table()
        self._runner: web.AppRunner | None = None
        self._stopping = False
        self._poll_generation = 0
        self._last_activity = 0.0
        self.webhook_sender = WebhookSender(self, self._wait_change)
        """Posts updates to the webhook; its ``first_retry``/``max_retry`` set the backoff."""

    # ----------------------------------------------------------------- lifecycle

    @property
    def api_root(self) -> str:
        """``http://127.0.0.1:<port>``; use ``f"{api_root}/bot"`` as PTB's ``base_url``."""
        if self._runner is None:
            raise RuntimeError("the emulator is not running; await start() first")
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """PTB's ``base_url``: ``f"{api_root}/bot"``."""
        return f"{self.api_root}/bot"

    @property
    def base_file_url(self) -> str:
        """PTB's ``base_file_url``: ``f"{api_root}/file/bot"``."""
        return f"{self.api_root}/file/bot"

    async def start(self) -> None:
        """Start serving on ``host`` (port 0 picks a free port, see :attr:`api_root`)."""
        if self._runner is not None:
            raise RuntimeError("the emulator is already running")
        self._stopping = False
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        self.webhook_sender.start()

    async def stop(self) -> None:
        """Stop serving; pending long polls are answered with ``[]`` first."""
        runner = self._runner
        if runner is None:
            return
        self._stopping = True
        self.changed()
        await asyncio.sleep(0)
        await self.webhook_sender.close()
        await runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> BotApiEmulator:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # ----------------------------------------------------------------- waking waiters

    def changed(self) -> None:
        """Wake everything waiting for a change (long polls, ``wait_for``, ``settle``)."""
        self._change_event.set()
        self._change_event = asyncio.Event()

    async def _wait_change(self, timeout: float) -> None:
        # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that arrives just as
        # the event is set, and a cancelled waiter in a loop would then never end.
        waiter = asyncio.ensure_future(self._change_event.wait())
        try:
            await asyncio.wait({waiter}, timeout=max(timeout, 0.0))
        finally:
            waiter.cancel()

    async def wait_change(self, timeout: float) -> None:
        """Return at the next change of state, or after ``timeout`` seconds."""
        await self._wait_change(timeout)

    async def wait_for(
        self, predicate: Callable[[], object], timeout: float = 10.0, what: str | None = None
    ) -> None:
        """Wait until ``predicate()`` is true; it is re-checked after every change.

        Raises TimeoutError naming ``what`` (or the predicate) and the last calls of the bot.
        """
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                name = what or getattr(predicate, "__name__", repr(predicate))
                raise TimeoutError(
                    f"timed out after {timeout} s waiting for {name}; last bot calls:\n"
                    f"{self.describe_recent_calls()}"
                )
            await self._wait_change(remaining)

    async def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until the bot is idle.

        Idle means: every queued update was handed out by ``getUpdates`` (or accepted by the
        webhook), every callback query was answered, and no request other than ``getUpdates``
        arrived for ``quiet`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            busy = self.undelivered_updates > 0 or any(
                query.answer is None for query in self.queries.values()
            )
            idle_for = now - self._last_activity
            if not busy and idle_for >= quiet:
                return
            if now >= deadline:
                state = "updates or callback queries pending" if busy else "bot still active"
                raise TimeoutError(
                    f"the bot did not settle within {timeout} s ({state}); last bot calls:\n"
                    f"{self.describe_recent_calls()}"
                )
            wait = deadline - now if busy else min(deadline - now, quiet - idle_for)
            await self._wait_change(wait)

    # ----------------------------------------------------------------- acting as people

    async def start_private(self, user: User, payload: str | None = None) -> ChatMessage:
        """``user`` opens the bot's private chat: queues ``/start`` or ``/start <payload>``."""
        return self.start_private_nowait(user, payload)

    async def open_deep_link(self, user: User, url: str) -> ChatMessage:
        """``user`` follows a ``https://t.me/<bot>?start=<payload>`` link and presses Start."""
        return self.start_private_nowait(user, self.deep_link_payload(url))

    async def press(
        self,
        user: User,
        chat: ChatRef,
        message_id: int,
        callback_data: str | None = None,
        *,
        text: str | None = None,
        timeout: float = 10.0,
    ) -> CallbackAnswer:
        """``user`` presses a button and waits for the bot's ``answerCallbackQuery``.

        Raises TimeoutError if the bot does not answer within ``timeout`` seconds.
        """
        query_id = self.press_nowait(user, chat, message_id, callback_data, text=text)
        return await self.wait_answer(query_id, timeout)

    async def wait_answer(self, query_id: str, timeout: float = 10.0) -> CallbackAnswer:
        """Wait for the bot's answer to a callback query from :meth:`press_nowait`."""
        query = self.queries.get(query_id)
        if query is None:
            raise AssertionError(f"unknown callback query {query_id!r}")
        await self.wait_for(
            lambda: query.answer is not None,
            timeout,
            what=f"an answer to callback query {query_id} (data {query.data!r})",
        )
        assert query.answer is not None
        return query.answer

    # ----------------------------------------------------------------- HTTP

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if self.local_only and not is_local_host(request.host):
            return self._refuse_host(request.host)
        path: str = request.match_info["tail"]
        token, _, method = path.removeprefix("bot").partition("/")
        if not path.startswith("bot") or not method or "/" in method:
            return _error_response(ApiError(404, "Not Found"))
        if token != self.token:
            return _error_response(ApiError(401, "Unauthorized"))
        is_poll = method.lower() == "getupdates"
        if not is_poll:
            self._last_activity = time.monotonic()
        params: JsonDict = {}
        fault: InjectedFault | None = None
        try:
            try:
                params = await _read_params(request)
            except ValueError as error:
                raise ApiError(400, "Bad Request: can't parse request body") from error
            chat_id = chat_id_param(params)
            self.check_retry_after(method, chat_id)
            fault = self.faults.decide(method, chat_id, self.clock())
            if fault is not None:
                self.record_fault(fault)
                if fault.kind != "slow":
                    return self._inject(request, method, params, fault)
            if is_poll:
                result: Any = await self._get_updates(params)
            else:
                handler = self._methods.get(method.lower())
                if handler is None:
                    raise ApiError(404, "Not Found")
                result = handler(params)
        except ApiError as error:
            self._record(method, params, error.code, error.description, fault)
            if fault is not None:
                await asyncio.sleep(fault.delay or 0)
            return _error_response(error)
        except ConnectionResetError:
            # The client hung up mid-request (a bot shutting down cancels what it was
            # sending); nothing was applied and nobody is left to answer.
            raise
        except Exception as error:  # a bug in the emulator: report it loudly, keep serving
            _LOGGER.exception("emulator failed on %s", method)
            self.internal_errors.append(f"{method}: {traceback.format_exc()}")
            failure = ApiError(500, f"Internal Server Error: emulator bug: {error!r}")
            self._record(method, params, 500, failure.description)
            return _error_response(failure)
        if not is_poll or result:
            self._last_activity = time.monotonic()
        self._record(method, params, None, None, fault)
        if fault is not None:
            await asyncio.sleep(fault.delay or 0)  # "slow": carried out, answered late
        return web.json_response({"ok": True, "result": result}, dumps=_dumps)

    def _refuse_host(self, host: str) -> web.Response:
        """403 for a request naming another host (not recorded: the bot did not send it)."""
        if host not in self.refused_hosts and len(self.refused_hosts) < MAX_REFUSED_HOSTS:
            self.refused_hosts.add(host)
            _LOGGER.warning("refused a request for host %r (DNS rebinding?)", host)
        return _error_response(
            ApiError(403, f"Forbidden: the emulator answers only on a local host, not {host!r}")
        )

    def _record(
        self,
        method: str,
        params: JsonDict,
        code: int | None,
        description: str | None,
        fault: InjectedFault | None = None,
        *,
        ok: bool | None = None,
    ) -> None:
        call = ApiCall(
            method,
            params,
            code is None if ok is None else ok,
            code,
            description,
            time.monotonic(),
            fault.kind if fault is not None else None,
        )
        self.record_call(call)

    def _inject(
        self, request: web.Request, method: str, params: JsonDict, fault: InjectedFault
    ) -> web.StreamResponse:
        """Answer with an injected fault instead of running the method."""
        if fault.kind == "drop":
            self._record(method, params, None, "connection dropped", fault, ok=False)
            if request.transport is not None:
                request.transport.close()
            return web.Response()  # never written: the connection is gone
        if fault.kind == "429":
            error = too_many_requests(fault.retry_after or 1)
            self._record(method, params, error.code, error.description, fault)
            return _error_response(error)
        if fault.status == 502:
            self._record(method, params, 502, "Bad Gateway", fault)
            return web.Response(status=502, text=BAD_GATEWAY_PAGE, content_type="text/html")
        error = ApiError(500, "Internal Server Error")
        self._record(method, params, error.code, error.description, fault)
        return _error_response(error)

    async def _get_updates(self, params: JsonDict) -> list[JsonDict]:
        """``getUpdates``: long polling until an update arrives, ``timeout`` passes or we stop.

        A newer ``getUpdates`` ends an older one still waiting with ``[]`` (Telegram answers it
        with 409 Conflict, but the only client that leaves one behind is PTB itself when its
        updater stops, and nobody reads that answer). While a webhook is set the answer is 409
        Conflict, as from Telegram.
        """
        if self.webhook is not None:
            raise ApiError(409, WEBHOOK_CONFLICT)
        offset = params.get("offset")
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = float(params.get("timeout") or 0)
        self._poll_generation += 1
        generation = self._poll_generation
        self.changed()
        deadline = time.monotonic() + timeout
        while True:
            if self.webhook is not None:
                raise ApiError(409, POLL_TERMINATED)
            updates = self.take_updates(int(offset) if offset is not None else None, limit)
            if updates or self._stopping or generation != self._poll_generation:
                return updates
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return []
            await self._wait_change(remaining)


def _error_response(error: ApiError) -> web.Response:
    return web.json_response(error.to_json(), status=error.code, dumps=_dumps)


async def _read_params(request: web.Request) -> JsonDict:
    """Query string plus a form-urlencoded, multipart or JSON body."""
    raw: dict[str, Any] = dict(request.query)
    if request.can_read_body:
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                raw.update(body)
        else:
            try:
                form = await request.post()
            except web.HTTPRequestEntityTooLarge as error:  # over client_max_size, as Telegram
                raise ApiError(413, "Request Entity Too Large") from error
            for key, value in form.items():
                raw[key] = value if isinstance(value, str) else _uploaded(value)
    return decode_params(raw)


def _uploaded(part: web.FileField | bytes | bytearray) -> UploadedFile:
    """A file part of a multipart body (``sendPhoto``'s ``photo``), or a part of binary
    content without a file name, read into memory."""
    if isinstance(part, web.FileField):
        return UploadedFile(part.filename, part.content_type, part.file.read())
    return UploadedFile("", "application/octet-stream", bytes(part))
