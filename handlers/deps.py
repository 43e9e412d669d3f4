"""The typed ``bot_data`` every handler reaches through ``context.bot_data``.

The composition root (``kozelbot/app.py``) fills it in ``post_init``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from aiohttp import web
from telegram import Bot
from telegram.ext import CallbackContext, ExtBot, JobQueue

from handlers.languages import Translators
from handlers.lifecycle import ChatLifecycle
from handlers.message_book import MessageBook
from handlers.presenter import Presenter
from handlers.selection import Selections
from handlers.sender import Sender
from handlers.throttle import Throttle
from handlers.webapp.hub import Hub
from kozelbot.computer.coach import Coach
from kozelbot.computer.thinking import Thinker
from kozelbot.config import Settings
from kozelbot.core.i18n import Translator, pick_language, translator
from kozelbot.core.metrics import OFF, Meter
from kozelbot.core.table import Table
from kozelbot.core.tournament.model import Tournament
from kozelbot.tables.director import Director
from kozelbot.tables.queries import Queries
from kozelbot.tables.service import GameService
from kozelbot.views.links import WebAppLinks


class Tournaments(Protocol):
    """What handlers ask of the group tournaments' runner (``handlers.tournament_run``).

    **Decision**: a protocol, so that ``BotData`` names no module that reads ``BotData``
    (the runner and the Mini App are built by the composition root, ``kozelbot/app.py``):
    the handlers' imports form no circle, type-only ones included.
    """

    director: Director

    def table_ended(self, table: Table) -> None: ...
    def spawn(self, tournament_id: int) -> None: ...
    async def step(self, tournament_id: int) -> None: ...
    async def begin(self, tour: Tournament) -> Tournament | None: ...
    async def stop(self, tour: Tournament) -> Tournament: ...
    async def resume(self) -> int: ...
    async def on_clock(self, tournament_id: int) -> None: ...


class Server(Protocol):
    """The Mini App's server (``handlers.webapp.server.WebApp``), as the lifecycle sees it."""

    async def start(self, listen: str, port: int) -> None: ...
    async def stop(self) -> None: ...
    async def handle(self, name: str, request: web.Request) -> web.StreamResponse: ...


LOOKUP_TTL = 60.0
"""Seconds a chat administrator or member look-up is trusted."""


class BotData:
    """Services shared by all handlers (``ContextTypes(bot_data=BotData)``)."""

    settings: Settings
    queries: Queries
    """Everything read and written outside the game service (people, boards, posts …)."""
    service: GameService
    coach: Coach
    thinker: Thinker
    presenter: Presenter
    sender: Sender
    messages: MessageBook
    selections: Selections
    lifecycle: ChatLifecycle
    job_queue: JobQueue[Any]
    bot: Bot
    tournaments: Tournaments
    """The group tournaments (issue #19): their director and what shows them."""

    def __init__(self) -> None:
        self.chat_languages: dict[int, str] = {}
        """Cache of each group's language."""
        self.remembered: dict[int, tuple[str, str | None, str | None]] = {}
        """The name, username and language last written for each person."""
        self.presses = Throttle(8, 2.0)
        """Per-user button presses (set from the settings in ``post_init``)."""
        self.commands = Throttle(6, 0.5)
        """Per-user commands."""
        self.meter: Meter = OFF
        """What the bot reports for its operator's metrics (``OFF`` unless they are on)."""
        self.hub = Hub()
        """The Mini App's open streams, nudged by every change shown (``publish.publish``)."""
        self.webapp: Server | None = None
        """The Mini App's server, while ``KOZEL_WEBAPP_URL`` is set."""
        self.links: WebAppLinks | None = None
        """The buttons that open the Mini App, while ``KOZEL_WEBAPP_URL`` is set."""
        self.holds: Callable[[Table], bool] = lambda _table: True
        """Whether this process shows a table's changes and arms its timers: always, but on
        a worker of many only for the places it holds (issue #32)."""
        self.lookups: dict[tuple[str, int, int], tuple[bool, float]] = {}
        """(question, chat, user) → (Telegram's answer, monotonic time it expires): is the
        user an administrator (``admin``), a member (``member``) of the chat."""

    async def group_translator(self, chat_id: int) -> Translator:
        """The language of a group chat (its /language choice, else the default)."""
        language = self.chat_languages.get(chat_id)
        if language is None:
            language = pick_language(
                await self.queries.people.chat_language(chat_id), default=self.settings.language
            )
            self.chat_languages[chat_id] = language
        return translator(language)

    async def user_translator(self, user_id: int, language_code: str | None = None) -> Translator:
        """The language of a person: their /language choice, else Telegram's, else default."""
        record = await self.queries.people.user(user_id)  # cached by storage
        chosen = record.language if record is not None else None
        known = language_code or (record.language_code if record is not None else None)
        return translator(pick_language(chosen, known, default=self.settings.language))

    def translators(self) -> Translators:
        """The language look-ups the presenter needs."""
        return Translators(self.group_translator, self.user_translator, self.forget_language)

    def forget_language(self, chat_id: int) -> None:
        """Drop a group's cached language (it changed, or the chat moved)."""
        self.chat_languages.pop(chat_id, None)

    def cached(self, question: str, chat_id: int, user_id: int) -> bool | None:
        """A recent answer to "is this user an ``admin`` / a ``member`` of this chat?"."""
        known = self.lookups.get((question, chat_id, user_id))
        if known is None or known[1] < time.monotonic():
            return None
        return known[0]

    def remember(
        self, question: str, chat_id: int, user_id: int, answer: bool, ttl: float = LOOKUP_TTL
    ) -> None:
        """Keep a look-up's answer for ``ttl`` seconds."""
        if len(self.lookups) > 10_000:
            now = time.monotonic()
            self.lookups = {k: v for k, v in self.lookups.items() if v[1] >= now}
        self.lookups[(question, chat_id, user_id)] = (answer, time.monotonic() + ttl)


Context = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]
