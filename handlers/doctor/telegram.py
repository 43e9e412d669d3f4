"""The checks of ``kozelbot doctor`` that ask the Bot API server: the token (``getMe``) and the
webhook (``getWebhookInfo``), through the same PTB ``Bot``, transport and ``base_url`` the bot
itself uses (``kozelbot.app.build_application``).

A failure that may pass by itself (no connection, a time-out, an HTTP 5xx, a 429) is tried
again after ``retry_delays`` before it is reported, and reported as the server being out of
reach, never as a wrong token: only the server's own JSON answer 401 or 404 (PTB's
``InvalidToken`` with no parsing failure behind it) says the token was refused. A 404 page
that is not the Bot API's JSON means ``KOZEL_API_URL`` names something else.

The only thing the doctor ever changes is here, and only when asked: ``--delete-webhook``
deletes the webhook (keeping the updates waiting), so that a polling bot does not take the
updates of another copy serving that webhook unawares.
"""

from __future__ import annotations

import asyncio
import os
import re
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar
from urllib.parse import urlsplit

from telegram import Bot, User, WebhookInfo
from telegram.error import InvalidToken, RetryAfter, TelegramError, TimedOut

from handlers.delivery import is_transient, retry_seconds
from handlers.doctor.findings import Finding, Part, Status, finding
from handlers.transport import AiohttpRequest
from kozelbot.config import TELEGRAM_API

RETRY_DELAYS = (1.0, 2.0)
"""Seconds waited before each new try of a call that failed in a way that may pass."""
RECENT_ERROR_SECONDS = 3600.0
"""A webhook delivery error younger than this is reported (Telegram keeps the last one for
good, even after deliveries work again)."""
WEBHOOK_PORTS = (443, 80, 88, 8443)
"""The ports Telegram POSTs webhooks to (``setWebhook``); the URL must be ``https://``."""
_TOKEN_SHAPE = re.compile(r"^\d+:[A-Za-z0-9_-]+$")

T = TypeVar("T")


class Unreachable(Exception):
    """The server could not be asked, even after the retries; the message says why."""


def doctor_bot(token: str, api_url: str) -> Bot:
    """A PTB ``Bot`` for ``token`` at ``api_url``, on the bot's own transport."""
    root = api_url.rstrip("/")
    return Bot(
        token,
        base_url=f"{root}/bot",
        base_file_url=f"{root}/file/bot",
        request=AiohttpRequest(connection_pool_size=1),
        get_updates_request=AiohttpRequest(connection_pool_size=1),
    )


async def patiently(call: Callable[[], Awaitable[T]], retry_delays: Sequence[float]) -> T:
    """``call()``, tried again after each of ``retry_delays`` while it fails in a way that
    may pass (a 429 waits what it asks for, at most 5 s); ``Unreachable`` at the end."""
    delays = list(retry_delays)
    while True:
        try:
            return await call()
        except RetryAfter as error:
            if not delays:
                raise Unreachable(f"the server keeps answering 429 ({error})") from error
            delays.pop(0)
            await asyncio.sleep(min(retry_seconds(error), 5.0))
        except TelegramError as error:
            if not is_transient(error):
                raise
            if not delays:
                raise Unreachable(reason(error)) from error
            await asyncio.sleep(delays.pop(0))


async def check_token(
    bot: Bot, api_url: str, retry_delays: Sequence[float] = RETRY_DELAYS
) -> tuple[Finding, User | None]:
    """``getMe`` with the token: the finding, and the bot's user if it answered."""
    api = api_url.rstrip("/")
    tries = len(retry_delays) + 1
    try:
        await patiently(bot.initialize, retry_delays)  # initialize: getMe, kept as bot.bot
    except Unreachable as error:
        text = (
            f"cannot reach the Bot API server at {api} ({error}; {tries} tries) — check "
            "KOZEL_API_URL and the network; the token was not checked"
        )
        return Finding(Status.FAIL, "token", text), None
    except InvalidToken as error:
        # Bot.initialize words it with the token inside: the server's words are its cause.
        cause = error.__cause__ if isinstance(error.__cause__, InvalidToken) else error
        if cause.__cause__ is not None:  # the answer was no Bot API JSON: not Telegram
            status = _short(cause).split(". Parsing")[0]
            text = (
                f"{api} answered {status}, not as a Bot API server — check KOZEL_API_URL "
                "(unset: https://api.telegram.org)"
            )
        else:
            text = (
                f"{api} refused the token ({_short(cause)}) — copy it again from @BotFather "
                "(/mybots → API Token) into KOZEL_BOT_TOKEN"
            )
        return Finding(Status.FAIL, "token", text), None
    except TelegramError as error:
        text = f"getMe at {api} failed: {_short(error)} — check KOZEL_API_URL and the token"
        return Finding(Status.FAIL, "token", text), None
    me = bot.bot
    parts = [Part(Status.OK, f"@{me.username} answers at {api}")]
    if me.can_join_groups is False:
        parts.append(
            Part(
                Status.WARN,
                "it cannot be added to groups — @BotFather: /mybots → Bot Settings → Allow Groups?",
            )
        )
    return finding("token", parts), me


