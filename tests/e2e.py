"""End-to-end harness: the real PTB ``Application`` of ``kozelbot.app`` against the emulator.

``BotRunner`` starts and stops the bot on a database file (so a test can restart it), and
``Table`` plays the emulated people through what their chats show, the way a person would:
the hand message whose header says it is your turn, a card button not bracketed «(К♥)».
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shlex
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from botapi_emulator import BotApiEmulator, CallbackAnswer, ChatMessage, Group, Limits, User
from handlers.lifetime import stop_application
from kozelbot.app import KozelApplication, build_application
from kozelbot.config import Settings
from kozelbot.core.texts import is_not_now
from sandbox.watch import hand_message, hand_moves, shows_turn

TOKEN = "123456:TEST"
ROOT = Path(__file__).resolve().parent.parent


TEST_BUDGET_MS = 5.0
"""The strong computer's thinking time in tests: a search all the same, quickly."""


def bot_settings(emu: BotApiEmulator, db_path: Path, **overrides: object) -> Settings:
    """Settings for a bot talking to ``emu``, with time-scaled flood limits."""
    values: dict[str, object] = {
        "bot_token": TOKEN,
        "api_url": emu.api_root,
        "db_path": str(db_path),
        "group_max_rate": 20,
        "group_period": 1.0,
        "private_interval": 0.0,
        "poll_timeout": 1,
        # Emulated people press as fast as the bot answers, far faster than a person.
        # The emulator's fast limits have no overall or private limit either.
        "overall_max_rate": 1000,
        "private_max_rate": 1000,
        "press_burst": 1000,
        "press_rate": 1000.0,
        "command_burst": 1000,
        "command_rate": 1000.0,
        "ai_budget_ms": TEST_BUDGET_MS,
        "hidden_wait": 0.0,  # a computer asked in a hidden step answers at once
    }
    values.update(overrides)
    return Settings.model_validate(values)


def fast_limits() -> Limits:
    """Emulator limits scaled like ``bot_settings`` (20 per second per group)."""
    return Limits(
        group_per_window=20, group_window=1.0, private_per_window=None, global_per_second=None
    )


class BotRunner:
    """Runs the bot in this event loop, as ``run_polling`` would, and stops it cleanly."""

    def __init__(self, settings: Settings, seed: int = 7) -> None:
        self.settings = settings
        self.seed = seed
        self.app: KozelApplication | None = None

    async def start(self) -> KozelApplication:
        # A seeded run replays its matches: the secrets come from the seed too.
        app = build_application(
            self.settings,
            rng=random.Random(self.seed),
            entropy=random.Random(f"{self.seed}:entropy").randbytes,
        )
        await app.initialize()
        assert app.post_init is not None
        await app.post_init(app)
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        self.app = app
        return app

    async def stop(self) -> None:
        app = self.app
        if app is None:
            return
        self.app = None
        await stop_application(app)

    async def drain(self) -> None:
        """Wait until every queued message of the bot went out."""
        assert self.app is not None
        await self.app.bot_data.presenter.drain()


