"""Per-user limits on button presses and commands, so one person cannot flood the bot.

A token bucket per key (a user): ``burst`` actions at once, then ``rate`` a second. An action
over the limit is refused before anything is read or applied; the handler answers "slow down"
where someone is waiting (a button press always gets an answer) and says it at most once per
burst in a chat.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

KEYS_LIMIT = 10_000
"""Users tracked at once; the least recently seen are forgotten (they start with a full bucket)."""


class Throttle:
    """Token buckets by key."""

    def __init__(
        self, burst: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.rate = rate
        self._clock = clock
        self._buckets: OrderedDict[int, tuple[float, float, bool]] = OrderedDict()
        """key → (tokens, time of the last update, warned since the bucket was last full)."""

    def allow(self, key: int) -> bool:
        """Take one token for ``key``; ``False`` if none is left (the action is refused)."""
        now = self._clock()
        tokens, last, warned = self._buckets.pop(key, (self.burst, now, False))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
            warned = warned and tokens < self.burst - 1
        self._buckets[key] = (tokens, now, warned)
        if len(self._buckets) > KEYS_LIMIT:
            self._buckets.popitem(last=False)
        return allowed

    def first_refusal(self, key: int) -> bool:
        """After ``allow`` refused: ``True`` the first time since the user slowed down (say
        "slow down" once, then stay quiet)."""
        tokens, last, warned = self._buckets.get(key, (self.burst, self._clock(), False))
        self._buckets[key] = (tokens, last, True)
        return not warned
