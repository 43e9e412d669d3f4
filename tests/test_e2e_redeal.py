"""Redeal (RULES.md §1.1): a hand under 14 points is offered a redeal before the first card;
asking for it reshuffles the deal, and the table says so."""

from __future__ import annotations

from pathlib import Path

from botapi_emulator import BotApiEmulator
from tests.e2e import BotRunner, bot_settings, seat_four

SEED_WITH_A_WEAK_FIRST_HAND = 6
"""With this bot seed the first deal gives seat 0 (Аня, seating=ordered) under 14 points."""


async def test_a_weak_hand_asks_for_a_redeal_and_gets_new_cards(
    emu: BotApiEmulator, db_path: Path
) -> None:
    bot = BotRunner(bot_settings(emu, db_path), seed=SEED_WITH_A_WEAK_FIRST_HAND)
    await bot.start()
    try:
        players = await seat_four(emu)
        await bot.drain()
        ann = players.users[0]
        hand = players.hand_message(ann)
        assert hand is not None and "меньше 14 очков" in hand.text
        before = sorted(t for row in hand.buttons for t, d in row if d.startswith("c:"))
        others = [players.hand_message(u) for u in players.users[1:]]
        assert all(h is not None and "Пересдать" not in h.button_texts for h in others)
        answer = await emu.press(ann, ann.id, hand.message_id, text="🔄 Пересдать")
        assert answer.text == "Пересдача!" and not answer.show_alert
        await bot.drain()
        assert "пересдача 1" in players.group_text()
        after = players.hand_message(ann)
        assert after is not None and after.message_id == hand.message_id  # edited, not re-sent
        assert sorted(t for row in after.buttons for t, d in row if d.startswith("c:")) != before
        assert bot.app is not None
        moves = await bot.app.bot_data.storage.moves(1)
        assert [m.action for m in moves] == ["redeal"]
    finally:
        await bot.stop()
