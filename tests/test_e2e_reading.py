"""Issue #15 end to end, the texts outside the families: no seal or key per deal (issue #30
item 6), a welcome that says things once, the seat confirmation before the cards, reminders
that go once the move is made, and notices without a guessed gender."""

from __future__ import annotations

import re
from typing import Any

from botapi_emulator import BotApiEmulator
from botapi_emulator.keyboards import inline_buttons
from tests.e2e import BotRunner, last_id, reply_after, seat_four

HEXISH = re.compile(r"\b[0-9a-f]{8,}\b")
"""A seal, a key or a secret, whole or cut."""


def _app(bot: BotRunner) -> Any:
    assert bot.app is not None
    return bot.app


async def test_the_table_and_a_deal_s_result_carry_no_seal_key_or_seal_button(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """Issue #30 item 6: nothing of fair play per deal in the group — no seal on the table,
    no «🔒 Печать партии» under it, no key in the deal's result (the whole check is the
    match's, at its end)."""
    players = await seat_four(emu, options="seating=ordered move_time=0")
    group = players.group
    await bot.drain()
    table = emu.find_message(group.id, "Сдача 1")
    assert table is not None
    for _ in range(200):  # the first deal to its end
        if emu.find_message(group.id, "Сдача 1:") is not None:
            break
        await bot.drain()
        await players.next_turn()
        before = players.turn_key()
        assert not (await players.play_one(redeal=False)).show_alert
        await players.moved_on(before)
    await bot.drain()
    result = emu.find_message(group.id, "Сдача 1:")
    assert result is not None
    final = emu.message(group.id, table.message_id)
    for text, markup in [
        *final.shown,
        (final.text, final.reply_markup),
        (result.text, result.reply_markup),
    ]:
        assert HEXISH.search(text) is None and "kozel2:" not in text, text
        assert "Печать" not in text and "Ключ" not in text, text
        assert not [
            label
            for row in inline_buttons(markup)
            for label, _ in row
            if "🔒" in label or "🔑" in label
        ]


async def test_a_forged_seal_button_is_refused_and_changes_nothing(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """Another game's seal, a deal not dealt yet, a seal button pressed in a private chat:
    each is answered as not valid, and no message changes."""
    players = await seat_four(emu, options="seating=ordered move_time=0")
    group = players.group
    await bot.drain()
    table = emu.find_message(group.id, "Сдача 1")
    assert table is not None
    game_id = next(iter(_app(bot).bot_data.service.tables.live.values())).game_id
    hand = players.hand_message(players.users[0])
    assert hand is not None
    forged = [
        (group.id, table.message_id, f"f:{game_id + 1}:0"),
        (group.id, table.message_id, f"f:{game_id}:5"),
        (players.users[0].id, hand.message_id, f"f:{game_id}:0"),
    ]
    shown = {
        m.message_id: m.text for chat in (group.id, players.users[0].id) for m in emu.messages(chat)
    }
    for chat_id, message_id, data in forged:
        query = emu.forged_press_nowait(players.users[0], chat_id, message_id, data)
        answer = await emu.wait_answer(query)
        assert answer.text == "Эта кнопка недействительна.", data
    await bot.drain()
    assert shown == {
        m.message_id: m.text for chat in (group.id, players.users[0].id) for m in emu.messages(chat)
    }


async def test_the_private_welcome_names_the_bot_once(emu: BotApiEmulator, bot: BotRunner) -> None:
    ann = emu.add_user(first_name="Аня", language_code="ru")
    await emu.start_private(ann)
    await emu.wait_for(lambda: emu.find_message(ann.id, "KozelBot") is not None)
    welcome = emu.find_message(ann.id, "KozelBot")
    assert welcome is not None and welcome.text.count("KozelBot —") == 1


async def test_the_seat_confirmation_comes_before_the_first_hand(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """The fourth person follows the deep link: "Вы за столом" arrives, then the cards."""
    users = [emu.add_user(first_name=n, language_code="ru") for n in ("Аня", "Борис", "Вера")]
    late = emu.add_user(first_name="Глеб", language_code="ru")
    group = emu.add_group(title="Козлятня", members=[*users, late])
    for user in users:
        await emu.start_private(user)
    emu.send_text(users[0], group.id, "/newgame seating=ordered")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    for user in users[1:]:
        emu.send_text(user, group.id, "/join")
    await emu.wait_for(
        lambda: all(
            name in emu.find_message(group.id, "набор за стол").text  # type: ignore[union-attr]
            for name in ("Борис", "Вера")
        )
    )
    emu.send_text(late, group.id, "/join")
    await emu.wait_for(lambda: emu.find_message(group.id, "откройте личный чат") is not None)
    prompt = emu.find_message(group.id, "откройте личный чат")
    assert prompt is not None
    await emu.open_deep_link(late, prompt.buttons[0][0][1])
    await emu.wait_for(lambda: emu.find_message(late.id, "сдача 1") is not None)
    await bot.drain()
    seated = emu.find_message(late.id, "Вы за столом")
    hand = emu.find_message(late.id, "сдача 1")
    assert seated is not None and hand is not None
    assert seated.message_id < hand.message_id


async def test_a_reminder_is_deleted_once_the_move_is_made(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu, options="seating=ordered move_time=20")
    app = _app(bot)
    await bot.drain()
    table = next(iter(app.bot_data.service.tables.live.values()))
    warn = app.job_queue.get_jobs_by_name(f"turn:{table.chat_id}:{table.game_id}:warn")
    found = players.whose_turn()
    assert warn and found is not None
    user = found[0]
    before = last_id(emu, user.id)
    await warn[0].run(app)
    reminder = await reply_after(emu, user.id, before, "⏰")
    assert reminder.message_id in {m.message_id for m in emu.messages(user.id)}
    answer = await players.play_one()
    assert not answer.show_alert, answer.text
    await bot.drain()
    assert reminder.message_id not in {m.message_id for m in emu.messages(user.id)}


async def test_each_reminder_is_deleted_in_its_own_chat_when_two_people_were_warned(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """Two people warned at once (a redeal offer to two hands): each reminder is recorded
    under its own person, so the move deletes each in its own private chat."""
    players = await seat_four(emu, options="seating=ordered move_time=20")
    app = _app(bot)
    await bot.drain()
    table = next(iter(app.bot_data.service.tables.live.values()))
    found = players.whose_turn()
    assert found is not None
    mover = found[0]
    other = next(u for u in players.users if u.id != mover.id)
    seats = [table.seat_of(mover.id), table.seat_of(other.id)]
    before = {u.id: last_id(emu, u.id) for u in (mover, other)}
    app.bot_data.presenter.warn(table, seats, 10)  # type: ignore[arg-type]
    reminders = [await reply_after(emu, u.id, before[u.id], "⏰") for u in (mover, other)]
    answer = await players.play_one()
    assert not answer.show_alert, answer.text
    await bot.drain()
    for user, reminder in zip((mover, other), reminders, strict=True):
        assert reminder.message_id not in {m.message_id for m in emu.messages(user.id)}
