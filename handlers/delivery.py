"""Getting requests to Telegram: the flood gate every request passes, and the one retry loop.

``FloodGate`` is the bot's rate limiter (PTB's ``BaseRateLimiter``). It reads Telegram's limits
strictly — at most ``overall`` message calls in *any* one-second window and ``group`` calls to
one group in any ``group_period`` window — with sliding windows instead of leaky buckets (a full
bucket lets a burst through on top of its refill; ``../shared/TELEGRAM.md``). Only calls that
post or change messages count; callback answers and look-ups pass freely. A 429 holds back only
the chat it was about, for as long as Telegram asked; the gate never retries by itself.

A restart does not empty the windows: the gate notes every call it lets through in the flood
journal beside the database (``storage.flood``) before the call is made, and ``initialize``
starts each chat's window (and the overall one) from the calls the journal holds, so a process
started right after a crash (kill -9 included) does not add a burst to what the killed one
sent. ``shutdown`` cancels the calls still waiting for a window and closes the journal.

``deliver`` is the single retry authority: it runs one Bot API call until it succeeds, retrying
``RetryAfter`` after the wait Telegram asked for (the gate holds the chat meanwhile) and
transient failures (time-outs, dropped connections, HTTP 5xx: PTB's ``NetworkError``) with
capped exponential backoff and jitter. Permanent errors — ``Forbidden`` (blocked, removed),
``BadRequest`` (gone, not modified, malformed), ``ChatMigrated``, ``InvalidToken`` — are raised
at once for the caller to act on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol, TypeVar

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import BaseRateLimiter

from kozelbot.core.metrics import OFF, Meter

log = logging.getLogger(__name__)

Entry = tuple[float, int]
"""One message call in the journal: its wall-clock time and its chat."""


class Journal(Protocol):
    """Where the gate keeps its calls across restarts (``storage.flood.FloodJournal``, built
    by the composition root beside the database)."""

    path: Path
    clock: Callable[[], float]

    @property
    def is_open(self) -> bool: ...
    def open(self, horizon: float) -> list[Entry]: ...
    def record(self, chat_id: int) -> None: ...
    def close(self) -> None: ...


T = TypeVar("T")

MESSAGE_METHODS = frozenset(
    m.lower()
    for m in (
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "deleteMessage",
        "sendPhoto",
        "sendDocument",
        "sendSticker",
        "sendAnimation",
        "sendDice",
        "sendPoll",
        "forwardMessage",
        "copyMessage",
        "pinChatMessage",
    )
)
"""Bot API methods that count against Telegram's message limits."""

SAFETY = 0.2
"""Seconds added to each window: a request let through at t arrives a little later."""
SHUTDOWN_WAIT = 2.0
"""Seconds ``FloodGate.shutdown`` waits for the calls it cancelled to end."""


class GateClosed(RuntimeError):
    """A message call reached the flood gate after its shutdown."""


def retry_seconds(error: RetryAfter) -> float:
    """The wait a ``RetryAfter`` asks for, in seconds."""
    # PTB 22 keeps the wait as a timedelta; its public int attribute is deprecated.
    wait = getattr(error, "_retry_after", None)
    if wait is None:
        wait = error.retry_after
    return wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)


OUTCOMES: tuple[tuple[type[Exception], str], ...] = (
    (RetryAfter, "retry_after"),
    (TimedOut, "timed_out"),  # before NetworkError, of which it is one
    (ChatMigrated, "chat_migrated"),
    (InvalidToken, "invalid_token"),
    (Forbidden, "forbidden"),
    (BadRequest, "bad_request"),
    (Conflict, "conflict"),
    (NetworkError, "network_error"),
    (TelegramError, "telegram_error"),
)
"""A failed call's outcome, as the metrics name it: the first class it is an instance of."""


def outcome_of(error: BaseException) -> str:
    """How a failed Bot API call ended, in a word (``error``: not Telegram's at all)."""
    return next((name for kind, name in OUTCOMES if isinstance(error, kind)), "error")


def is_transient(error: BaseException) -> bool:
    """A failure that may go away by itself: time-outs, dropped connections, HTTP 5xx."""
    if isinstance(error, BadRequest):  # PTB's BadRequest subclasses NetworkError
        return False
    return isinstance(error, NetworkError)


