"""Lobby settings (⚙): the creator cycles the table options with buttons; others may not."""

from __future__ import annotations

from botapi_emulator import BotApiEmulator
from kozelbot.games import preset
from kozelbot.options import MOVE_TIME_CHOICES
from tests.e2e import BotRunner, Players, open_lobby


def test_every_option_cycles_through_all_its_values_and_back() -> None:
    hvalenyi = preset("hvalenyi")
    for key in ("deck", "six_clubs", "lyusya", "seating", "move_time"):
        options = hvalenyi.default_options()
        seen = [getattr(options, key)]
        for _ in range(len(hvalenyi.choices(key))):
            options = hvalenyi.cycle(options, key)
            seen.append(getattr(options, key))
        assert seen[0] == seen[-1], key
        assert len(set(seen)) == len(hvalenyi.choices(key)), key
    assert set(MOVE_TIME_CHOICES) >= {0, 60}


async def test_the_creator_changes_settings_with_buttons_and_the_game_uses_them(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    group, (ann, boris), lobby = await open_lobby(emu)
    assert "Колода 36" in lobby.text
    answer = await emu.press(boris, group.id, lobby.message_id, text="⚙ Колода 36")
    assert answer.show_alert and "создатель" in (answer.text or "")
    answer = await emu.press(ann, group.id, lobby.message_id, text="⚙ Колода 36")
    assert not answer.show_alert
    await bot.drain()
    lobby = emu.message(group.id, lobby.message_id)
    assert "Колода 32" in lobby.text and "6♣" not in lobby.text
    await emu.press(ann, group.id, lobby.message_id, text="⚙ Люся: победа")
    await bot.drain()
    lobby = emu.message(group.id, lobby.message_id)
    assert "Люся: в ноль" in lobby.text
    await emu.press(ann, group.id, lobby.message_id, text="Начать с ботами")
    players = Players(emu, group, [ann])
    await emu.wait_for(lambda: players.hand_message(ann) is not None)
    await bot.drain()
    hand = players.hand_message(ann)
    assert hand is not None
    assert len([t for row in hand.buttons for t, d in row if d.startswith("c:")]) == 8
    assert not any(t.startswith("6") for t in hand.button_texts)


async def test_a_forgotten_lobby_closes_and_frees_the_chat(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    import time

    ann = emu.add_user(first_name="Аня")
    group = emu.add_group(title="Г", members=[ann])
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "набор за стол") is not None)
    assert bot.app is not None and bot.app.job_queue is not None
    await bot.drain()
    (job,) = [j for j in bot.app.job_queue.jobs() if j.name and j.name.startswith("turn:")]
    bot.app.bot_data.service.clock = lambda: time.time() + 3 * 3600
    await job.run(bot.app)
    await emu.wait_for(
        lambda: "никто и не начал" in emu.find_message(group.id, "набор за стол").text
    )  # type: ignore[union-attr]
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None and lobby.buttons == []
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(
        lambda: len([m for m in emu.messages(group.id) if "набор за стол" in m.text]) == 2
    )


async def test_table_command_sends_the_table_again_at_the_bottom(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    from tests.e2e import seat_four

    players = await seat_four(emu)
    await bot.drain()
    group = players.group
    old = emu.find_message(group.id, "🐐 Сдача 1")
    assert old is not None
    emu.send_text(players.users[1], group.id, "/table")
    await emu.wait_for(lambda: emu.message(group.id, old.message_id).text.startswith("⬇️"))
    await bot.drain()
    new = emu.find_message(group.id, "🐐 Сдача 1")
    assert new is not None and new.message_id > old.message_id
    await players.next_turn()
    await players.play_one()
    await bot.drain()
    assert emu.message(group.id, new.message_id).edits >= 1  # the new one is the live one
