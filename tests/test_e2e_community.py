"""Issue #8 end to end: chat settings, matches against the computer, absent players (the
half-time warning, the hand-over after two time-outs and the return), taking over a
computer's seat, the stop vote, one live seat per person, and what /start and /help offer."""

from __future__ import annotations

import json
import time
from typing import Any

from botapi_emulator import BotApiEmulator, ChatMessage
from kozelbot.core.table import Table, TableStatus
from tests import transcripts
from tests.e2e import (
    BotRunner,
    Players,
    last_id,
    play_alone,
    reply_after,
    seat_four,
    start_with_bots,
)
from tests.fairplay_check import check_the_deals, digits_shown


def _app(bot: BotRunner) -> Any:
    assert bot.app is not None
    return bot.app


def _table(bot: BotRunner, chat_id: int, thread_id: int | None = None) -> Table:
    service = _app(bot).bot_data.service
    live = [t for t in service.tables.live.values() if t.place == (chat_id, thread_id)]
    assert live, f"no live game in {chat_id}"
    return live[0]


def _buttons(message: ChatMessage | None) -> list[str]:
    return [] if message is None else [d for row in message.buttons for _, d in row]


# -- chat settings ----------------------------------------------------------------------


async def test_settings_are_refused_to_a_non_admin_and_apply_to_the_next_lobby(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    admin = emu.add_user(first_name="Аня", language_code="ru")
    member = emu.add_user(first_name="Борис", language_code="ru")
    group = emu.add_group(title="Козлятня", members=[member], admins=[admin], creator=admin)
    for user in (admin, member):
        await emu.start_private(user)
    before = last_id(emu, group.id)
    emu.send_text(member, group.id, "/settings")
    menu = await reply_after(emu, group.id, before, "⚙️")
    assert "s:variant" in _buttons(menu) and "s:public" in _buttons(menu)
    # A member may read the menu but not change it.
    answer = await emu.press(member, group.id, menu.message_id, "s:variant")
    assert answer.show_alert
    await bot.drain()
    assert await _app(bot).bot_data.storage.people.chat_settings(group.id) is None
    # The admin switches the default variant to kryuk and its move time.
    answer = await emu.press(admin, group.id, menu.message_id, "s:variant")
    assert not answer.show_alert, answer.text
    await bot.drain()
    chosen = await _app(bot).bot_data.storage.people.chat_settings(group.id)
    assert chosen is not None and chosen.variant == "kryuk"
    menu = emu.message(group.id, menu.message_id)
    answer = await emu.press(admin, group.id, menu.message_id, "s:computer")
    assert not answer.show_alert, answer.text
    answer = await emu.press(admin, group.id, menu.message_id, "s:public")
    await bot.drain()
    chosen = await _app(bot).bot_data.storage.people.chat_settings(group.id)
    assert chosen is not None and chosen.options["computer"] == "normal" and not chosen.public
    # A forged key changes nothing.
    answer = await emu.wait_answer(
        emu.forged_press_nowait(admin, group.id, menu.message_id, "s:no_such_key")
    )
    assert answer.show_alert
    assert await _app(bot).bot_data.storage.people.chat_settings(group.id) == chosen
    # The next lobby starts from the chat's defaults; its creator may still change them.
    emu.send_text(member, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Борис") is not None)
    table = _table(bot, group.id)
    assert table.variant == "kryuk" and table.options["computer"] == "normal"
    lobby = emu.find_message(group.id, "1. Борис")
    assert lobby is not None and f"o:{table.game_id}:computer" in _buttons(lobby)
    answer = await emu.press(member, group.id, lobby.message_id, f"o:{table.game_id}:computer")
    assert not answer.show_alert, answer.text
    await bot.drain()
    assert _table(bot, group.id).options["computer"] == "easy"
    # Settings in a private chat point to the group.
    before = last_id(emu, member.id)
    emu.send_text(member, member.id, "/settings")
    await reply_after(emu, member.id, before, "/settings")


# -- playing against the computer -------------------------------------------------------


async def test_a_private_match_against_the_computer_is_played_to_the_end_and_rated_apart(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann, players = await play_alone(emu)
    table = _table(bot, ann.id)
    seat = table.seat_of(ann.id)
    assert table.private and seat is not None
    assert all(p is not None and p.is_computer for s, p in enumerate(table.seats) if s != seat)
    # The table message is in the private chat too (a message without card buttons).
    tables = [
        m
        for m in emu.messages(ann.id)
        if "🐐" in m.text and not any(d.startswith("c:") for d in _buttons(m))
    ]
    assert tables
    # /join in a private chat takes nobody's seat; a second /play is refused.
    before = last_id(emu, ann.id)
    emu.send_text(ann, ann.id, "/play")
    await emu.wait_for(lambda: last_id(emu, ann.id) > before)
    assert _table(bot, ann.id).game_id == table.game_id
    for _ in range(3000):
        if players.match_over:
            break
        await bot.drain()
        if players.whose_turn() is None:
            await emu.wait_for(lambda: players.whose_turn() is not None or players.match_over)
            continue
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
    await bot.drain()
    assert players.match_over
    storage = _app(bot).bot_data.storage
    result = await storage.games.match_result(table.game_id)
    assert result is not None
    await emu.wait_for(lambda: emu.find_message(ann.id, "📈") is not None)  # her rating moved
    # Fair play (issue #30 item 6): no seal, key or secret in the match's chat; the result's
    # 🔑 button gives every verify input, and each deal checks out with the match flags.
    assert digits_shown(emu, ann.id) == []
    deals = await storage.games.deals(table.game_id)
    assert deals[-1].trace["match_secret"] == table.secret
    assert await check_the_deals(emu, ann.id, ann, [d.trace for d in deals]) >= len(deals)
    assert digits_shown(emu, ann.id) == []
    private = await storage.boards.player_stats(ann.id, scope="private")
    assert [s.matches for s in private] == [1]
    assert await storage.boards.player_stats(ann.id, scope="group") == []
    # Issue #30: on a phone no figure is glued to a name, no line wraps inside an item.
    await transcripts.read_layout(emu, [(ann.id, ann.first_name)], [ann.first_name], "play")


async def test_play_in_a_group_points_to_the_private_chat(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня")
    group = emu.add_group(title="Г", members=[ann])
    emu.send_text(ann, group.id, "/play")
    reply = await reply_after(emu, group.id, 0, "/play")
    assert "t.me/kozel_test_bot?start=play" in reply.html
    assert _app(bot).bot_data.service.tables.live == {}


# -- absent players ---------------------------------------------------------------------


class _Clock:
    """The service's clock, moved forward past each deadline."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


async def _expire(bot: BotRunner, table: Table, clock: _Clock) -> None:
    """Run the game's turn timer as if its deadline had passed."""
    app = _app(bot)
    assert table.deadline is not None
    clock.offset = table.deadline - time.time() + 1
    jobs = app.job_queue.get_jobs_by_name(f"turn:{table.chat_id}:{table.game_id}")
    assert jobs
    await jobs[0].run(app)
    await bot.drain()


async def test_half_time_warning_two_time_outs_hand_the_seat_over_and_im_here_takes_it_back(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    # No catch rule: deals last long enough for two time-outs in a row, twice.
    players = await seat_four(emu, options="seating=ordered move_time=20 six_clubs=ordinary")
    group, ann = players.group, players.users[0]
    await bot.drain()
    app = _app(bot)
    clock = _Clock()
    app.bot_data.service.clock = clock
    table = _table(bot, group.id)
    # Half the move time: whoever must act is warned privately.
    warn = app.job_queue.get_jobs_by_name(f"turn:{table.chat_id}:{table.game_id}:warn")
    assert len(warn) == 1
    found = players.whose_turn()
    assert found is not None
    before = last_id(emu, found[0].id)
    await warn[0].run(app)
    await bot.drain()
    assert any("⏰" in m.text for m in emu.messages(found[0].id) if m.message_id > before)
    await _let_time_run_out(bot, players, clock)
    table = _table(bot, group.id)
    assert table.seats[0] is not None and table.seats[0].away
    await emu.wait_for(lambda: emu.find_message(group.id, "⏸") is not None)
    back = [m for m in emu.messages(ann.id) if any(d.startswith("b:") for d in _buttons(m))]
    assert back, "her hand turns into an I'm-here button"
    moves = await app.bot_data.storage.games.moves(table.game_id)
    assert [m.source for m in moves if m.seat == 0][-2:] == ["timeout", "timeout"]
    # "I'm here" gives the seat back; a second tap changes nothing.
    answer = await emu.press(ann, ann.id, back[-1].message_id, f"b:{table.game_id}")
    assert not answer.show_alert, answer.text
    await bot.drain()
    table = _table(bot, group.id)
    assert table.seats[0] is not None and not table.seats[0].away and table.missed[0] == 0
    # The same message turns back into her hand: no second copy is sent.
    await emu.wait_for(lambda: players.hand_message(ann) is not None)
    assert players.hand_message(ann).message_id == back[-1].message_id  # type: ignore[union-attr]
    answer = await emu.wait_answer(
        emu.forged_press_nowait(ann, ann.id, back[-1].message_id, f"b:{table.game_id}")
    )
    assert answer.show_alert
    await app.bot_data.service.time_out(table.game_id)  # not due: nothing happens
    assert _table(bot, group.id).seats[0].away is False  # type: ignore[union-attr]
    # Away again: /hand brings her back too, with her cards.
    await _let_time_run_out(bot, players, clock)
    emu.send_text(ann, ann.id, "/hand")
    await emu.wait_for(lambda: not _table(bot, group.id).seats[0].away)  # type: ignore[union-attr]
    await emu.wait_for(lambda: players.hand_message(ann) is not None)


async def _let_time_run_out(bot: BotRunner, players: Players, clock: _Clock) -> None:
    """The first person lets their time run out while the others play, until a computer
    holds their seat."""
    ann, group = players.users[0], players.group
    for _ in range(200):
        table = _table(bot, group.id)
        if table.seats[0] is not None and table.seats[0].away:
            return
        await players.next_turn()
        user, message, data = players.next_press()
        if user.id == ann.id:
            await _expire(bot, table, clock)
        else:
            answer = await players.emu.press(user, user.id, message.message_id, data)
            assert not answer.show_alert, answer.text
        await bot.drain()
    raise AssertionError("her seat was never handed over")


async def test_someone_not_seated_takes_over_a_computer_seat_with_join(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня", language_code="ru")
    boris = emu.add_user(first_name="Борис", language_code="ru")
    group = emu.add_group(title="Г", members=[ann, boris])
    players = await start_with_bots(emu, ann, group)
    await players.next_turn()
    await emu.start_private(boris)
    table = _table(bot, group.id)
    computers = [s for s, p in enumerate(table.seats) if p is not None and p.is_computer]
    service = _app(bot).bot_data.service
    deal = service.state_of(table).deal_shown
    before = last_id(emu, group.id)
    emu.send_text(boris, group.id, "/join")
    # He sits down when the next deal starts: nothing of the deal in play reaches him.
    await reply_after(emu, group.id, before, "со следующей сдачи")
    assert [p.user_id for p in _table(bot, group.id).waiting] == [boris.id]
    await bot.drain()
    assert "Со следующей сдачи: Борис" in players.group_text()
    assert players.hand_message(boris) is None
    for _ in range(80):
        if _table(bot, group.id).seat_of(boris.id) is not None:
            break
        assert players.hand_message(boris) is None
        await bot.drain()
        await players.next_turn()
        before_turn = players.turn_key()
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
        await players.moved_on(before_turn)
    table = _table(bot, group.id)
    seat = table.seat_of(boris.id)
    assert seat in computers and table.status is TableStatus.PLAYING
    assert service.state_of(table).deal_shown == deal + 1
    players.users.append(boris)
    await emu.wait_for(lambda: players.hand_message(boris) is not None)
    await reply_after(emu, group.id, before, "садится за стол с этой сдачи")
    # A second /join: he is seated already; the match plays on with him.
    before = last_id(emu, group.id)
    emu.send_text(boris, group.id, "/join")
    await emu.wait_for(lambda: last_id(emu, group.id) > before)
    for _ in range(6):
        await bot.drain()  # every hand shows the committed turn
        await players.next_turn()
        if players.match_over:
            break
        before = players.turn_key()
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
        await players.moved_on(before)


# -- the stop vote ----------------------------------------------------------------------


async def test_a_majority_of_seated_people_stops_the_match_by_vote(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    group, (_ann, boris, vera, gleb) = players.group, players.users
    outsider = emu.add_user(first_name="Дима")
    emu.add_member(group, outsider)
    before = last_id(emu, group.id)
    emu.send_text(outsider, group.id, "/stop")  # neither admin nor seated
    await emu.wait_for(lambda: last_id(emu, group.id) > before)
    assert _table(bot, group.id).stop_votes == []
    before = last_id(emu, group.id)
    emu.send_text(boris, group.id, "/stop")
    vote = await reply_after(emu, group.id, before, "🗳")
    game_id = _table(bot, group.id).game_id
    assert f"v:{game_id}" in _buttons(vote) and "1" in vote.text and "3" in vote.text
    answer = await emu.press(boris, group.id, vote.message_id, f"v:{game_id}")
    assert answer.show_alert  # he voted already
    answer = await emu.press(outsider, group.id, vote.message_id, f"v:{game_id}")
    assert answer.show_alert  # not at the table
    answer = await emu.press(vera, group.id, vote.message_id, f"v:{game_id}")
    assert not answer.show_alert, answer.text
    await bot.drain()
    assert _table(bot, group.id).status is TableStatus.PLAYING
    emu.send_text(gleb, group.id, "/stop")
    await emu.wait_for(lambda: not _app(bot).bot_data.service.tables.live)
    ended = await _app(bot).bot_data.service.game(game_id)
    assert ended is not None and ended.status is TableStatus.STOPPED
    assert ended.closed_reason == "vote"
    assert await _app(bot).bot_data.storage.games.match_result(game_id) is None  # not rated


async def test_an_expired_vote_starts_over(emu: BotApiEmulator, bot: BotRunner) -> None:
    players = await seat_four(emu)
    group, (_ann, boris, vera, _gleb) = players.group, players.users
    service = _app(bot).bot_data.service
    emu.send_text(boris, group.id, "/stop")
    await emu.wait_for(lambda: _table(bot, group.id).stop_votes == [boris.id])
    service.clock = lambda: time.time() + 121
    emu.send_text(vera, group.id, "/stop")
    await emu.wait_for(lambda: _table(bot, group.id).stop_votes == [vera.id])
    assert _table(bot, group.id).status is TableStatus.PLAYING


# -- one live seat per person -----------------------------------------------------------


async def test_a_second_seat_is_refused_with_a_link_to_the_first(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann = emu.add_user(first_name="Аня", language_code="ru")
    boris = emu.add_user(first_name="Борис", language_code="ru")
    first = emu.add_group(title="Первая", members=[ann])
    second = emu.add_group(title="Вторая", members=[ann, boris])
    await start_with_bots(emu, ann, first)
    await bot.drain()
    await emu.start_private(boris)
    emu.send_text(boris, second.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(second.id, "1. Борис") is not None)
    before, mine = last_id(emu, second.id), last_id(emu, ann.id)
    emu.send_text(ann, second.id, "/join")
    # The group hears only that she sits elsewhere; the other chat is named to her alone.
    said = await reply_after(emu, second.id, before, "другим столом")
    assert "Первая" not in said.text and "t.me/c/" not in said.html
    refusal = await reply_after(emu, ann.id, mine, "Первая")
    assert "t.me/c/" in refusal.html
    assert _table(bot, second.id).seat_of(ann.id) is None
    # The lobby's button answers her alone (an alert), which may name the chat.
    lobby = emu.find_message(second.id, "набор за стол")
    assert lobby is not None
    answer = await emu.press(ann, second.id, lobby.message_id, text="Сесть за стол")
    assert answer.show_alert and "Первая" in (answer.text or "")
    # /play is refused too while she sits at a group's table.
    before = last_id(emu, ann.id)
    emu.send_text(ann, ann.id, "/play")
    await reply_after(emu, ann.id, before, "Первая")
    # Once she leaves the first table she may sit at the second.
    emu.send_text(ann, first.id, "/leave")
    await emu.wait_for(lambda: not _table_live(bot, first.id))
    emu.send_text(ann, second.id, "/join")
    await emu.wait_for(lambda: _table(bot, second.id).seat_of(ann.id) is not None)


def _table_live(bot: BotRunner, chat_id: int) -> bool:
    service = _app(bot).bot_data.service
    return any(t.chat_id == chat_id for t in service.tables.live.values())


# -- discoverability --------------------------------------------------------------------


async def test_menus_per_scope_and_language_start_and_help_where_asked(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    menus: dict[tuple[str, str], list[str]] = {}
    for call in emu.calls("setMyCommands"):
        scope = call.params.get("scope") or {"type": "default"}
        scope = json.loads(scope) if isinstance(scope, str) else scope
        commands = call.params["commands"]
        commands = json.loads(commands) if isinstance(commands, str) else commands
        language = str(call.params.get("language_code") or "")
        menus[(scope["type"], language)] = [c["command"] for c in commands]
    for language in ("", "en", "uk"):
        group, private = (
            menus[("all_group_chats", language)],
            menus[("all_private_chats", language)],
        )
        assert "newgame" in group and "settings" in group and "play" not in group
        assert "play" in private and "newgame" not in private and "settings" not in private
    assert menus[("default", "")] == menus[("all_private_chats", "")]
    ann = emu.add_user(first_name="Аня", language_code="ru")
    group_chat = emu.add_group(title="Г", members=[ann])
    await emu.start_private(ann)
    await emu.wait_for(lambda: emu.last_message(ann.id) is not None)
    start = emu.last_message(ann.id)
    assert start is not None
    assert any("?startgroup=" in data for row in start.buttons for _, data in row)
    assert "/play" in start.text and "/newgame" in start.text
    before = last_id(emu, ann.id)
    emu.send_text(ann, ann.id, "/help")
    private_help = await reply_after(emu, ann.id, before, "/play")
    assert "/newgame —" not in private_help.text and "/settings" not in private_help.text
    emu.send_text(ann, group_chat.id, "/help")
    group_help = await reply_after(emu, group_chat.id, 0, "/newgame")
    assert "/settings" in group_help.text and "/play" not in group_help.text


# -- forum topics -----------------------------------------------------------------------


async def test_two_games_in_two_topics_of_one_forum(emu: BotApiEmulator, bot: BotRunner) -> None:
    ann = emu.add_user(first_name="Аня", language_code="ru")
    boris = emu.add_user(first_name="Борис", language_code="ru")
    group = emu.add_group(title="Форум", members=[ann, boris], admins=[ann], forum=True)
    first = emu.create_topic(group, ann, "Стол 1")
    second = emu.create_topic(group, boris, "Стол 2")
    for user in (ann, boris):
        await emu.start_private(user)
    emu.send_text(ann, group.id, "/newgame", thread=first)
    emu.send_text(boris, group.id, "/newgame kryuk", thread=second)
    await emu.wait_for(
        lambda: (
            emu.find_message(group.id, "1. Аня", thread=first) is not None
            and emu.find_message(group.id, "1. Борис", thread=second) is not None
        )
    )
    one, two = _table(bot, group.id, first.id), _table(bot, group.id, second.id)
    assert (one.variant, two.variant) == ("hvalenyi", "kryuk")
    assert emu.find_message(group.id, "1. Борис", thread=first) is None
    # The General topic has no game; a command there says so.
    before = last_id(emu, group.id)
    emu.send_text(ann, group.id, "/table")
    await emu.wait_for(lambda: last_id(emu, group.id) > before)
    general = emu.last_message(group.id)
    assert general is not None and general.thread_id is None
    # Each starts their own table with computers; each table goes to its own topic.
    for user, topic, table in ((ann, first, one), (boris, second, two)):
        lobby = emu.find_message(group.id, f"1. {user.first_name}", thread=topic)
        assert lobby is not None
        answer = await emu.press(user, group.id, lobby.message_id, f"l:{table.game_id}:start")
        assert not answer.show_alert, answer.text
    players = Players(emu, group, [ann, boris])
    await emu.wait_for(
        lambda: players.hand_message(ann) is not None and players.hand_message(boris) is not None
    )
    await bot.drain()
    assert emu.find_message(group.id, "🐐", thread=first) is not None
    assert emu.find_message(group.id, "🐐", thread=second) is not None
    # A command in a topic acts on that topic's game only.
    emu.send_text(ann, group.id, "/stop", thread=first)
    await emu.wait_for(
        lambda: (
            not _table_live(bot, group.id)
            or len(
                [
                    t
                    for t in _app(bot).bot_data.service.tables.live.values()
                    if t.chat_id == group.id
                ]
            )
            == 1
        )
    )
    live = [t for t in _app(bot).bot_data.service.tables.live.values() if t.chat_id == group.id]
    assert [t.thread_id for t in live] == [second.id]
    reply = emu.last_message(group.id, thread=first)
    assert reply is not None and reply.thread_id == first.id
    # Every message of a game went to its topic (none to General).
    for message in emu.messages(group.id):
        if message.from_bot and "🐐" in message.text:
            assert message.thread_id in (first.id, second.id)
