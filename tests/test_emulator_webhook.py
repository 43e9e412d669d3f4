"""Tests of the emulator's webhook mode: setWebhook, delivery by POST, retries, back to polling."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from telegram import Update
from telegram.ext import Application, ApplicationBuilder, CommandHandler, ContextTypes

from botapi_emulator import BotApiEmulator, Webhook

TOKEN = "123456:TEST"
SECRET = "s3cret_token-1"


class Receiver:
    """A tiny webhook receiver: records every POST and answers ``answers`` first, then 200."""

    def __init__(self) -> None:
        self.posts: list[tuple[dict[str, str], dict[str, Any]]] = []
        self.answers: list[int] = []
        self.delay = 0.0
        self.in_flight = 0
        self.max_in_flight = 0
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def _handle(self, request: web.Request) -> web.Response:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            body = await request.json()
            await asyncio.sleep(self.delay)
            self.posts.append((dict(request.headers), body))
            status = self.answers.pop(0) if self.answers else 200
            return web.Response(status=status, text="ok")
        finally:
            self.in_flight -= 1

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}/hook"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def update_ids(self) -> list[int]:
        """The ``update_id`` of every POST received, in order."""
        return [int(body["update_id"]) for _, body in self.posts]

    def texts(self) -> list[str]:
        """The message texts received, in order."""
        return [body["message"]["text"] for _, body in self.posts if "message" in body]


@pytest.fixture
async def emu() -> AsyncIterator[BotApiEmulator]:
    async with BotApiEmulator(TOKEN) as emulator:
        emulator.webhook_sender.first_retry = 0.05
        emulator.webhook_sender.max_retry = 0.2
        yield emulator
    assert emulator.internal_errors == []


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    hook = Receiver()
    await hook.start()
    try:
        yield hook
    finally:
        await hook.stop()


async def call(emu: BotApiEmulator, method: str, **fields: str) -> tuple[int, dict[str, Any]]:
    """POST form fields to the emulator as PTB does; returns (HTTP status, JSON body)."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emu.base_url}{emu.token}/{method}", data=fields) as response,
    ):
        return response.status, await response.json()


