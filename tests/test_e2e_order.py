"""Issue #30 item 8: what is read in order arrives in order — a deal's result before the
next deal's hand (/play), a tournament table's last result before the round's end.

"Arrives in order" is read off the emulator: a chat's message ids grow in the order the
messages appeared, and a person reads a chat top to bottom."""

from __future__ import annotations

import asyncio
import re

from botapi_emulator import BotApiEmulator, ChatMessage
from tests.e2e import BotRunner, play_alone
from tests.test_e2e_tournament import (
    Table,
    english_people,
    invites,
    register_all,
    registration,
    round_over,
    take_seat,
)

HAND = re.compile(r"· [сз]дача (\d+)(?: ·|$)", re.M)
"""The header of a hand message as it was first sent (later edits say the deal is over)."""
RESULT = re.compile(r"^Сдача (\d+):")
"""A deal's result post."""


def _first_text(message: ChatMessage) -> str:
    """What a message said when it appeared."""
    return message.versions[0] if message.versions else message.text


def _ids(messages: list[ChatMessage], pattern: re.Pattern[str]) -> dict[int, int]:
    """Deal number → the id of the first message whose first text matches ``pattern``."""
    found: dict[int, int] = {}
    for message in messages:
        match = pattern.search(_first_text(message))
        if match:
            found.setdefault(int(match.group(1)), message.message_id)
    return found


async def test_a_play_match_shows_each_deal_s_result_above_the_next_deal_s_hand(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    """A whole /play match: for every deal n ≥ 2, the result of deal n−1 is a message above
    the hand of deal n (the new hand is below the result, not before it)."""
    ann, players = await play_alone(emu)
    for _ in range(3000):
        if players.match_over:
            break
        await bot.drain()  # the hand shows the turn the bot is at
        if players.whose_turn() is None:
            await emu.wait_for(lambda: players.whose_turn() is not None or players.match_over)
            continue
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
    await bot.drain()
    messages = emu.messages(ann.id)
    hands, results = _ids(messages, HAND), _ids(messages, RESULT)
    assert len(hands) >= 2 and set(results) == set(hands), (hands, results)
    misplaced = {
        n: (results[n - 1], hands[n]) for n in hands if n >= 2 and not results[n - 1] < hands[n]
    }
    assert not misplaced, f"deal n's hand above deal n-1's result (result id, hand id): {misplaced}"


DEAL_POST = re.compile(r"^Deal (\d+):")
"""A deal's result post (English)."""
MATCH_POST = re.compile(r"^🏆 .* won \d+\s:\s\d+\.")
"""A match's result post (English)."""


async def test_a_tournament_round_s_end_comes_after_its_table_s_last_results(
    emu: BotApiEmulator, tournament_bot: BotRunner
) -> None:
    """A plain group's two-round tournament, four people playing each match to its end (the
    round's 200 minutes are 2 minutes here: time enough): the results the round's table
    posted (each deal's, the match's) are above «Round 2 of 2» and above the round's
    standings picture; the second round's results are above the final picture."""
    group, users = await english_people(emu, 4)
    emu.send_text(users[0], group.id, "/tournament rounds=2 round_time=200")
    await emu.wait_for(lambda: registration(emu, group) is not None)
    post = await register_all(emu, group, users)
    started = await emu.press(users[0], group.id, post.message_id, text="▶️ Start")
    assert not started.show_alert, started.text
    for round_no in (1, 2):
        for user in users:
            await emu.wait_for(lambda u=user, n=round_no: len(invites(emu, u)) >= n, timeout=30)
        for user in users:
            await take_seat(emu, user, invites(emu, user)[-1])
        done = round_over(emu, group, round_no)
        playing = asyncio.create_task(Table(emu, users, seed=round_no).play(done))
        await emu.wait_for(done, timeout=240)
        playing.cancel()
    await emu.wait_for(lambda: emu.find_message(group.id, "Champion") is not None, timeout=30)
    await tournament_bot.drain()
    storage = tournament_bot.app.bot_data.storage  # type: ignore[union-attr]
    [tour] = await storage.tournaments.tournaments_in(group.id)
    messages = emu.messages(group.id)
    deal_posts = [m.message_id for m in messages if DEAL_POST.search(_first_text(m))]
    match_posts = [m.message_id for m in messages if MATCH_POST.search(_first_text(m))]
    pictures = [m.message_id for m in messages if getattr(m, "photo", None)]
    second = [m.message_id for m in messages if "Round 2 of 2" in _first_text(m)]
    assert len(pictures) == 2 and len(second) == 1, (pictures, second)
    ends = {1: min(second[0], pictures[0]), 2: pictures[1]}
    # one place, one lane: a round's posts are the next ones in the group's order
    for rnd in tour.played:
        [draw] = rnd.tables
        assert draw.game_id is not None
        scored = len(await storage.games.deals(draw.game_id))
        table = await storage.games.game(draw.game_id)
        assert table is not None
        won = table.status.name == "FINISHED"
        posts, deal_posts = deal_posts[:scored], deal_posts[scored:]
        if won:
            posts.append(match_posts.pop(0))
        late = [p for p in posts if p > ends[rnd.number]]
        assert not late, f"round {rnd.number} ended (id {ends[rnd.number]}) above its posts {late}"
