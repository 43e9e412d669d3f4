"""A whole Хвалёный козёл match in a group, end to end through the real bot and the emulator."""

from __future__ import annotations

import re

from botapi_emulator import BotApiEmulator
from tests.e2e import BotRunner, play_cards, seat_four


async def test_four_people_play_a_whole_match_and_see_it_on_the_leaderboard(
    emu: BotApiEmulator, bot: BotRunner, db_path: object
) -> None:
    players = await seat_four(emu)
    group = players.group
    await play_cards(emu, bot, players, 2000)
    text = players.group_text()
    assert "🏆" in text and "козлы" in text
    # The chat's history lists the match with everyone who played it (the board lists people
    # only after five rated matches).
    before = emu.last_message(group.id)
    emu.send_text(players.users[0], group.id, "/history")
    await emu.wait_for(
        lambda: (
            emu.last_message(group.id) is not before
            and any(d.startswith("h:") for d in _datas(emu.last_message(group.id)))
        )
    )
    board = emu.last_message(group.id)
    assert board is not None
    for user in players.users:
        assert user.first_name in board.text
    assert not emu.flood_errors

    # One table message per deal in the group, one hand message per deal in each private chat:
    # everything else was an edit.
    deals = len([m for m in emu.messages(group.id) if re.match(r"Сдача \d+:", m.text)])
    tables = [m for m in emu.messages(group.id) if m.text.startswith("🐐 Сдача")]
    assert len(tables) == deals
    assert all("Сдача закончена" in m.text for m in tables), [
        m.text for m in tables
    ]  # none is left saying whose turn
    assert sum(m.edits for m in tables) > deals
    for user in players.users:
        header = "Хвалёный козёл · сдача"
        hands = [
            m
            for m in emu.messages(user.id)
            if (m.versions[:1] and "сдача" in m.versions[0])
            or header in m.text
            or "закончена" in m.text
        ]
        assert len(hands) == deals, user.first_name


def _datas(message: object) -> list[str]:
    buttons = getattr(message, "buttons", [])
    return [data for row in buttons for _, data in row]
