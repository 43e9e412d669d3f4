"""Lobby settings (⚙): the creator cycles the table options with buttons; others may not."""

from __future__ import annotations

from botapi_emulator import BotApiEmulator
from kozelbot.core.options import MOVE_TIME_CHOICES
from kozelbot.families.registry import preset
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


async def test_the_variant_is_chosen_by_word_or_by_the_lobby_button(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """``/newgame kryuk`` opens a kryuk table; the 🎲 button cycles the variant (creator
    only) and resets the options to the new variant's; ``/rules VARIANT`` explains it."""
    ann, boris = emu.add_user(first_name="Аня"), emu.add_user(first_name="Борис")
    group = emu.add_group(title="Г", members=[ann, boris])
    for user in (ann, boris):
        await emu.start_private(user)
    emu.send_text(ann, group.id, "/newgame kryuk")
    await emu.wait_for(lambda: emu.find_message(group.id, "Козёл с Крюком — набор") is not None)
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None and "Ход 10 с" in lobby.text
    answer = await emu.press(boris, group.id, lobby.message_id, text="🎲 Козёл с Крюком")
    assert answer.show_alert and "создатель" in (answer.text or "")
    await emu.press(ann, group.id, lobby.message_id, text="🎲 Козёл с Крюком")
    await bot.drain()
    lobby = emu.message(group.id, lobby.message_id)
    assert "Козёл на шестёрках" in lobby.text and "Королевский козёл: нет" in lobby.text
    await emu.press(ann, group.id, lobby.message_id, text="⚙ Королевский козёл: нет")
    await bot.drain()
    lobby = emu.message(group.id, lobby.message_id)
    assert "Королевский козёл: да" in lobby.text
    emu.send_text(ann, group.id, "/rules belka")
    await emu.wait_for(lambda: emu.find_message(group.id, "Белка\n") is not None)
    emu.send_text(ann, group.id, "/rules")
    await emu.wait_for(
        lambda: (
            emu.find_message(group.id, "шестёрк") is not None
            and "Козёл на шестёрках\n" in emu.last_message(group.id).text
        )
    )  # type: ignore[union-attr]


async def test_a_two_player_table_has_two_seats_and_refuses_a_third_person(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """``players=2``: two seats; the lobby's button back to four keeps who sits, and a
    change to two seats is refused while three people sit."""
    group, users, lobby = await open_lobby(emu, names=("Аня", "Борис", "Вера"))
    ann, boris, vera = users
    await emu.press(ann, group.id, lobby.message_id, text="⚙ Игроков: 4")
    await bot.drain()
    lobby = emu.message(group.id, lobby.message_id)
    assert "Игроков: 2" in lobby.text and "Каждый за себя" in lobby.text
    assert "3." not in lobby.text
    emu.send_text(boris, group.id, "/join")
    await emu.wait_for(lambda: "Игра началась" in emu.message(group.id, lobby.message_id).text)
    emu.send_text(vera, group.id, "/join")
    await bot.drain()
    # The match runs with both seats held by people: nothing for a third person to take.
    await emu.wait_for(lambda: emu.find_message(group.id, "заняты людьми") is not None)
    players = Players(emu, group, [ann, boris])
    await emu.wait_for(lambda: all(players.hand_message(u) for u in (ann, boris)))
    hand = players.hand_message(ann)
    assert hand is not None and "партнёр" not in hand.text
    assert len([d for row in hand.buttons for _, d in row if d.startswith("c:")]) == 9


async def test_unknown_variant_and_bad_option_values_are_refused_with_the_choices(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня")
    group = emu.add_group(title="Г", members=[ann])
    await emu.start_private(ann)
    emu.send_text(ann, group.id, "/newgame chess")
    await emu.wait_for(lambda: emu.find_message(group.id, "variant=chess") is not None)
    text = emu.find_message(group.id, "variant=chess").text  # type: ignore[union-attr]
    assert "hvalenyi|kryuk|sixes|belka" in text
    emu.send_text(ann, group.id, "/newgame hvalenyi players=3")
    await emu.wait_for(lambda: emu.find_message(group.id, "players=3") is not None)
    assert "4|2" in emu.find_message(group.id, "players=3").text  # type: ignore[union-attr]
    emu.send_text(ann, group.id, "/newgame sixes royal=maybe")
    await emu.wait_for(lambda: emu.find_message(group.id, "royal=maybe") is not None)
    assert "true|false" in emu.find_message(group.id, "royal=maybe").text  # type: ignore[union-attr]
    emu.send_text(ann, group.id, "/newgame kryuk deck=36")
    await emu.wait_for(lambda: emu.find_message(group.id, "deck=36") is not None)
    await bot.drain()
    assert emu.find_message(group.id, "набор за стол") is None


def test_cycling_an_option_another_rules_out_resets_the_dependent_ones() -> None:
    """Cover: back to ``mode=pairs`` from three players each for self resets ``players`` to
    four (pairs need four) and keeps every other option; ``players`` cannot leave 4 in
    pairs mode, so its button changes nothing there."""
    cover = preset("cover")
    three = cover.parse(["mode=self", "players=3", "move_time=30", "seating=ordered", "hand=4"])
    pairs = cover.cycle(three, "mode")
    assert (pairs.mode, pairs.players) == ("pairs", 4)  # type: ignore[attr-defined]
    assert (pairs.move_time, pairs.seating) == (30, "ordered")  # type: ignore[attr-defined]
    assert pairs.hand == 4  # type: ignore[attr-defined]  # an option it does not rule out stays
    assert cover.cycle(pairs, "players") == pairs
    assert cover.cycle(cover.cycle(pairs, "mode"), "players").players == 3  # type: ignore[attr-defined]
