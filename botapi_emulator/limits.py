"""Flood limits: how many chat-targeted requests a bot may make, per chat and overall.

Telegram does not publish exact limits; the defaults model the documented guidance: about 20
messages a minute in a group, about one a second in a private chat with short bursts, about 30
a second overall. Sends, edits and deletions count; ``answerCallbackQuery`` does not.

Two models are available (:attr:`Limits.algorithm`):

* ``"bucket"`` (default) - a leaky bucket holding ``per_window`` requests that drains at
  ``per_window / window`` per second: a burst of ``per_window``, then a steady rate. This is the
  model of ``aiolimiter``, which PTB's ``AIORateLimiter`` uses, so a bot throttled by an
  ``AIORateLimiter`` with the same numbers never sees a 429.
* ``"window"`` - a strict sliding window: at most ``per_window`` requests in any ``window``
  seconds. Stricter than a bucket with the same numbers (no refill inside the window).

``tolerance`` forgives that many seconds of jitter between the moment a client's limiter let a
request go and the moment it arrives here.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

#: Chat-targeted calls that post, change or remove messages (lower case): the calls flood limits
#: count. ``answerCallbackQuery``, ``getUpdates``, ``getChatMember``, ``sendChatAction``,
#: ``setMyCommands`` and the like are not among them.
MESSAGE_METHODS = frozenset(
    name.lower()
    for name in (
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageLiveLocation",
        "stopMessageLiveLocation",
        "deleteMessage",
        "deleteMessages",
        "forwardMessage",
        "forwardMessages",
        "copyMessage",
        "copyMessages",
        "sendPhoto",
        "sendAudio",
        "sendDocument",
        "sendVideo",
        "sendAnimation",
        "sendVoice",
        "sendVideoNote",
        "sendPaidMedia",
        "sendMediaGroup",
        "sendLocation",
        "sendVenue",
        "sendContact",
        "sendPoll",
        "stopPoll",
        "sendDice",
        "sendSticker",
        "sendInvoice",
        "sendGame",
        "sendChecklist",
        "editMessageChecklist",
    )
)


def max_in_window(times: Iterable[float], window: float) -> int:
    """The largest number of ``times`` inside any half-open interval ``[t, t + window)``."""
    ordered = sorted(times)
    best = start = 0
    for end, moment in enumerate(ordered):
        while moment - ordered[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


@dataclass(frozen=True)
class Limits:
    """Flood limit settings; a ``*_per_window`` / ``global_per_second`` of None disables it."""

    group_per_window: int | None = 20
    group_window: float = 60.0
    private_per_window: int | None = 3
    private_window: float = 3.0
    global_per_second: int | None = 30
    algorithm: Literal["bucket", "window"] = "bucket"
    tolerance: float = 0.25

    @classmethod
    def unlimited(cls) -> Limits:
        """No flood limits at all."""
        return cls(group_per_window=None, private_per_window=None, global_per_second=None)


class _Meter(Protocol):
    def wait(self, now: float) -> float:
        """Seconds until one more request is allowed (0 if allowed now)."""

    def add(self, now: float) -> None:
        """Count one request made at ``now``."""


class _SlidingWindow:
    def __init__(self, limit: int, period: float, tolerance: float) -> None:
        self.limit = limit
        self.period = max(period - tolerance, 0.0)
        self.times: collections.deque[float] = collections.deque()

    def _expire(self, now: float) -> None:
        while self.times and self.times[0] <= now - self.period:
            self.times.popleft()

    def wait(self, now: float) -> float:
        self._expire(now)
        if len(self.times) < self.limit:
            return 0.0
        return self.times[len(self.times) - self.limit] + self.period - now

    def add(self, now: float) -> None:
        self.times.append(now)


class _LeakyBucket:
    def __init__(self, limit: int, period: float, tolerance: float) -> None:
        self.capacity = float(limit)
        self.rate = limit / period if period > 0 else float("inf")
        self.slack = self.rate * tolerance
        self.level = 0.0
        self.last = 0.0

    def _leak(self, now: float) -> None:
        if self.level:
            self.level = max(self.level - (now - self.last) * self.rate, 0.0)
        self.last = now

    def wait(self, now: float) -> float:
        self._leak(now)
        excess = self.level + 1 - self.capacity - self.slack
        return max(excess, 0.0) / self.rate

    def add(self, now: float) -> None:
        self._leak(now)
        self.level += 1


class FloodControl:
    """Applies :class:`Limits` to requests, per chat and overall."""

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self._chats: dict[int, _Meter] = {}
        self._global: _Meter | None = (
            self._meter(limits.global_per_second, 1.0) if limits.global_per_second else None
        )

    def _meter(self, limit: int, period: float) -> _Meter:
        if self.limits.algorithm == "window":
            return _SlidingWindow(limit, period, self.limits.tolerance)
        return _LeakyBucket(limit, period, self.limits.tolerance)

    def _chat_meter(self, chat_id: int, is_group: bool) -> _Meter | None:
        meter = self._chats.get(chat_id)
        if meter is None:
            limits = self.limits
            limit, period = (
                (limits.group_per_window, limits.group_window)
                if is_group
                else (limits.private_per_window, limits.private_window)
            )
            if not limit:
                return None
            meter = self._chats[chat_id] = self._meter(limit, period)
        return meter

    def retry_after(self, chat_id: int, is_group: bool) -> float:
        """Seconds the bot must wait before a request to ``chat_id`` is allowed; 0 if allowed."""
        now = self.clock()
        meters = [self._global, self._chat_meter(chat_id, is_group)]
        return max((meter.wait(now) for meter in meters if meter is not None), default=0.0)

    def record(self, chat_id: int, is_group: bool) -> None:
        """Count a request to ``chat_id`` that was carried out."""
        now = self.clock()
        for meter in (self._global, self._chat_meter(chat_id, is_group)):
            if meter is not None:
                meter.add(now)
