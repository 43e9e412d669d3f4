"""Redeal (RULES.md §1.1): a hand under 14 points is offered a redeal before the first card;
asking for it reshuffles the deal, and the table says so. The offer itself names nobody: the
group and every other hand see only that the deal waits."""

from __future__ import annotations

from pathlib import Path

from botapi_emulator import BotApiEmulator
from tests.e2e import BotRunner, bot_settings, seat_four

SEED_WITH_A_WEAK_FIRST_HAND = 1
"""With this bot seed the first deal gives someone under 14 points."""
WAITING = "Ждём начала сдачи…"


async def test_a_weak_hand_asks_for_a_redeal_and_gets_new_cards(
    emu: BotApiEmulator, db_path: Path
) -> None:
    bot = BotRunner(bot_settings(emu, db_path), seed=SEED_WITH_A_WEAK_FIRST_HAND)
    await bot.start()
    try:
        players = await seat_four(emu)
        await bot.drain()
        hands = {user.id: players.hand_message(user) for user in players.users}
        texts = {user_id: hand.text if hand else "" for user_id, hand in hands.items()}
        asked = [u for u in players.users if "меньше 14 очков" in texts[u.id]]
        assert asked, "nobody was offered a redeal in the first deal"
        weak = asked[0]
        hand = hands[weak.id]
        assert hand is not None
        before = sorted(t for row in hand.buttons for t, d in row if d.startswith("c:"))
        for user in players.users:
            shown = hands[user.id]
            assert shown is not None and WAITING in shown.text
            if user not in asked:
                assert "Пересдать" not in shown.button_texts
        group = players.group_text()
        assert WAITING in group and "Пересдачу могут попросить" not in group
        other = next(u for u in players.users if u not in asked)
        other_hand = hands[other.id]
        assert other_hand is not None
        card = next(d for row in other_hand.buttons for _, d in row if d.startswith("c:"))
        refused = await emu.press(other, other.id, other_hand.message_id, card)
        assert refused.text == "Сдача ещё не началась — подождите немного."
        answer = await emu.press(weak, weak.id, hand.message_id, text="🔄 Пересдать")
        assert answer.text == "Пересдача!" and not answer.show_alert
        await bot.drain()
        assert "пересдача 1" in players.group_text()
        after = players.hand_message(weak)
        assert after is not None and after.message_id == hand.message_id  # edited, not re-sent
        assert sorted(t for row in after.buttons for t, d in row if d.startswith("c:")) != before
        assert bot.app is not None
        moves = await bot.app.bot_data.storage.games.moves(1)
        assert [m.action for m in moves] == ["redeal"]
    finally:
        await bot.stop()
