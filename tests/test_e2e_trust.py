"""Issue #14 end to end: who may act where, forged buttons, answers that fit Telegram, and a
bot removed from a group in any state — each through the real bot and the emulator."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

import pytest

from botapi_emulator import BotApiEmulator
from kozelbot.core.fairplay import players_seed
from kozelbot.core.table import Table, TableStatus
from tests.e2e import BotRunner, last_id, reply_after, seat_four, start_with_bots
from tests.fairplay_check import with_check


def _app(bot: BotRunner) -> Any:
    assert bot.app is not None
    return bot.app


def _table(bot: BotRunner, chat_id: int) -> Table:
    service = _app(bot).bot_data.service
    live = [t for t in service.tables.live.values() if t.chat_id == chat_id]
    assert live, f"no live game in {chat_id}"
    return live[0]


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# -- item 9: once a match runs, only chat admins stop it at once ---------------------------


async def test_a_creator_who_is_not_an_admin_votes_like_everyone_once_the_match_runs(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    admin = emu.add_user(first_name="Админ", language_code="ru")
    creator = emu.add_user(first_name="Аня", language_code="ru")
    group = emu.add_group(title="Козлятня", members=[creator], admins=[admin], creator=admin)
    await start_with_bots(emu, creator, group)
    await bot.drain()
    game_id = _table(bot, group.id).game_id
    before = last_id(emu, group.id)
    emu.send_text(creator, group.id, "/stop")  # seated: a vote, not a stop
    vote = await reply_after(emu, group.id, before, "🗳")
    assert "1" in vote.text
    await bot.drain()
    # One person at the table: her vote is the majority, so the vote stops it (unrated).
    table = await _app(bot).bot_data.service.game(game_id)
    assert table is not None and table.status is TableStatus.STOPPED
    assert table.closed_reason == "vote"


async def test_a_creator_who_left_the_running_match_cannot_stop_it(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    group, (ann, boris, vera, gleb) = players.group, players.users
    group.admins.discard(ann.id)  # the creator is no admin
    group.creator_id = None
    await bot.drain()
    emu.send_text(ann, group.id, "/leave")
    await emu.wait_for(lambda: _table(bot, group.id).seat_of(ann.id) is None)
    before = last_id(emu, group.id)
    emu.send_text(ann, group.id, "/stop")
    refusal = await reply_after(emu, group.id, before, "голосование")
    assert "админ" in refusal.text
    await bot.drain()
    assert _table(bot, group.id).status is TableStatus.PLAYING
    assert _table(bot, group.id).stop_votes == []
    # An admin still stops at once.
    admin = emu.add_user(first_name="Админ", language_code="ru")
    emu.add_member(group, admin, admin=True)
    emu.send_text(admin, group.id, "/stop")
    await emu.wait_for(lambda: not _app(bot).bot_data.service.tables.live)
    assert boris and vera and gleb


async def test_a_creator_closes_the_lobby_at_once(emu: BotApiEmulator, bot: BotRunner) -> None:
    creator = emu.add_user(first_name="Аня", language_code="ru")
    group = emu.add_group(title="Козлятня", members=[creator])
    await emu.start_private(creator)
    emu.send_text(creator, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    emu.send_text(creator, group.id, "/stop")
    await emu.wait_for(lambda: emu.find_message(group.id, "Игра остановлена") is not None)
    await bot.drain()
    assert not _app(bot).bot_data.service.tables.live


# -- item 20: the bot removed from a group, in any state, any number of times ---------------


async def test_removing_the_bot_twice_or_after_the_game_ended_is_quiet(
    emu: BotApiEmulator, bot: BotRunner, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    players = await seat_four(emu)
    group, ann = players.group, players.users[0]
    await bot.drain()
    game_id = _table(bot, group.id).game_id
    emu.remove_bot(group, by=ann)
    emu.remove_bot(group, by=ann)  # both updates arrive together
    service = _app(bot).bot_data.service
    await emu.wait_for(lambda: not service.tables.live)
    await bot.drain()
    await asyncio.sleep(0.2)
    emu.remove_bot(group, by=ann)  # and again, with nothing live left
    await asyncio.sleep(0.3)
    await bot.drain()
    ended = await service.game(game_id)
    assert ended is not None and ended.status is TableStatus.STOPPED
    assert _errors(caplog) == []


# -- item 10: every answer fits Telegram -----------------------------------------------------


async def test_a_refusal_naming_a_long_chat_title_still_answers_the_press(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня", language_code="ru")
    boris = emu.add_user(first_name="Борис", language_code="ru")
    first = emu.add_group(title="Очень длинное название группы 🐐 " * 4, members=[ann])
    assert len(first.title) >= 128
    second = emu.add_group(title="Вторая", members=[ann, boris])
    await start_with_bots(emu, ann, first)
    await emu.start_private(boris)
    emu.send_text(boris, second.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(second.id, "1. Борис") is not None)
    lobby = emu.find_message(second.id, "набор за стол")
    assert lobby is not None
    answer = await emu.press(ann, second.id, lobby.message_id, text="Сесть за стол")
    assert answer.show_alert and answer.text is not None
    assert len(answer.text.encode("utf-16-le")) // 2 <= 200
    assert answer.text.endswith("…") and "Очень длинное" in answer.text
    await bot.drain()
    assert not [c for c in emu.history if c.method == "answerCallbackQuery" and not c.ok]


# -- item 8: a forged vote, history or settings button changes nothing ------------------------


async def test_forged_vote_history_and_settings_buttons_edit_no_other_message(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    group, (ann, boris, vera, _gleb) = players.group, players.users
    await bot.drain()
    game_id = _table(bot, group.id).game_id
    lobby = emu.find_message(group.id, "набор за стол")
    table = emu.find_message(group.id, "Сдача 1")
    assert lobby is not None and table is not None
    shown = {m.message_id: (m.text, m.buttons) for m in (lobby, table)}
    for message_id in shown:
        for forged in (f"v:{game_id}", f"h:{game_id}:0", f"h:{game_id}:-1", "s:variant"):
            query = emu.forged_press_nowait(ann, group.id, message_id, forged)
            answer = await emu.wait_answer(query)
            assert answer.show_alert, forged
    await bot.drain()
    assert _table(bot, group.id).stop_votes == []
    for message_id, (text, buttons) in shown.items():
        now = emu.message(group.id, message_id)
        assert (now.text, now.buttons) == (text, buttons)
    assert await _app(bot).bot_data.storage.people.chat_settings(group.id) is None
    # The real vote message takes the vote button.
    before = last_id(emu, group.id)
    emu.send_text(boris, group.id, "/stop")
    vote = await reply_after(emu, group.id, before, "🗳")
    await bot.drain()
    answer = await emu.press(vera, group.id, vote.message_id, f"v:{game_id}")
    assert not answer.show_alert, answer.text
    await bot.drain()
    assert sorted(_table(bot, group.id).stop_votes) == sorted([boris.id, vera.id])
    assert "2" in emu.message(group.id, vote.message_id).text


# -- item 7: only the group's members sit at its table, and links cannot be guessed ---------


async def test_a_deep_link_seats_only_members_of_the_group_and_a_guessed_link_nobody(
    emu: BotApiEmulator, bot: BotRunner, caplog: pytest.LogCaptureFixture
) -> None:
    ann, gleb = emu.add_user(first_name="Аня"), emu.add_user(first_name="Глеб")
    outsider = emu.add_user(first_name="Чужой")
    group = emu.add_group(title="Г", members=[ann, gleb])
    await emu.start_private(ann)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    game_id = _table(bot, group.id).game_id
    emu.send_text(gleb, group.id, "/join")  # no private chat yet: a deep link is offered
    await emu.wait_for(lambda: emu.find_message(group.id, "откройте личный чат") is not None)
    prompt = emu.find_message(group.id, "откройте личный чат")
    assert prompt is not None
    url = prompt.buttons[0][0][1]
    assert f"start=join-{game_id}-" in url and len(url.split(f"join-{game_id}-")[1]) >= 12
    # A guessed link (the game's number alone, or a made-up invite) seats nobody, even a member.
    await emu.start_private(gleb, payload=f"join-{game_id}")
    await emu.wait_for(lambda: emu.find_message(gleb.id, "никого не сажает") is not None)
    before = last_id(emu, gleb.id)
    emu.send_text(gleb, gleb.id, f"/start join-{game_id}-жук")  # typed by hand
    await reply_after(emu, gleb.id, before, "никого не сажает")
    assert _errors(caplog) == []
    # The real link, followed by someone who is not in the group, seats nobody either.
    await emu.open_deep_link(outsider, url)
    await emu.wait_for(lambda: emu.find_message(outsider.id, "участники") is not None)
    # Nor the lobby's button pressed by an outsider (a public group's reader).
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None
    answer = await emu.press(outsider, group.id, lobby.message_id, text="Сесть за стол")
    assert answer.show_alert and "участники" in (answer.text or "")
    await bot.drain()
    table = _table(bot, group.id)
    assert table.seat_of(outsider.id) is None and table.seat_of(gleb.id) is None
    # The member who follows the real link is seated.
    await emu.open_deep_link(gleb, url)
    await emu.wait_for(lambda: _table(bot, group.id).seat_of(gleb.id) is not None)


# -- items 13, 14: the secret is sealed before anyone joins, the players add their seed ------


async def test_the_lobby_seals_the_secret_before_anyone_joins_and_players_add_to_the_seed(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня", language_code="ru")
    boris = emu.add_user(first_name="Борис", language_code="ru")
    group = emu.add_group(title="Козлятня", members=[ann, boris], admins=[ann])
    for user in (ann, boris):
        await emu.start_private(user)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "набор за стол") is not None)
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None
    table = _table(bot, group.id)
    seal = hashlib.sha256(table.secret.encode()).hexdigest()
    # Issue #30 item 6: one plain line, no digits; the seal whole behind the button, from
    # the start (before anyone joins).
    first = [*lobby.versions, lobby.text][0]
    assert "🔒 Раздачи можно проверить после партии." in first and seal[:8] not in first
    shown = await emu.press(boris, group.id, lobby.message_id, text="🔒 Печать партии")
    assert shown.show_alert and shown.text == f"Печать партии: {seal}"  # whole, a press away
    assert table.secret not in "".join(m.text for m in emu.messages(group.id))
    emu.send_text(boris, group.id, "/join")
    await emu.wait_for(lambda: _table(bot, group.id).seat_of(boris.id) is not None)
    before = last_id(emu, group.id)
    emu.send_text(boris, group.id, "/seed кукуруза")
    await reply_after(emu, group.id, before, "вклад игроков")
    contributions = _table(bot, group.id).contributions
    assert contributions[-1] == f"seed:{boris.id}:кукуруза"
    assert [c.split(":")[1] for c in contributions] == [str(ann.id), str(boris.id), str(boris.id)]
    answer = await emu.press(ann, group.id, lobby.message_id, text="Начать с ботами")
    assert not answer.show_alert, answer.text
    await emu.wait_for(lambda: "началась" in emu.message(group.id, lobby.message_id).text)
    started = _table(bot, group.id)
    assert started.client_seed == players_seed(contributions)
    assert started.client_seed[:8] not in emu.message(group.id, lobby.message_id).text
    shown = await emu.press(boris, group.id, lobby.message_id, text="🔒 Печать партии")
    assert shown.text is not None
    assert shown.text.endswith(f"Вклад игроков: {started.client_seed}")
    before = last_id(emu, group.id)
    emu.send_text(boris, group.id, "/seed поздно")
    await reply_after(emu, group.id, before, "уже розданы")
    assert _table(bot, group.id).contributions == contributions
    # Stopped by the admin: the table offers «🔑 Проверить раздачи», which sends the secret
    # (the one sealed in the lobby) privately; the group never reads it.
    emu.send_text(ann, group.id, "/stop")
    await emu.wait_for(lambda: with_check(emu, group.id) is not None)
    stopped = with_check(emu, group.id)
    assert stopped is not None
    answer = await emu.press(boris, group.id, stopped.message_id, text="🔑 Проверить раздачи")
    assert not answer.show_alert, answer.text  # no deal scored: the secret still checks
    await emu.wait_for(lambda: emu.find_message(boris.id, "Проверка раздач") is not None)
    check = emu.find_message(boris.id, "Проверка раздач")
    assert check is not None and f"SECRET={table.secret}" in check.text
    assert f"SEAL={seal}" in check.text and f"PLAYERS={started.client_seed}" in check.text
    assert table.secret not in "".join(m.text for m in emu.messages(group.id))
