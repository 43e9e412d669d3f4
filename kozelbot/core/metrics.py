"""What the bot measures for its operator (issue #33): the ``Meter`` every layer reports to.

Each layer is handed a ``Meter`` and tells it what happened — a Bot API call and how it
ended, a press answered, a change committed, a computer's decision, a write transaction —
without knowing where it goes. ``OFF`` (the default: ``KOZEL_METRICS_PORT=0``) does nothing
and keeps nothing; ``PrometheusMeter`` keeps the series in a registry of its own (one per
bot, so two bots in one process never mix their counts), which ``/metrics`` serves
(``handlers.monitor``). Its names are listed in the README's "Operating the bot".

Levels (``gauges``) are read when the registry is collected, from functions the
composition root hands over: what the service, the thinking pool and the lanes hold in
memory; what only the database knows (the outbox) is read by the scrape before it collects.

**Decision** (the issue names "busy retries"): the only retry storage makes is PostgreSQL's
connecting again after a lost connection (SQLite waits out a busy database inside its own
``busy_timeout``); ``db_retry`` counts those.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

PRESS_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds from a press to its answer: a person feels 0.1 s, waits at 1 s, leaves at 10 s."""
BUDGET_BUCKETS = (0.25, 0.5, 0.75, 0.9, 1.0, 1.25, 1.5, 2.0, 4.0)
"""A decision's time as a share of the thinking budget (1: the whole budget)."""
TRANSACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
"""Seconds of one write transaction, begin to commit (an fsync is a few milliseconds)."""

PRESS_KINDS = ("card", "button", "command", "miniapp")
"""What was pressed: a card of a hand, any other button, a command, a Mini App move."""
API_OUTCOMES = (
    "ok",
    "retry_after",
    "timed_out",
    "network_error",
    "bad_request",
    "forbidden",
    "chat_migrated",
    "invalid_token",
    "conflict",
    "telegram_error",
    "error",
)
"""How a Bot API call can end (``handlers.delivery.outcome_of``): success, a 429, each class
of Telegram's errors, and ``error`` for anything else."""
BUSY_METHODS = (
    "sendMessage",
    "editMessageText",
    "editMessageReplyMarkup",
    "deleteMessage",
    "answerCallbackQuery",
)
"""The calls every game makes: their series exist from the start at 0, so the first 429 or
error after a start counts in ``rate()`` and ``increase()`` (a series born at its first
event has no earlier sample to rise from)."""


class Meter(Protocol):
    """Where every layer reports what it did; ``OFF`` when nobody is listening."""

    def api_call(self, method: str, outcome: str, retry_after: float = 0.0) -> None:
        """A Bot API call ended: ``ok``, ``retry_after`` (with the seconds asked) or the
        error's class (``bad_request``, ``forbidden``, ``timed_out`` …)."""

    def heard(self) -> None:
        """The update loop heard from Telegram: a long poll answered, updates or none."""

    def update(self) -> None:
        """An update arrived (by long poll or webhook)."""

    def press(self, kind: str, seconds: float) -> None:
        """A press of ``kind`` (``PRESS_KINDS``) was answered ``seconds`` after it arrived."""

    def changed(self, variant: str, moves: int, deals: int, match_over: bool) -> None:
        """A table's change was committed: its moves, the deals it ended, whether the match
        ended with it."""

    def decision(self, level: str, seconds: float, budget: float) -> None:
        """A computer decided in ``seconds`` (its time in the queue included) with a
        thinking budget of ``budget`` seconds; 0 seconds: it was not thought (overload)."""

    def transaction(self, seconds: float) -> None:
        """A write transaction took ``seconds`` from begin to commit."""

    def db_retry(self) -> None:
        """Storage tried again after the database was unavailable."""


class _Off:
    """The meter while metrics are off: every report is dropped, nothing is kept."""

    def api_call(self, method: str, outcome: str, retry_after: float = 0.0) -> None:
        """Dropped."""

    def heard(self) -> None:
        """Dropped."""

    def update(self) -> None:
        """Dropped."""

    def press(self, kind: str, seconds: float) -> None:
        """Dropped."""

    def changed(self, variant: str, moves: int, deals: int, match_over: bool) -> None:
        """Dropped."""

    def decision(self, level: str, seconds: float, budget: float) -> None:
        """Dropped."""

    def transaction(self, seconds: float) -> None:
        """Dropped."""

    def db_retry(self) -> None:
        """Dropped."""


OFF: Meter = _Off()
"""The meter of a bot whose metrics are off (``KOZEL_METRICS_PORT=0``)."""

Levels = Callable[[], Mapping[tuple[str, ...], float]]
"""A level read at collection: its value by label values (``()`` for an unlabelled one)."""