def is_permanent(error: BaseException) -> bool:
    """A Telegram error that retrying cannot fix."""
    return isinstance(error, Forbidden | BadRequest | ChatMigrated | InvalidToken | Conflict)


class Backoff:
    """Capped exponential backoff with jitter ("full jitter" on the upper half)."""

    def __init__(self, rng: random.Random, base: float = 0.25, cap: float = 30.0) -> None:
        self.rng = rng
        self.base = base
        self.cap = cap

    def delay(self, attempt: int) -> float:
        """Seconds to wait before retry number ``attempt`` (1, 2, ...)."""
        top: float = min(self.cap, self.base * 2.0 ** min(attempt - 1, 20))
        return top * self.rng.uniform(0.5, 1.0)


async def deliver(
    call: Callable[[], Awaitable[T]],
    *,
    backoff: Backoff,
    what: str,
    give_up_after: float | None = None,
) -> T:
    """Run ``call`` until it succeeds; raise permanent errors (and transient ones past
    ``give_up_after`` seconds, if given). ``call`` is invoked anew for every attempt, so it
    can render the latest state each time."""
    started = time.monotonic()
    attempt = 0
    while True:
        try:
            return await call()
        except RetryAfter as error:
            wait = retry_seconds(error)
            log.warning("%s: flood wait %.1f s", what, wait)
            if give_up_after is not None and time.monotonic() - started + wait > give_up_after:
                raise
            await asyncio.sleep(wait)
        except TelegramError as error:
            if not is_transient(error):
                raise
            attempt += 1
            delay = backoff.delay(attempt)
            if give_up_after is not None and time.monotonic() - started + delay > give_up_after:
                raise
            log.warning("%s: %.100s; retry %d in %.2f s", what, error, attempt, delay)
            await asyncio.sleep(delay)


class _Window:
    """At most ``limit`` events in any ``period`` seconds."""

    __slots__ = ("limit", "lock", "period", "times")

    def __init__(self, limit: int, period: float) -> None:
        self.limit = limit
        self.period = period + SAFETY
        self.times: deque[float] = deque()
        self.lock = asyncio.Lock()

    def delay(self, now: float) -> float:
        times = self.times
        while times and times[0] <= now - self.period:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return times[len(times) - self.limit] + self.period - now

    def idle(self, now: float) -> bool:
        return self.delay(now) == 0.0 and not self.times and not self.lock.locked()


