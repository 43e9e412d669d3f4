"""The sandbox's world: one group chat and four people in the emulator, and the file it lives in.

The four people (Аня, Борис, Вера, Глеб by default; names and languages editable) have each
opened the bot's private chat; person 1 created the group and is its admin. The whole emulated
Telegram — people, chats, every message with its id, edits and buttons, the id counters — is
kept in ``<database>.chats.json`` beside the sandbox's database, so that after a restart the
message ids the bot stored still exist and its games resume where they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from botapi_emulator import BotApiEmulator, ChatMessage, Group, User

log = logging.getLogger(__name__)

JsonDict = dict[str, Any]

LANGUAGES = ("ru", "uk", "en")
"""The languages a person may pick (their Telegram ``language_code``)."""
DEFAULT_NAMES = ("Аня", "Борис", "Вера", "Глеб")
GROUP_TITLES = {"en": "Sandbox group"}
"""The group's title by the bot's default language (``KOZEL_LANGUAGE``); else Козлятня."""
DEFAULT_GROUP_TITLE = "Козлятня"
MAX_NAME_LENGTH = 64
MESSAGES_SHOWN = 300
"""Messages of a chat the page gets (the last ones)."""
MESSAGES_KEPT = 500
"""Messages of a chat kept at all; older ones are forgotten as Telegram clients scroll away."""
CALLS_KEPT = 2000
"""Bot API calls kept in the emulator's log."""
SCOPES = {"group": "all_group_chats", "private": "all_private_chats"}
"""The command menus the page shows, by the ``setMyCommands`` scope they come from."""


@dataclass
class Preferences:
    """What the viewer chose, kept across restarts: Telegram's flood limits on or off, and
    watch mode's seconds between moves."""

    limits: bool = True
    delay: float = 1.0

    def to_json(self) -> JsonDict:
        """As kept in the chats file."""
        return {"limits": self.limits, "delay": self.delay}

    @classmethod
    def from_json(cls, data: JsonDict) -> Preferences:
        """The inverse of :meth:`to_json` (defaults for what is missing)."""
        return cls(limits=bool(data.get("limits", True)), delay=float(data.get("delay", 1.0)))


