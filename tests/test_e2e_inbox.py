"""Issue #32: no update is lost to a crash (``handlers.intake``).

Telegram forgets an update once the next ``getUpdates`` confirms it, and the bot asks for the
next batch while the last is still being handled. A press confirmed and not yet handled when
the bot dies must still be played, once, after the restart: the bot keeps every batch in its
inbox before it can confirm it, and hands what is left there to itself at the next start.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

from botapi_emulator import BotApiEmulator
from storage import Storage
from tests.e2e import BotProcess, BotRunner, bot_settings, seat_four


async def _moves(db_path: Path) -> list[tuple[int, str]]:
    storage = await Storage.open(db_path)
    try:
        return [(m.deal_no, m.action) for m in await storage.games.moves(1)]
    finally:
        await storage.close()


async def _waiting(db_path: Path) -> list[tuple[int, str]]:
    storage = await Storage.open(db_path)
    try:
        return await storage.inbox.waiting()
    finally:
        await storage.close()


async def test_a_press_left_in_the_inbox_by_a_crash_is_played_after_the_restart(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """What a crash leaves: a press Telegram delivered and forgot (confirmed), kept in the
    inbox, never handled. The next start plays it and answers it, and empties the inbox."""
    first = BotRunner(bot_settings(emu, db_path))
    await first.start()
    players = await seat_four(emu)
    await players.next_turn()
    await first.drain()
    await first.stop()
    before = await _moves(db_path)
    user, message, data = players.next_press()
    query = emu.press_nowait(user, user.id, message.message_id, data)
    [update] = emu.take_updates(None, 100)  # delivered to the bot that died …
    emu.take_updates(update["update_id"] + 1, 1)  # … and confirmed: Telegram forgot it
    assert emu.pending_update_ids() == []
    storage = await Storage.open(db_path)
    await storage.inbox.keep([(update["update_id"], json.dumps(update))], ())
    await storage.close()

    second = BotRunner(bot_settings(emu, db_path))
    await second.start()
    try:
        answer = await emu.wait_answer(query, timeout=15)
        assert not answer.show_alert, answer.text
        await second.drain()
    finally:
        await second.stop()
    after = await _moves(db_path)
    assert after[: len(before)] == before
    assert (after[len(before)][1]).startswith("play:")
    assert await _waiting(db_path) == []


async def test_a_bot_killed_as_it_confirms_a_press_plays_that_press_once_after_the_restart(
    emu: BotApiEmulator, db_path: Path, tmp_path: Path
) -> None:
    """SIGKILL the moment the bot's next long poll confirms a press (before, the press was
    lost whenever it was not committed yet: a few milliseconds): after the restart its card
    is in the move log exactly once, whichever process played it."""
    bot = BotProcess(emu, db_path, tmp_path)
    await bot.start()
    try:
        await emu.wait_for(lambda: bool(emu.calls("getUpdates")), timeout=30)
        players = await seat_four(emu)
        for _ in range(3):
            await players.next_turn()
            await players.play_one()
        await players.next_turn()
        await emu.settle(quiet=0.1, timeout=20)
        user, message, data = players.next_press()
        emu.press_nowait(user, user.id, message.message_id, data)
        [update_id] = emu.pending_update_ids()
        await emu.wait_for(lambda: update_id not in emu.pending_update_ids(), timeout=10)
        await bot.kill()  # Telegram forgot the press; the bot may not have handled it
        await bot.start()
        card = "play:" + data.split(":")[3]
        for _ in range(150):
            if card in [action for _, action in await _moves(db_path)]:
                break
            await asyncio.sleep(0.2)
        await players.next_turn()  # play goes on (a press the dead bot played stays unanswered)
    finally:
        await bot.stop()
    moves = await _moves(db_path)
    plays = Counter(action for _, action in moves if action.startswith("play:"))
    assert plays[card] == 1, moves
    assert max(Counter(moves).values()) == 1, moves  # no move twice
    assert await _waiting(db_path) == []
