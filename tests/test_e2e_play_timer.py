"""A match against the computer (/play) waits for its only person (issue #30 item 10): no
move is made for them on a timer unless they chose one (``/play move_time=N``)."""

from __future__ import annotations

import time
from pathlib import Path

from botapi_emulator import BotApiEmulator
from kozelbot.core.table import Table
from tests import transcripts
from tests.e2e import BotRunner, Players, bot_settings, play_alone

TIMEOUT_LINE = "по тайм-ауту"
"""The table's line for a move the timer made («⌛ Ход за игрока по тайм-ауту: Аня ×1»)."""
LONGEST = 3601.0
"""Longer than any move time a table may have (``move_time`` is at most 3600 s)."""


def _table(bot: BotRunner, chat_id: int) -> Table:
    assert bot.app is not None
    service = bot.app.bot_data.service
    cached = {**service.tables.ended, **service.tables.live}
    table = service.snapshot(max(gid for gid, t in cached.items() if t.chat_id == chat_id))
    assert table is not None
    return table


async def _timed_out(bot: BotRunner, game_id: int) -> list[int]:
    """The move numbers the timer made."""
    assert bot.app is not None
    moves = await bot.app.bot_data.storage.games.moves(game_id)
    return [n for n, move in enumerate(moves) if move.source == "timeout"]


async def _wait_past_the_timer(bot: BotRunner, players: Players, clock: list[float]) -> None:
    """The person lets more than any move time pass: the bot's clock moves on, and the
    game's turn timer, if one is armed, fires."""
    assert bot.app is not None and bot.app.job_queue is not None
    await bot.drain()
    table = _table(bot, players.group.id)
    clock[0] += LONGEST
    for job in bot.app.job_queue.get_jobs_by_name(f"turn:{table.chat_id}:{table.game_id}"):
        await job.run(bot.app)
    await bot.drain()


async def test_a_play_match_never_moves_for_its_person_who_chose_no_timer(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """A whole /play match in which the person, on every turn, waits longer than any move
    time before playing: every move of theirs is their own, and no «⌛» line is shown."""
    assert bot.app is not None
    clock = [0.0]
    bot.app.bot_data.service.clock = lambda: time.time() + clock[0]
    ann, players = await play_alone(emu)
    game_id = _table(bot, ann.id).game_id
    turns = 0
    while True:
        await players.next_turn(timeout=60)
        if players.match_over:
            break
        await _wait_past_the_timer(bot, players, clock)
        assert await _timed_out(bot, game_id) == [], f"a move made for Аня on turn {turns}"
        before = players.turn_key()
        await players.play_one()
        await players.moved_on(before)
        turns += 1
    text = transcripts.transcript(emu, [(ann.id, ann.first_name)])
    transcripts.write("play-no-timer", text)
    assert turns > 9 and "⌛" not in text and TIMEOUT_LINE not in text


async def test_a_play_match_with_a_chosen_timer_moves_on_time_out(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """``/play move_time=10``: the person chose a timer, and it moves for them."""
    assert bot.app is not None
    clock = [0.0]
    bot.app.bot_data.service.clock = lambda: time.time() + clock[0]
    ann, players = await play_alone(emu, command="/play move_time=10")
    game_id = _table(bot, ann.id).game_id
    await players.next_turn(timeout=60)
    await _wait_past_the_timer(bot, players, clock)
    assert await _timed_out(bot, game_id) != []
    await emu.wait_for(lambda: TIMEOUT_LINE in players.group_text())


async def test_a_play_match_reminds_its_waiting_person_and_moves_nothing(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """Without a timer the person is still reminded once a while has passed
    (``private_reminder``): «⏰ Ваш ход.», and still no move is made for them."""
    bot = BotRunner(bot_settings(emu, db_path, private_reminder=0.5))
    await bot.start()
    try:
        ann, players = await play_alone(emu)
        await players.next_turn(timeout=60)
        before = players.turn_key()
        await emu.wait_for(lambda: emu.find_message(ann.id, "⏰ Ваш ход") is not None)
        await bot.drain()
        assert players.turn_key() == before
        assert await _timed_out(bot, _table(bot, ann.id).game_id) == []
    finally:
        await bot.stop()
