"""The real ``kozelbot --webhook URL`` process: it sets a webhook with a secret token, answers
updates the emulator POSTs to it (never polling), and SIGTERM ends it with exit code 0."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from botapi_emulator import BotApiEmulator
from tests.e2e import BotProcess

pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks]")


def free_port() -> int:
    """A TCP port nobody listens on (right now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_the_bot_runs_behind_a_webhook_and_stops_cleanly(
    emu: BotApiEmulator, db_path: Path, tmp_path: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/kozel"
    bot = BotProcess(emu, db_path, tmp_path, args=["--webhook", url, "--port", str(port)])
    await bot.start()
    try:
        await emu.wait_for(lambda: emu.webhook is not None, timeout=30, what="setWebhook")
        anya = emu.add_user("Аня")
        await emu.start_private(anya)
        await emu.wait_for(lambda: emu.last_message(anya) is not None, timeout=30)
        await emu.settle(quiet=0.2, timeout=30)
        greeted = len(emu.messages(anya))
        emu.send_text(anya, anya, "/help")
        await emu.wait_for(lambda: len(emu.messages(anya)) > greeted, timeout=30, what="help")
        await emu.settle(quiet=0.2, timeout=30)

        process = bot.process
        assert process is not None
        process.terminate()
        code = await asyncio.wait_for(process.wait(), 30)
        bot.process = None
    finally:
        await bot.stop()
    log = bot.log.read_text(encoding="utf-8", errors="replace")
    assert code == 0, log
    assert "Traceback" not in log, log

    [set_webhook] = emu.calls("setWebhook")
    assert set_webhook.ok
    assert set_webhook.params["url"] == url
    secret = set_webhook.params["secret_token"]
    assert isinstance(secret, str) and len(secret) >= 32
    assert set(set_webhook.params["allowed_updates"]) == {
        "message",
        "callback_query",
        "my_chat_member",
    }
    assert emu.calls("getUpdates") == []  # updates came by webhook only
    assert emu.webhook is not None and emu.webhook.secret_token == secret
    delivered = [delivery for delivery in emu.webhook_deliveries if delivery.ok]
    assert len(delivered) == 2
    assert "/play" in emu.messages(anya)[-1].text  # the private help lists its commands