def free_port() -> int:
    """A TCP port nobody listens on (right now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ------------------------------------------------------------------------------------ delivery


async def test_updates_are_posted_in_order_with_the_secret(
    emu: BotApiEmulator, receiver: Receiver
) -> None:
    user = emu.add_user("Аня")
    emu.send_text(user, user, "раньше")  # queued before the webhook: delivered too
    status, body = await call(
        emu, "setWebhook", url=receiver.url, secret_token=SECRET, max_connections="1"
    )
    assert (status, body["result"]) == (200, True)
    assert emu.webhook == Webhook(receiver.url, SECRET, 1, ())
    for text in ("a", "b", "c"):
        emu.send_text(user, user, text)
    await emu.wait_for(lambda: len(receiver.posts) == 4, timeout=5)
    assert receiver.update_ids == [1, 2, 3, 4]
    assert receiver.texts() == ["раньше", "a", "b", "c"]
    for headers, _ in receiver.posts:
        assert headers["X-Telegram-Bot-Api-Secret-Token"] == SECRET
        assert headers["Content-Type"] == "application/json"
    assert receiver.max_in_flight == 1
    await emu.wait_for(lambda: emu.undelivered_updates == 0)
    assert not emu.has_updates  # a 2xx answer confirms the update
    await emu.settle(quiet=0.05, timeout=2)
    _, info = await call(emu, "getWebhookInfo")
    assert info["result"]["url"] == receiver.url
    assert info["result"]["pending_update_count"] == 0
    assert info["result"]["max_connections"] == 1
    assert all(delivery.ok for delivery in emu.webhook_deliveries)


async def test_no_secret_header_without_a_secret(emu: BotApiEmulator, receiver: Receiver) -> None:
    await call(emu, "setWebhook", url=receiver.url)
    user = emu.add_user("Аня")
    emu.send_text(user, user, "a")
    await emu.wait_for(lambda: len(receiver.posts) == 1, timeout=5)
    headers, _ = receiver.posts[0]
    assert "X-Telegram-Bot-Api-Secret-Token" not in headers


async def test_a_failed_delivery_is_retried_and_order_is_kept(
    emu: BotApiEmulator, receiver: Receiver
) -> None:
    receiver.answers = [500, 403]
    await call(emu, "setWebhook", url=receiver.url, secret_token=SECRET)
    user = emu.add_user("Аня")
    emu.send_text(user, user, "a")
    emu.send_text(user, user, "b")
    await emu.wait_for(lambda: emu.undelivered_updates == 0, timeout=5)
    assert receiver.update_ids == [1, 1, 1, 2]
    assert [(d.update_id, d.status) for d in emu.webhook_deliveries] == [
        (1, 500),
        (1, 403),
        (1, 200),
        (2, 200),
    ]
    _, info = await call(emu, "getWebhookInfo")
    assert info["result"]["last_error_message"] == "Wrong response from the webhook: 403"
    assert isinstance(info["result"]["last_error_date"], int)


async def test_updates_wait_while_the_receiver_is_down(
    emu: BotApiEmulator, receiver: Receiver
) -> None:
    dead = f"http://127.0.0.1:{free_port()}/hook"
    await call(emu, "setWebhook", url=dead)
    user = emu.add_user("Аня")
    emu.send_text(user, user, "a")
    await emu.wait_for(lambda: len(emu.webhook_deliveries) >= 2, timeout=5)
    assert all(d.status is None and d.error for d in emu.webhook_deliveries)
    assert emu.undelivered_updates == 1
    _, info = await call(emu, "getWebhookInfo")
    assert info["result"]["pending_update_count"] == 1
    assert info["result"]["last_error_message"]
    with pytest.raises(TimeoutError, match="pending"):
        await emu.settle(quiet=0.05, timeout=0.3)
    # The bot comes back at another address: the update follows the new webhook.
    await call(emu, "setWebhook", url=receiver.url)
    await emu.wait_for(lambda: emu.undelivered_updates == 0, timeout=5)
    assert receiver.texts() == ["a"]


async def test_chats_are_delivered_in_parallel_but_each_in_order(
    emu: BotApiEmulator, receiver: Receiver
) -> None:
    receiver.delay = 0.1
    await call(emu, "setWebhook", url=receiver.url, max_connections="3")
    users = [emu.add_user(name) for name in ("Аня", "Борис")]
    for number in range(3):
        for user in users:
            emu.send_text(user, user, f"{user.first_name} {number}")
    await emu.wait_for(lambda: len(receiver.posts) == 6, timeout=5)
    assert receiver.max_in_flight == 2  # one per chat, though three connections are allowed
    for user in users:
        mine = [text for text in receiver.texts() if text.startswith(user.first_name)]
        assert mine == [f"{user.first_name} {number}" for number in range(3)]


async def test_allowed_updates_filter_what_is_delivered(
    emu: BotApiEmulator, receiver: Receiver
) -> None:
    await call(emu, "setWebhook", url=receiver.url, allowed_updates='["callback_query"]')
    user = emu.add_user("Аня")
    emu.send_text(user, user, "не нужно")
    await emu.wait_for(lambda: not emu.has_updates, timeout=5)
    assert receiver.posts == []
    _, info = await call(emu, "getWebhookInfo")
    assert info["result"]["allowed_updates"] == ["callback_query"]


# ------------------------------------------------------------------------------------ polling


async def test_get_updates_conflicts_while_a_webhook_is_set(
    emu: BotApiEmulator, receiver: Receiver
) -> None:
    poll = asyncio.create_task(call(emu, "getUpdates", timeout="5"))
    await asyncio.sleep(0.1)
    await call(emu, "setWebhook", url=receiver.url)
    status, body = await asyncio.wait_for(poll, 2)
    assert (status, body["description"]) == (409, "Conflict: terminated by setWebhook request")
    status, body = await call(emu, "getUpdates")
    assert status == 409
    assert body == {
        "ok": False,
        "error_code": 409,
        "description": "Conflict: can't use getUpdates method while webhook is active; use "
        "deleteWebhook to delete the webhook first",
    }


async def test_delete_webhook_returns_to_polling(emu: BotApiEmulator) -> None:
    dead = f"http://127.0.0.1:{free_port()}/hook"
    await call(emu, "setWebhook", url=dead)
    user = emu.add_user("Аня")
    emu.send_text(user, user, "a")
    await emu.wait_for(lambda: bool(emu.webhook_deliveries), timeout=5)
    status, body = await call(emu, "deleteWebhook")
    assert (status, body["result"]) == (200, True)
    assert emu.webhook is None
    _, info = await call(emu, "getWebhookInfo")
    assert info["result"]["url"] == ""
    _, body = await call(emu, "getUpdates")
    assert [update["message"]["text"] for update in body["result"]] == ["a"]


async def test_drop_pending_updates(emu: BotApiEmulator, receiver: Receiver) -> None:
    user = emu.add_user("Аня")
    emu.send_text(user, user, "старое")
    await call(emu, "deleteWebhook", drop_pending_updates="true")
    assert not emu.has_updates
    emu.send_text(user, user, "тоже старое")
    await call(emu, "setWebhook", url=receiver.url, drop_pending_updates="true")
    emu.send_text(user, user, "новое")
    await emu.wait_for(lambda: not emu.has_updates, timeout=5)
    assert receiver.texts() == ["новое"]
    await call(emu, "setWebhook", url="")  # an empty url deletes the webhook
    assert emu.webhook is None


@pytest.mark.parametrize(
    ("fields", "description"),
    [
        ({"url": "ftp://example.org/hook"}, "bad webhook"),
        ({"url": "http://127.0.0.1/hook", "secret_token": "no spaces"}, "secret token"),
        ({"url": "http://127.0.0.1/hook", "secret_token": "x" * 257}, "secret token"),
    ],
)
async def test_bad_webhook_settings_are_refused(
    emu: BotApiEmulator, fields: dict[str, str], description: str
) -> None:
    status, body = await call(emu, "setWebhook", **fields)
    assert status == 400
    assert description in body["description"]
    assert emu.webhook is None


# ------------------------------------------------------------------------------------ PTB


async def test_ptb_webhook_application_gets_updates_by_post(emu: BotApiEmulator) -> None:
    pytest.importorskip("tornado", reason="needs python-telegram-bot[webhooks]")
    seen: list[str] = []

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None and update.effective_message is not None
        seen.append(update.effective_message.text or "")
        await update.effective_chat.send_message("привет")

    port = free_port()
    builder = ApplicationBuilder().token(TOKEN).base_url(emu.base_url)
    app: Application[Any, Any, Any, Any, Any, Any] = builder.build()
    app.add_handler(CommandHandler("start", start))
    anya = emu.add_user("Аня")
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_webhook(
            listen="127.0.0.1",
            port=port,
            url_path="kozel",
            webhook_url=f"http://127.0.0.1:{port}/kozel",
            secret_token=SECRET,
        )
        try:
            await emu.start_private(anya)
            await emu.wait_for(lambda: emu.last_message(anya) is not None, timeout=5)
            await emu.settle(quiet=0.1, timeout=5)
        finally:
            await app.updater.stop()
            await app.stop()
    assert seen == ["/start"]
    [set_webhook] = emu.calls("setWebhook")
    assert set_webhook.params["secret_token"] == SECRET
    assert emu.calls("getUpdates") == []
    assert [d.status for d in emu.webhook_deliveries] == [200]