class _LevelCollector(Collector):
    """Gauges whose values are read from the running bot when the registry is collected."""

    def __init__(self) -> None:
        self.levels: dict[str, tuple[str, tuple[str, ...], Levels]] = {}

    def describe(self) -> Iterable[GaugeMetricFamily]:
        return []  # read at collection only (no value is read at registration)

    def collect(self) -> Iterable[GaugeMetricFamily]:
        for name, (documentation, labels, read) in self.levels.items():
            family = GaugeMetricFamily(name, documentation, labels=list(labels))
            for values, value in read().items():
                family.add_metric(list(values), value)
            yield family


class PrometheusMeter:
    """The meter while metrics are on: Prometheus series under ``kozel_`` in ``registry``
    (with the client's process, platform and garbage-collector collectors)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.registry = registry = CollectorRegistry()
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            registry.register(collector)
        self._clock = clock
        self.last_update: float | None = None
        """Unix time the update loop last heard from Telegram (``None``: not yet)."""
        self._api_calls = Counter(
            "kozel_bot_api_calls",
            "Bot API calls by method and how they ended (ok, retry_after, the error class).",
            ["method", "outcome"],
            registry=registry,
        )
        self._retry_after = Counter(
            "kozel_bot_api_retry_after_seconds",
            "Seconds Telegram asked the bot to wait (429 Too Many Requests), by method.",
            ["method"],
            registry=registry,
        )
        for method in BUSY_METHODS:
            self._retry_after.labels(method)
            for outcome in API_OUTCOMES:
                self._api_calls.labels(method, outcome)
        self._updates = Counter(
            "kozel_updates", "Updates received (by long poll or webhook).", registry=registry
        )
        self._press = Histogram(
            "kozel_press_seconds",
            "Seconds from a press (card, other button, command, Mini App move) to its answer.",
            ["kind"],
            buckets=PRESS_BUCKETS,
            registry=registry,
        )
        for kind in PRESS_KINDS:
            self._press.labels(kind)
        self._moves = Counter(
            "kozel_moves", "Moves committed, by variant.", ["variant"], registry=registry
        )
        self._deals = Counter(
            "kozel_deals_finished", "Deals finished, by variant.", ["variant"], registry=registry
        )
        self._matches = Counter(
            "kozel_matches_finished",
            "Matches finished, by variant.",
            ["variant"],
            registry=registry,
        )
        self._decision = Histogram(
            "kozel_decision_seconds",
            "Seconds a computer took to decide, its wait for the thinking pool included.",
            ["level"],
            buckets=PRESS_BUCKETS,
            registry=registry,
        )
        self._budget = Histogram(
            "kozel_decision_budget_used",
            "A computer decision's time as a share of its thinking budget (1: all of it).",
            ["level"],
            buckets=BUDGET_BUCKETS,
            registry=registry,
        )
        self._transaction = Histogram(
            "kozel_db_transaction_seconds",
            "Seconds of one write transaction, begin to commit.",
            buckets=TRANSACTION_BUCKETS,
            registry=registry,
        )
        self._db_retries = Counter(
            "kozel_db_busy_retries",
            "Times storage tried again because the database was unavailable.",
            registry=registry,
        )
        self._levels = _LevelCollector()
        registry.register(self._levels)
        self.outbox = Gauge(
            "kozel_outbox_depth", "Posts owed to chats (results) not sent yet.", registry=registry
        )
        self.outbox_oldest = Gauge(
            "kozel_outbox_oldest_seconds",
            "Age of the oldest post owed to a chat (0: none).",
            registry=registry,
        )
        self.tournaments = Gauge(
            "kozel_live_tournaments",
            "Tournaments registering or running.",
            registry=registry,
        )
        Gauge(
            "kozel_update_poll_timestamp_seconds",
            "Unix time the update loop last heard from Telegram (0: not yet).",
            registry=registry,
        ).set_function(lambda: self.last_update or 0.0)

    def level(self, name: str, documentation: str, labels: tuple[str, ...], read: Levels) -> None:
        """A gauge read from the running bot at each collection (``read`` gives the values
        by label values)."""
        self._levels.levels[name] = (documentation, labels, read)

    def api_call(self, method: str, outcome: str, retry_after: float = 0.0) -> None:
        self._api_calls.labels(method, outcome).inc()
        if retry_after:
            self._retry_after.labels(method).inc(retry_after)

    def heard(self) -> None:
        self.last_update = self._clock()

    def update(self) -> None:
        self.last_update = self._clock()
        self._updates.inc()

    def press(self, kind: str, seconds: float) -> None:
        self._press.labels(kind).observe(seconds)

    def changed(self, variant: str, moves: int, deals: int, match_over: bool) -> None:
        if moves:
            self._moves.labels(variant).inc(moves)
        if deals:
            self._deals.labels(variant).inc(deals)
        if match_over:
            self._matches.labels(variant).inc()

    def decision(self, level: str, seconds: float, budget: float) -> None:
        self._decision.labels(level).observe(seconds)
        if budget > 0:
            self._budget.labels(level).observe(seconds / budget)

    def transaction(self, seconds: float) -> None:
        self._transaction.observe(seconds)

    def db_retry(self) -> None:
        self._db_retries.inc()
