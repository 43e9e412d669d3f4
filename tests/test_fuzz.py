"""Fuzzing the real bot with random and malformed updates.

The real PTB ``Application`` (the ``bot`` fixture) runs against the emulator in a realistic
world: a group with a running four-person match (the second deal under way), a second group
with an open lobby, a stopped game, people who never opened the private chat, strangers the
bot never saw, a bot account, groups without a game and a channel. Then ``KOZEL_FUZZ_UPDATES``
(default 2000) updates drawn by ``random.Random(KOZEL_FUZZ_SEED)`` are queued in batches:
forged, truncated and oversized callback data, real buttons pressed from the wrong chat,
message or user, unknown commands and odd arguments, 4096-character texts, edited messages,
channel posts, service messages, inline queries, senders that are bots, messages without a
sender and button presses without a message.

None of them is a valid move or any other legitimate change: the ``Oracle`` drops every
candidate the bot would rightly act on (a legal card of the player to act, a join, /stop by an
admin, ...) before it is sent. So the fuzz must leave the games, moves, deals and what the bot
knows of people and chats as they were (it may record the names and languages of the people
it sees, and new rows for people and chats it did not know), raise nothing (the error handler
never runs, nothing is logged at ERROR), answer every button press, and answer every command
people send in their private chat. The ``emu`` fixture checks at teardown that the bot sent no
malformed request.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sqlite3
import string
import time
import traceback
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from telegram import Update

from botapi_emulator import ApiCall, BotApiEmulator, ChatMessage, Group, User
from botapi_emulator.entities import command_entities
from botapi_emulator.state import CallbackQuery
from kozelbot.core import callbacks
from kozelbot.core.cards import DECK_36
from kozelbot.core.i18n import supported
from kozelbot.families.follow.buttons import PlayButton, RedealButton
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import Action, AskRedeal, KeepHand, PlayCard
from kozelbot.families.registry import DEFAULT_PRESET, preset
from tests.e2e import BotRunner, Players, seat_four

JsonDict = dict[str, Any]

UPDATES = int(os.environ.get("KOZEL_FUZZ_UPDATES", "2000"))
SEED = int(os.environ.get("KOZEL_FUZZ_SEED", "1"))
BATCH = 100
BOT_USERNAME = "kozel_test_bot"
LOGGERS = ("telegram", "handlers", "kozelbot", "storage")
OPTION_KEYS = frozenset(preset(DEFAULT_PRESET).options_model.model_fields)

COMMANDS = (
    "start",
    "newgame",
    "join",
    "leave",
    "hand",
    "table",
    "stop",
    "top",
    "language",
    "rules",
    "help",
    "play",
    "settings",
    "stats",
    "history",
)
UNKNOWN_COMMANDS = ("frobnicate", "deal", "start_", "newgame2", "_", "x" * 40)
SUFFIXES = ("", "", "", "", f"@{BOT_USERNAME}", "@KOZEL_TEST_BOT", "@other_bot", "@kozel_test_bot2")
# Templates: {a} the running match, {b} the lobby, {ended} the stopped game, {big} 60 digits,
# {deal} a deal number of the match, {card} a card.
START_ARGS = (
    "",
    "join-{big}",
    "hand-{big}",
    "hand-abc",
    "join-{a}",
    "hand-{a}",
    "join-{b}",
    "hand-{b}",
    "join-{ended}",
    "hand-{ended}",
    "join-",
    "hand-",
    "join--1",
    "hand-0",
    "join-²",
    "hand-١٢",
    "join-{a}x",
    "join- {a}",
    "join-1_0",
    "hand-{a} {b}",
    "JOIN-{a}",
    "hand-{a}-{b}",
    "join_{a}",
    "join-+{a}",
    "join-٣",
    "xyz",
)
NEWGAME_ARGS = (
    "",
    "deck=99 foo",
    "deck=36 deck=33",
    "deck=²",
    "deck",
    "=",
    "==",
    "move_time={big}",
    "move_time=-5",
    "move_time=9",
    "move_time=--5",
    "move_time=1e3",
    "seating=<b>",
    "target=x",
    "deck=36 seating=ordered foo=1",
    "MOVE_TIME=abc",
    "deck=32\x00",
    "deck=-36",
    "seating=",
    "<b>=1",
    "deck=36 <i>",
    "deck=٣٦",
    "deck=36 move_time=-0",
)
LANGUAGE_ARGS = ("", "xx", "EN-gb", "uk_UA", "zz-ZZ", "русский", "en ru", "-", "e", "<b>", "ru-")
ANY_ARGS = ("", "<b>&</i>", "a=b", "-1", "{big}", "@kozel_test_bot", "/help", "\u202e", "\t")
FORGED_DATA = (
    "",
    " ",
    ":",
    "c:",
    "c:::",
    "r:",
    "l:",
    "o:",
    "c:x:y:z",
    "l::join",
    "o::deck",
    "c:{a}",
    "c:{a}:{deal}",
    "c:{a}:{deal}:{card}:x",
    "c:{a}:{deal}:1OH",
    "c:{a}:{deal}:10",
    "c:{a}:{deal}:♠A",
    "c:{a}:{deal}:{card_lower}",
    "r:{a}:{deal}",
    "r:{a}:{deal}:maybe",
    "r:{a}:{deal}:Y",
    "l:{b}",
    "l:{b}:dance",
    "l:{b}:join:now",
    "o:{b}:no-such-key",
    "o:{b}:__class__",
    "o:{b}:model_config",
    "o:{b}:model_fields",
    "o:{b}:" + "a" * 60,
    "o:{a}:deck",
    "c:{big}:{deal}:{card}",
    "c:{a}:{big}:{card}",
    "r:{a}:{big}:y",
    "l:{big}:join",
    "o:{big}:deck",
    "r:{big}:0:n",
    "c:-{a}:{deal}:{card}",
    "c:{a}:-1:{card}",
    "l:-{b}:join",
    "o:-1:deck",
    "r:{a}:-5:y",
    "c:-9223372036854775809:0:{card}",
    "c:9223372036854775808:0:AS",
    "c: {a} :{deal}:{card}",
    "c:{a}:{deal}: {card} ",
    "c:+{a}:{deal}:{card}",
    "c:{a}:0{deal}:{card}",
    "l: {b}:join",
    "c:{a}:{deal}:{card}\n",
    "c:²:0:AS",
    "l:³:join",
    "c:١:٠:AS",
    "o:²:deck",
    "\x00\x00",
    "c:\x00:0:AS",
    "😀" * 20,
    "Ӂ" * 40,
)
NAMES = (
    "<b>Жирный</b>",
    "Tom & Jerry",
    "&amp;",
    "a" * 64,
    "👨‍👩‍👧‍👦",
    "\u202eлеворукий",
    'O\'Neil "Q"',
    "<a href='x'>",
    "Zalgo\u0301\u0302\u0303",
)
LANGUAGE_CODES = ("xx", "en-US", "uk", "zz_ZZ", "EN", "ru-RU", "de", "")
UNICODE = "йцукенгшщзхъЁё€£¥✓♠♥♦♣🂡😀🐐\u200b\u200d\u202e\x00\ufeffعربی中文ʼ²³١٢"
CHANNEL: JsonDict = {"id": -1009999999999, "type": "channel", "title": "Канал <козлов>"}
STRANGE_CHAT: JsonDict = {"id": -1007777777777, "type": "supergroup", "title": "Чужая"}
STICKER: JsonDict = {
    "file_id": "x",
    "file_unique_id": "y",
    "width": 1,
    "height": 1,
    "is_animated": False,
    "is_video": False,
    "type": "regular",
}


# -- the world -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A game as stored, read back to decide which updates would change it."""

    game_id: int
    chat_id: int
    status: str
    creator_id: int
    seats: tuple[int | None, ...]
    state: MatchState | None

    def seat_of(self, user_id: int) -> int | None:
        return self.seats.index(user_id) if user_id in self.seats else None

    @property
    def live(self) -> bool:
        return self.status in ("lobby", "playing")

    @property
    def deal_no(self) -> int:
        current = None if self.state is None else self.state.current
        return 0 if current is None else current.deal_no


