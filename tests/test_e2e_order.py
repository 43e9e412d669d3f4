"""Issue #30 item 8: what is read in order arrives in order — a deal's result before the
next deal's hand (/play), a tournament table's last result before the round's end.

"Arrives in order" is read off the emulator: a chat's message ids grow in the order the
messages appeared, and a person reads a chat top to bottom."""

from __future__ import annotations

import re

from botapi_emulator import BotApiEmulator, ChatMessage
from tests.e2e import BotRunner, play_alone

HAND = re.compile(r"· [сз]дача (\d+) ·")
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
    misplaced = {n: (results[n - 1], hands[n]) for n in hands
                 if n >= 2 and not results[n - 1] < hands[n]}  # fmt: skip
    assert not misplaced, f"deal n's hand above deal n-1's result (result id, hand id): {misplaced}"
