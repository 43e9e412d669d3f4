"""The cover game end to end: people select cards on their private keyboards (toggle
buttons) and act with the verb buttons — Lead, Beat, Discard, Add, Pass, Відбій, "I have N".

Each person decides as the computer player would (so the match is sensible and ends), but
every move goes through the buttons of their own hand message; the move log then proves
that a multi-card lead, a beat, a discard, a claim and a Відбій were made by people.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from botapi_emulator import BotApiEmulator, ChatMessage
from kozelbot.core.records import MoveSource
from kozelbot.families.registry import players_of
from tests import leaks, secret_steps, transcripts
from tests.e2e import NAMES, BotRunner, Players, bot_settings, seat_four
from tests.fairplay_check import check_the_deals

VERBS = {"lead": "lead", "beat": "beat", "discard": "discard", "level": "level"}


def _buttons(message: ChatMessage) -> dict[str, str]:
    """Callback data → text of a message's buttons."""
    return {d: t for row in message.buttons for t, d in row}


def _shows(message: ChatMessage | None, prefix: str, suffix: str) -> bool:
    """Whether a hand message has a button ``prefix…suffix``."""
    if message is None:
        return False
    return any(d.startswith(prefix) and d.endswith(suffix) for d in _buttons(message))


async def _press_move(players: Players, seat: int, action: Any) -> None:
    """``seat``'s person makes ``action`` on their keyboard: toggles, then the verb."""
    emu, user = players.emu, players.users[seat]
    text = str(action)
    verb, _, arg = text.partition(":")

    def hand() -> ChatMessage | None:
        return players.hand_message(user)

    if verb in VERBS:
        wanted = f":{VERBS[verb]}"
        await emu.wait_for(lambda: _shows(hand(), "y:", wanted), timeout=30)
        message = hand()
        assert message is not None
        for card in arg.split(","):
            data = next(
                d for d in _buttons(message) if d.startswith("x:") and d.endswith(f":{card}")
            )
            answer = await emu.press(user, user.id, message.message_id, data)
            assert not answer.show_alert, answer.text
        data = next(d for d in _buttons(message) if d.startswith("y:") and d.endswith(wanted))
    else:
        wanted = f":{text}"
        await emu.wait_for(lambda: _shows(hand(), "a:", wanted), timeout=30)
        message = hand()
        assert message is not None
        data = next(d for d in _buttons(message) if d.startswith("a:") and d.endswith(wanted))
    answer = await emu.press(user, user.id, message.message_id, data)
    assert not answer.show_alert, (text, answer.text)


async def _play_match(players: Players, bot: BotRunner) -> None:
    assert bot.app is not None
    service = bot.app.bot_data.service
    family = players_of("cover")
    claims = 0
    for _ in range(3000):
        await bot.drain()
        table = service.snapshot(1)
        assert table is not None
        state = service.state_of(table)
        if players.match_over or state is None or state.over:
            break
        seat = state.to_act()[0]
        action = family.choose(state, seat)
        claimants = [
            (s, a)
            for s in range(players_count(table))
            if s != seat
            for a in state.legal_actions(s)
            if str(a).startswith("claim:")
        ]
        if claimants and claims < 3:  # someone interrupts with "I have N" (out of turn)
            claims += 1
            seat, action = claimants[0]
        version = table.version
        await _press_move(players, seat, action)
        await players.emu.wait_for(
            lambda v=version: (t := service.snapshot(1)) is not None and t.version > v, timeout=30
        )
    await bot.drain()
    await players.emu.wait_for(lambda: players.match_over, timeout=30)


def players_count(table: Any) -> int:
    return len(table.seats)


@pytest.mark.parametrize(
    ("options", "seats"),
    [
        ("cover move_time=0 seating=ordered", 4),
        ("cover mode=self players=3 move_time=0 seating=ordered", 3),
    ],
    ids=["pairs-4", "self-3"],
)
async def test_people_play_a_whole_cover_match_from_their_keyboards(
    emu: BotApiEmulator, db_path: Path, options: str, seats: int, request: pytest.FixtureRequest
) -> None:
    # Seed 7: both matches offer someone a claim out of turn (a seed decides the shuffles).
    bot = BotRunner(bot_settings(emu, db_path), seed=7)
    await bot.start()
    try:
        players = await seat_four(emu, options=options, names=NAMES[:seats])
        assert "Козёл с прикупом" in players.group_text()
        await _play_match(players, bot)
        assert bot.app is not None
        storage = bot.app.bot_data.storage
        moves = [m for m in await storage.games.moves(1) if m.source is MoveSource.HUMAN]
        actions = [m.action for m in moves]
        assert len(moves) == len(await storage.games.moves(1)), "every move was a person's"
        assert any(a.startswith("lead:") and "," in a for a in actions), "no multi-card lead"
        for verb in ("beat:", "discard:", "claim:", "otboy"):
            assert any(a.startswith(verb) for a in actions), f"no {verb}"
        shown = "\n".join(v for m in emu.messages(players.group.id) for v in [*m.versions, m.text])
        assert ("🏆" in shown and "Прикуп" in shown) or "прикуп" in shown.lower()
        assert "Очки открытых карт" in shown  # during play: face-up cards only (issue #14)
        assert "\nЗаход: " in shown  # who led the stacks on the table (issue #30 item 11)
        # The leak scan reads every "open card points" figure and checks it against the
        # face-up cards of the tricks taken (issue #14); make sure it had figures to read.
        table = await storage.games.game(1)
        assert table is not None
        sides = leaks.cover_sides(table)
        read = [
            secret_steps.open_points_shown(v, sides)
            for m in emu.messages(players.group.id)
            for v in [*m.versions, m.text]
        ]
        assert any(figures and any(f is not None for f in figures) for figures in read)
        assert await leaks.scan(emu, storage, [1]) == []
        assert not emu.flood_errors
        stored = [d.trace for d in await storage.games.deals(1)]
        # Issue #30 item 6: the result's 🔑 button gives every verify input, and it holds.
        await check_the_deals(emu, players.group.id, players.users[0], stored)
        games = len(stored)
        await transcripts.ask_rules(players, "cover")
        await transcripts.read_through(players, f"cover-{request.node.callspec.id}", "cover", games)
    finally:
        await bot.stop()