@dataclass
class World:
    """Everything the fuzz picks from, as it was before the fuzz."""

    players: Players
    lobby: Group
    others: list[Group]
    games: dict[int, Game]
    people: list[User]
    robot: User
    private_open: dict[int, bool]
    pool: list[ChatMessage] = field(default_factory=list)
    """Every message of every chat (the bot's and people's)."""
    buttons: list[str] = field(default_factory=list)
    """The callback data of every button the bot showed."""

    @property
    def groups(self) -> list[Group]:
        return [self.players.group, self.lobby, *self.others]

    def live_game(self, chat_id: int) -> Game | None:
        found = [g for g in self.games.values() if g.chat_id == chat_id and g.live]
        return found[0] if found else None

    def seated_anywhere(self, user_id: int) -> bool:
        """One live seat per person: someone seated may not join another table."""
        return any(g.live and g.seat_of(user_id) is not None for g in self.games.values())

    @property
    def match(self) -> Game:
        game = self.live_game(self.players.group.id)
        assert game is not None and game.status == "playing"
        return game

    @property
    def open_lobby(self) -> Game:
        game = self.live_game(self.lobby.id)
        assert game is not None and game.status == "lobby"
        return game

    @property
    def ended(self) -> Game:
        return next(g for g in self.games.values() if not g.live)


def _read_games(db_path: Path) -> dict[int, Game]:
    with closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT game_id, chat_id, status, data FROM games").fetchall()
    games = {}
    for game_id, chat_id, status, text in rows:
        data = json.loads(text)
        seats = tuple(None if p is None else p.get("user_id") for p in data["seats"])
        state = None if data.get("state") is None else MatchState.load(data["state"])
        games[game_id] = Game(game_id, chat_id, status, data["creator_id"], seats, state)
    return games


def _private_open(db_path: Path) -> dict[int, bool]:
    with closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT user_id, private_open FROM users").fetchall()
    return {user_id: bool(is_open) for user_id, is_open in rows}