@dataclass
class World:
    """The sandbox's group and people inside an emulator."""

    emu: BotApiEmulator
    group: Group
    people: list[User]
    preferences: Preferences = field(default_factory=Preferences)

    @classmethod
    def create(cls, emu: BotApiEmulator, language: str = "ru") -> World:
        """A new world: four people and their group, person 1 its creator and admin. They
        have not pressed Start yet (``start_private`` once the bot runs)."""
        people = [
            emu.add_user(first_name=name, language_code=language if language in LANGUAGES else "ru")
            for name in DEFAULT_NAMES
        ]
        group = emu.add_group(
            title=GROUP_TITLES.get(language, DEFAULT_GROUP_TITLE),
            members=people,
            admins=people[:1],
            creator=people[0],
        )
        return cls(emu, group, people)

    @classmethod
    def restore(cls, emu: BotApiEmulator, data: JsonDict) -> World:
        """The world of a chats file (:meth:`to_json`); ValueError if it does not fit."""
        try:
            emu.restore(data["emulator"])
            own = data["sandbox"]
            group = emu.groups[int(own["group"])]
            people = [emu.users[int(person)] for person in own["people"]]
            preferences = Preferences.from_json(own.get("preferences", {}))
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a sandbox chats file: {error!r}") from error
        if len(people) != len(DEFAULT_NAMES):
            raise ValueError("not a sandbox chats file: it has no four people")
        return cls(emu, group, people, preferences)

    def to_json(self) -> JsonDict:
        """Everything to keep: the emulator's world and which of it is the sandbox's."""
        self.emu.trim(calls=CALLS_KEPT, messages_per_chat=MESSAGES_KEPT)
        return {
            "emulator": self.emu.snapshot(),
            "sandbox": {
                "group": self.group.id,
                "people": [person.id for person in self.people],
                "preferences": self.preferences.to_json(),
            },
        }

    # ----------------------------------------------------------------- looking things up

    def person(self, person_id: int) -> User:
        """One of the four people; KeyError if ``person_id`` is not one of them."""
        for person in self.people:
            if person.id == person_id:
                return person
        raise KeyError(person_id)

    def chat_of(self, person: User, chat_id: int) -> int:
        """``chat_id`` if ``person`` may write there (the group or their own private chat);
        KeyError otherwise."""
        if chat_id in (self.group.id, person.id):
            return chat_id
        raise KeyError(chat_id)

    def is_chat(self, chat_id: int) -> bool:
        """Whether ``chat_id`` is the group or a person's private chat."""
        return chat_id == self.group.id or any(person.id == chat_id for person in self.people)

    # ----------------------------------------------------------------- JSON for the page

    def person_json(self, person: User) -> JsonDict:
        """A person as ``/api/state`` lists them."""
        return {"id": person.id, "name": person.first_name, "language": person.language_code}

    def chats_json(self) -> list[JsonDict]:
        """The group, then each person's private chat with the bot."""
        chats = [{"id": self.group.id, "kind": "group", "title": self.group.title, "person": None}]
        chats += [
            {"id": p.id, "kind": "private", "title": p.first_name, "person": p.id}
            for p in self.people
        ]
        return chats

    def commands_json(self) -> JsonDict:
        """The command menus the bot set, by language ("" = default) and chat kind; a kind
        the bot set no menu for falls back to the default scope's."""
        emu = self.emu
        languages = sorted({language for _, language in emu.commands})
        menus: JsonDict = {}
        for language in languages:
            default = emu.commands.get((_scope_key("default"), language), [])
            menus[language] = {
                kind: list(emu.commands.get((_scope_key(scope), language), default))
                for kind, scope in SCOPES.items()
            }
        return menus

    def message_json(self, message: ChatMessage) -> JsonDict:
        """A message as the page shows it: the bot's HTML as sent, a person's text escaped."""
        emu = self.emu
        sender_id = int(message.sender.get("id", 0))
        if message.from_bot:
            sender = {"id": emu.bot_id, "name": emu.bot_first_name, "bot": True}
        else:
            user = emu.users.get(sender_id)
            name = user.full_name if user is not None else str(message.sender.get("first_name"))
            sender = {"id": sender_id, "name": name, "bot": False}
        if message.from_bot and message.parse_mode:
            text = message.html
        else:
            text = html.escape(message.text, quote=False)
        reply = message.reply_to
        return {
            "chat_id": message.chat_id,
            "message_id": message.message_id,
            "from": sender,
            "html": text,
            "photo": None if message.photo is None else f"/api/photo?id={message.photo.file_id}",
            "date": message.date,
            "edited": message.edits > 0,
            "buttons": [
                [
                    {
                        "text": button.get("text", ""),
                        "data": button.get("callback_data"),
                        "url": button.get("url"),
                        "web_app": (button.get("web_app") or {}).get("url"),
                    }
                    for button in row
                ]
                for row in (message.reply_markup or {}).get("inline_keyboard", [])
            ],
            "reply_to": (
                reply.message_id if reply is not None and reply.chat_id == message.chat_id else None
            ),
        }

    def messages_json(self, chat_id: int) -> list[JsonDict]:
        """The last :data:`MESSAGES_SHOWN` messages of a chat, oldest first."""
        shown = [m for m in self.emu.all_messages(chat_id) if not m.is_service]
        return [self.message_json(message) for message in shown[-MESSAGES_SHOWN:]]


def _scope_key(scope: str) -> str:
    """How the emulator files a ``setMyCommands`` scope."""
    return json.dumps({"type": scope}, sort_keys=True)


class ChatsFile:
    """The world on disk: read at start, written a moment after changes and at the end.

    Writes replace the file atomically (a temporary file, then a rename), so a crash leaves the
    previous version.
    """

    def __init__(self, path: Path, dump: Callable[[], JsonDict], debounce: float = 1.0) -> None:
        self.path = path
        self.dump = dump
        self.debounce = debounce
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = threading.Lock()
        """One write at a time, also when a cancelled write's thread is still running."""

    @staticmethod
    def read(path: Path) -> JsonDict | None:
        """The file's JSON, or None if there is no file; ValueError if it is not JSON."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"{path} holds no JSON object")
        return data

    def start(self) -> None:
        """Write from now on whenever :meth:`mark` was called (at most once per ``debounce``)."""
        self._task = asyncio.create_task(self._writer(), name="sandbox-chats-file")

    def mark(self) -> None:
        """Something changed: write it soon."""
        self._dirty.set()

    async def close(self) -> None:
        """Stop the writer and write one last time."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.write()

    async def _writer(self) -> None:
        while True:
            await self._dirty.wait()
            await asyncio.sleep(self.debounce)
            self._dirty.clear()
            await self.write()

    async def write(self) -> None:
        """Write the world now (errors are logged: the sandbox goes on without its file)."""
        try:
            text = json.dumps(self.dump(), ensure_ascii=False, separators=(",", ":"))
            await asyncio.to_thread(self._replace, text)
        except (OSError, TypeError, ValueError):
            log.exception("could not write %s", self.path)

    def _replace(self, text: str) -> None:
        with self._lock:
            temporary = self.path.with_name(self.path.name + ".tmp")
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, self.path)
