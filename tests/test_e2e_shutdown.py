"""Graceful shutdown: SIGTERM lets a press in flight finish, closes the database cleanly
(exit code 0), and posts the group's flood limit still held back are sent on the next start —
in order, exactly once — because they wait in the outbox, not in memory.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

from botapi_emulator import BotApiEmulator
from tests.e2e import NAMES, TOKEN, BotProcess, Players, fast_limits, seat_four


def _outbox(db_path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(db_path) as db:
        return [(int(r[0]), str(r[1])) for r in db.execute("SELECT id, kind FROM outbox")]


async def _play_one_deal(players: Players) -> None:
    """Press cards until the first deal is over (its hands say so)."""
    for _ in range(80):
        await players.emu.wait_for(
            lambda: players.whose_turn() is not None or _deal_over(players), timeout=30
        )
        if _deal_over(players):
            return
        before = players.turn_key()
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
        await players.moved_on(before)
    raise AssertionError("the deal did not end")


def _deal_over(players: Players) -> bool:
    """The first deal is over (it may have ended the match: a Lyusya wins it)."""
    return any("закончена" in m.text for u in players.users for m in players.emu.messages(u.id))


async def test_sigterm_finishes_the_press_in_flight_and_the_next_start_sends_held_posts(
    tmp_path: Path,
) -> None:
    db_path = tmp_path / "kozel.db"
    async with BotApiEmulator(token=TOKEN, limits=fast_limits()) as emu:
        # One group message a minute: the deal's results are certainly still held at the stop.
        slow = BotProcess(
            emu, db_path, tmp_path, env={"KOZEL_GROUP_MAX_RATE": "3", "KOZEL_GROUP_PERIOD": "600"}
        )
        await slow.start()
        try:
            await emu.wait_for(lambda: bool(emu.calls("getUpdates")), timeout=30)
            players = await seat_four(
                emu, options="seating=ordered deck=32 move_time=0", in_order=False
            )  # the lobby's edits are held back
            await _play_one_deal(players)
            await asyncio.sleep(0.5)
            query = None
            if players.whose_turn() is not None:  # (a Lyusya in deal 1 ends the match)
                user, message, data = players.next_press()
                query = emu.press_nowait(user, user.id, message.message_id, data)
            helper = players.users[0]
            emu.send_text(helper, helper.id, "/rules")
            await emu.wait_for(lambda: emu.undelivered_updates == 0, timeout=10)
            assert slow.process is not None
            slow.process.terminate()
            code = await asyncio.wait_for(slow.process.wait(), 30)
            slow.process = None
        finally:
            await slow.stop()
        assert code == 0, (tmp_path / "bot.log").read_text()[-2000:]
        # The updates in flight were handled before the process ended.
        if query is not None:
            answer = emu.queries[query].answer
            assert answer is not None and not answer.show_alert, answer
        assert "козёл" in emu.messages(helper.id)[-1].text.lower()  # the /rules answer
        held = _outbox(db_path)
        assert [kind for _, kind in held][:2] == ["final_table", "deal_result"], held
        assert not any(re.match(r"Сдача 1:", m.text) for m in emu.messages(players.group.id))

        fast = BotProcess(emu, db_path, tmp_path)
        await fast.start()
        try:
            await emu.wait_for(
                lambda: any(m.text.startswith("Сдача 1:") for m in emu.messages(players.group.id)),
                timeout=30,
            )
            await emu.wait_for(lambda: _outbox(db_path) == [], timeout=30)
        finally:
            await fast.stop()
    results = [m.text for m in emu.messages(players.group.id) if m.text.startswith("Сдача 1:")]
    assert len(results) == 1


async def test_sigterm_while_a_lane_waits_on_the_flood_gate_exits_cleanly(tmp_path: Path) -> None:
    """The group's window is spent, so its lane waits in the flood gate when SIGTERM arrives:
    the bot still exits 0, no task outlives the event loop ("Task was destroyed but it is
    pending", "Event loop is closed") and nothing raises."""
    db_path = tmp_path / "kozel.db"
    async with BotApiEmulator(token=TOKEN, limits=fast_limits()) as emu:
        bot = BotProcess(
            emu, db_path, tmp_path, env={"KOZEL_GROUP_MAX_RATE": "3", "KOZEL_GROUP_PERIOD": "600"}
        )
        await bot.start()
        try:
            await emu.wait_for(lambda: bool(emu.calls("getUpdates")), timeout=30)
            users = [emu.add_user(first_name=name, language_code="ru") for name in NAMES]
            group = emu.add_group(title="Козлятня", members=users)

            def group_calls() -> int:
                return sum(
                    1
                    for c in emu.history
                    if c.ok and c.chat_id == group.id and c.method == "sendMessage"
                )

            # Five different answers due (identical ones would be sent once), three fit.
            for user, text in zip(
                users, ("/help", "/rules kryuk", "/rules sixes", "/rules belka"), strict=True
            ):
                emu.send_text(user, group.id, text)
            emu.send_text(users[0], group.id, "/rules cover")
            await emu.wait_for(lambda: group_calls() >= 3, timeout=30)
            await emu.wait_for(lambda: emu.undelivered_updates == 0, timeout=10)
            await asyncio.sleep(0.5)
            assert group_calls() == 3, "the fourth answer waits in the gate, the fifth behind it"
            assert bot.process is not None
            bot.process.terminate()
            code = await asyncio.wait_for(bot.process.wait(), 30)
            bot.process = None
        finally:
            await bot.stop()
    log = bot.log.read_text()
    assert code == 0, log[-3000:]
    for bad in ("Task was destroyed", "Event loop is closed", "Traceback"):
        assert bad not in log, log[-3000:]


async def test_a_second_sigterm_while_stopping_does_not_hang_the_process(tmp_path: Path) -> None:
    """An impatient operator signals twice: the second one, during the shutdown's drain of a
    flood-held group, is only logged; the bot still shuts down in order and exits 0."""
    db_path = tmp_path / "kozel.db"
    async with BotApiEmulator(token=TOKEN, limits=fast_limits()) as emu:
        bot = BotProcess(
            emu, db_path, tmp_path, env={"KOZEL_GROUP_MAX_RATE": "1", "KOZEL_GROUP_PERIOD": "600"}
        )
        await bot.start()
        try:
            await emu.wait_for(lambda: bool(emu.calls("getUpdates")), timeout=30)
            users = [emu.add_user(first_name=name, language_code="ru") for name in NAMES[:2]]
            group = emu.add_group(title="Козлятня", members=users)
            emu.send_text(users[0], group.id, "/help")
            emu.send_text(users[1], group.id, "/rules kryuk")  # waits: one a 600 s
            await emu.wait_for(lambda: emu.undelivered_updates == 0, timeout=10)
            await asyncio.sleep(0.5)
            assert bot.process is not None
            bot.process.terminate()
            await asyncio.sleep(0.5)  # inside the shutdown's drain of the held answer
            bot.process.terminate()
            code = await asyncio.wait_for(bot.process.wait(), 30)
            bot.process = None
        finally:
            await bot.stop()
    log = bot.log.read_text()
    assert code == 0, log[-3000:]
    assert "already stopping" in log, log[-3000:]
    for bad in ("Task was destroyed", "Event loop is closed", "Traceback"):
        assert bad not in log, log[-3000:]