async def _build_world(emu: BotApiEmulator, bot: BotRunner, db_path: Path) -> World:
    """The match, the lobby, the stopped game, and people and chats of every kind."""
    # Lyusya wipes the other pair's eyes rather than winning the match, so the first deal
    # never ends it, whatever the shuffle.
    players = await seat_four(emu, options="seating=ordered move_time=0 lyusya=zero")
    # Play the first deal through and a card of the second: old hand buttons go stale.
    while True:
        await bot.drain()
        await players.next_turn()
        (game,) = _read_games(db_path).values()
        current = None if game.state is None else game.state.current
        if current is not None and current.deal_no >= 1 and current.trick:
            break
        assert not players.match_over, "the match must outlast its first deal"
        await players.play_one()
    ann, boris = players.users[0], players.users[1]
    dana = emu.add_user(first_name="Дана", language_code="uk")
    efim = emu.add_user(first_name="Ефим", language_code="en")
    zhora = emu.add_user(first_name="Жора")
    zoya = emu.add_user(first_name="Зоя", language_code=None)
    lobby = emu.add_group(
        title="Вторая", members=[dana, efim, zhora, zoya, boris, ann], admins=[dana], creator=dana
    )
    for person in (zhora, zoya):
        emu.add_member(players.group, person)
    for person in (dana, efim):
        await emu.start_private(person)

    def lobby_shows(line: str) -> bool:
        message = emu.find_message(lobby.id, "1. Дана")
        return message is not None and line in message.text

    emu.send_text(dana, lobby.id, "/newgame move_time=0")
    await emu.wait_for(lambda: lobby_shows("1. Дана"))
    emu.send_text(efim, lobby.id, "/join")
    await emu.wait_for(lambda: lobby_shows("2. Ефим"))
    emu.send_text(boris, lobby.id, "/join")  # sits at the match already: refused (the link
    await emu.wait_for(lambda: emu.find_message(lobby.id, "другим столом") is not None)
    await emu.wait_for(lambda: emu.find_message(boris.id, "Козлятня") is not None)  # privately)
    assert not lobby_shows("3. Борис")
    emu.send_text(zhora, lobby.id, "/join")  # never opened the private chat: asked to
    await emu.wait_for(lambda: emu.find_message(lobby.id, "Жора") is not None)
    # Strangers: people the bot never saw (two opened the private chat), and a bot account.
    wanderer = emu.add_user(first_name="Странник", username="wanderer", language_code="xx")
    hacker = emu.add_user(first_name="<i>Хакер</i> & co", language_code="en")
    wanderer.started = hacker.started = True
    robot = emu.add_user(first_name="Robo", username="robo_bot", language_code=None)
    third = emu.add_group(title="Третья <b>группа</b>", members=[wanderer, hacker, zoya])
    basic = emu.add_group(title="Basic", members=[ann, wanderer])
    basic.type = "group"
    # A stopped game: Странник starts one with computers in the basic group, then stops it
    # (Аня may not: she sits at the match, and one person sits at one table at a time).
    await emu.start_private(wanderer)
    emu.send_text(wanderer, basic.id, "/newgame move_time=0")
    await emu.wait_for(lambda: emu.find_message(basic.id, "набор за стол") is not None)
    stopped = emu.find_message(basic.id, "набор за стол")
    assert stopped is not None
    await emu.press(wanderer, basic.id, stopped.message_id, text="Начать с ботами")
    await emu.wait_for(lambda: emu.find_message(basic.id, "Сдача 1") is not None)
    await bot.drain()
    emu.send_text(wanderer, basic.id, "/stop")
    await emu.wait_for(lambda: emu.find_message(basic.id, "Игра остановлена") is not None)
    await emu.settle(quiet=0.3)
    await bot.drain()
    people = [*players.users, dana, efim, zhora, zoya, wanderer, hacker]
    games, private_open = _read_games(db_path), _private_open(db_path)
    world = World(players, lobby, [third, basic], games, people, robot, private_open)
    assert world.match.deal_no >= 1 and world.open_lobby and world.ended.status == "stopped"
    chats = [g.id for g in world.groups] + [p.id for p in people]
    world.pool = [m for c in chats for m in emu.all_messages(c, include_deleted=True)]
    shown = {data for m in world.pool for row in m.buttons for _, data in row}
    world.buttons = sorted(data for data in shown if not data.startswith("http"))
    return world


# -- what an update would do -----------------------------------------------------------------


def _command_of(text: str, entities: list[JsonDict]) -> tuple[str, list[str]] | None:
    """The command and arguments PTB's ``CommandHandler`` sees, if it is addressed to us."""
    if not _is_command(entities):
        return None
    name, _, bot = text[1 : int(entities[0]["length"])].partition("@")
    if bot and bot.lower() != BOT_USERNAME:
        return None
    return name.lower(), text.split()[1:]


def _is_command(entities: list[JsonDict]) -> bool:
    """PTB's ``filters.COMMAND``: a bot command entity at the start."""
    return (
        bool(entities)
        and entities[0].get("type") == "bot_command"
        and not entities[0].get("offset")
    )


def _game_named(payload: str) -> int | None:
    """The game a ``/start`` payload names, read as loosely as any parser could."""
    for prefix in ("join-", "hand-"):
        if payload.startswith(prefix):
            try:
                return int(payload[len(prefix) :])
            except ValueError:
                return None
    return None


def _valid_options(args: list[str]) -> bool:
    try:
        preset(DEFAULT_PRESET).parse(args)
    except Exception:
        return False
    return True


