"""Bad input through the real bot: every wrong press or command gets a clear answer and
changes nothing; no move is applied twice."""

from __future__ import annotations

import time

import pytest

from botapi_emulator import BotApiEmulator
from kozelbot.core.table import TableStatus
from kozelbot.core.texts import is_not_now
from tests.e2e import BotRunner, Players, open_lobby, seat_four


def _table(bot: BotRunner, chat_id: int):  # type: ignore[no-untyped-def]
    assert bot.app is not None
    service = bot.app.bot_data.service
    cached = {**service.tables.ended, **service.tables.live}
    game_ids = [gid for gid, t in cached.items() if t.chat_id == chat_id]
    return service.snapshot(max(game_ids))


async def _moves(bot: BotRunner, game_id: int) -> int:
    assert bot.app is not None
    return len(await bot.app.bot_data.storage.games.moves(game_id))


async def test_second_newgame_in_the_same_chat_says_a_game_is_running(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня")
    group = emu.add_group(title="Г", members=[ann])
    await emu.start_private(ann)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "набор за стол") is not None)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "уже идёт игра") is not None)
    await bot.drain()
    assert len([m for m in emu.messages(group.id) if "набор за стол" in m.text]) == 1


async def test_newgame_with_a_bad_option_is_refused_and_opens_nothing(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня")
    group = emu.add_group(title="Г", members=[ann])
    emu.send_text(ann, group.id, "/newgame deck=33")
    await emu.wait_for(lambda: emu.find_message(group.id, "deck=33") is not None)
    assert "36|32" in emu.last_message(group.id).text  # type: ignore[union-attr]
    emu.send_text(ann, group.id, "/join")
    await emu.wait_for(lambda: emu.find_message(group.id, "нет игры") is not None)


async def test_a_player_who_never_opened_the_private_chat_gets_a_deep_link_that_seats_them(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann, gleb = emu.add_user(first_name="Аня"), emu.add_user(first_name="Глеб")
    group = emu.add_group(title="Г", members=[ann, gleb])
    await emu.start_private(ann)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    emu.send_text(gleb, group.id, "/join")
    await emu.wait_for(lambda: emu.find_message(group.id, "откройте личный чат") is not None)
    emu.send_text(gleb, group.id, "/join")  # impatient: asked once, not twice
    await emu.settle(quiet=0.2)
    await bot.drain()
    prompts = [m for m in emu.messages(group.id) if "откройте личный чат" in m.text]
    assert len(prompts) == 1
    prompt = prompts[0]
    assert "Глеб" in prompt.text
    url = prompt.buttons[0][0][1]
    assert url.startswith("https://t.me/kozel_test_bot?start=join-")
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None and "Глеб" not in lobby.text
    await emu.open_deep_link(gleb, url)
    await emu.wait_for(lambda: "2. Глеб" in emu.find_message(group.id, "набор за стол").text)  # type: ignore[union-attr]
    await emu.wait_for(lambda: emu.find_message(gleb.id, "Вы за столом") is not None)


async def test_the_join_button_of_a_stranger_without_private_chat_opens_the_deep_link(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann, vera = emu.add_user(first_name="Аня"), emu.add_user(first_name="Вера")
    group = emu.add_group(title="Г", members=[ann, vera])
    await emu.start_private(ann)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None
    answer = await emu.press(vera, group.id, lobby.message_id, text="Сесть за стол")
    assert answer.url is not None and "start=join-" in answer.url


async def test_only_the_creator_may_start_with_bots_and_bots_fill_the_empty_seats(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    group, (ann, boris), lobby = await open_lobby(emu)
    answer = await emu.press(boris, group.id, lobby.message_id, text="Начать с ботами")
    assert answer.show_alert and "создатель" in (answer.text or "")
    answer = await emu.press(ann, group.id, lobby.message_id, text="Начать с ботами")
    assert not answer.show_alert
    await emu.wait_for(lambda: emu.find_message(group.id, "Сдача 1") is not None)
    await bot.drain()
    table = _table(bot, group.id)
    assert table.status is TableStatus.PLAYING
    assert sum(1 for p in table.seats if p is not None and p.is_computer) == 3
    assert "🤖" in emu.find_message(group.id, "Сдача 1").text  # type: ignore[union-attr]


async def _someone_waiting(players: Players) -> None:
    await players.emu.wait_for(lambda: players.whose_turn() is not None, timeout=10)


async def test_pressing_out_of_turn_is_refused_with_the_name_of_the_player_to_move(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    await bot.drain()
    await _someone_waiting(players)
    mover, _ = players.whose_turn()  # type: ignore[misc]
    while players.whose_turn() is not None and players.whose_turn()[0] is mover:  # type: ignore[index]
        if "r:" not in str(players.hand_message(mover).buttons):  # type: ignore[union-attr]
            break
        await players.play_one()
        await bot.drain()
    mover, _ = players.whose_turn()  # type: ignore[misc]
    other = next(u for u in players.users if u is not mover)
    hand = players.hand_message(other)
    assert hand is not None
    table = _table(bot, players.group.id)
    before = await _moves(bot, table.game_id)
    data = next(d for row in hand.buttons for _, d in row if d.startswith("c:"))
    answer = await emu.press(other, other.id, hand.message_id, data)
    assert answer.show_alert and "ходит" in (answer.text or "").lower()
    assert mover.first_name in (answer.text or "")
    assert await _moves(bot, table.game_id) == before


async def test_an_illegal_card_is_refused_with_the_legal_cards_named(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    for _ in range(200):
        await bot.drain()
        await _someone_waiting(players)
        user, message = players.whose_turn()  # type: ignore[misc]
        marked = [(t, d) for row in message.buttons for t, d in row if is_not_now(t)]
        if marked:
            break
        await players.play_one()
    else:
        raise AssertionError("no position with an illegal card came up")
    table = _table(bot, players.group.id)
    before = await _moves(bot, table.game_id)
    answer = await emu.press(user, user.id, message.message_id, marked[0][1])
    assert answer.show_alert
    cards = [(t, d) for row in message.buttons for t, d in row if d.startswith("c:")]
    legal = [t for t, _ in cards if not is_not_now(t)]
    assert all(card in (answer.text or "") for card in legal)
    assert await _moves(bot, table.game_id) == before


async def test_a_double_tap_plays_the_card_once(emu: BotApiEmulator, bot: BotRunner) -> None:
    players = await seat_four(emu)
    await bot.drain()
    await _someone_waiting(players)
    user, message = players.whose_turn()  # type: ignore[misc]
    while any(d.startswith("r:") for row in message.buttons for _, d in row):
        await players.play_one()
        await bot.drain()
        user, message = players.whose_turn()  # type: ignore[misc]
    table = _table(bot, players.group.id)
    before = await _moves(bot, table.game_id)
    cards = [(t, d) for row in message.buttons for t, d in row if d.startswith("c:")]
    data = next(d for t, d in cards if not is_not_now(t))
    first = emu.press_nowait(user, user.id, message.message_id, data)
    second = emu.press_nowait(user, user.id, message.message_id, data)
    answers = [await emu.wait_answer(first), await emu.wait_answer(second)]
    assert sum(1 for a in answers if not a.show_alert) == 1
    assert sum(1 for a in answers if a.show_alert) == 1
    await bot.drain()
    assert bot.app is not None
    moves = await bot.app.bot_data.storage.games.moves(table.game_id)
    card = "play:" + data.split(":")[3]
    assert sum(1 for m in moves[before:] if m.action == card and m.source == "human") == 1


async def test_a_replaced_hand_message_and_forged_buttons_are_answered_and_ignored(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    await bot.drain()
    user = players.users[0]
    old = players.hand_message(user)
    assert old is not None
    emu.send_text(user, user.id, "/hand")
    await emu.wait_for(
        lambda: (
            players.hand_message(user) is not old
            and players.hand_message(user).message_id != old.message_id
        )
    )  # type: ignore[union-attr]
    table = _table(bot, players.group.id)
    before = await _moves(bot, table.game_id)
    data = next(d for row in old.buttons for _, d in row if d.startswith(("c:", "r:")))
    answer = await emu.press(user, user.id, old.message_id, data)
    assert answer.show_alert and "устарело" in (answer.text or "")
    for forged in ("c:999:0:AS", "c:x:y:z", "zzz", f"c:{table.game_id}:7:AS"):
        query_id = _forge(emu, user, old.message_id, forged)
        answer = await emu.wait_answer(query_id)
        assert answer.text, forged
    assert await _moves(bot, table.game_id) == before


def _forge(emu: BotApiEmulator, user: object, message_id: int, data: str) -> str:
    """A callback query with data no button of ours carries (a modified client)."""
    message = emu.message(user, message_id)  # type: ignore[arg-type]
    query_id = f"forged{time.monotonic_ns()}"
    from botapi_emulator.state import CallbackQuery

    emu.queries[query_id] = CallbackQuery(query_id, user, message, data)  # type: ignore[arg-type]
    emu.enqueue_update(
        {
            "callback_query": {
                "id": query_id,
                "from": user.to_json(),
                "message": message.to_json(),  # type: ignore[attr-defined]
                "chat_instance": "1",
                "data": data,
            }
        }
    )
    return query_id


async def test_a_running_match_is_stopped_by_an_admin_or_a_vote(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    group, (ann, boris, *_) = players.group, players.users
    outsider = emu.add_user(first_name="Дима")
    emu.add_member(group, outsider)
    emu.send_text(outsider, group.id, "/stop")
    await emu.wait_for(lambda: emu.find_message(group.id, "голосование игроков") is not None)
    assert _table(bot, group.id).status is TableStatus.PLAYING
    emu.send_text(boris, group.id, "/stop")  # a seated person starts a vote instead
    await emu.wait_for(lambda: emu.find_message(group.id, "🗳") is not None)
    assert _table(bot, group.id).status is TableStatus.PLAYING
    emu.send_text(ann, group.id, "/stop")
    await emu.wait_for(lambda: emu.find_message(group.id, "Игра остановлена") is not None)
    await bot.drain()
    assert _table(bot, group.id).status is TableStatus.STOPPED
    hand = players.hand_message(boris)
    assert hand is None or not any(d.startswith("c:") for row in hand.buttons for _, d in row)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(
        lambda: len([m for m in emu.messages(group.id) if "набор за стол" in m.text]) == 2
    )


async def test_a_player_who_blocked_the_bot_is_asked_in_the_group_and_gets_the_hand_after_start(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    users = [emu.add_user(first_name=n) for n in ("Аня", "Борис", "Вера", "Глеб")]
    group = emu.add_group(title="Г", members=users, admins=users[:1])
    for user in users:
        await emu.start_private(user)
    # Глеб opened the chat once, then blocked the bot; the bot was not told (no update).
    emu.block(users[3], notify=False)
    emu.send_text(users[0], group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    for user in users[1:]:
        emu.send_text(user, group.id, "/join")
    await emu.wait_for(
        lambda: emu.find_message(group.id, "откройте личный чат") is not None, timeout=15
    )
    prompt = emu.find_message(group.id, "откройте личный чат")
    assert prompt is not None and "Глеб" in prompt.text
    await emu.open_deep_link(users[3], prompt.buttons[0][0][1])
    players = Players(emu, group, users)
    await emu.wait_for(lambda: players.hand_message(users[3]) is not None)


async def test_a_turn_that_times_out_is_played_by_the_computer_and_marked(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu, options="seating=ordered move_time=10")
    await bot.drain()
    assert bot.app is not None and bot.app.job_queue is not None
    table = _table(bot, players.group.id)
    jobs = bot.app.job_queue.get_jobs_by_name(f"turn:{table.chat_id}:{table.game_id}")
    assert len(jobs) == 1
    assert 0 < table.deadline - time.time() <= 10  # type: ignore[operator]
    before = await _moves(bot, table.game_id)
    service = bot.app.bot_data.service
    service.clock = lambda: time.time() + 11
    await jobs[0].run(bot.app)
    await bot.drain()
    moves = (await bot.app.bot_data.storage.games.moves(table.game_id))[before:]
    assert moves and moves[0].source == "timeout"
    after = _table(bot, players.group.id)
    assert sum(after.timeouts) >= 1
    await emu.wait_for(lambda: "⌛" in players.group_text())
    assert "по тайм-ауту" in players.group_text()


async def test_leaving_mid_match_hands_the_seat_to_a_bot(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    group, gleb = players.group, players.users[3]
    emu.send_text(gleb, group.id, "/leave")
    await emu.wait_for(lambda: emu.find_message(group.id, "играет компьютер") is not None)
    await bot.drain()
    table = _table(bot, group.id)
    assert table.seats[3] is not None and table.seats[3].is_computer
    assert table.status is TableStatus.PLAYING
    assert players.hand_message(gleb) is None  # no card buttons left in Глеб's chat
    assert emu.find_message(gleb.id, "Вы вышли из-за стола") is not None


async def test_an_unknown_command_in_private_points_to_help(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня")
    await emu.start_private(ann)
    emu.send_text(ann, ann.id, "/frobnicate")
    await emu.wait_for(
        lambda: (
            emu.find_message(ann.id, "/help") is not None
            and "Не знаю" in emu.last_message(ann.id).text
        )
    )  # type: ignore[union-attr]


async def test_removing_the_bot_from_the_group_stops_its_game(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    await bot.drain()
    emu.remove_bot(players.group, by=players.users[0])
    await emu.wait_for(lambda: _table(bot, players.group.id).status is TableStatus.STOPPED)
    await bot.drain()
    for user in players.users:
        hand = players.hand_message(user)
        assert hand is None or not any(d.startswith("c:") for row in hand.buttons for _, d in row)


async def test_names_with_html_characters_are_shown_as_typed(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    names = ("<Bob & Co>", "Аня", "Вера", "Глеб")
    players = await seat_four(emu, names=names)
    await bot.drain()
    assert "1. <Bob & Co>" in emu.find_message(players.group.id, "набор за стол").text  # type: ignore[union-attr]
    assert "<Bob & Co>" in players.group_text()
    assert emu.internal_errors == []
    assert not [c for c in emu.history if c.error_code == 400 and "parse" in (c.description or "")]


async def test_a_player_who_leaves_matches_repeatedly_is_flagged_in_the_lobby(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    group, (ann, boris, *_) = players.group, players.users
    for round_no in range(2):
        if round_no:
            emu.send_text(ann, group.id, "/newgame seating=ordered")
            await emu.wait_for(
                lambda: (
                    emu.find_message(group.id, "1. Аня") is not None
                    and _table(bot, group.id).status is TableStatus.LOBBY
                )
            )
            for user in players.users[1:]:
                emu.send_text(user, group.id, "/join")
            await emu.wait_for(lambda: _table(bot, group.id).status is TableStatus.PLAYING)
        emu.send_text(boris, group.id, "/leave")
        await emu.wait_for(lambda: _table(bot, group.id).seat_of(boris.id) is None)
        emu.send_text(ann, group.id, "/stop")
        await emu.wait_for(lambda: _table(bot, group.id).status is TableStatus.STOPPED)
    emu.send_text(ann, group.id, "/newgame")
    await emu.wait_for(lambda: _table(bot, group.id).status is TableStatus.LOBBY)
    emu.send_text(boris, group.id, "/join")
    await emu.wait_for(lambda: "трусливый козёл" in players.group_text())
    await bot.drain()
    lobby = [m for m in emu.messages(group.id) if "набор за стол" in m.text][-1]
    assert "Борис ⚠️" in lobby.text and "Аня ⚠️" not in lobby.text


@pytest.mark.parametrize("told", [True, False], ids=["service-message", "failed-send"])
async def test_a_group_upgraded_to_a_supergroup_keeps_its_game(
    emu: BotApiEmulator, bot: BotRunner, told: bool
) -> None:
    players = await seat_four(emu)
    await bot.drain()
    await players.play_one()
    await bot.drain()
    old_group = players.group
    players.group = emu.migrate_group(old_group, by=players.users[0], notify=told)
    for _ in range(3):  # the next move's table edit finds the group moved, if nothing told
        await bot.drain()
        await emu.wait_for(lambda: players.whose_turn() is not None)
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
    await emu.wait_for(lambda: emu.find_message(players.group.id, "🐐 Сдача 1") is not None)
    emu.send_text(players.users[0], players.group.id, "/stop")
    await emu.wait_for(lambda: emu.find_message(players.group.id, "Игра остановлена") is not None)


async def test_everyone_pressing_at_once_applies_exactly_the_presses_it_accepts(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    await bot.drain()
    await players.next_turn()
    while any(
        d.startswith("r:")
        for u in players.users
        for row in (players.hand_message(u) or emu.messages(u.id)[-1]).buttons
        for _, d in row
    ):
        await players.play_one()
        await bot.drain()
    table = _table(bot, players.group.id)
    before = await _moves(bot, table.game_id)
    queries = []
    for user in players.users:
        hand = players.hand_message(user)
        assert hand is not None
        playable = [
            d for row in hand.buttons for t, d in row if d.startswith("c:") and not is_not_now(t)
        ]
        queries.append(emu.press_nowait(user, user.id, hand.message_id, playable[0]))
    answers = [await emu.wait_answer(q) for q in queries]
    accepted = sum(1 for a in answers if not a.show_alert)
    # The player to move is accepted; the next one too if their press came after that move
    # and their card is legal then. Every accepted press is one move, every refused none.
    assert accepted >= 1
    await bot.drain()
    assert await _moves(bot, table.game_id) == before + accepted


async def test_group_commands_sent_in_private_say_where_they_belong(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня")
    await emu.start_private(ann)
    await emu.wait_for(lambda: len(emu.messages(ann.id)) == 1)  # the welcome
    for command in ("/newgame", "/join", "/leave", "/stop", "/table"):
        count = len(emu.messages(ann.id))
        emu.send_text(ann, ann.id, command)
        await emu.wait_for(lambda: len(emu.messages(ann.id)) > count, what=command)  # noqa: B023
        assert "групп" in emu.messages(ann.id)[-1].text, command
