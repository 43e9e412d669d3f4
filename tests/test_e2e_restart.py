"""A bot killed mid-deal (SIGKILL) and restarted on the same database finishes the match.

No accepted move is lost (every answered press is in the move log) and none is applied twice
(every card appears once per deal, the log's numbering has no gap or repeat).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from botapi_emulator import BotApiEmulator
from kozelbot.core.table import TableStatus
from kozelbot.core.texts import is_not_now
from storage import Storage
from tests.e2e import BotProcess, Players, seat_four


async def _play(players: Players, emu: BotApiEmulator, moves: int) -> None:
    for _ in range(moves):
        await emu.settle(quiet=0.1, timeout=20)
        await players.next_turn()
        if players.match_over:
            return
        answer = await players.play_one()
        assert not answer.show_alert, answer.text


async def test_killed_mid_deal_the_bot_resumes_and_finishes_the_match_without_losing_a_move(
    emu: BotApiEmulator, db_path: Path, tmp_path: Path
) -> None:
    bot = BotProcess(emu, db_path, tmp_path)
    await bot.start()
    try:
        await emu.wait_for(lambda: bool(emu.calls("getUpdates")), timeout=30)
        # No catch and no Lyusya win: the match cannot end within the first moves whatever
        # the (unseeded) shuffles deal, so the kill below always lands mid-match.
        players = await seat_four(emu, options="seating=ordered six_clubs=ordinary lyusya=zero")
        await _play(players, emu, 14)  # into the second trick... of the first deal or later

        # A press is in flight when the bot dies: it must be applied once, by someone.
        await emu.settle(quiet=0.1, timeout=20)
        await emu.wait_for(lambda: players.whose_turn() is not None, timeout=20)
        found = players.whose_turn()
        assert found is not None
        user, message = found
        data = next(
            d for row in message.buttons for t, d in row if d.startswith("c:") and not is_not_now(t)
        )
        query = emu.press_nowait(user, user.id, message.message_id, data)
        await asyncio.sleep(0.05)
        await bot.kill()

        await bot.start()
        await emu.wait_answer(query, timeout=30)
        for _ in range(40):
            await _play(players, emu, 50)
            if "🏆" in players.group_text():
                break
        assert "🏆" in players.group_text()
    finally:
        await bot.stop()

    storage = await Storage.open(db_path)
    try:
        games = [await storage.games.game(game_id) for game_id in (1,)]
        assert games[0] is not None and games[0].status is TableStatus.FINISHED
        moves = await storage.games.moves(1)
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
        plays = Counter((m.deal_no, m.action) for m in moves if m.action.startswith("play:"))
        assert max(plays.values()) == 1, "a card was played twice in one deal"
        pressed = {(int(d.split(":")[2]), "play:" + d.split(":")[3]) for d in _pressed(emu)}
        accepted = {
            (m.deal_no, m.action)
            for m in moves
            if m.source == "human" and m.action.startswith("play:")
        }
        answered_ok = {
            key
            for key, answer in zip(_pressed_keys(emu), _answers(emu), strict=True)
            if answer is not None and not answer.show_alert
        }
        assert answered_ok <= accepted, "an answered move is missing from the log"
        assert pressed >= accepted
        deals = await storage.games.deals(1)
        assert deals and deals[-1].trace["winner"] is not None
    finally:
        await storage.close()


def _pressed(emu: BotApiEmulator) -> list[str]:
    return [q.data for q in emu.queries.values() if q.data.startswith("c:")]


def _pressed_keys(emu: BotApiEmulator) -> list[tuple[int, str]]:
    return [(int(d.split(":")[2]), "play:" + d.split(":")[3]) for d in _pressed(emu)]


def _answers(emu: BotApiEmulator) -> list[object]:
    return [q.answer for q in emu.queries.values() if q.data.startswith("c:")]


async def test_a_stopping_bot_first_sends_what_it_still_had_queued(
    emu: BotApiEmulator, db_path: Path
) -> None:
    from tests.e2e import BotRunner, bot_settings

    # Table edits at most every 1.5 s: the move's edit is certainly still queued at the stop.
    bot = BotRunner(bot_settings(emu, db_path, group_max_rate=20, group_period=20.0))
    await bot.start()
    try:
        players = await seat_four(emu)
        await emu.wait_for(lambda: emu.find_message(players.group.id, "🐐 Сдача 1") is not None)
        await emu.wait_for(lambda: players.whose_turn() is not None)
        user, message = players.whose_turn()  # type: ignore[misc]
        while any(d.startswith("r:") for row in message.buttons for _, d in row):
            await players.play_one()
            await emu.wait_for(lambda: players.whose_turn() is not None)
            user, message = players.whose_turn()  # type: ignore[misc]
        answer = await players.play_one()
        card = answer.text.removeprefix("Вы сыграли ").rstrip(".")  # type: ignore[union-attr]
    finally:
        await bot.stop()
    table = emu.find_message(players.group.id, "🐐 Сдача 1")
    assert table is not None and f"{user.first_name} {card}" in table.text
