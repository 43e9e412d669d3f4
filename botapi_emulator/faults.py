"""Fault injection: make a share of the bot's Bot API calls fail the way Telegram sometimes does.

Configure a :class:`Faults` on the emulator (``BotApiEmulator(faults=Faults(share=0.2))``, or
``emu.faults = Faults(...)`` at run time) and a seeded random generator picks which calls fail
and how:

* ``"429"`` - answered ``429 Too Many Requests: retry after N`` with ``parameters.retry_after``;
* ``"5xx"`` - answered ``500 Internal Server Error`` (JSON, as Telegram) or ``502 Bad Gateway``
  (an HTML page, as the nginx in front of Telegram sends it);
* ``"slow"`` - carried out normally, but the answer comes ``slow_delay`` seconds later;
* ``"drop"`` - the connection is closed without any HTTP answer (httpx, PTB's client, raises
  ``RemoteProtocolError``, which PTB reports as ``NetworkError``).

Every kind but ``"slow"`` is applied before the method runs, so a failed call changed nothing.
Each injected fault is recorded in ``emu.injected_faults`` (:class:`InjectedFault`). Injected
429s are not flood errors, but a message call to the same chat inside the ``retry_after`` an
injected 429 asked for is one: it is answered 429 again and recorded in ``emu.flood_errors``
(``punish_ignored_retry_after``), as the real Telegram punishes a client that does not wait.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

FaultKind = Literal["429", "5xx", "slow", "drop"]
"""The kinds of injected faults."""

FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)


def _even_mix() -> dict[FaultKind, float]:
    return dict.fromkeys(FAULT_KINDS, 1.0)


@dataclass(frozen=True)
class InjectedFault:
    """One fault the emulator injected into a Bot API call.

    ``status`` is the HTTP status answered (429, 500, 502; 200 for ``"slow"``; None for
    ``"drop"``); ``time`` is on the emulator's ``clock``.
    """

    method: str
    kind: FaultKind
    chat_id: int | None
    time: float
    status: int | None = None
    retry_after: int | None = None
    delay: float | None = None


@dataclass
class Faults:
    """Which share of the bot's calls fail, and how; the default injects nothing.

    ``weights`` maps fault kinds to relative weights (missing kinds never happen).
    ``retry_after`` is the whole number of seconds an injected 429 asks for; ``slow_delay`` how
    late a ``"slow"`` answer comes. ``seed`` seeds the generator that decides which calls fail,
    so a run with the same calls in the same order fails the same calls (None: unseeded).
    ``getUpdates`` is exempt unless ``include_polling``; ``exempt_methods`` lists more methods
    that never fail (case-insensitive). With ``punish_ignored_retry_after`` a message call to a
    chat less than ``retry_after`` seconds after an injected 429 for that chat is a flood
    violation; calls arriving within ``retry_after_grace`` seconds of the 429 are forgiven (they
    were sent before the client could have seen it).
    """

    share: float = 0.0
    weights: Mapping[FaultKind, float] = field(default_factory=_even_mix)
    retry_after: int = 1
    slow_delay: float = 0.5
    seed: int | None = 0
    include_polling: bool = False
    exempt_methods: Collection[str] = ()
    punish_ignored_retry_after: bool = True
    retry_after_grace: float = 0.1
    _rng: random.Random = field(init=False, repr=False, compare=False)
    _exempt: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.share <= 1.0:
            raise ValueError(f"share must be between 0 and 1, not {self.share}")
        unknown = set(self.weights) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; known: {FAULT_KINDS}")
        if any(weight < 0 for weight in self.weights.values()):
            raise ValueError("fault weights must not be negative")
        if self.share > 0 and not any(self.weights.values()):
            raise ValueError("a positive share needs at least one fault kind with a weight")
        if self.retry_after < 1:
            raise ValueError("retry_after must be at least 1 second")
        if self.slow_delay < 0 or self.retry_after_grace < 0:
            raise ValueError("slow_delay and retry_after_grace must not be negative")
        self._rng = random.Random(self.seed)
        self._exempt = frozenset(method.lower() for method in self.exempt_methods)

    def applies_to(self, method: str) -> bool:
        """Whether calls of ``method`` may fail at all."""
        name = method.lower()
        if name == "getupdates" and not self.include_polling:
            return False
        return name not in self._exempt

    def decide(self, method: str, chat_id: int | None, now: float) -> InjectedFault | None:
        """Draw whether this call fails and how; None means it goes through untouched."""
        if self.share <= 0 or not self.applies_to(method):
            return None
        if self._rng.random() >= self.share:
            return None
        kinds = [kind for kind in FAULT_KINDS if self.weights.get(kind, 0) > 0]
        kind = self._rng.choices(kinds, [self.weights[kind] for kind in kinds])[0]
        if kind == "429":
            return InjectedFault(method, kind, chat_id, now, 429, retry_after=self.retry_after)
        if kind == "5xx":
            return InjectedFault(method, kind, chat_id, now, self._rng.choice((500, 502)))
        if kind == "slow":
            return InjectedFault(method, kind, chat_id, now, 200, delay=self.slow_delay)
        return InjectedFault(method, kind, chat_id, now)


@dataclass
class RetryAfterWindows:
    """The ``retry_after`` windows injected 429s opened, per chat."""

    _until: dict[int, tuple[float, float]] = field(default_factory=dict)

    def open(self, fault: InjectedFault) -> None:
        """Remember an injected 429 for a chat: the bot must not write there for a while."""
        if fault.chat_id is not None and fault.retry_after is not None:
            self._until[fault.chat_id] = (fault.time, fault.time + fault.retry_after)

    def violated(self, chat_id: int | None, now: float, grace: float) -> int | None:
        """Seconds still to wait (rounded up) if a call to ``chat_id`` now ignores a window."""
        if chat_id is None or chat_id not in self._until:
            return None
        start, until = self._until[chat_id]
        if now >= until:
            del self._until[chat_id]
            return None
        if now < start + grace:
            return None
        return max(1, math.ceil(until - now))