@dataclass
class Players:
    """Emulated people around one group table."""

    emu: BotApiEmulator
    group: Group
    users: list[User]
    answers: list[CallbackAnswer] = field(default_factory=list)

    def hand_message(self, user: User) -> ChatMessage | None:
        """The user's latest message that carries card buttons."""
        return hand_message(self.emu, user)

    def whose_turn(self) -> tuple[User, ChatMessage] | None:
        """Someone whose hand says it is their turn, or offers them a redeal."""
        for user in self.users:
            message = self.hand_message(user)
            if message is not None and shows_turn(message):
                return user, message
        return None

    def turn_key(self) -> tuple[int, int, tuple[str, ...]] | None:
        """Who is to act, on which message, with which buttons: changes with every move."""
        found = self.whose_turn()
        if found is None:
            return None
        user, message = found
        return user.id, message.message_id, tuple(d for row in message.buttons for _, d in row)

    async def moved_on(
        self, before: tuple[int, int, tuple[str, ...]] | None, timeout: float = 60.0
    ) -> None:
        """Wait until the turn is no longer ``before`` (or the match is over)."""
        await self.emu.wait_for(lambda: self.turn_key() != before or self.match_over, timeout)

    @property
    def match_over(self) -> bool:
        """The group has the match result."""
        return "🏆" in self.group_text()

    async def next_turn(self, timeout: float = 20.0) -> None:
        """Wait until someone's hand shows their turn (or the match is over)."""
        await self.emu.wait_for(lambda: self.whose_turn() is not None or self.match_over, timeout)

    def next_press(
        self, *, redeal: bool = False, handoff: bool = True, call: str = "plain"
    ) -> tuple[User, ChatMessage, str]:
        """Who is to act, on which message, and the button they press: a legal card, their
        answer to a redeal offer, their hand-off (kryuk's trump, sixes' offer, its answer and
        the trumps passed), the card they return, or their call. ``handoff`` False keeps the
        hand and declines offers wherever the hand may."""
        found = self.whose_turn()
        assert found is not None, "nobody's hand shows a turn"
        user, message = found
        moves = hand_moves(message)
        by = {action: data for _, data, action in moves}
        calls = [a for _, _, a in moves if a.startswith("call:")]
        gives = [d for _, d, a in moves if a.startswith("give:")]
        returns = [d for t, d, a in moves if a.startswith("return:") and not is_not_now(t)]
        if "redeal" in by:
            data = by["redeal" if redeal else "keep"]
        elif calls:
            data = by[f"call:{call}"]
        elif "agree" in by:
            data = by["agree" if handoff else "decline"]
        elif "offer" in by or gives or "keep" in by:
            offered = by.get("offer") or (gives[0] if gives else None)
            data = offered if offered and (handoff or "keep" not in by) else by["keep"]
        elif returns:
            data = returns[0]
        else:
            data = next(d for t, d, a in moves if a.startswith("play:") and not is_not_now(t))
        return user, message, data

    async def play_one(self, *, redeal: bool = False) -> CallbackAnswer:
        """The person to act presses a legal card (or answers the redeal offer)."""
        user, message, data = self.next_press(redeal=redeal)
        answer = await self.emu.press(user, user.id, message.message_id, data)
        self.answers.append(answer)
        return answer

    def group_text(self) -> str:
        """Everything the group shows, message after message."""
        return "\n".join(m.text for m in self.emu.messages(self.group.id))


async def play_alone(
    emu: BotApiEmulator, name: str = "Аня", command: str = "/play"
) -> tuple[User, Players]:
    """A person opens the private chat and sends /play (``command``: with its words): a
    match against the computer, in that chat (``Players`` around it), once their hand has
    arrived."""
    user = emu.add_user(first_name=name, language_code="ru")
    await emu.start_private(user)
    emu.send_text(user, user.id, command)
    players = Players(emu, SimpleNamespace(id=user.id), [user])  # type: ignore[arg-type]
    await emu.wait_for(lambda: players.hand_message(user) is not None)
    return user, players


NAMES = ("Аня", "Борис", "Вера", "Глеб")


async def play_cards(emu: BotApiEmulator, bot: BotRunner, players: Players, cards: int) -> int:
    """Play up to ``cards`` cards (or to the match's end); how many were played."""
    played = 0
    while played < cards and "🏆" not in players.group_text():
        await bot.drain()
        if players.whose_turn() is None:
            await emu.wait_for(
                lambda: players.whose_turn() is not None or "🏆" in players.group_text()
            )
            continue
        answer = await players.play_one()
        assert not answer.show_alert, answer.text
        played += 1
    await bot.drain()
    return played


def hand_sends(emu: BotApiEmulator, user_id: int) -> Counter[int]:
    """How many hand messages (not edits) the bot sent a person for each deal (1-based)."""
    found: Counter[int] = Counter()
    for call in emu.history:
        if call.method == "sendMessage" and call.ok and call.chat_id == user_id:
            match = re.search(r"· [сз]дача (\d+)\b", str(call.params.get("text", "")))
            if match:
                found[int(match.group(1))] += 1
    return found


async def open_lobby(
    emu: BotApiEmulator, names: tuple[str, ...] = ("Аня", "Борис")
) -> tuple[Group, list[User], ChatMessage]:
    """People who opened the private chat, in a group where the first one opens a table."""
    users = [emu.add_user(first_name=name) for name in names]
    group = emu.add_group(title="Г", members=users)
    for user in users:
        await emu.start_private(user)
    emu.send_text(users[0], group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, f"1. {names[0]}") is not None)
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None
    return group, users, lobby


async def start_with_bots(emu: BotApiEmulator, user: User, group: Group) -> Players:
    """``user`` opens the private chat and a table, and starts it with three computers."""
    await emu.start_private(user)
    emu.send_text(user, group.id, "/newgame")
    await emu.wait_for(lambda: emu.find_message(group.id, f"1. {user.first_name}") is not None)
    lobby = emu.find_message(group.id, "набор за стол")
    assert lobby is not None
    answer = await emu.press(user, group.id, lobby.message_id, text="Начать с ботами")
    assert not answer.show_alert, answer.text
    return Players(emu, group, [user])


