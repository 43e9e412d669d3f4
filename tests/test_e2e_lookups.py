"""Issue #29 item 7: a look-up Telegram did not answer is no "no".

Membership and admin look-ups (``getChatMember``) retry transient failures; if Telegram
stays silent the person is told to try again and nothing changes — nobody is refused a seat,
a tournament or a /stop for being "not a member" or "not an admin", and no computer takes a
person's seat. Each test runs under the emulator's storm (a fifth of all calls fail) and,
so that it does not hang on luck, scripts the look-ups' own failures on top: an outage of
``getChatMember`` (every one fails) that ends once the person has been asked to try again,
then a few failures the bot must ride out by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from botapi_emulator import BotApiEmulator, ChatMessage, Faults, InjectedFault
from botapi_emulator.faults import FaultKind
from botapi_emulator.models import Group, User
from handlers import members
from kozelbot.core.table import TableStatus
from storage import Storage
from tests.e2e import (
    NAMES,
    TOKEN,
    BotRunner,
    Players,
    bot_settings,
    fast_limits,
    hand_sends,
    start_with_bots,
)
from tests.test_e2e_faults import play_to_the_end
from tests.test_e2e_webapp import free_port, init_for

SHARE = 0.2
TRY_AGAIN = "Telegram не ответил"
OPTIONS = "seating=ordered deck=32 move_time=0"


@dataclass
class LookupFaults(Faults):
    """The emulator's storm, and scripted ``getChatMember`` failures on top of it: every
    one fails while ``outage`` is set; else the next ones fail as ``script`` says."""

    outage: bool = False
    script: list[FaultKind] = field(default_factory=list)

    def decide(self, method: str, chat_id: int | None, now: float) -> InjectedFault | None:
        """A scripted fault for a look-up, else the storm's draw."""
        if method.lower() == "getchatmember":
            if self.outage:
                return InjectedFault(method, "5xx", chat_id, now, 502)
            if self.script:
                kind = self.script.pop(0)
                if kind == "429":
                    return InjectedFault(method, kind, chat_id, now, 429, retry_after=1)
                return InjectedFault(method, kind, chat_id, now, 500 if kind == "5xx" else None)
        return super().decide(method, chat_id, now)

    def restore(self, script: list[FaultKind]) -> None:
        """Telegram answers look-ups again (after the failures of ``script``)."""
        self.outage = False
        self.script = list(script)


async def people(emu: BotApiEmulator, names: tuple[str, ...] = NAMES) -> tuple[Group, list[User]]:
    """People who opened the private chat (the bot has greeted each) in a group the first
    one created and administers."""
    users = [emu.add_user(first_name=name, language_code="ru") for name in names]
    group = emu.add_group(title="Козлятня", members=users, admins=users[:1], creator=users[0])
    for user in users:
        await emu.start_private(user)
    for user in users:
        await emu.wait_for(lambda u=user: emu.find_message(u.id, "KozelBot") is not None)
    return group, users


async def press_until_done(
    emu: BotApiEmulator,
    faults: LookupFaults,
    user: User,
    message: ChatMessage,
    button: str,
    done: str,
    script: list[FaultKind],
) -> list[str]:
    """Press ``button`` as a person would: again whenever told Telegram did not answer (and
    Telegram answers look-ups again after ``script``); returns the answers seen."""
    seen: list[str] = []
    for _ in range(6):
        answer = await emu.press(
            user, message.chat["id"], message.message_id, text=button, timeout=30
        )
        seen.append(answer.text or "")
        if answer.text and TRY_AGAIN in answer.text:
            assert answer.show_alert, answer
            faults.restore(script)
            continue
        assert answer.text is not None and answer.text.startswith(done), seen
        return seen
    raise AssertionError(f"{user.first_name} never got through: {seen}")


