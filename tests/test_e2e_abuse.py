"""Abuse and isolation: a flooded group costs only itself, and one person cannot flood the bot.

- 300 commands in one group under Telegram's real group limit (20 a minute): the handlers never
  wait for that group's budget, so another person's command in their private chat is answered
  at once; the group gets a few coalesced answers, not 300 queued ones, and no 429.
- Per-person limits: a burst of presses beyond ``KOZEL_PRESS_BURST`` is answered "slow down"
  and applies nothing; commands beyond ``KOZEL_COMMAND_BURST`` get one "slow down", then silence.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from botapi_emulator import BotApiEmulator, Limits
from storage import Storage
from tests.e2e import TOKEN, BotRunner, bot_settings, seat_four, start_with_bots

SLOW_DOWN = "Помедленнее"


async def test_a_group_flooded_with_commands_does_not_delay_another_chat(tmp_path: Path) -> None:
    limits = Limits(
        group_per_window=20,
        group_window=60.0,
        private_per_window=None,
        global_per_second=30,
        algorithm="window",
    )
    async with BotApiEmulator(token=TOKEN, limits=limits) as emu:
        bot = BotRunner(
            bot_settings(emu, tmp_path / "k.db", group_period=60.0, overall_max_rate=30)
        )
        await bot.start()
        try:
            flooder, other = emu.add_user(first_name="Флуд"), emu.add_user(first_name="Оля")
            group = emu.add_group(title="Флудильня", members=[flooder])
            await emu.start_private(other)
            await emu.wait_for(lambda: emu.find_message(other.id, "KozelBot") is not None)
            for n in range(300):
                emu.send_text(flooder, group.id, "/help")
                if n == 100:
                    asked = time.monotonic()
                    emu.send_text(other, other.id, "/help")
            before = len(emu.messages(other.id))
            await emu.wait_for(lambda: len(emu.messages(other.id)) > before, timeout=5)
            waited = time.monotonic() - asked
            await emu.wait_for(lambda: emu.undelivered_updates == 0, timeout=10)
        finally:
            await bot.stop()
        assert waited < 1.0, f"the private /help waited {waited:.2f} s behind the flood"
        answers = [m for m in emu.messages(group.id) if "KozelBot" in m.text]
        assert 1 <= len(answers) <= 20, "the flood's answers are coalesced, not queued"
        assert emu.flood_errors == []


async def test_a_burst_of_presses_beyond_the_limit_is_told_to_slow_down_and_applies_nothing(
    tmp_path: Path,
) -> None:
    async with BotApiEmulator(token=TOKEN) as emu:
        bot = BotRunner(bot_settings(emu, tmp_path / "k.db", press_burst=3, press_rate=0.5))
        await bot.start()
        try:
            players = await seat_four(emu, options="seating=ordered move_time=0")
            await emu.wait_for(lambda: players.whose_turn() is not None, timeout=10)
            user, message, data = players.next_press()
            queries = [emu.press_nowait(user, user.id, message.message_id, data) for _ in range(6)]
            answers = [await emu.wait_answer(q) for q in queries]
        finally:
            await bot.stop()
        texts = [a.text or "" for a in answers]
        assert sum(t.startswith(SLOW_DOWN) for t in texts) == 3, texts
        assert (
            sum(not a.show_alert and not (a.text or "").startswith(SLOW_DOWN) for a in answers) == 1
        ), texts
        storage = await Storage.open(tmp_path / "k.db")
        try:
            humans = [m for m in await storage.games.moves(1) if m.source == "human"]
        finally:
            await storage.close()
        assert len(humans) == 1, "a burst of the same press applies it once"


async def test_commands_beyond_the_limit_get_one_slow_down_then_silence(tmp_path: Path) -> None:
    async with BotApiEmulator(token=TOKEN) as emu:
        bot = BotRunner(bot_settings(emu, tmp_path / "k.db", command_burst=3, command_rate=0.1))
        await bot.start()
        try:
            user = emu.add_user(first_name="Гена")
            await emu.start_private(user)
            await emu.wait_for(lambda: emu.find_message(user.id, "KozelBot") is not None)
            before = len(emu.messages(user.id))
            for _ in range(10):
                emu.send_text(user, user.id, "/rules")
            await emu.settle(quiet=0.3)
        finally:
            await bot.stop()
        texts = [m.text for m in emu.messages(user.id)[before:]]
        assert sum(t.startswith(SLOW_DOWN) for t in texts) == 1, texts
        assert 1 <= len(texts) <= 4, texts


async def _troll_while_playing(tmp_path: Path, *, troll: bool) -> tuple[int, int, int]:
    """Аня plays against three computers for 12 s under a strict group window (20 messages
    in 6 s) while, if ``troll``, another member sends /help as fast as the bot lets him.
    Returns (table edits, replies to the troll, slow-downs said)."""
    limits = Limits(
        group_per_window=20,
        group_window=6.0,
        private_per_window=None,
        global_per_second=None,
        algorithm="window",
    )
    async with BotApiEmulator(token=TOKEN, limits=limits) as emu:
        bot = BotRunner(
            bot_settings(
                emu, tmp_path / f"t{troll}.db", group_period=6.0, command_burst=6, command_rate=5.0
            )
        )
        await bot.start()
        try:
            ann, troll_user = emu.add_user(first_name="Аня"), emu.add_user(first_name="Тролль")
            group = emu.add_group(title="Козлятня", members=[ann, troll_user])
            players = await start_with_bots(emu, ann, group)
            await players.next_turn()
            table_ids = {m.message_id for m in emu.messages(group.id) if "Сдача" in m.text}
            start = len(emu.history)
            deadline = asyncio.get_running_loop().time() + 12.0
            while asyncio.get_running_loop().time() < deadline and not players.match_over:
                if troll:
                    for _ in range(2):
                        emu.send_text(troll_user, group.id, "/help")
                if players.whose_turn() is not None:
                    await players.play_one(redeal=False)
                await asyncio.sleep(0.2)
            calls = emu.history[start:]
        finally:
            await bot.stop()
        table_ids |= {m.message_id for m in emu.messages(group.id) if "Сдача" in m.text}
        edits = sum(
            1
            for c in calls
            if c.method == "editMessageText"
            and c.ok
            and c.chat_id == group.id
            and c.params.get("message_id") in {str(i) for i in table_ids} | table_ids
        )
        texts = [
            str(c.params.get("text", ""))
            for c in calls
            if c.method == "sendMessage" and c.ok and c.chat_id == group.id
        ]
        assert emu.flood_errors == []
        return edits, sum("KozelBot" in t for t in texts), sum("Слишком много" in t for t in texts)


async def test_a_member_flooding_commands_does_not_starve_the_table(tmp_path: Path) -> None:
    """While a game is live its table is redrawn first; replies to commands get at most a
    quarter of the group's budget, the excess dropped with one "slow down" per window."""
    quiet, _, _ = await _troll_while_playing(tmp_path, troll=False)
    edits, replies, slow_downs = await _troll_while_playing(tmp_path, troll=True)
    assert quiet >= 8
    assert edits >= quiet * 0.6, (edits, quiet)
    assert replies <= 5 * (12 // 6 + 1), replies  # 5 replies a window of 6 s at most
    assert 1 <= slow_downs <= 12 // 6 + 1


async def test_idle_group_lanes_are_dropped(tmp_path: Path) -> None:
    """A group answered once (no game) keeps nothing in memory once its answer went out."""
    async with BotApiEmulator(token=TOKEN) as emu:
        bot = BotRunner(bot_settings(emu, tmp_path / "k.db"))
        await bot.start()
        try:
            users = [emu.add_user(first_name=f"P{n}") for n in range(20)]
            groups = [emu.add_group(title=f"G{n}", members=[u]) for n, u in enumerate(users)]
            for user, group in zip(users, groups, strict=True):
                emu.send_text(user, group.id, "/help")
            await emu.wait_for(lambda: all(emu.find_message(g.id, "KozelBot") for g in groups))
            await bot.drain()
            assert bot.app is not None
            presenter = bot.app.bot_data.presenter
            assert presenter._chats == {} and presenter._chat_game == {}
        finally:
            await bot.stop()