async def seat_four(
    emu: BotApiEmulator,
    *,
    options: str = "seating=ordered",
    names: tuple[str, ...] = NAMES,
    in_order: bool = True,
) -> Players:
    """Four people open the private chat, one opens a table, three join: the match starts.

    ``in_order``: each joins once the lobby shows the one before (so seats follow ``names``);
    without it they join at once (for a group whose flood limit holds the lobby back)."""
    users = [emu.add_user(first_name=name, language_code="ru") for name in names]
    group = emu.add_group(title="Козлятня", members=users, admins=users[:1], creator=users[0])
    for user in users:
        await emu.start_private(user)
    emu.send_text(users[0], group.id, f"/newgame {options}".strip())
    await emu.wait_for(lambda: emu.find_message(group.id, "набор за стол") is not None)
    for seat, user in enumerate(users[1:], start=2):
        emu.send_text(user, group.id, "/join")
        if in_order and seat < len(users):  # one after the other, as people do
            line = f"{seat}. {user.first_name}"
            await emu.wait_for(lambda x=line: emu.find_message(group.id, x) is not None)
    players = Players(emu, group, users)
    await emu.wait_for(lambda: all(players.hand_message(u) for u in users), timeout=15)
    return players


class BotProcess:
    """The bot as a separate ``python -m kozelbot`` process, so a test can kill it (SIGKILL)."""

    def __init__(
        self,
        emu: BotApiEmulator,
        db_path: Path,
        workdir: Path,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
    ) -> None:
        self.emu = emu
        self.db_path = db_path
        self.workdir = workdir
        self.env_overrides = dict(env or {})
        """Environment variables set last (e.g. the default ``KOZEL_GROUP_PERIOD`` back)."""
        self.process: asyncio.subprocess.Process | None = None
        self.log = workdir / "bot.log"
        self.python_args: list[str] = []
        """Extra interpreter arguments (e.g. ``-m cProfile -o FILE`` to profile the bot)."""
        self.args = list(args or [])
        """Command-line arguments of ``kozelbot`` (e.g. ``--webhook URL --port P``)."""

    async def start(self) -> None:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")},
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "KOZEL_BOT_TOKEN": TOKEN,
            "KOZEL_API_URL": self.emu.api_root,
            "KOZEL_DB_PATH": str(self.db_path),
            "KOZEL_GROUP_PERIOD": "1",
            "KOZEL_PRIVATE_INTERVAL": "0",
            "KOZEL_POLL_TIMEOUT": "1",
            "KOZEL_OVERALL_MAX_RATE": "1000",
            "KOZEL_PRIVATE_MAX_RATE": "1000",
            "KOZEL_PRESS_BURST": "1000",
            "KOZEL_PRESS_RATE": "1000",
            "KOZEL_COMMAND_BURST": "1000",
            "KOZEL_COMMAND_RATE": "1000",
            "KOZEL_HIDDEN_WAIT": "0",
            **self.env_overrides,
        }
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                *self.python_args,
                "-m",
                "kozelbot",
                *self.args,
                cwd=self.workdir,
                env=env,
                stdout=log,
                stderr=log,
            )

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as with a crash or a power cut."""
        assert self.process is not None
        self.process.kill()
        await self.process.wait()
        self.process = None

    async def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
            self.process = None


def last_id(emu: BotApiEmulator, chat_id: int) -> int:
    """The id of the latest message in a chat (0 if none): a mark to read replies after."""
    last = emu.last_message(chat_id)
    return 0 if last is None else last.message_id


async def reply_after(emu: BotApiEmulator, chat_id: int, after: int, contains: str) -> ChatMessage:
    """The bot's first message in ``chat_id`` after message ``after`` that contains a text."""

    def found() -> ChatMessage | None:
        for message in emu.messages(chat_id):
            if message.message_id > after and contains in message.text:
                return message
        return None

    await emu.wait_for(lambda: found() is not None, what=contains)
    message = found()
    assert message is not None
    return message


async def run_kozelbot(
    env: dict[str, str], cwd: Path, *args: str, through: Sequence[str] = ()
) -> tuple[int, str]:
    """Run ``python -m kozelbot ARGS`` with these settings (nothing else of ``KOZEL_*``) until
    it exits, at most 60 s (``through``: a command that runs a shell line, e.g. ``capsh``):
    its exit code and everything it printed."""
    argv = [sys.executable, "-m", "kozelbot", *args]
    if through:
        argv = [*through, "exec " + shlex.join(argv)]
    base = {k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")}
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    process = await asyncio.create_subprocess_exec(
        *argv,
        cwd=cwd,
        env={**base, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()