def token_shape(token: str | None) -> Finding | None:
    """A failing finding if there is no token or it cannot be one (without showing it)."""
    if not token:
        return Finding(
            Status.FAIL,
            "token",
            "KOZEL_BOT_TOKEN is not set — get one from @BotFather (/newbot) and set it in "
            "the environment or in .env",
        )
    if not _TOKEN_SHAPE.match(token):
        return Finding(
            Status.FAIL,
            "token",
            "KOZEL_BOT_TOKEN does not look like a token (digits, a colon, letters; no quotes "
            "or spaces) — copy it again from @BotFather (/mybots → API Token)",
        )
    return None


async def check_webhook(
    bot: Bot,
    api_url: str,
    webhook: str | None,
    *,
    delete: bool = False,
    retry_delays: Sequence[float] = RETRY_DELAYS,
    now: Callable[[], float] = time.time,
) -> Finding:
    """Whether Telegram's webhook agrees with how the bot will run: polling (``webhook``
    None) wants none; with ``--webhook URL`` Telegram's should be that URL, and without a
    recent delivery error. ``delete``: delete the webhook first (``--delete-webhook``)."""
    try:
        info = await patiently(bot.get_webhook_info, retry_delays)
        if delete and info.url:
            await patiently(lambda: bot.delete_webhook(drop_pending_updates=False), retry_delays)
            waiting = f" ({info.pending_update_count} updates waiting, kept)"
            return Finding(Status.OK, "webhook", f"deleted {info.url}{waiting}; the bot polls")
    except (Unreachable, TelegramError) as error:
        return Finding(Status.FAIL, "webhook", f"getWebhookInfo failed: {_short(error)}")
    if webhook is None:
        return _polling(info)
    parts = [_webhook_url(info, webhook)]
    if api_url.rstrip("/") == TELEGRAM_API and (problem := webhook_url_problem(webhook)):
        parts.append(Part(Status.FAIL, problem))
    if (error_text := recent_error(info, now())) is not None:
        parts.append(
            Part(
                Status.WARN,
                f"{error_text} — check that the URL reaches --listen:--port (the proxy, "
                "its certificate)",
            )
        )
    return finding("webhook", parts)


def _polling(info: WebhookInfo) -> Finding:
    if not info.url:
        return Finding(Status.OK, "webhook", "none set; the bot polls (getUpdates)")
    return Finding(
        Status.FAIL,
        "webhook",
        f"set to {info.url}, but the bot polls (no --webhook) and would delete it — run it "
        "with --webhook that URL, or delete it: kozelbot doctor --delete-webhook",
    )


def _webhook_url(info: WebhookInfo, webhook: str) -> Part:
    if info.url == webhook:
        return Part(Status.OK, f"set to {webhook}")
    if not info.url:
        return Part(Status.OK, f"none set yet; the bot sets {webhook} at start")
    return Part(
        Status.WARN,
        f"set to {info.url}, not {webhook}; the bot replaces it at start — stop whatever "
        "serves the old one first",
    )


def webhook_url_problem(url: str) -> str | None:
    """Why Telegram would refuse ``url`` as a webhook (it wants ``https://`` on 443, 80, 88
    or 8443), or None."""
    parts = urlsplit(url)
    try:
        port = parts.port or 443
    except ValueError:
        return f"{url} has no valid port"
    if parts.scheme != "https" or port not in WEBHOOK_PORTS:
        return (
            "Telegram posts only to https:// on port 443, 80, 88 or 8443 — put an HTTPS "
            "proxy in front of the bot and pass its URL"
        )
    return None


def recent_error(info: WebhookInfo, now: float) -> str | None:
    """Telegram's last failed delivery, if it is recent: ``last delivery failed 3 min ago:
    "Connection refused"``."""
    if not info.url or info.last_error_date is None or not info.last_error_message:
        return None
    age = now - info.last_error_date.timestamp()
    if age > RECENT_ERROR_SECONDS:
        return None
    ago = f"{int(age // 60)} min ago" if age >= 60 else "just now"
    return f'the last delivery failed {ago}: "{info.last_error_message}"'


def reason(error: BaseException) -> str:
    """Why a call could not reach the server, in a few words: the operating system's
    ("Connection refused", "Name or service not known"), "timed out", or the error's own."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ssl.SSLError):
            return f"TLS: {_short(seen)}"
        if isinstance(seen, TimeoutError | TimedOut):
            return "timed out"
        if isinstance(seen, OSError) and isinstance(seen.errno, int) and seen.errno > 0:
            return os.strerror(seen.errno)
        if isinstance(seen, OSError) and seen.strerror:  # getaddrinfo's errors are negative
            return str(seen.strerror)
        seen = seen.__cause__ or seen.__context__
    return _short(error)


def _short(error: BaseException) -> str:
    """The error's text on one line (at most 160 characters)."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 160 else text[:157] + "..."