class Oracle:
    """Decides, from the world before the fuzz, whether an update would rightly change it."""

    def __init__(self, emu: BotApiEmulator, world: World) -> None:
        self.emu = emu
        self.world = world

    def _admin(self, chat_id: int, user_id: int) -> bool:
        group = self.emu.groups.get(chat_id)
        return group is not None and (user_id in group.admins or user_id == group.creator_id)

    def _started(self, user_id: int) -> bool:
        user = self.emu.users.get(user_id)
        return user is not None and user.started

    def command(
        self, user_id: int | None, chat: JsonDict, text: str, entities: list[JsonDict]
    ) -> bool:
        """Whether a message (new or edited) would change the state."""
        parsed = _command_of(text, entities)
        if parsed is None or user_id is None:
            return False
        name, args = parsed
        private = chat.get("type") == "private"
        game = None if private else self.world.live_game(int(chat["id"]))
        seated = game is not None and game.seat_of(user_id) is not None
        playing = game is not None and game.status == "playing"
        if name == "start":
            if not private:
                return False
            if not self._started(user_id) or not self.world.private_open.get(user_id, True):
                return True  # opening the private chat is a legitimate change
            game_id = _game_named(args[0]) if args else None
            named = None if game_id is None else self.world.games.get(game_id)
            return (
                named is not None
                and named.live
                and (named.status == "lobby" or named.seat_of(user_id) is not None)
            )
        if name == "newgame":
            return not private and game is None and _valid_options(args)
        if name == "join":
            # A lobby seat, or during a match a computer-held seat (refused when every seat
            # is a person's; counted as a change anyway: the oracle may only over-include).
            return (
                game is not None
                and not seated
                and self._started(user_id)
                and not self.world.seated_anywhere(user_id)
            )
        if name == "play":  # a match against the computer in the private chat
            return private and not self.world.seated_anywhere(user_id)
        if name == "leave":
            return seated
        if name == "hand":
            if private:
                return any(
                    g.status == "playing" and g.seat_of(user_id) is not None
                    for g in self.world.games.values()
                )
            return seated and playing
        if name == "table":
            return playing
        if name == "stop":
            return game is not None and (
                user_id == game.creator_id
                or self._admin(game.chat_id, user_id)
                or (playing and seated)  # a seated person's /stop starts or joins a vote
            )
        if name == "language":
            return bool(args) and supported(args[0]) is not None
        return False

    def press(self, user_id: int, chat_id: int | None, data: str | None) -> bool:
        """Whether a button press would change the state."""
        button = callbacks.parse(data)
        if button is None or isinstance(button, callbacks.HistoryButton):
            return False  # history pages only read
        if isinstance(button, callbacks.SettingsButton):  # an admin changes chat settings
            return chat_id is not None and self._admin(chat_id, user_id)
        game = self.world.games.get(button.game_id)
        if game is None or not game.live:
            return False
        seat = game.seat_of(user_id)
        if isinstance(button, callbacks.VoteButton | callbacks.BackButton):
            return seat is not None and game.status == "playing"
        if isinstance(
            button, callbacks.SealButton | callbacks.AnalysisButton | callbacks.HintButton
        ):
            return False  # a public seal, the deals' check, advice: shown, never a change
        if isinstance(button, PlayButton | RedealButton):
            if seat is None or game.state is None or button.deal_no != game.deal_no:
                return False
            action: Action
            if isinstance(button, PlayButton):
                action = PlayCard(button.card)
            else:
                action = AskRedeal() if button.redeal else KeepHand()
            return action in game.state.legal_actions(seat)
        lobby = game.status == "lobby"
        if chat_id != game.chat_id:
            return False
        if isinstance(button, callbacks.OptionButton):
            return lobby and user_id == game.creator_id and button.key in OPTION_KEYS
        if button.verb == "join":
            return lobby and seat is None and self._started(user_id)
        if button.verb == "leave":
            return seat is not None
        return lobby and user_id == game.creator_id


# -- the fuzzer ------------------------------------------------------------------------------


