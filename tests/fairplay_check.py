"""The end of a match's fair play, as a player checks it (issue #30 item 6).

``check_the_deals`` presses «🔑 Проверить раздачи» under the match's result, reads the private
answer the presser gets and runs ``kozelbot verify``'s own check on every line of it with the
match flags it carries: the secret, the lobby's seal and the players' contribution, each
deal's key and seal. Every shuffle the match stored must be there once and hold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from botapi_emulator import BotApiEmulator, ChatMessage
from botapi_emulator.keyboards import inline_buttons
from botapi_emulator.models import User
from kozelbot.core.callbacks import SealButton, parse
from kozelbot.tools.verify import verify
from tests.transcripts import CHECK_HEAD, HEXISH, states

CHECK_LABELS = ("🔑 Проверить раздачи", "🔑 Check the deals", "🔑 Перевірити роздачі")
HEADS = (CHECK_HEAD, "🔑 Checking the deals", "🔑 Перевірка роздач")
COMMAND = re.compile(r"^kozelbot verify (\S+) ([0-9a-f]{64})(.*)$", re.M)
VARIABLE = re.compile(r"^(SECRET|SEAL|PLAYERS)=([0-9a-f]{64})$", re.M)


def with_checks(emu: BotApiEmulator, chat_id: int) -> list[tuple[ChatMessage, int]]:
    """The bot's messages in the chat that carry «🔑 Проверить раздачи», with their game."""
    found = []
    for message in emu.messages(chat_id):
        for row in inline_buttons(message.reply_markup):
            for label, data in row:
                button = parse(data) if label in CHECK_LABELS else None
                if isinstance(button, SealButton):
                    found.append((message, button.game_id))
    return found


def with_check(emu: BotApiEmulator, chat_id: int) -> ChatMessage | None:
    """The bot's latest message in the chat that carries «🔑 Проверить раздачи»."""
    found = with_checks(emu, chat_id)
    return found[-1][0] if found else None


def digits_shown(emu: BotApiEmulator, chat_id: int) -> list[str]:
    """Every line, in every state of the bot's messages in a chat (buttons too), that shows
    fair-play digits — a seal, a ``kozel2:`` key, a secret — the private check excepted."""
    return [
        f"#{s.message_id}/{s.edit}: {line}"
        for s in states(emu, chat_id, "")
        if s.from_bot and not s.text.startswith(HEADS)
        for line in [*s.text.splitlines(), *s.buttons]
        if HEXISH.search(line) or "kozel2:" in line
    ]


def _checks(emu: BotApiEmulator, user_id: int) -> list[ChatMessage]:
    return [m for m in emu.messages(user_id) if m.text.startswith(HEADS)]


async def check_the_deals(
    emu: BotApiEmulator,
    chat_id: int,
    user: User,
    traces: Sequence[Mapping[str, Any]],
    over: ChatMessage | None = None,
) -> int:
    """``user`` presses the match's 🔑 button in ``chat_id`` (``over``'s; the latest one by
    default); every shuffle of ``traces`` (the match's stored deals) gets one ``kozelbot
    verify`` line that holds. The count checked."""
    seeds = [str(r["seed"]) for trace in traces for r in [*trace.get("redealt", ()), trace]]
    assert seeds, "the match stored no shuffle"
    over = over or with_check(emu, chat_id)
    assert over is not None, "no «🔑 Проверить раздачи» under the match's result"
    before = {m.message_id for m in _checks(emu, user.id)}
    label = next(
        label
        for row in inline_buttons(over.reply_markup)
        for label, _ in row
        if label in CHECK_LABELS
    )
    await emu.press(user, chat_id, over.message_id, text=label)

    def shown() -> str:
        return "\n".join(m.text for m in _checks(emu, user.id) if m.message_id not in before)

    await emu.wait_for(
        lambda: all(f"verify {seed} " in shown() for seed in seeds), what="every deal's verify line"
    )
    body = shown()
    values = dict(VARIABLE.findall(body))
    commands = COMMAND.findall(body)
    assert [seed for seed, _, _ in commands] == seeds
    for seed, digest, flags in commands:
        assert flags == ' --secret "$SECRET" --seal "$SEAL" --client "$PLAYERS"', flags
        result = verify(
            seed, digest, secret=values["SECRET"], seal=values["SEAL"], client=values["PLAYERS"]
        )
        assert result.matches and result.secret_sealed and result.key_derived, seed
    return len(commands)
