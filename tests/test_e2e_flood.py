"""Flood limits: with Telegram's ratios (20 messages a minute per group, ~1 a second per private
chat, time-scaled) a game against instant computer players never draws a 429, and neither does
a busy group across a storm of crashes (the flood journal carries the windows over a kill -9).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from pathlib import Path

from botapi_emulator import BotApiEmulator, Limits
from tests.e2e import (
    TOKEN,
    BotProcess,
    BotRunner,
    Players,
    bot_settings,
    seat_four,
    start_with_bots,
)

SCALE = 20.0


async def test_a_fast_game_never_exceeds_the_group_or_private_flood_limits(tmp_path: Path) -> None:
    limits = Limits(
        group_per_window=20,
        group_window=60 / SCALE,
        private_per_window=3,
        private_window=3 / SCALE,
        global_per_second=30,
    )
    async with BotApiEmulator(token=TOKEN, limits=limits) as emu:
        settings = bot_settings(
            emu,
            tmp_path / "k.db",
            group_period=60 / SCALE,
            private_interval=1 / SCALE,
            private_max_rate=3,
            private_period=3 / SCALE,
            overall_max_rate=30,
        )
        bot = BotRunner(settings)
        await bot.start()
        try:
            ann = emu.add_user(first_name="Аня")
            group = emu.add_group(title="Г", members=[ann], admins=[ann])
            players = await start_with_bots(emu, ann, group)
            for _ in range(40):  # about four deals of one person against three computers
                await emu.wait_for(
                    lambda: players.whose_turn() is not None or "🏆" in players.group_text(),
                    timeout=20,
                )
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


KILLS = 5
GROUP_WINDOW = 10.0
"""Seconds of the group's window: 20 messages per 10 s (Telegram's 20 a minute, scaled ×6),
long beside a restart, so a new process that forgot the old one's calls would burst past it."""
COMMANDS = (
    "/help",
    "/rules hvalenyi",
    "/rules kryuk",
    "/rules sixes",
    "/rules belka",
    "/rules cover",
)
"""Different answers (identical ones waiting are sent once)."""


async def _keep_playing(players: Players, stop: asyncio.Event) -> None:
    """The person to act presses a legal card, again and again; presses a kill swallows
    are pressed again once the next process shows the turn."""
    emu = players.emu
    while not stop.is_set() and not players.match_over:
        with contextlib.suppress(TimeoutError):
            await emu.wait_for(
                lambda: players.whose_turn() is not None or stop.is_set() or players.match_over,
                timeout=10,
            )
        if stop.is_set() or players.match_over or players.whose_turn() is None:
            continue
        before = players.turn_key()
        user, message, data = players.next_press()
        query = emu.press_nowait(user, user.id, message.message_id, data)
        with contextlib.suppress(TimeoutError):
            await emu.wait_answer(query, timeout=5)
            await players.moved_on(before, timeout=5)


async def _keep_asking(players: Players, stop: asyncio.Event) -> None:
    """People in the group keep sending commands that the bot answers there."""
    for user, text in zip(itertools.cycle(players.users), itertools.cycle(COMMANDS)):
        if stop.is_set():
            return
        players.emu.send_text(user, players.group.id, text)
        await asyncio.sleep(0.4)


async def test_five_kills_while_a_busy_group_is_edited_draw_no_429(tmp_path: Path) -> None:
    limits = Limits(
        group_per_window=20,
        group_window=GROUP_WINDOW,
        private_per_window=None,
        global_per_second=None,
        algorithm="window",
    )
    async with BotApiEmulator(token=TOKEN, limits=limits) as emu:
        bot = BotProcess(
            emu,
            tmp_path / "kozel.db",
            tmp_path,
            env={"KOZEL_GROUP_MAX_RATE": "20", "KOZEL_GROUP_PERIOD": str(GROUP_WINDOW)},
        )
        await bot.start()
        stop = asyncio.Event()
        try:
            await emu.wait_for(lambda: bool(emu.calls("getUpdates")), timeout=30)
            players = await seat_four(
                emu, options="seating=ordered deck=36 move_time=0", in_order=False
            )
            workers = [
                asyncio.create_task(_keep_playing(players, stop)),
                asyncio.create_task(_keep_asking(players, stop)),
            ]
            for _ in range(KILLS):
                await asyncio.sleep(GROUP_WINDOW / 3)  # the window fills up meanwhile
                await bot.kill()
                calls = len(emu.calls("getUpdates"))
                await bot.start()
                await emu.wait_for(
                    lambda c=calls: len(emu.calls("getUpdates")) > c,  # type: ignore[misc]
                    timeout=30,
                )
            await asyncio.sleep(GROUP_WINDOW / 2)
            stop.set()
            await asyncio.gather(*workers)
        finally:
            stop.set()
            await bot.stop()
        group = players.group.id
        sent = [
            c
            for c in emu.history
            if c.ok and c.chat_id == group and c.method in ("sendMessage", "editMessageText")
        ]
        assert len(sent) >= 2 * 20, "the group spent its window again and again"
        assert emu.flood_errors == []
