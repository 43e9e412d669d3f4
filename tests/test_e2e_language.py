"""Languages: Russian by default; English for people whose Telegram speaks English, and for a
group whose admin picks it with /language."""

from __future__ import annotations

from botapi_emulator import BotApiEmulator
from tests.e2e import BotRunner, start_with_bots


async def test_an_english_speaking_player_gets_an_english_hand_while_the_group_stays_russian(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Ann", language_code="en")
    group = emu.add_group(title="Goats", members=[ann], admins=[ann])
    players = await start_with_bots(emu, ann, group)
    await emu.wait_for(lambda: players.hand_message(ann) is not None)
    await bot.drain()
    hand = players.hand_message(ann)
    assert hand is not None and "Khvalyony kozel · Goats · deal 1" in hand.text
    labels = [t for row in hand.buttons for t, d in row if d.startswith("c:")]
    assert not any(label.startswith(("Д", "В", "Т")) for label in labels)
    assert "Сдача 1" in players.group_text()


async def test_an_admin_switches_the_group_to_english(emu: BotApiEmulator, bot: BotRunner) -> None:
    ann, boris = emu.add_user(first_name="Аня"), emu.add_user(first_name="Борис")
    group = emu.add_group(title="Г", members=[ann, boris], admins=[ann])
    emu.send_text(boris, group.id, "/language en")
    await emu.wait_for(lambda: emu.find_message(group.id, "только админ") is not None)
    emu.send_text(ann, group.id, "/language en")
    await emu.wait_for(lambda: emu.find_message(group.id, "Language: en.") is not None)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "gathering players") is not None)


async def test_a_ukrainian_player_gets_a_ukrainian_hand(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    olya = emu.add_user(first_name="Оля", language_code="uk")
    group = emu.add_group(title="Кози", members=[olya], admins=[olya])
    players = await start_with_bots(emu, olya, group)
    await emu.wait_for(lambda: players.hand_message(olya) is not None)
    await bot.drain()
    hand = players.hand_message(olya)
    assert hand is not None and "Хвалений козел · Кози · здача 1" in hand.text
