"""Flood limits: with Telegram's ratios (20 messages a minute per group, ~1 a second per private
chat, time-scaled ×20) a game against instant computer players never draws a 429."""

from __future__ import annotations

from pathlib import Path

from botapi_emulator import BotApiEmulator, Limits
from tests.e2e import TOKEN, BotRunner, bot_settings, start_with_bots

SCALE = 20.0


async def test_a_fast_game_never_exceeds_the_group_or_private_flood_limits(tmp_path: Path) -> None:
    limits = Limits(
        group_per_window=20, group_window=60 / SCALE,
        private_per_window=3, private_window=3 / SCALE, global_per_second=30,
    )  # fmt: skip
    async with BotApiEmulator(token=TOKEN, limits=limits) as emu:
        settings = bot_settings(emu, tmp_path / "k.db", group_period=60 / SCALE,
                                private_interval=1 / SCALE, private_max_rate=3,
                                private_period=3 / SCALE, overall_max_rate=30)  # fmt: skip
        bot = BotRunner(settings)
        await bot.start()
        try:
            ann = emu.add_user(first_name="Аня")
            group = emu.add_group(title="Г", members=[ann], admins=[ann])
            players = await start_with_bots(emu, ann, group)
            for _ in range(40):  # about four deals of one person against three computers
                await emu.wait_for(lambda: players.whose_turn() is not None
                                   or "🏆" in players.group_text(), timeout=20)  # fmt: skip
                if "🏆" in players.group_text():
                    break
                answer = await players.play_one()
                assert not answer.show_alert, answer.text
                await bot.drain()
            await bot.drain()
            assert "Сдача 2:" in players.group_text()
            group_sends = [
                c for c in emu.history if c.params.get("chat_id") in (group.id, str(group.id))
            ]
            assert len(group_sends) > 20, "the test should push past one window of the group limit"
            assert emu.flood_errors == []
        finally:
            await bot.stop()