async def send_until_done(
    emu: BotApiEmulator,
    faults: LookupFaults,
    user: User,
    chat_id: int,
    text: str,
    done: str,
    script: list[FaultKind],
) -> list[str]:
    """Send a command as a person would: again whenever told Telegram did not answer;
    returns the bot's answers seen (the last one contains ``done``)."""
    seen: list[str] = []
    for _ in range(6):
        after = _last_id(emu, chat_id)
        emu.send_text(user, chat_id, text)
        answer = await _next_answer(emu, chat_id, after, done)
        seen.append(answer.text)
        if TRY_AGAIN in answer.text:
            faults.restore(script)
            continue
        assert done in answer.text, seen
        return seen
    raise AssertionError(f"{user.first_name}'s {text} never got through: {seen}")


def _last_id(emu: BotApiEmulator, chat_id: int) -> int:
    last = emu.last_message(chat_id)
    return 0 if last is None else last.message_id


async def _next_answer(emu: BotApiEmulator, chat_id: int, after: int, done: str) -> ChatMessage:
    """The bot's first message in the chat after message ``after`` that replies to a
    command or says ``done`` (not the table's messages)."""

    def found() -> ChatMessage | None:
        for message in emu.messages(chat_id):
            if (
                message.message_id > after
                and message.from_bot
                and (message.reply_to is not None or done in message.text)
            ):
                return message
        return None

    await emu.wait_for(lambda: found() is not None, timeout=30, what="an answer")
    message = found()
    assert message is not None
    return message


async def test_four_people_take_their_seats_and_play_to_the_end_while_look_ups_fail(
    tmp_path: Path,
) -> None:
    """A fifth of all calls fail; the first «Сесть за стол» meets a getChatMember outage and
    is told to try again (never "only members"); everyone is seated, no computer holds a
    person's seat, the match ends and every hand is delivered."""
    db_path = tmp_path / "kozel.db"
    async with BotApiEmulator(token=TOKEN, limits=fast_limits()) as emu:
        bot = BotRunner(bot_settings(emu, db_path), seed=2)
        await bot.start()
        try:
            group, users = await people(emu)
            faults = LookupFaults(share=SHARE, seed=5, retry_after=1, outage=True)
            emu.faults = faults
            emu.send_text(users[0], group.id, f"/newgame {OPTIONS}")
            await emu.wait_for(
                lambda: emu.find_message(group.id, "набор за стол") is not None, timeout=30
            )
            lobby = emu.find_message(group.id, "набор за стол")
            assert lobby is not None
            answers = []
            for user in users[1:]:
                answers += await press_until_done(
                    emu,
                    faults,
                    user,
                    lobby,
                    "Сесть за стол",
                    "Вы за столом.",
                    ["5xx", "drop", "429"],
                )
            assert sum(TRY_AGAIN in a for a in answers) == 1, answers
            players = Players(emu, group, users)
            await emu.wait_for(lambda: all(players.hand_message(u) for u in users), timeout=30)
            await play_to_the_end(players, emu)
            await emu.settle(quiet=0.5, timeout=60)
            await bot.drain()
        finally:
            await bot.stop()
        storage = await Storage.open(db_path)
        try:
            table = await storage.games.game(1)
            assert table is not None and table.status is TableStatus.FINISHED
            assert [p.user_id if p else None for p in table.seats] == [u.id for u in users]
            assert not any(p is None or p.is_computer or p.away for p in table.seats)
            deals = await storage.games.deals(1)
        finally:
            await storage.close()
        for user in users:
            hands_per_deal = hand_sends(emu, user.id)
            assert set(hands_per_deal) == {d.deal_no + 1 for d in deals}, (user, hands_per_deal)
            assert max(hands_per_deal.values()) == 1, (user, hands_per_deal)