class Fuzzer:
    """Builds random updates that change nothing and queues them in the emulator."""

    def __init__(self, emu: BotApiEmulator, world: World, rng: random.Random) -> None:
        self.emu = emu
        self.world = world
        self.rng = rng
        self.oracle = Oracle(emu, world)
        self.sent: dict[int, JsonDict] = {}
        """Update id → payload, to name the update behind a failure."""
        self.queries: dict[str, int] = {}
        """Callback query id → its update id."""
        self.batch_private: set[int] = set()
        """People who sent a private command in the batch being queued."""
        self.private_commands: Counter[int] = Counter()
        """Commands people sent in their own private chat (each must be answered)."""
        self.kinds: Counter[str] = Counter()
        self.dropped: Counter[str] = Counter()
        """Candidates the oracle refused (they would rightly change the state)."""
        self.posted: list[ChatMessage] = []
        self._ids = 0
        self.makers: list[tuple[int, Callable[[], JsonDict | None]]] = [
            (22, self.forged_press),
            (18, self.replayed_press),
            (6, self.own_hand_press),
            (3, self.inline_press),
            (24, self.command),
            (4, self.long_text),
            (5, self.edited),
            (3, self.channel_post),
            (6, self.service_message),
            (3, self.inline_query),
            (4, self.without_sender),
            (2, self.odd_update),
        ]

    # -- building blocks -----------------------------------------------------------------

    def _fill(self, template: str) -> str:
        """A template with the world's ids and random deal numbers, cards and big numbers."""
        rng, world = self.rng, self.world
        match = world.match
        card = str(rng.choice(DECK_36))
        return template.format(
            a=match.game_id,
            b=world.open_lobby.game_id,
            ended=world.ended.game_id,
            deal=rng.choice([match.deal_no, match.deal_no, match.deal_no - 1, match.deal_no + 1]),
            card=card,
            card_lower=card.lower(),
            big=rng.randint(10**59, 10**60 - 1),
        )

    def _garbage(self, size: int, alphabet: str = string.printable) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(size))

    def _person(self) -> User:
        """Someone to act: mostly the players, sometimes others or the bot account."""
        rng, world = self.rng, self.world
        if rng.random() < 0.1:
            return world.robot
        if rng.random() < 0.45:
            return rng.choice(world.players.users)
        return rng.choice(world.people)

    def _sender(self, user: User) -> JsonDict:
        """The ``from`` of an update: as Telegram says it, or with an odd name or language."""
        data = user.to_json()
        if user is self.world.robot:
            data["is_bot"] = True
        roll = self.rng.random()
        if roll < 0.08:
            data["language_code"] = self.rng.choice(LANGUAGE_CODES)
        elif roll < 0.12:
            data["first_name"] = self.rng.choice(NAMES)
        elif roll < 0.14:
            data.update(is_premium=True, last_name=self.rng.choice(NAMES))
        return data

    def _group(self) -> Group:
        return self.rng.choices(self.world.groups, weights=(4, 3, 2, 1))[0]

    def _chat_for(self, user: User, command: str = "") -> tuple[JsonDict, bool]:
        """A chat to write in, and whether it is the writer's own private chat."""
        rng = self.rng
        roll = rng.random()
        if command == "start" and user.started and roll < 0.8:
            return user.chat_json(), True
        if command == "newgame" and roll < 0.5:
            return rng.choice(self.world.others).to_json(), False
        if user.started and roll < 0.4:
            return user.chat_json(), True
        if roll < 0.45:  # someone else's private chat (a forged update)
            other = rng.choice([p for p in self.world.people if p.started])
            return other.chat_json(), other is user
        return self._group().to_json(), False

    def _store(
        self, chat: JsonDict, sender: JsonDict | None, text: str, entities: list[JsonDict]
    ) -> JsonDict:
        """A person's message, kept in its chat (the bot's replies quote it), as JSON."""
        message = ChatMessage(
            chat=chat,
            message_id=self.emu.new_message_id(int(chat["id"])),
            date=int(time.time()),
            sender=sender or {},
            from_bot=False,
            text=text,
            html=text,
            entities=entities,
        )
        self.posted.append(self.emu.store(message))
        data = message.to_json()
        if sender is None:
            data.pop("from")
        if not text:
            data.pop("text")
        return data

    def _command_text(self) -> tuple[str, str]:
        """A command line and the command's name (in lower case)."""
        rng = self.rng
        name = rng.choice(COMMANDS) if rng.random() < 0.85 else rng.choice(UNKNOWN_COMMANDS)
        typed = name.upper() if rng.random() < 0.05 else name
        own = {"start": START_ARGS, "newgame": NEWGAME_ARGS, "language": LANGUAGE_ARGS}
        roll = rng.random()
        if name in own and roll < 0.75:
            args = self._fill(rng.choice(own[name]))
        elif roll < 0.85:
            args = self._fill(rng.choice([*START_ARGS, *NEWGAME_ARGS, *ANY_ARGS]))
        elif roll < 0.95:
            args = self._garbage(rng.randint(1, 40), rng.choice([string.printable, UNICODE]))
        else:
            args = "x" * rng.randint(200, 4000)
        text = f"/{typed}{rng.choice(SUFFIXES)}" + (f" {args}" if args else "")
        return text, name

    def _forged_data(self) -> str:
        rng, buttons = self.rng, self.world.buttons
        real = rng.choice(buttons)
        roll = rng.random()
        if roll < 0.55:
            return self._fill(rng.choice(FORGED_DATA))
        if roll < 0.65:
            return self._garbage(rng.randint(1, 64))
        if roll < 0.72:
            return self._garbage(rng.randint(1, 40), UNICODE)
        if roll < 0.78:
            return self._garbage(rng.randint(65, 400))
        if roll < 0.85:
            return real[: rng.randint(0, len(real) - 1)]
        if roll < 0.92:
            return real + rng.choice([":", "x", "\x00", "😀", ":" + self._garbage(3)])
        index = rng.randrange(len(real))
        return real[:index] + rng.choice(string.printable + "١²😀") + real[index + 1 :]

    def _press_target(self) -> tuple[JsonDict | None, ChatMessage]:
        """The message a press comes from (``None``: an inline message), and one to record."""
        rng = self.rng
        shown = rng.choice(self.world.pool)
        roll = rng.random()
        if roll < 0.75:
            return shown.to_json(), shown
        if roll < 0.9:
            chats = [
                STRANGE_CHAT,
                CHANNEL,
                *(g.to_json() for g in self.world.groups),
                *(p.chat_json() for p in self.world.people),
            ]
            message_id = rng.choice(
                [0, -1, 1, shown.message_id, rng.randint(1, 10**6), rng.randint(10**59, 10**60)]
            )
            fake: JsonDict = {"message_id": message_id, "chat": rng.choice(chats), "date": 0}
            if rng.random() < 0.5:  # not an inaccessible message: one of the bot's
                fake.update(date=int(time.time()), text=self._garbage(10, UNICODE))
                fake["from"] = self.emu.bot_json()
            return fake, shown
        return None, shown

    def _press(
        self, user: User, data: str | None, message: JsonDict | None, shown: ChatMessage
    ) -> JsonDict | None:
        chat_id = None if message is None else int(message["chat"]["id"])
        if self.oracle.press(user.id, chat_id, data):
            return None
        self._ids += 1
        query_id = f"fuzz{self._ids}"
        payload: JsonDict = {
            "id": query_id,
            "from": self._sender(user),
            "chat_instance": str(self.rng.randint(-(2**62), 2**62)),
        }
        if data is None:
            payload["game_short_name"] = "kozel"
        else:
            payload["data"] = data
        if message is None:
            payload["inline_message_id"] = "BAAAA" + self._garbage(20, string.ascii_letters)
        else:
            payload["message"] = message
        self.emu.queries[query_id] = CallbackQuery(query_id, user, shown, data or "")
        return {"callback_query": payload}

    def _message(
        self, user: User, chat: JsonDict, own: bool, text: str, entities: list[JsonDict]
    ) -> JsonDict | None:
        if self.oracle.command(user.id, chat, text, entities):
            return None
        sender = self._sender(user)
        if own and user.started and not sender["is_bot"] and _is_command(entities):
            if user.id in self.batch_private:
                # Replies a burst left waiting coalesce or drop by design (the presenter's
                # MAX_NOTES): one private command per person per batch keeps "every command
                # is answered" checkable.
                return None
            self.batch_private.add(user.id)
            self.private_commands[user.id] += 1
        return {"message": self._store(chat, sender, text, entities)}

    # -- kinds of updates ----------------------------------------------------------------

    def forged_press(self) -> JsonDict | None:
        """Callback data no button carries: garbage, truncated, oversized, huge numbers."""
        message, shown = self._press_target()
        return self._press(self._person(), self._forged_data(), message, shown)

    def replayed_press(self) -> JsonDict | None:
        """A real button (of any game, any deal) pressed from anywhere by anyone."""
        rng, world = self.rng, self.world
        some = rng.choice([world.match, world.match, world.open_lobby, world.ended])
        deal = rng.choice([some.deal_no, some.deal_no - 1, some.deal_no + 1])
        made = [
            f"c:{some.game_id}:{deal}:{rng.choice(DECK_36)}",
            f"r:{some.game_id}:{deal}:{rng.choice('yn')}",
            f"l:{some.game_id}:{rng.choice(callbacks.LOBBY_VERBS)}",
            f"o:{some.game_id}:{rng.choice([*sorted(OPTION_KEYS), 'eggs'])}",
        ]
        data = rng.choice(world.buttons) if rng.random() < 0.6 else rng.choice(made)
        message, shown = self._press_target()
        return self._press(self._person(), data, message, shown)

    def own_hand_press(self) -> JsonDict | None:
        """A player presses a button of their own latest hand: out of turn, a marked card."""
        players = self.world.players
        user = self.rng.choice(players.users)
        hand = players.hand_message(user)
        if hand is None:
            return None
        data = self.rng.choice([d for row in hand.buttons for _, d in row])
        return self._press(user, data, hand.to_json(), hand)

    def inline_press(self) -> JsonDict | None:
        """A press without a message (an inline message) or without data (a game button)."""
        data = None if self.rng.random() < 0.3 else self.rng.choice(self.world.buttons)
        return self._press(self._person(), data, None, self.rng.choice(self.world.pool))

    def command(self) -> JsonDict | None:
        """A command, known or not, with odd arguments, in a group or a private chat."""
        user = self._person()
        text, name = self._command_text()
        chat, own = self._chat_for(user, name)
        entities = command_entities(text)
        if self.rng.random() < 0.05:  # a client that got the entity wrong
            entities = [{"type": "bot_command", "offset": 0, "length": len(text) + 50}]
        return self._message(user, chat, own, text, entities)

    def long_text(self) -> JsonDict | None:
        """A message of 4096 characters, a command or not."""
        user = self._person()
        head, name = self._command_text() if self.rng.random() < 0.7 else ("", "")
        chat, own = self._chat_for(user, name)
        filler = self.rng.choice(["я", "x", "<", "&", " ", "/", "😀"])
        size = 4096 if filler != "😀" else 2048  # UTF-16 code units, as Telegram counts
        text = (head + " " + filler * 4096)[:size]
        return self._message(user, chat, own, text, command_entities(text))

    def edited(self) -> JsonDict | None:
        """A person edits an earlier message into a command."""
        earlier = [m for m in self.posted if m.chat.get("type") != "channel" and m.text]
        if not earlier:
            return None
        original = self.rng.choice(earlier)
        text, _ = self._command_text()
        entities = command_entities(text)
        if self.oracle.command(original.sender.get("id"), original.chat, text, entities):
            return None
        data = original.to_json()
        if not original.sender:
            data.pop("from")
        data.update(text=text, entities=entities, edit_date=int(time.time()))
        if not entities:
            data.pop("entities")
        return {"edited_message": data}

    def channel_post(self) -> JsonDict | None:
        """A post (or an edited one) in a channel: no ``from``, only ``sender_chat``."""
        text, _ = self._command_text()
        data = self._store(CHANNEL, None, text, command_entities(text))
        data["sender_chat"] = CHANNEL
        if self.rng.random() < 0.3:
            data["edit_date"] = int(time.time())
            return {"edited_channel_post": data}
        return {"channel_post": data}

    def service_message(self) -> JsonDict | None:
        """Someone joins or leaves, the title changes, a message is pinned."""
        rng = self.rng
        group = self._group()
        members = [
            self._sender(rng.choice(self.world.people)),
            self.emu.bot_json(),
            {**self.world.robot.to_json(), "is_bot": True},
        ]
        pinned = rng.choice(self.world.pool).to_json(with_reply=False)
        extra: JsonDict = rng.choice(
            [
                {"new_chat_members": rng.sample(members, rng.randint(1, 3))},
                {"left_chat_member": rng.choice(members)},
                {"new_chat_title": rng.choice([*NAMES, "x" * 128])},
                {"pinned_message": pinned},
                {
                    "pinned_message": {
                        "message_id": rng.randint(1, 10**6),
                        "date": 0,
                        "chat": group.to_json(),
                    }
                },
                {"group_chat_created": True},
                {"delete_chat_photo": True},
            ]
        )
        data = self._store(group.to_json(), self._sender(self._person()), "", [])
        data.update(extra)
        return {"message": data}

    def inline_query(self) -> JsonDict | None:
        """Inline mode (the bot does not offer it) and a chosen inline result."""
        rng = self.rng
        sender = self._sender(self._person())
        if rng.random() < 0.2:
            query = self._garbage(12, UNICODE)
            return {"chosen_inline_result": {"result_id": "1", "from": sender, "query": query}}
        self._ids += 1
        text = rng.choice(
            [self._command_text()[0][:256], self._garbage(30, UNICODE), "", "x" * 256]
        )
        return {
            "inline_query": {
                "id": f"inline{self._ids}",
                "from": sender,
                "query": text,
                "offset": rng.choice(["", "10", "-1"]),
            }
        }

    def without_sender(self) -> JsonDict | None:
        """A command without ``from``: an anonymous admin, a channel speaking in a group."""
        group = self._group()
        text, _ = self._command_text()
        data = self._store(group.to_json(), None, text, command_entities(text))
        data["sender_chat"] = self.rng.choice([group.to_json(), CHANNEL])
        return {"message": data}

    def odd_update(self) -> JsonDict | None:
        """An update of no kind the bot knows, or a message without text (a sticker)."""
        if self.rng.random() < 0.5:
            return {}
        user = self._person()
        chat, _ = self._chat_for(user)
        data = self._store(chat, self._sender(user), "", [])
        data["sticker"] = STICKER
        return {"message": data}

    # -- queueing ------------------------------------------------------------------------

    def queue_one(self) -> None:
        """Queue one update that changes nothing."""
        makers = [maker for _, maker in self.makers]
        weights = [weight for weight, _ in self.makers]
        while True:
            maker = self.rng.choices(makers, weights)[0]
            payload = maker()
            if payload is None:
                self.dropped[maker.__name__] += 1
                continue
            update_id = self.emu.enqueue_update(payload)
            self.sent[update_id] = payload
            query = payload.get("callback_query")
            if query is not None:
                self.queries[query["id"]] = update_id
            self.kinds[maker.__name__] += 1
            return


