"""Issue #33 item 3 on the real parts: the real bot at DEBUG while four people play (one
card from the Mini App) puts no token, no ``initData`` and no card of any hand in any line,
JSON or text, and its lines name their chat, update and game; a computer's refused move is
logged without the card it names. (The formatter and the filter alone: ``test_logs``.)"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import aiohttp

from botapi_emulator import BotApiEmulator
from kozelbot.computer.thinking import Thinker
from kozelbot.core import logs
from kozelbot.core.cards import Card
from kozelbot.core.decisions import Decision
from kozelbot.core.i18n import translator
from kozelbot.core.texts import card_label
from kozelbot.families.follow.vocabulary import PlayCard
from kozelbot.tables.service import GameService
from storage import Storage
from tests.e2e import TOKEN, BotRunner, Players, bot_settings, play_cards, seat_four
from tests.test_e2e_webapp import free_port, init_for
from tests.test_logs import Lines, capturing
from tests.test_service_thinking import _play_until_a_computer_thinks, _service


class PeekingThinker(Thinker):
    """A computer that answers with a card of the person's hand (``shown``), which the
    rules refuse (``CardNotInHand``, whose text names the card)."""

    def __init__(self) -> None:
        super().__init__(5.0, workers=1)
        self.service: GameService | None = None
        self.shown: list[Card] = []

    async def decide(
        self, dump: dict[str, Any], seat: int, seed: str, *, sheds: bool = False
    ) -> Decision:
        assert self.service is not None
        (table,) = self.service.tables.live.values()
        state = self.service.state_of(table)
        assert state is not None
        hand: tuple[Card, ...] = state.view_for(table.seat_of(1)).hand
        self.shown.append(hand[0])
        return Decision(PlayCard(hand[0]))


async def test_a_refused_thought_is_logged_by_its_code_not_its_cards(tmp_path: Path) -> None:
    """A computer's move the rules refuse is logged (a bug to look at), by the refusal's
    code and the game, not by its text: that names a card of a hand nobody may see."""
    storage = await Storage.open(str(tmp_path / "kozel.db"))
    thinker = PeekingThinker()
    lines = Lines(logs.JsonFormatter())
    try:
        thinker.service = service = _service(storage, thinker)
        game_id = await _play_until_a_computer_thinks(service)
        with capturing(lines, name="kozelbot.tables"):
            change = await service.time_out(game_id)
    finally:
        thinker.close()
        await storage.close()
    assert change is not None and change.moves and thinker.shown  # the quick level moved
    refused = [line for line in lines.objects() if "refused" in line["message"]]
    assert len(refused) == len(thinker.shown)  # (each computer in a row thought)
    for line in refused:
        assert line["message"] == f"game {game_id}: the thought move is refused (card_not_in_hand)"
        assert line["game"] == game_id and "exc_info" not in line
    assert not [str(card) for card in thinker.shown if str(card) in "\n".join(lines.lines)]


# -- the real bot, at DEBUG ---------------------------------------------------------------


def hidden_cards(runner: BotRunner, players: Players) -> set[str]:
    """Every card of every hand as the bot writes it: its label (in both languages) and its
    button's data, read from the hand messages and from the service's state."""
    found: set[str] = set()
    for user in players.users:
        message = players.hand_message(user)
        assert message is not None
        for label, data in (button for row in message.buttons for button in row):
            found |= {label.strip("()"), data}
    assert runner.app is not None
    service = runner.app.bot_data.service
    (table,) = service.tables.live.values()
    state = service.state_of(table)
    assert state is not None
    for seat in range(len(table.seats)):
        hand: tuple[Card, ...] = state.view_for(seat).hand
        for language in ("ru", "en"):
            found |= {card_label(card, translator(language)) for card in hand}
    assert len(found) > 36  # 36 cards dealt, labels and data
    return found


async def move_from_page(
    emu: BotApiEmulator, base: str, players: Players, game_id: int
) -> list[str]:
    """Whoever is to move reads the page (``initData`` in a header) and plays its first
    legal card from it (``initData`` in the body); the ``initData`` sent."""
    await players.next_turn()
    found = players.whose_turn()
    assert found is not None
    user = found[0]
    sent = [init_for(user), init_for(user, age=6.0)]
    async with aiohttp.ClientSession() as session:
        headers = {"X-Telegram-Init-Data": sent[0]}
        async with session.get(f"{base}/state?game={game_id}", headers=headers) as response:
            assert response.status == 200
            page = await response.json()
        body = {"init": sent[1], "game": game_id, "deal": page["deal"], "action": page["legal"][0]}
        async with session.post(f"{base}/move", json=body) as response:
            assert response.status == 200, await response.text()
    return sent


async def test_no_token_init_data_or_hidden_card_reaches_a_log_line_at_debug(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """Four people play a few cards in a group, one of them from the Mini App, with every
    logger at DEBUG: every line (JSON and text, the bot's filter on both) is one JSON object
    / one text line, lines name their chat, update and game, and none holds the token, an
    ``initData`` or any card of any hand — though PTB logs every call's parameters and
    every update, and aiosqlite every statement's, at DEBUG."""
    as_json, as_text = Lines(logs.JsonFormatter()), Lines(logging.Formatter(logs.TEXT_FORMAT))
    port = free_port()
    settings = bot_settings(
        emu, db_path, webapp_url="https://kozel.example/app/", webapp_port=port, webapp_name="t"
    )
    runner = BotRunner(settings)
    with capturing(as_json, as_text):
        await runner.start()
        try:
            players = await seat_four(emu)
            hidden = hidden_cards(runner, players)
            assert runner.app is not None
            (game_id,) = runner.app.bot_data.service.tables.live
            assert await play_cards(emu, runner, players, 3) == 3
            sent = await move_from_page(
                emu, f"http://127.0.0.1:{port}/webapp/api", players, game_id
            )
            assert await play_cards(emu, runner, players, 2) == 2
        finally:
            await runner.stop()
    found = as_json.objects()  # every line is one JSON object
    assert len(found) > 500
    assert all({"time", "level", "logger", "message", "worker"} <= set(line) for line in found)
    messages = [line["message"] for line in found]
    # The filter had PTB's and aiosqlite's DEBUG lines to cut (the check is not vacuous).
    assert "Calling Bot API endpoint `sendMessage`" in messages
    assert any(m.startswith("Processing update <update ") for m in messages)
    assert "executing execute" in messages
    # Lines name what they are about: an update in the group, the game it changed, and the
    # private chat a hand is sent to.
    group, first = players.group.id, players.users[0].id
    assert any(line.get("chat") == group and "update" in line for line in found)
    assert any(line.get("game") == game_id and "update" in line for line in found)
    assert any(
        line["message"] == "Calling Bot API endpoint `sendMessage`" and line.get("chat") == first
        for line in found
    )
    hashes = {parse_qs(init)["hash"][0] for init in sent}
    secrets = {TOKEN, quote(TOKEN, safe=""), *sent, *hashes, *hidden}
    decoded = "\n".join(json.dumps(line, ensure_ascii=False) for line in found)
    for name, text in (("json", "\n".join(as_json.lines)), ("decoded", decoded)):
        assert sorted(s for s in secrets if s in text) == [], name
    assert sorted(s for s in secrets if s in "\n".join(as_text.lines)) == []