async def test_everyone_who_joins_a_tournament_is_registered_while_look_ups_fail(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    """The admin's /tournament meets an outage (told to try again, never "only a chat
    admin"); four people press «Записаться» under the storm: all four are registered."""
    group, users = await people(emu)
    faults = LookupFaults(share=SHARE, seed=11, retry_after=1, outage=True)
    emu.faults = faults
    await send_until_done(
        emu,
        faults,
        users[0],
        group.id,
        "/tournament rounds=1 round_time=6",
        "Пока никто не записался.",
        ["drop", "5xx"],
    )
    post = emu.find_message(group.id, "Пока никто не записался.")
    assert post is not None
    faults.outage = True  # and again for the first to join
    for user in users:
        # the answer says what comes next (issue #30 item 12)
        said = "Вы в турнире: жеребьёвка — когда создатель нажмёт «Начать». Тогда я напишу"
        await press_until_done(emu, faults, user, post, "Записаться", said, ["429", "5xx"])
    await emu.wait_for(
        lambda: "4 участника:" in emu.message(group.id, post.message_id).text, timeout=30
    )
    text = emu.message(group.id, post.message_id).text
    assert all(user.first_name in text for user in users), text


async def test_an_admin_s_stop_stops_the_match_or_asks_to_try_again_while_look_ups_fail(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """The admin (seated, the table's creator) sends /stop during a match while look-ups
    fail: told to try again (never "stopped by a chat admin or a vote", never a vote), and
    the next /stop stops the match."""
    group, users = await people(emu)
    emu.send_text(users[0], group.id, f"/newgame {OPTIONS}")
    await emu.wait_for(lambda: emu.find_message(group.id, "набор за стол") is not None)
    for user in users[1:]:
        emu.send_text(user, group.id, "/join")
    players = Players(emu, group, users)
    await emu.wait_for(lambda: all(players.hand_message(u) for u in users), timeout=15)
    faults = LookupFaults(share=SHARE, seed=3, retry_after=1, outage=True)
    emu.faults = faults
    seen = await send_until_done(
        emu, faults, users[0], group.id, "/stop", "Игра остановлена.", ["5xx", "drop", "429"]
    )
    assert TRY_AGAIN in seen[0], seen
    assert not any("голос" in m.text for m in emu.messages(group.id)), "a vote was started"


async def test_a_look_up_rides_out_transient_failures_and_never_takes_silence_for_no(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """getChatMember failing with 5xx, a dropped connection and 429 before it answers gives
    Telegram's answer; a definite refusal (no such user) is "no"; an outage raises
    ``TelegramUnavailable`` — never "no" — and is not remembered."""
    assert bot.app is not None
    data = bot.app.bot_data
    member, stranger = emu.add_user(first_name="Аня"), emu.add_user(first_name="Борис")
    other = emu.add_user(first_name="Вера")
    group = emu.add_group(title="Г", members=[member, other], admins=[member], creator=member)
    faults = LookupFaults(script=["5xx", "drop", "429", "5xx"])
    emu.faults = faults
    assert await members.is_member(data, group.id, member.id) is True
    assert faults.script == []
    faults.script = ["drop", "5xx"]
    assert await members.is_admin(data, group.id, member.id) is True
    faults.script = ["429", "drop"]
    assert await members.is_member(data, group.id, stranger.id) is False
    assert await members.is_member(data, group.id, 987_654_321) is False  # 400 user not found

    faults.outage = True
    with pytest.raises(members.TelegramUnavailable):
        await members.is_admin(data, group.id, other.id)
    with pytest.raises(members.TelegramUnavailable):
        await members.is_member(data, group.id, other.id)
    faults.outage = False
    assert await members.is_member(data, group.id, other.id) is True


async def test_the_mini_app_answers_503_when_telegram_does_not_say_who_may_watch(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """Someone of the group who is not seated opens the table's page while getChatMember
    is down: 503 ``telegram_unavailable`` (not "not a member", not a 500); once Telegram
    answers, they watch."""
    port = free_port()
    runner = BotRunner(
        bot_settings(
            emu,
            db_path,
            webapp_url="https://kozel.example/app/",
            webapp_port=port,
            webapp_name="table",
        )
    )
    await runner.start()
    try:
        await _watch_while_look_ups_fail(emu, f"http://127.0.0.1:{port}/webapp/api")
    finally:
        await runner.stop()


async def _watch_while_look_ups_fail(emu: BotApiEmulator, base: str) -> None:
    player, watcher = emu.add_user(first_name="Аня"), emu.add_user(first_name="Борис")
    group = emu.add_group(title="Г", members=[player, watcher], admins=[player], creator=player)
    await start_with_bots(emu, player, group)
    faults = LookupFaults(outage=True)
    emu.faults = faults
    headers = {"X-Telegram-Init-Data": init_for(watcher)}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/state?game=1", headers=headers) as response:
            assert (response.status, await response.json()) == (
                503,
                {"error": "telegram_unavailable"},
            )
        faults.restore(["5xx"])
        async with session.get(f"{base}/state?game=1", headers=headers) as response:
            assert response.status == 200
            assert (await response.json())["seat"] is None


async def test_a_member_who_follows_the_lobby_s_link_during_an_outage_is_asked_to_try_again(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """The issue's own case: a member who had not opened the private chat follows the
    lobby's link while getChatMember is down. They hear "try again", not «Сначала вступите
    в «Козлятня»…»; pressing Start again seats them, in their own seat, not a computer."""
    group, users = await people(emu, NAMES[:3])
    late = emu.add_user(first_name="Глеб", language_code="ru")
    group.members.add(late.id)
    emu.send_text(users[0], group.id, f"/newgame {OPTIONS}")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    emu.send_text(late, group.id, "/join")
    await emu.wait_for(lambda: emu.find_message(group.id, "откройте личный чат") is not None)
    prompt = emu.find_message(group.id, "откройте личный чат")
    assert prompt is not None
    faults = LookupFaults(outage=True)
    emu.faults = faults
    seen = []
    for _ in range(3):
        after = _last_id(emu, late.id)
        await emu.open_deep_link(late, prompt.buttons[0][0][1])
        answer = await _next_answer(emu, late.id, after, "Вы за столом")
        seen.append(answer.text)
        if TRY_AGAIN not in answer.text:
            break
        faults.restore(["drop"])
    assert len(seen) == 2 and "Вы за столом" in seen[-1], seen
    assert bot.app is not None
    table = await bot.app.bot_data.service.game(1)
    assert table is not None and table.seat_of(late.id) is not None
    await emu.wait_for(lambda: emu.find_message(group.id, "2. Глеб") is not None)


@dataclass
class ProbeFaults(Faults):
    """Every message to one person's private chat fails (502) while ``outage`` is set."""

    person: int = 0
    outage: bool = True

    def decide(self, method: str, chat_id: int | None, now: float) -> InjectedFault | None:
        """A 502 for the person's private chat during the outage, else nothing."""
        if self.outage and chat_id == self.person and method.lower() == "sendmessage":
            return InjectedFault(method, "5xx", chat_id, now, 502)
        return super().decide(method, chat_id, now)


async def test_a_member_whose_private_chat_does_not_answer_is_asked_to_try_again(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """Someone who opened the private chat before the bot knew them presses «Сесть за
    стол» while Telegram fails every message to that chat: the bot's probe gets no answer,
    which says nothing about whether it may write there — "try again", not the link that
    asks them to open a chat they already opened; pressed again once Telegram answers, the
    seat is theirs."""
    group, users = await people(emu, NAMES[:3])
    late = emu.add_user(first_name="Глеб", language_code="ru")
    group.members.add(late.id)
    late.started = True  # opened the chat long ago; this bot's database does not know it
    emu.send_text(users[0], group.id, f"/newgame {OPTIONS}")
    await emu.wait_for(lambda: emu.find_message(group.id, "1. Аня") is not None)
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None
    faults = ProbeFaults(person=late.id)
    emu.faults = faults
    answer = await emu.press(late, group.id, lobby.message_id, text="Сесть за стол", timeout=30)
    assert answer.url is None and answer.text is not None and TRY_AGAIN in answer.text, answer
    assert bot.app is not None
    table = await bot.app.bot_data.service.game(1)
    assert table is not None and table.seat_of(late.id) is None
    faults.outage = False
    answer = await emu.press(late, group.id, lobby.message_id, text="Сесть за стол", timeout=30)
    assert answer.text == "Вы за столом.", answer
    table = await bot.app.bot_data.service.game(1)
    assert table is not None and table.seat_of(late.id) is not None