# -- checks ----------------------------------------------------------------------------------


def _snapshot(db_path: Path) -> dict[str, Any]:
    """Everything the fuzz must not change (users and chats by id, the rest as rows)."""
    with closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        db.row_factory = sqlite3.Row

        def rows(sql: str) -> list[dict[str, Any]]:
            return [dict(row) for row in db.execute(sql)]

        seen = ("updated_at", "first_name", "username", "language_code")
        users = rows("SELECT * FROM users")
        chats = rows("SELECT * FROM chats")
        return {
            "games": rows(
                "SELECT game_id, chat_id, status, version, deadline, data FROM games"
                " ORDER BY game_id"
            ),
            "moves": rows("SELECT * FROM moves ORDER BY game_id, seq"),
            "deals": rows("SELECT * FROM deals ORDER BY game_id, deal_no"),
            "matches": rows("SELECT * FROM matches ORDER BY game_id"),
            "users": {r["user_id"]: {k: v for k, v in r.items() if k not in seen} for r in users},
            "chats": {
                r["chat_id"]: {k: v for k, v in r.items() if k != "updated_at"} for r in chats
            },
        }


def _state_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    problems = []
    for table in ("games", "moves", "deals", "matches"):
        if before[table] != after[table]:
            old = {json.dumps(r, sort_keys=True) for r in before[table]}
            new = {json.dumps(r, sort_keys=True) for r in after[table]}
            problems.append(f"{table}: gone {sorted(old - new)}; new {sorted(new - old)}"[:3000])
    for table in ("users", "chats"):
        for key, row in before[table].items():
            if after[table].get(key) != row:
                problems.append(f"{table} {key}: {row} -> {after[table].get(key)}")
        for key in after[table].keys() - before[table].keys():
            row = after[table][key]
            if row.get("language") is not None or row.get("abandons"):
                problems.append(f"new {table} row {key} with state: {row}")
    return problems


