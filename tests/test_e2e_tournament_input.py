"""Issue #19's bad input and side doors, through the real bot: who may open, start and stop
a tournament; strangers, forged and repeated presses; a seat at a tournament table for
someone not drawn to it; /newgame while a plain group's tournament plays; /notify; /history;
a kill -9 during registration (the automatic start still comes)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from botapi_emulator import BotApiEmulator, Group, User
from kozelbot.core.callbacks import TournamentButton
from kozelbot.core.tournament.model import Status
from tests.e2e import BotProcess, BotRunner, last_id, reply_after
from tests.test_e2e_tournament import (
    english_people,
    register_all,
    registration,
)


async def begin(emu: BotApiEmulator, group: Group, users: list[User], command: str) -> None:
    """The first person (an admin) opens a tournament, everyone joins, the admin starts it."""
    emu.send_text(users[0], group.id, command)
    await emu.wait_for(lambda: registration(emu, group) is not None)
    post = await register_all(emu, group, users)
    assert not (await emu.press(users[0], group.id, post.message_id, text="▶️ Start")).show_alert


async def test_only_admins_open_and_stop_and_strangers_change_nothing(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    group, users = await english_people(emu, 4)
    admin, member = users[0], users[1]
    mark = last_id(emu, group.id)
    emu.send_text(member, group.id, "/tournament")
    await reply_after(emu, group.id, mark, "Only a chat admin can open a tournament.")
    mark = last_id(emu, group.id)
    emu.send_text(admin, group.id, "/tournament rounds=99")
    await reply_after(emu, group.id, mark, "Unknown tournament option or value: rounds=99")
    emu.send_text(admin, group.id, "/tournament rounds=1")
    await emu.wait_for(lambda: registration(emu, group) is not None)
    post = registration(emu, group)
    assert post is not None
    # a second tournament is refused; /tournament alone shows this one
    mark = last_id(emu, group.id)
    emu.send_text(admin, group.id, "/tournament")
    await reply_after(emu, group.id, mark, "Nobody has entered yet.")
    # someone not in the group cannot enter; a double Join is refused once registered
    outsider = emu.add_user(first_name="Outsider", language_code="en")
    refused = await emu.press(outsider, group.id, post.message_id, text="Join")
    assert refused.show_alert
    joined = await emu.press(member, group.id, post.message_id, text="Join")
    assert not joined.show_alert
    again = await emu.press(member, group.id, post.message_id, text="Join")
    assert again.show_alert and "already" in (again.text or "")
    # a forged button (another tournament's id) changes nothing
    forged = emu.forged_press_nowait(
        member, group.id, post.message_id, TournamentButton(999, "leave").pack()
    )
    assert (await emu.wait_answer(forged)).show_alert
    # a member who is no admin cannot start or stop it
    assert (await emu.press(member, group.id, post.message_id, text="▶️ Start")).show_alert
    mark = last_id(emu, group.id)
    emu.send_text(member, group.id, "/tournament stop")
    await reply_after(emu, group.id, mark, "Only a chat admin can do that.")
    assert "1 entrant" in emu.message(group.id, post.message_id).text
    mark = last_id(emu, group.id)
    emu.send_text(admin, group.id, "/tournament stop")
    await reply_after(emu, group.id, mark, "The tournament was stopped.")
    await emu.wait_for(lambda: "was stopped" in emu.message(group.id, post.message_id).text)
    assert emu.message(group.id, post.message_id).buttons == []  # nothing left to press
    late = emu.forged_press_nowait(
        users[2], group.id, post.message_id, TournamentButton(1, "join").pack()
    )
    assert (await emu.wait_answer(late)).show_alert


async def test_a_tournament_table_seats_only_its_people_and_holds_the_plain_group(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    group, users = await english_people(emu, 5)
    await begin(emu, group, users, "/tournament rounds=1 round_time=30 computer_fill=false")
    await emu.wait_for(lambda: emu.find_message(group.id, "Sitting out") is not None)
    sitting_out = emu.find_message(group.id, "Sitting out")
    assert sitting_out is not None
    out = next(u for u in users if f"Sitting out: {u.first_name}" in sitting_out.text)
    lobby = emu.find_message(group.id, "table 1")
    assert lobby is not None
    # the one sitting out is not drawn to the table: their press is refused
    refused = await emu.press(out, group.id, lobby.message_id, text="Take a seat")
    assert refused.show_alert and "tournament table" in (refused.text or "")
    # a plain group's tables need the chat: no other game opens meanwhile
    mark = last_id(emu, group.id)
    emu.send_text(out, group.id, "/newgame")
    await reply_after(emu, group.id, mark, "A tournament is on here")


async def test_notify_tells_subscribers_of_new_tables_and_tournaments(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    group, users = await english_people(emu, 3)
    fan = users[2]
    mark = last_id(emu, group.id)
    emu.send_text(fan, group.id, "/notify")
    await reply_after(emu, group.id, mark, "I will write to you privately")
    emu.send_text(users[1], group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(fan.id, "A new table opened in") is not None)
    assert emu.find_message(users[1].id, "A new table opened") is None  # not the opener's
    emu.send_text(users[1], group.id, "/stop")
    mark = last_id(emu, group.id)
    emu.send_text(fan, group.id, "/notify")
    await reply_after(emu, group.id, mark, "No more messages about new tables here.")
    emu.send_text(users[0], group.id, "/tournament")
    await emu.wait_for(lambda: registration(emu, group) is not None)
    await tournament_bot.drain()
    assert emu.find_message(fan.id, "A tournament opened") is None


async def test_history_lists_the_group_s_tournaments(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    group, users = await english_people(emu, 2)
    emu.send_text(users[0], group.id, "/tournament rounds=2")
    await emu.wait_for(lambda: registration(emu, group) is not None)
    mark = last_id(emu, group.id)
    emu.send_text(users[1], group.id, "/history")
    listed = await reply_after(emu, group.id, mark, "Tournaments")
    assert "registration" in listed.text


async def test_the_automatic_start_comes_after_a_kill_during_registration(
    emu: BotApiEmulator, db_path: Path, tmp_path: Path
) -> None:
    """The start timer lives in storage, not in the killed process: re-armed at the restart."""
    bot = BotProcess(emu, db_path, tmp_path, env={"KOZEL_TOURNAMENT_MINUTE": "3"})
    await bot.start()
    try:
        group, users = await english_people(emu, 4)
        emu.send_text(users[0], group.id, "/tournament rounds=1 start=2")
        await emu.wait_for(lambda: registration(emu, group) is not None, timeout=20)
        await register_all(emu, group, users)
        await bot.kill()
        await bot.start()
        await emu.wait_for(
            lambda: emu.find_message(group.id, "Round 1 of 1") is not None, timeout=30
        )
        assert len([m for m in emu.messages(group.id) if "Round 1 of 1" in m.text]) == 1
    finally:
        await bot.stop()


async def test_a_forum_without_topic_rights_is_told_and_the_round_begins_once_it_has_them(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    """Creating a topic needs the bot to be an admin: the group is told once what to do,
    and the tables open at the next try after the right is given."""
    group, users = await english_people(emu, 4, forum=True)
    group.bot_is_admin = False
    await begin(emu, group, users, "/tournament rounds=1")
    await emu.wait_for(
        lambda: emu.find_message(group.id, "I cannot open the tables' topics") is not None
    )
    assert emu.find_message(group.id, "table 1") is None
    group.bot_is_admin = True
    await emu.wait_for(
        lambda: all(emu.find_message(u.id, "table 1 is open") for u in users), timeout=15
    )
    told = [m for m in emu.messages(group.id) if "I cannot open" in m.text]
    assert len(told) == 1


async def test_the_registration_counts_down_and_too_few_at_the_start_stop_it(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    group, users = await english_people(emu, 2)
    emu.send_text(users[0], group.id, "/tournament start=3")
    await emu.wait_for(lambda: registration(emu, group) is not None)
    post = registration(emu, group)
    assert post is not None and "Starts in 3 minutes." in post.text

    def shows(text: str) -> bool:
        return text in emu.message(group.id, post.message_id).text

    await emu.wait_for(lambda: shows("Starts in 2 minutes."), timeout=5)
    await emu.wait_for(lambda: shows("Starts in 1 minute."), timeout=5)
    # nobody entered: at the start the tournament stops (nobody would press Start later)
    await emu.wait_for(lambda: shows("The tournament was stopped."), timeout=5)
    assert emu.message(group.id, post.message_id).buttons == []


async def test_a_group_that_removes_the_bot_stops_its_tournament(
    emu: BotApiEmulator, tournament_bot: BotRunner, db_path: Path
) -> None:
    group, users = await english_people(emu, 4)
    await begin(emu, group, users, "/tournament rounds=2 round_time=30")
    await emu.wait_for(lambda: emu.find_message(group.id, "table 1") is not None)
    emu.remove_bot(group, users[0])
    assert tournament_bot.app is not None
    storage = tournament_bot.app.bot_data.storage

    async def stopped() -> bool:
        [tour] = await storage.tournaments.tournaments_in(group.id)
        return tour.status is Status.STOPPED

    for _ in range(100):
        if await stopped():
            break
        await asyncio.sleep(0.05)
    assert await stopped()
    assert await storage.games.live_games_in(group.id) == []


async def test_an_admin_seated_at_a_tournament_table_only_votes_to_stop_it(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    """Issue #29: a chat admin's /stop ends an ordinary match at once, but at a tournament
    table where the admin plays it is one vote of four (both sides must agree): the admin
    cannot end a match their side leads and take the round alone."""
    group, users = await english_people(emu, 4)
    admin = users[0]
    await begin(emu, group, users, "/tournament rounds=1 round_time=30")
    await emu.wait_for(lambda: emu.find_message(group.id, "table 1") is not None)
    lobby = emu.find_message(group.id, "table 1")
    assert lobby is not None
    for user in users:
        answer = await emu.press(user, group.id, lobby.message_id, text="Take a seat")
        assert not answer.show_alert, answer.text
    await emu.wait_for(lambda: any("Deal" in m.text for m in emu.messages(group.id)))
    mark = last_id(emu, group.id)
    emu.send_text(admin, group.id, "/stop")
    vote = await reply_after(emu, group.id, mark, "votes to stop the game: 1 of 4")
    assert "only if everyone at it agrees" in vote.text
    assert emu.find_message(group.id, "The game was stopped.") is None
    # two more agree: still one short (everyone must), the match plays on
    for user in users[1:3]:
        answer = await emu.press(user, group.id, vote.message_id, text="✋ Stop the game")
        assert not answer.show_alert, answer.text
    await emu.wait_for(lambda: "3 of 4" in emu.message(group.id, vote.message_id).text)
    assert emu.find_message(group.id, "Champion") is None
    # the last one agrees: the table stops and the score decides it, as the round clock
    answer = await emu.press(users[3], group.id, vote.message_id, text="✋ Stop the game")
    assert not answer.show_alert, answer.text
    await emu.wait_for(lambda: "4 of 4 voted" in emu.message(group.id, vote.message_id).text)
    assert "The score decided the match." in emu.message(group.id, vote.message_id).text
    await emu.wait_for(lambda: emu.find_message(group.id, "Champion") is not None, timeout=30)
