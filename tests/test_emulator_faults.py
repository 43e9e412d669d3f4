"""Tests of the emulator's fault injection (:class:`Faults`) and its message-rate metric."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import aiohttp
import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import NetworkError, RetryAfter
from telegram.ext import AIORateLimiter

from botapi_emulator import (
    ApiCall,
    BotApiEmulator,
    EmulatorState,
    FaultKind,
    Faults,
    Limits,
    max_in_window,
)
from tests.test_emulator import TOKEN, plain_bot

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


async def post(emu: BotApiEmulator, method: str, **fields: str) -> tuple[int, str]:
    """POST form fields as PTB does; returns (HTTP status, body text)."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emu.base_url}{emu.token}/{method}", data=fields) as response,
    ):
        return response.status, await response.text()


async def post_json(emu: BotApiEmulator, method: str, **fields: str) -> tuple[int, dict[str, Any]]:
    """POST form fields; returns (HTTP status, JSON body)."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emu.base_url}{emu.token}/{method}", data=fields) as response,
    ):
        return response.status, await response.json()


class FakeClock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------------------------ decisions


def test_default_faults_inject_nothing() -> None:
    faults = Faults()
    assert all(faults.decide("sendMessage", 1, 0.0) is None for _ in range(100))


def test_the_share_and_the_mix_are_respected_and_seeded() -> None:
    faults = Faults(share=0.2, weights={"429": 1, "5xx": 1, "drop": 2}, seed=3)
    picked = [faults.decide("sendMessage", -1, float(n)) for n in range(5000)]
    failed = [fault for fault in picked if fault is not None]
    assert 850 < len(failed) < 1150
    kinds = Counter(fault.kind for fault in failed)
    assert set(kinds) == {"429", "5xx", "drop"}
    assert kinds["drop"] > kinds["429"] and kinds["drop"] > kinds["5xx"]
    assert {fault.status for fault in failed if fault.kind == "5xx"} == {500, 502}
    assert all(fault.retry_after == 1 for fault in failed if fault.kind == "429")
    again = Faults(share=0.2, weights={"429": 1, "5xx": 1, "drop": 2}, seed=3)
    assert [again.decide("sendMessage", -1, float(n)) for n in range(5000)] == picked


def test_polling_and_listed_methods_are_exempt() -> None:
    faults = Faults(share=1.0, exempt_methods=["getMe", "ANSWERCALLBACKQUERY"])
    assert faults.decide("getUpdates", None, 0.0) is None
    assert faults.decide("getme", None, 0.0) is None
    assert faults.decide("answerCallbackQuery", None, 0.0) is None
    fault = faults.decide("sendMessage", 7, 1.5)
    assert fault is not None
    assert (fault.method, fault.chat_id, fault.time) == ("sendMessage", 7, 1.5)
    assert Faults(share=1.0, include_polling=True).decide("getUpdates", None, 0.0) is not None


@pytest.mark.parametrize(
    "options",
    [{"share": 1.5}, {"weights": {"404": 1.0}}, {"share": 0.5, "weights": {}}, {"retry_after": 0}],
)
def test_bad_settings_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Faults(**options)


# ------------------------------------------------------------------------------------ on the wire


async def test_injected_429_looks_like_telegram_and_changes_nothing() -> None:
    async with BotApiEmulator(TOKEN, faults=Faults(share=1.0, weights={"429": 1})) as emu:
        group = emu.add_group("Козлятня")
        status, body = await post_json(emu, "sendMessage", chat_id=str(group.id), text="ход")
        assert status == 429
        assert body == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }
        assert emu.messages(group) == []
        assert emu.flood_errors == []  # injected, not a flood violation
        [fault] = emu.injected_faults
        assert (fault.method, fault.kind, fault.chat_id, fault.retry_after) == (
            "sendMessage",
            "429",
            group.id,
            1,
        )
        [call] = emu.calls("sendMessage")
        assert (call.ok, call.error_code, call.fault) == (False, 429, "429")


async def test_injected_5xx_answers_500_json_or_502_html() -> None:
    async with BotApiEmulator(TOKEN, faults=Faults(share=1.0, weights={"5xx": 1})) as emu:
        group = emu.add_group("Козлятня")
        answers = [
            await post(emu, "sendMessage", chat_id=str(group.id), text="x") for _ in range(12)
        ]
        statuses = {status for status, _ in answers}
        assert statuses == {500, 502}
        for status, body in answers:
            if status == 500:
                assert '"description": "Internal Server Error"' in body
            else:
                assert "502 Bad Gateway" in body
        assert emu.messages(group) == []
        assert [fault.status for fault in emu.injected_faults] == [s for s, _ in answers]


async def test_dropped_connection_gives_no_answer_and_changes_nothing() -> None:
    async with BotApiEmulator(TOKEN, faults=Faults(share=1.0, weights={"drop": 1})) as emu:
        group = emu.add_group("Козлятня")
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await post(emu, "sendMessage", chat_id=str(group.id), text="x")
        assert emu.messages(group) == []
        [fault] = emu.injected_faults
        assert (fault.kind, fault.status) == ("drop", None)
        [call] = emu.calls("sendMessage")
        assert (call.ok, call.error_code, call.fault) == (False, None, "drop")
        emu.faults = Faults()
        status, _ = await post(emu, "sendMessage", chat_id=str(group.id), text="x")
        assert status == 200


async def test_slow_answer_is_carried_out_but_late() -> None:
    faults = Faults(share=1.0, weights={"slow": 1}, slow_delay=0.3)
    async with BotApiEmulator(TOKEN, faults=faults) as emu:
        group = emu.add_group("Козлятня")
        started = time.monotonic()
        status, _ = await post(emu, "sendMessage", chat_id=str(group.id), text="ход")
        assert status == 200
        assert time.monotonic() - started >= 0.3
        assert [message.text for message in emu.messages(group)] == ["ход"]
        assert [(f.kind, f.delay) for f in emu.injected_faults] == [("slow", 0.3)]
        assert emu.calls("sendMessage")[0].ok


async def test_ptb_sees_retry_after_and_network_errors() -> None:
    async with BotApiEmulator(TOKEN) as emu, plain_bot(emu) as bot:
        group = emu.add_group("Козлятня")
        emu.faults = Faults(share=1.0, weights={"429": 1})
        with pytest.raises(RetryAfter):
            await bot.send_message(group.id, "x")
        kinds: tuple[FaultKind, ...] = ("5xx", "drop")
        for kind in kinds:
            emu.faults = Faults(share=1.0, weights={kind: 1})
            for _ in range(3):
                with pytest.raises(NetworkError) as caught:
                    await bot.send_message(group.id, "x")
                assert not isinstance(caught.value, RetryAfter)
        assert emu.messages(group) == []
        assert len(emu.injected_faults) == 7


async def test_failed_callback_answer_leaves_the_query_unanswered() -> None:
    async with BotApiEmulator(TOKEN) as emu, plain_bot(emu) as bot:
        anya = emu.add_user("Аня")
        group = emu.add_group("Козлятня", members=[anya])
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Сесть", callback_data="join")]])
        sent = await bot.send_message(group.id, "лобби", reply_markup=keyboard)
        query_id = emu.press_nowait(anya, group, sent.message_id)
        emu.faults = Faults(share=1.0, weights={"5xx": 1, "drop": 1, "429": 1})
        for _ in range(3):
            with pytest.raises((NetworkError, RetryAfter)):
                await bot.answer_callback_query(query_id, "ok")
        assert emu.answered(query_id) is None
        emu.faults = Faults()
        await bot.answer_callback_query(query_id, "ok")
        answer = emu.answered(query_id)
        assert answer is not None and answer.text == "ok"


async def test_polling_is_exempt_by_default_and_a_failed_poll_loses_no_update() -> None:
    async with BotApiEmulator(TOKEN, faults=Faults(share=1.0)) as emu:
        user = emu.add_user("Аня")
        emu.send_text(user, user, "привет")
        status, body = await post_json(emu, "getUpdates")
        assert status == 200 and len(body["result"]) == 1
        emu.send_text(user, user, "ещё")
        emu.faults = Faults(share=1.0, weights={"5xx": 1, "drop": 1}, include_polling=True)
        for _ in range(4):
            try:
                status, _ = await post(emu, "getUpdates", offset="2")
            except aiohttp.ServerDisconnectedError:
                status = 0
            assert status in (0, 500, 502)
        assert [fault.method for fault in emu.injected_faults] == ["getUpdates"] * 4
        emu.faults = Faults()
        _, body = await post_json(emu, "getUpdates", offset="2")
        assert [u["message"]["text"] for u in body["result"]] == ["ещё"]


async def test_faults_apply_to_every_method_unless_exempt() -> None:
    faults = Faults(share=1.0, weights={"5xx": 1}, exempt_methods={"getMe"})
    async with BotApiEmulator(TOKEN, faults=faults) as emu:
        status, _ = await post(emu, "getMe")
        assert status == 200
        status, _ = await post(emu, "setMyCommands", commands='[{"command":"a","description":"b"}]')
        assert status in (500, 502)
        assert emu.commands == {}


# ------------------------------------------------------------------------------------ retry_after


async def test_ignoring_an_injected_retry_after_is_a_flood_violation() -> None:
    clock = FakeClock()
    faults = Faults(share=1.0, weights={"429": 1}, retry_after=2)
    async with BotApiEmulator(TOKEN, clock=clock, faults=faults) as emu:
        group, other = emu.add_group("Козлятня"), emu.add_group("Другая")
        status, _ = await post(emu, "sendMessage", chat_id=str(group.id), text="1")
        assert status == 429
        emu.faults = Faults()
        clock.now += 0.05  # within the grace: it may have been sent before the 429 arrived
        assert (await post(emu, "sendMessage", chat_id=str(group.id), text="2"))[0] == 200
        clock.now += 0.5
        status, body = await post_json(emu, "sendMessage", chat_id=str(group.id), text="3")
        assert status == 429
        assert body["parameters"] == {"retry_after": 2}  # 1.45 s left, rounded up
        [flood] = emu.flood_errors
        assert (flood.method, flood.chat_id, flood.ignored_retry_after) == (
            "sendMessage",
            group.id,
            True,
        )
        assert len(emu.injected_faults) == 1  # the punishment is not an injected fault
        # Other chats and calls that are not message calls are not concerned.
        assert (await post(emu, "sendMessage", chat_id=str(other.id), text="x"))[0] == 200
        assert (await post(emu, "getChat", chat_id=str(group.id)))[0] == 200
        clock.now += 1.5  # the window is over
        assert (
            await post(emu, "editMessageText", chat_id=str(group.id), message_id="1", text="2 bis")
        )[0] == 200
        assert len(emu.flood_errors) == 1


async def test_punishment_can_be_switched_off() -> None:
    clock = FakeClock()
    faults = Faults(share=1.0, weights={"429": 1}, retry_after=5)
    async with BotApiEmulator(TOKEN, clock=clock, faults=faults) as emu:
        group = emu.add_group("Козлятня")
        assert (await post(emu, "sendMessage", chat_id=str(group.id), text="1"))[0] == 429
        emu.faults = Faults(punish_ignored_retry_after=False)
        clock.now += 1
        assert (await post(emu, "sendMessage", chat_id=str(group.id), text="2"))[0] == 200
        assert emu.flood_errors == []


async def test_ptb_rate_limiter_waits_out_an_injected_429() -> None:
    limiter = AIORateLimiter(max_retries=3)
    async with (
        BotApiEmulator(TOKEN, limits=Limits.unlimited()) as emu,
        plain_bot(emu, rate_limiter=limiter) as bot,
    ):
        group = emu.add_group("Козлятня")
        emu.faults = Faults(share=1.0, weights={"429": 1})

        async def stop_faults_after_the_first() -> None:
            await emu.wait_for(lambda: bool(emu.injected_faults))
            emu.faults = Faults()

        switch = asyncio.create_task(stop_faults_after_the_first())
        started = time.monotonic()
        await bot.send_message(group.id, "ход")
        await asyncio.gather(*(bot.send_message(group.id, f"ход {n}") for n in range(3)))
        await switch
        assert time.monotonic() - started >= 1.0
    assert [fault.kind for fault in emu.injected_faults] == ["429"]
    assert emu.flood_errors == []
    assert len(emu.messages(group)) == 4


async def test_a_client_ignoring_retry_after_is_caught() -> None:
    async with BotApiEmulator(TOKEN, limits=Limits.unlimited()) as emu, plain_bot(emu) as bot:
        group = emu.add_group("Козлятня")
        emu.faults = Faults(share=1.0, weights={"429": 1})
        with pytest.raises(RetryAfter):
            await bot.send_message(group.id, "ход")
        emu.faults = Faults()
        await asyncio.sleep(0.15)
        with pytest.raises(RetryAfter):  # retried at once instead of after 1 s
            await bot.send_message(group.id, "ход")
    assert [flood.ignored_retry_after for flood in emu.flood_errors] == [True]


# ------------------------------------------------------------------------------------ metric


def test_max_in_window_counts_a_half_open_sliding_window() -> None:
    assert max_in_window([], 1.0) == 0
    assert max_in_window([0.0, 0.5, 0.99, 1.0, 1.2], 1.0) == 4
    assert max_in_window([3.0, 0.0, 1.0, 2.0], 1.0) == 1
    assert max_in_window([0.0, 0.0, 0.0], 0.5) == 3


def test_max_message_calls_counts_successful_message_calls_only() -> None:
    state = EmulatorState(TOKEN)
    group = state.add_group("Козлятня")

    def call(method: str, at: float, chat: object = group.id, ok: bool = True) -> None:
        params = {"chat_id": chat} if chat is not None else {}
        state.record_call(ApiCall(method, params, ok, None if ok else 429, None, at))

    call("sendMessage", 0.0)
    call("answerCallbackQuery", 0.1, chat=None)
    call("sendMessage", 0.2, ok=False)
    call("getChatMember", 0.3)
    call("editMessageText", 0.5, chat=str(group.id))  # chat ids arrive as strings too
    call("deleteMessage", 0.99)
    call("editMessageReplyMarkup", 1.0)
    call("sendMessage", 1.2, chat=-5)
    call("getUpdates", 1.3, chat=None)
    call("setMyCommands", 1.4, chat=None)
    assert state.max_message_calls_in_window(1.0) == 4  # 0.5, 0.99, 1.0, 1.2
    assert state.max_message_calls_in_window(1.0, chat_id=group) == 3
    assert state.max_message_calls_in_window(1.0, chat_id=-5) == 1
    assert state.max_message_calls_in_window(0.01) == 1
    assert state.max_message_calls_in_window(10.0) == 5


async def test_max_message_calls_measures_a_real_burst() -> None:
    async with BotApiEmulator(TOKEN, limits=Limits.unlimited()) as emu, plain_bot(emu) as bot:
        group, other = emu.add_group("Козлятня"), emu.add_group("Другая")
        await asyncio.gather(*(bot.send_message(group.id, f"ход {n}") for n in range(6)))
        sent = await bot.send_message(other.id, "стол")
        await bot.edit_message_text("стол 2", other.id, sent.message_id)
    assert emu.max_message_calls_in_window(60.0) == 8
    assert emu.max_message_calls_in_window(60.0, chat_id=group) == 6
    assert emu.max_message_calls_in_window(60.0, chat_id=other.id) == 2