class FloodGate(BaseRateLimiter[int]):
    """Strict sliding-window flood control per chat and overall; never retries.

    Waiters are served in arrival order (first per chat, then across chats), so a steady
    stream of edits to some chats cannot starve a new message to another."""

    def __init__(
        self,
        overall_max_rate: int = 30,
        group_max_rate: int = 20,
        group_period: float = 60.0,
        private_max_rate: int = 3,
        private_period: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
        journal: Journal | None = None,
        meter: Meter = OFF,
    ) -> None:
        """Windows of ``overall_max_rate`` calls per second over all chats, ``group_max_rate``
        per ``group_period`` seconds to one group, ``private_max_rate`` per ``private_period``
        to one private chat; ``journal`` keeps them across restarts (opened by
        ``initialize``, closed by ``shutdown``); ``meter`` hears how every call ended."""
        self._meter = meter
        self._overall = _Window(overall_max_rate, 1.0)
        self._overall_max = overall_max_rate
        self._group = (group_max_rate, group_period)
        self._private = (private_max_rate, private_period)
        self._chats: dict[int, _Window] = {}
        self._held: dict[int, float] = {}
        """Chat → monotonic time until which Telegram asked us to wait (a 429)."""
        self._clock = clock
        self._journal = journal
        self._waiting: set[asyncio.Task[Any]] = set()
        """Tasks inside ``_admit`` (cancelled by ``shutdown``)."""
        self._closed = False

    async def initialize(self) -> None:
        """Open the journal and start every window from the calls it holds."""
        self._closed = False
        journal = self._journal
        if journal is None or journal.is_open:
            return
        horizon = max(self._group[1], self._private[1], 1.0) + SAFETY
        try:
            entries = journal.open(horizon)
        except OSError as error:
            log.warning("flood journal %s: %s; starting with empty windows", journal.path, error)
            return
        self.restore(entries, journal.clock())
        if entries:
            log.info(
                "flood windows restored: %d recent call(s) to %d chat(s)",
                len(entries),
                len({chat_id for _, chat_id in entries}),
            )

    def restore(self, entries: list[Entry], wall_now: float) -> None:
        """Count the calls of ``entries`` (wall-clock times, oldest first, as the journal
        gives them; ``wall_now`` read with them) in their windows, on the gate's clock."""
        now = self._clock()
        for when, chat_id in entries:
            age = max(0.0, wall_now - when)
            self._window(chat_id).times.append(now - age)
            if age < self._overall.period:
                self._overall.times.append(now - age)

    def restore_chat(self, chat_id: int, entries: list[Entry], wall_now: float) -> None:
        """Start one chat's window afresh from ``entries`` (its calls, as ``restore`` takes
        them): a worker took the chat over from another (issue #32)."""
        self._chats.pop(chat_id, None)
        now = self._clock()
        window = self._window(chat_id)
        for when, _chat in entries:
            window.times.append(now - max(0.0, wall_now - when))

    def share(self, workers: int) -> None:
        """This process is one of ``workers`` sending for the bot: its overall window is
        that share of the bot's (Telegram counts the bot's calls, whoever makes them)."""
        self._overall.limit = max(1, self._overall_max // max(1, workers))

    async def shutdown(self) -> None:
        """Cancel the calls still waiting for a window (their tasks see ``CancelledError``),
        wait for them to end, close the journal; calls arriving later raise ``GateClosed``."""
        self._closed = True
        current = asyncio.current_task()
        waiting = [t for t in self._waiting if t is not current and not t.done()]
        for task in waiting:
            task.cancel()
        if waiting:
            await asyncio.wait(waiting, timeout=SHUTDOWN_WAIT)
            log.info("shutdown: %d call(s) waiting for a flood window cancelled", len(waiting))
        if self._journal is not None:
            self._journal.close()

    def _window(self, chat_id: int) -> _Window:
        window = self._chats.get(chat_id)
        if window is None:
            if len(self._chats) > 4096:  # forget idle chats: memory stays bounded
                now = self._clock()
                for key in [k for k, w in self._chats.items() if w.idle(now)]:
                    del self._chats[key]
            limit, period = self._group if chat_id < 0 else self._private
            window = self._chats[chat_id] = _Window(limit, period)
        return window

    async def _sleep_until_free(self, delay: Callable[[float], float]) -> float:
        while True:
            now = self._clock()
            wait = delay(now)
            if wait <= 0:
                return now
            await asyncio.sleep(wait)

    async def _admit(self, chat_id: int) -> None:
        """Wait until a message call to ``chat_id`` fits every window, then count it (in the
        journal too, before the call is made)."""
        if self._closed:
            raise GateClosed(f"a message call to {chat_id} after the flood gate shut down")
        task = asyncio.current_task()
        if task is not None:
            self._waiting.add(task)
        try:
            chat = self._window(chat_id)
            async with chat.lock:
                await self._sleep_until_free(
                    lambda now: max(chat.delay(now), self._held.get(chat_id, 0.0) - now)
                )
                async with self._overall.lock:
                    now = await self._sleep_until_free(self._overall.delay)
                    self._overall.times.append(now)
                chat.times.append(now)
                self._held.pop(chat_id, None)
                if self._journal is not None:
                    self._journal.record(chat_id)
        finally:
            if task is not None:
                self._waiting.discard(task)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        """Admit message calls through the windows; note any 429 against its chat; tell the
        meter how every call ended."""
        chat_id: int | None = None
        if endpoint.lower() in MESSAGE_METHODS:
            with contextlib.suppress(TypeError, ValueError):
                chat_id = int(data.get("chat_id"))  # type: ignore[arg-type]
        if chat_id is not None:
            await self._admit(chat_id)
        try:
            answer = await callback(*args, **kwargs)
        except RetryAfter as error:
            wait = retry_seconds(error)
            self._meter.api_call(endpoint, "retry_after", wait)
            if chat_id is not None:
                until = self._clock() + wait
                self._held[chat_id] = max(self._held.get(chat_id, 0.0), until)
            raise
        except Exception as error:
            self._meter.api_call(endpoint, outcome_of(error))
            raise
        self._meter.api_call(endpoint, "ok")
        return answer
