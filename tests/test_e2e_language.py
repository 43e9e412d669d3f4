"""Languages: Russian by default; English for people whose Telegram speaks English, and for a
group whose admin picks it with /language."""

from __future__ import annotations

from botapi_emulator import BotApiEmulator, ChatMessage
from tests.e2e import BotRunner, Players, start_with_bots


async def _first_hand(
    emu: BotApiEmulator, bot: BotRunner, name: str, language: str, title: str
) -> tuple[Players, ChatMessage]:
    """Someone with this Telegram language starts a table with bots; their first hand."""
    user = emu.add_user(first_name=name, language_code=language)
    group = emu.add_group(title=title, members=[user], admins=[user])
    players = await start_with_bots(emu, user, group)
    await emu.wait_for(lambda: players.hand_message(user) is not None)
    await bot.drain()
    hand = players.hand_message(user)
    assert hand is not None
    return players, hand


async def test_an_english_speaking_player_gets_an_english_hand_while_the_group_stays_russian(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players, hand = await _first_hand(emu, bot, "Ann", "en", "Goats")
    assert hand.text.startswith("Khvalyony kozel · deal 1\ntrump ") and "Goats" in hand.text
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
    _players, hand = await _first_hand(emu, bot, "Оля", "uk", "Кози")
    assert hand.text.startswith("Хвалений козел · здача 1\nкозир ") and "Кози" in hand.text
