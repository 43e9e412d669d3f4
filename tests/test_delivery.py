"""The flood gate, the retry loop and the per-user throttle, on a fake clock where it matters."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from handlers.delivery import Backoff, FloodGate, GateClosed, deliver, is_transient
from handlers.throttle import Throttle
from storage.flood import FloodJournal


class Sent:
    """A fake Bot API call that records when the gate let it through."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.times: list[tuple[float, int]] = []

    def call(self, chat_id: int) -> Any:
        async def run() -> bool:
            self.times.append((self.clock[0], chat_id))
            return True

        return run


async def _through(gate: FloodGate, sent: Sent, chat_id: int, method: str = "sendMessage") -> Any:
    return await gate.process_request(
        sent.call(chat_id), (), {}, method, {"chat_id": chat_id}, None
    )


def _max_in(times: list[float], window: float) -> int:
    return max(sum(1 for u in times if t <= u < t + window) for t in times)


async def test_the_gate_keeps_any_one_second_window_at_the_overall_limit() -> None:
    gate = FloodGate(
        overall_max_rate=30,
        group_max_rate=1000,
        group_period=1.0,
        private_max_rate=1000,
        private_period=1.0,
    )
    loop = asyncio.get_running_loop()
    start = loop.time()
    times: list[float] = []

    async def one(chat_id: int) -> None:
        async def run() -> bool:
            times.append(loop.time() - start)
            return True

        await gate.process_request(run, (), {}, "sendMessage", {"chat_id": chat_id}, None)

    await asyncio.gather(*(one(-(i % 7) - 1) for i in range(75)))
    assert len(times) == 75
    assert _max_in(sorted(times), 1.0) <= 30
    assert max(times) >= 2.0  # 75 calls at 30 per second need two full windows


async def test_the_gate_keeps_a_group_to_its_limit_and_serves_chats_in_order() -> None:
    gate = FloodGate(
        overall_max_rate=1000,
        group_max_rate=3,
        group_period=0.3,
        private_max_rate=1000,
        private_period=1.0,
    )
    loop = asyncio.get_running_loop()
    order: list[int] = []

    async def one(chat_id: int, n: int) -> None:
        async def run() -> bool:
            order.append(n)
            return True

        await gate.process_request(run, (), {}, "editMessageText", {"chat_id": chat_id}, None)

    began = loop.time()
    await asyncio.gather(*(one(-5, n) for n in range(7)))
    assert order == list(range(7)), "one chat's calls go out in the order they came"
    assert loop.time() - began >= 0.6  # 7 calls at 3 per 0.3 s: two waits


async def test_callback_answers_and_look_ups_pass_the_gate_freely() -> None:
    gate = FloodGate(overall_max_rate=1, group_max_rate=1, group_period=60.0)
    sent = Sent([0.0])
    loop = asyncio.get_running_loop()
    began = loop.time()
    for _ in range(20):
        await gate.process_request(
            sent.call(0), (), {}, "answerCallbackQuery", {"callback_query_id": "1"}, None
        )
        await _through(gate, sent, -7, method="getChatMember")
    assert loop.time() - began < 0.5


async def test_a_429_holds_back_only_its_chat_for_the_time_telegram_asked() -> None:
    gate = FloodGate(overall_max_rate=1000, group_max_rate=1000, group_period=1.0)
    loop = asyncio.get_running_loop()

    async def refused() -> bool:
        raise RetryAfter(1)

    with pytest.raises(RetryAfter):
        await gate.process_request(refused, (), {}, "sendMessage", {"chat_id": -1}, None)
    sent = Sent([0.0])
    began = loop.time()
    await _through(gate, sent, -2)
    assert loop.time() - began < 0.2, "another chat is not held back"
    await _through(gate, sent, -1)
    assert loop.time() - began >= 0.9, "the refused chat waits as Telegram asked"


def test_transient_and_permanent_errors_are_told_apart() -> None:
    assert is_transient(NetworkError("Bad Gateway"))
    assert is_transient(TimedOut())
    for permanent in (
        BadRequest("Message to edit not found"),
        Forbidden("blocked"),
        ChatMigrated(5),
        RetryAfter(1),
    ):
        assert not is_transient(permanent)


async def test_deliver_retries_transient_failures_until_they_pass() -> None:
    failures = [TimedOut(), NetworkError("Internal Server Error"), RetryAfter(0)]
    calls = 0

    async def flaky() -> str:
        nonlocal calls
        calls += 1
        if failures:
            raise failures.pop(0)
        return "sent"

    backoff = Backoff(random.Random(1), base=0.01, cap=0.02)
    assert await deliver(flaky, backoff=backoff, what="test") == "sent"
    assert calls == 4


async def test_deliver_raises_permanent_errors_at_once_and_gives_up_when_told() -> None:
    calls = 0

    async def gone() -> None:
        nonlocal calls
        calls += 1
        raise Forbidden("bot was blocked by the user")

    with pytest.raises(Forbidden):
        await deliver(gone, backoff=Backoff(random.Random(1)), what="test")
    assert calls == 1

    async def down() -> None:
        raise NetworkError("Bad Gateway")

    with pytest.raises(NetworkError):
        await deliver(
            down, backoff=Backoff(random.Random(1), base=0.05), what="test", give_up_after=0.2
        )


def test_backoff_grows_exponentially_with_jitter_up_to_its_cap() -> None:
    backoff = Backoff(random.Random(3), base=0.25, cap=30.0)
    for attempt in range(1, 30):
        top = min(30.0, 0.25 * 2 ** (attempt - 1))
        assert top / 2 <= backoff.delay(attempt) <= top