async def test_selection_buttons_refuse_bad_presses_and_change_nothing(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """A verb with nothing selected, a toggle of a card not in the hand, a forged toggle on a
    follow-suit hand: each is answered with the reason and no move is made."""
    bot = BotRunner(bot_settings(emu, db_path), seed=7)
    await bot.start()
    try:
        players = await seat_four(emu, options="cover move_time=0 seating=ordered")
        assert bot.app is not None
        service = bot.app.bot_data.service
        table = service.snapshot(1)
        assert table is not None
        state = service.state_of(table)
        assert state is not None
        leader = state.to_act()[0]
        user = players.users[leader]
        await emu.wait_for(lambda: _shows(players.hand_message(user), "y:", ":lead"))
        message = players.hand_message(user)
        assert message is not None
        answer = await emu.press(user, user.id, message.message_id, "y:1:0:lead")
        assert answer.show_alert and "выберите карты" in (answer.text or "")
        other = next(c for c in state.view_for((leader + 1) % 4).hand)
        query = emu.forged_press_nowait(user, user.id, message.message_id, f"x:1:0:{other}")
        answer = await emu.wait_answer(query)
        assert answer.show_alert and "нет" in (answer.text or "")
        toggle = next(d for d in _buttons(message) if d.startswith("x:"))
        answer = await emu.press(user, user.id, message.message_id, toggle)
        assert not answer.show_alert and "Выбрано: 1" in (answer.text or "")

        def selected_shown() -> bool:
            shown = players.hand_message(user) or message
            return any(text.startswith("✅") for text in _buttons(shown).values())

        await emu.wait_for(selected_shown)
        answer = await emu.press(user, user.id, message.message_id, toggle)
        assert "Выбрано: 0" in (answer.text or "")
        assert await bot.app.bot_data.storage.games.moves(1) == []
    finally:
        await bot.stop()


async def test_a_selection_button_on_a_follow_suit_hand_is_not_valid(
    emu: BotApiEmulator, db_path: Path
) -> None:
    bot = BotRunner(bot_settings(emu, db_path), seed=7)
    await bot.start()
    try:
        players = await seat_four(emu)
        user = players.users[0]
        message = players.hand_message(user)
        assert message is not None
        card = next(d for d in _buttons(message) if d.startswith("c:")).split(":")[3]
        for data in (f"x:1:0:{card}", "y:1:0:beat"):
            query = emu.forged_press_nowait(user, user.id, message.message_id, data)
            answer = await emu.wait_answer(query)
            assert answer.show_alert and "недействительна" in (answer.text or "")
        assert bot.app is not None
        moves = await bot.app.bot_data.storage.games.moves(1)
        assert [m for m in moves if m.source.value == "human"] == []
    finally:
        await bot.stop()


async def test_a_card_button_of_the_follow_suit_family_on_a_cover_hand_is_not_valid(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """A family's own button pressed at another family's table (issue #16: the families
    declare their buttons) is refused and plays nothing."""
    bot = BotRunner(bot_settings(emu, db_path), seed=7)
    await bot.start()
    try:
        players = await seat_four(emu, options="cover move_time=0 seating=ordered")
        for user in players.users:
            message = players.hand_message(user)
            assert message is not None
            card = next(d for d in _buttons(message) if d.startswith("x:")).split(":")[3]
            for data in (f"c:1:0:{card}", "r:1:0:n"):
                query = emu.forged_press_nowait(user, user.id, message.message_id, data)
                answer = await emu.wait_answer(query)
                assert answer.show_alert and "недействительна" in (answer.text or ""), data
        assert bot.app is not None
        moves = await bot.app.bot_data.storage.games.moves(1)
        assert [m for m in moves if m.source.value == "human"] == []
    finally:
        await bot.stop()
