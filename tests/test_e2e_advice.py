"""Issue #17 end to end: the 💡 hint in a match against the computer and the 🔍 analysis of a
scored deal, through the emulator — pressed, answered, and refused when forged or early."""

from __future__ import annotations

import re
from typing import Any

from botapi_emulator import BotApiEmulator, ChatMessage
from tests import transcripts
from tests.e2e import BotRunner, play_alone, seat_four


def _buttons(message: ChatMessage | None) -> list[str]:
    return [] if message is None else [d for row in message.buttons for _, d in row]


def _with(emu: BotApiEmulator, chat_id: int, prefix: str) -> list[ChatMessage]:
    return [m for m in emu.messages(chat_id) if any(d.startswith(prefix) for d in _buttons(m))]


def _live_table(bot: BotRunner, chat_id: int) -> Any:
    assert bot.app is not None
    live = [t for t in bot.app.bot_data.service.tables.live.values() if t.chat_id == chat_id]
    assert live
    return live[0]


async def test_a_hint_names_the_strong_move_and_the_analysis_reviews_a_deal(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    ann, players = await play_alone(emu)
    game_id = _live_table(bot, ann.id).game_id

    # Her turn with a choice: the hand carries 💡; the hint is an alert naming a legal card.
    hinted = False
    for _ in range(400):
        await bot.drain()
        turn = players.whose_turn()
        if turn is None:
            await emu.wait_for(lambda: players.whose_turn() is not None or players.match_over)
            continue
        _, message = turn
        hint = [d for d in _buttons(message) if d.startswith("k:")]
        cards = [d for d in _buttons(message) if d.startswith("c:")]
        if hint and len(cards) > 1:
            answer = await emu.press(ann, ann.id, message.message_id, hint[0])
            assert answer.show_alert and answer.text is not None
            assert answer.text.startswith("💡 ") and len(answer.text) <= 200
            legal = [
                label
                for label, d in (b for row in message.buttons for b in row)
                if d.startswith("c:")
            ]
            assert any(label.split()[0] in answer.text for label in legal), answer.text
            again = await emu.press(ann, ann.id, message.message_id, hint[0])  # a double tap
            assert again.text == answer.text
            hinted = True
            break
        await players.play_one()
    assert hinted

    # A hint while a computer is to move, or in a chat that is not hers, changes nothing.
    await players.play_one()
    await bot.drain()
    query = emu.forged_press_nowait(
        ann,
        ann.id,
        players.hand_message(ann).message_id,  # type: ignore[union-attr]
        f"k:{game_id}:0",
    )
    refused = await emu.wait_answer(query)
    assert refused.show_alert

    # The analysis of a deal not yet scored is refused; once scored, 🔍 sends it privately.
    early = emu.forged_press_nowait(
        ann,
        ann.id,
        players.hand_message(ann).message_id,  # type: ignore[union-attr]
        f"z:{game_id}:0",
    )
    assert (await emu.wait_answer(early)).text == "Эта сдача ещё не закончена."
    for _ in range(400):
        if _with(emu, ann.id, f"z:{game_id}:0") or players.match_over:
            break
        await bot.drain()
        if players.whose_turn() is None:
            await emu.wait_for(
                lambda: (
                    players.whose_turn() is not None
                    or players.match_over
                    or bool(_with(emu, ann.id, f"z:{game_id}:0"))
                )
            )
            continue
        await players.play_one()
    over = _with(emu, ann.id, f"z:{game_id}:0")
    assert over, "the first deal's hand offers its analysis"
    before = len(emu.messages(ann.id))
    answer = await emu.press(ann, ann.id, over[0].message_id, f"z:{game_id}:0")
    assert not answer.show_alert
    await emu.wait_for(
        lambda: any("🔍" in m.text and "Сдача 1" in m.text for m in emu.messages(ann.id)[before:])
    )
    report = next(m for m in emu.messages(ann.id)[before:] if m.text.startswith("🔍 Сдача 1"))
    again = await emu.press(ann, ann.id, over[0].message_id, f"z:{game_id}:0")  # a double tap
    assert again.text == "🔍 Разбор — в нашем личном чате."
    await bot.drain()
    assert sum(m.text.startswith("🔍 Сдача 1") for m in emu.messages(ann.id)) == 1
    assert "ваши ходы" in report.text
    lines = report.text.splitlines()[1:]
    # Issue #30 item 11: each play by its trick and card, the difference in words or whole eyes.
    costly = r"(Взятка \d+|До первой взятки): .+ → (лучше .+, примерно \+\d+ глаз\w*|.+ чуть лучше)"
    assert lines and all(
        re.fullmatch(costly, line) or re.match("Все|Ваш|В этой", line) or line.startswith("Сколько")
        for line in lines
    ), lines
    # Every message and answer of her chat (the 💡 alerts too) reads in a player's words.
    chat = [*transcripts.states(emu, ann.id, "Аня"), *transcripts.answers(emu, ann.id, "Аня")]
    assert transcripts.word_problems(chat) == []


async def test_someone_who_did_not_play_a_deal_gets_no_analysis_of_it(
    emu: BotApiEmulator, bot: BotRunner
) -> None:
    players = await seat_four(emu)
    group, users = players.group, players.users
    table = _live_table(bot, group.id)
    stranger = emu.add_user(first_name="Чужой", language_code="ru")
    await emu.start_private(stranger)
    # Updates are handled concurrently: he presses once the bot has greeted him.
    await emu.wait_for(lambda: emu.find_message(stranger.id, "KozelBot") is not None)
    emu.add_member(group, stranger)
    await bot.drain()
    message = emu.messages(group.id)[-1]

    async def stranger_asks() -> str | None:
        query = emu.forged_press_nowait(
            stranger, group.id, message.message_id, f"z:{table.game_id}:0"
        )
        answer = await emu.wait_answer(query)
        assert answer.show_alert
        return answer.text

    assert await stranger_asks() == "Эта сдача ещё не закончена."
    while "Сдача 1:" not in players.group_text():
        await players.next_turn()
        await players.play_one()
        await bot.drain()
    assert await stranger_asks() == "Вы не играли в этой сдаче."
    # A hint at a group table is refused: it would be a crib.
    hand = players.hand_message(users[0])
    assert hand is not None
    query = emu.forged_press_nowait(users[0], users[0].id, hand.message_id, f"k:{table.game_id}:1")
    answer = await emu.wait_answer(query)
    assert answer.show_alert and "против компьютера" in (answer.text or "")