def _errors(records: list[logging.LogRecord], sent: dict[int, JsonDict]) -> list[str]:
    """Distinct ERROR records of the bot: the exception, its last frames, the first update."""
    found: dict[str, tuple[int, str]] = {}
    for record in records:
        if record.levelno < logging.ERROR or not record.name.startswith(LOGGERS):
            continue
        error = record.exc_info[1] if record.exc_info else None
        key = f"{record.name}: {record.getMessage()[:300]}"
        if error is not None:
            frames = [
                f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}"
                for frame in traceback.extract_tb(error.__traceback__)
                if "site-packages" not in frame.filename
            ]
            where = " <- ".join(reversed(frames[-3:]))
            key = f"{record.name}: {type(error).__name__}: {str(error)[:120]} at {where}"
        update = next((a for a in record.args or () if isinstance(a, Update)), None)
        shown = "(no update)"
        if update is not None:
            shown = json.dumps(sent.get(update.update_id, {}), ensure_ascii=False)[:600]
        count, first = found.get(key, (0, shown))
        found[key] = (count + 1, first)
    return [f"{count}x {key}\n    update: {first}" for key, (count, first) in found.items()]


def _refused_requests(calls: list[ApiCall]) -> list[str]:
    """Distinct 400s of the bot's requests (a too long or empty text, a missing chat, ...),
    but not those the presenter expects when it edits (the message is gone or unchanged)."""
    found: dict[str, tuple[int, str]] = {}
    for call in calls:
        reason = (call.description or "").lower()
        if call.error_code != 400 or "not modified" in reason or "to edit not found" in reason:
            continue
        key = f"{call.method}: {call.description}"
        count, first = found.get(key, (0, str(call)[:400]))
        found[key] = (count + 1, first)
    return [f"{count}x {key}\n    {first}" for key, (count, first) in found.items()]