def test_the_throttle_allows_a_burst_then_its_rate_and_warns_once() -> None:
    now = [0.0]
    throttle = Throttle(burst=3, rate=1.0, clock=lambda: now[0])
    assert [throttle.allow(1) for _ in range(4)] == [True, True, True, False]
    assert throttle.first_refusal(1) is True
    assert throttle.allow(1) is False and throttle.first_refusal(1) is False
    assert throttle.allow(2), "another user has their own bucket"
    now[0] = 1.0
    assert throttle.allow(1) and not throttle.allow(1)
    now[0] = 10.0
    assert [throttle.allow(1) for _ in range(3)] == [True, True, True]
    assert not throttle.allow(1) and throttle.first_refusal(1) is True


# -- the flood windows across a restart, and the gate's shutdown ------------------------------


def _gate(journal: FloodJournal | None = None, **limits: Any) -> FloodGate:
    values: dict[str, Any] = {
        "overall_max_rate": 1000,
        "group_max_rate": 3,
        "group_period": 0.6,
        "private_max_rate": 2,
        "private_period": 0.6,
    }
    values.update(limits)
    return FloodGate(**values, journal=journal)


async def _send(
    gate: FloodGate,
    chat_id: int,
    record: list[tuple[int, float]] | None = None,
    journal: Path | None = None,
) -> None:
    loop = asyncio.get_running_loop()

    async def run() -> bool:
        if record is not None:
            record.append((chat_id, loop.time()))
        if journal is not None:  # the call is in the journal before it is made
            assert journal.read_text().splitlines()[-1].endswith(f" {chat_id}")
        return True

    await gate.process_request(run, (), {}, "sendMessage", {"chat_id": chat_id}, None)


async def test_a_restarted_gate_goes_on_with_the_windows_the_killed_one_left(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kozel.db.flood"
    first = _gate(FloodJournal(path))
    await first.initialize()
    for chat_id in (-5, -5, -5, 42, 42):  # the group's and the private chat's windows are full
        await _send(first, chat_id, journal=path)
    loop = asyncio.get_running_loop()
    killed = loop.time()  # no shutdown: kill -9
    second = _gate(FloodJournal(path))
    await second.initialize()
    sent: list[tuple[int, float]] = []
    await asyncio.gather(_send(second, -5, sent), _send(second, 42, sent), _send(second, -6, sent))
    at = {chat_id: when - killed for chat_id, when in sent}
    assert at[-6] < 0.1, "a chat the killed process did not write to is free"
    assert at[-5] >= 0.6 and at[42] >= 0.6, "the full windows of the killed process hold"
    assert at[-5] < 1.0 and at[42] < 1.0
    await second.shutdown()


async def test_restored_windows_move_from_the_wall_clock_to_the_gates_clock() -> None:
    mono = [500.0]
    gate = FloodGate(
        overall_max_rate=2,
        group_max_rate=2,
        group_period=60.0,
        private_max_rate=3,
        private_period=3.0,
        clock=lambda: mono[0],
    )
    wall_now = 1_700_000_100.0
    gate.restore([(wall_now - 50.0, -5), (wall_now - 0.5, -5), (wall_now - 0.3, 7)], wall_now)
    group, private, overall = gate._window(-5), gate._window(7), gate._overall
    assert list(group.times) == pytest.approx([450.0, 499.5])
    assert list(private.times) == pytest.approx([499.7])
    assert list(overall.times) == pytest.approx([499.5, 499.7]), "the last second, overall"
    assert group.delay(500.0) == pytest.approx(450.0 + 60.2 - 500.0)
    assert private.delay(500.0) == 0.0
    assert overall.delay(500.0) == pytest.approx(499.5 + 1.2 - 500.0)


async def test_shutdown_cancels_the_calls_waiting_for_a_window_and_closes_the_journal(
    tmp_path: Path,
) -> None:
    journal = FloodJournal(tmp_path / "kozel.db.flood")
    gate = _gate(journal, group_max_rate=1, group_period=60.0)
    await gate.initialize()
    await _send(gate, -5)
    waiting = [asyncio.create_task(_send(gate, -5)) for _ in range(3)]  # one holds the lock
    await asyncio.sleep(0.05)
    loop = asyncio.get_running_loop()
    began = loop.time()
    await gate.shutdown()
    assert loop.time() - began < 0.5
    assert all(task.cancelled() for task in waiting)
    assert not journal.is_open
    with pytest.raises(GateClosed):
        await _send(gate, -6)
    sent = Sent([0.0])
    await gate.process_request(
        sent.call(0), (), {}, "answerCallbackQuery", {"callback_query_id": "1"}, None
    )
    assert len(sent.times) == 1, "calls that are not messages still pass"


async def test_a_group_taken_over_starts_from_the_calls_its_last_owner_made() -> None:
    """Issue #32: a worker taking a group over counts the calls another worker made to it
    in the last minute (read from the database), and forgets what it counted itself."""
    mono = [500.0]
    gate = FloodGate(group_max_rate=2, group_period=60.0, clock=lambda: mono[0])
    gate._window(-5).times.extend([10.0, 11.0, 12.0])  # an old stint of this worker's
    wall_now = 1_700_000_100.0
    gate.restore_chat(-5, [(wall_now - 30.0, -5), (wall_now - 1.0, -5)], wall_now)
    window = gate._window(-5)
    assert list(window.times) == pytest.approx([470.0, 499.0])
    assert window.delay(500.0) == pytest.approx(470.0 + 60.2 - 500.0)  # full: it waits


async def test_each_of_several_workers_sends_its_share_of_the_overall_limit() -> None:
    gate = FloodGate(overall_max_rate=30)
    gate.share(3)
    assert gate._overall.limit == 10
    gate.share(1)
    assert gate._overall.limit == 30
    gate.share(100)
    assert gate._overall.limit == 1  # never none at all
