"""What the page's API and the mini app ask of the running sandbox (``server.Sandbox``): its
emulator, world, event hub and bot, and the few changes the page may make. They take this
``Host`` rather than the server's class, so the server imports them and never the reverse."""

from __future__ import annotations

from typing import Protocol

from botapi_emulator import BotApiEmulator, User

from .bot import EmbeddedBot
from .hub import EventHub
from .world import JsonDict, World


class Host(Protocol):
    """The running sandbox as the page's API and the mini app see it."""

    @property
    def token(self) -> str:
        """This run's bot token."""
        ...

    @property
    def emu(self) -> BotApiEmulator:
        """The Bot API emulator the bot talks to."""
        ...

    @property
    def hub(self) -> EventHub:
        """Where every change is published to the page's event streams."""
        ...

    @property
    def world(self) -> World:
        """The people, the group and their chats."""
        ...

    @property
    def bot(self) -> EmbeddedBot | None:
        """The bot while it runs."""
        ...

    def state_json(self) -> JsonDict:
        """``GET /api/state``."""
        ...

    def watch_json(self) -> JsonDict:
        """Watch mode as ``/api/state`` shows it."""
        ...

    def change_person(self, person: User, *, name: str | None, language: str | None) -> None:
        """Rename a person or change their language."""
        ...

    async def set_watch(self, on: bool, *, delay: float | None, newgame: str) -> None:
        """Start or stop watch mode, or change its delay."""
        ...

    async def set_limits(self, on: bool) -> None:
        """Switch Telegram's flood limits (the bot restarts)."""
        ...