async def _idle(emu: BotApiEmulator, bot: BotRunner, quiet: float = 0.05) -> None:
    """Wait until every update was handled and the bot sent nothing for ``quiet`` seconds."""
    app = bot.app
    assert app is not None
    while True:
        calls = len(emu.history)
        await asyncio.sleep(quiet)
        await bot.drain()
        if (
            emu.undelivered_updates == 0
            and app.update_queue.empty()
            and app.update_processor.current_concurrent_updates == 0
            and len(emu.history) == calls
        ):
            return


# -- the test --------------------------------------------------------------------------------


async def test_random_and_malformed_updates_change_nothing_and_raise_nothing(
    emu: BotApiEmulator, bot: BotRunner, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with asyncio.timeout(120):
        world = await _build_world(emu, bot, db_path)
    assert not _errors(caplog.records, {}), "the world was not built cleanly"
    before = _snapshot(db_path)
    private_before = {p.id: len(emu.messages(p.id, include_deleted=True)) for p in world.people}
    calls_before = len(emu.history)
    fuzzer = Fuzzer(emu, world, random.Random(SEED))
    report = []
    changed_in: list[str] = []
    started = time.monotonic()
    for first in range(0, UPDATES, BATCH):
        fuzzer.batch_private.clear()
        for _ in range(min(BATCH, UPDATES - first)):
            fuzzer.queue_one()
        try:
            async with asyncio.timeout(60):
                await _idle(emu, bot)
        except TimeoutError:
            report.append(
                f"the bot was still busy 60 s after the batch from update {first}:\n"
                + emu.describe_recent_calls()
            )
            break
        if not changed_in and _state_changes(before, _snapshot(db_path)):
            batch = list(fuzzer.sent.items())[first:]
            changed_in = [f"  {i}: {json.dumps(p, ensure_ascii=False)[:300]}" for i, p in batch]
    else:
        await _idle(emu, bot, quiet=0.3)
    print(
        f"\n{UPDATES} updates (seed {SEED}) in {time.monotonic() - started:.1f} s;"
        f" sent {dict(fuzzer.kinds)}; dropped as legitimate {dict(fuzzer.dropped)}"
    )

    if errors := _errors(caplog.records, fuzzer.sent):
        report.append("unhandled errors:\n" + "\n".join(errors))
    if changes := _state_changes(before, _snapshot(db_path)):
        report.append("state changed:\n" + "\n".join(changes))
        report.append("first changed by the batch:\n" + "\n".join(changed_in))
    unanswered = [
        f"  {json.dumps(fuzzer.sent[update_id], ensure_ascii=False)[:300]}"
        for query_id, update_id in fuzzer.queries.items()
        if emu.queries[query_id].answer is None
    ]
    if unanswered:
        report.append(
            f"{len(unanswered)} unanswered button presses:\n" + "\n".join(unanswered[:20])
        )
    unreplied = {}
    for person in world.people:
        replies = len(emu.messages(person.id, include_deleted=True)) - private_before[person.id]
        if replies < fuzzer.private_commands[person.id]:
            unreplied[person.first_name] = (fuzzer.private_commands[person.id], replies)
    if unreplied:
        report.append(f"private commands without a reply (commands, replies): {unreplied}")
    if refused := _refused_requests(emu.history[calls_before:]):
        report.append("requests the Bot API refused:\n" + "\n".join(refused))
    assert not report, "\n\n".join(report)
