"""The real bot inside the sandbox: the ``Application`` of ``kozelbot.app``, polling the emulator.

Everything is the bot's own — handlers, storage, flood gate, timers — built by
``build_application`` from the user's settings with three changes: the emulator's address, the
sandbox's token (:func:`new_token`, drawn afresh at each start and shared with the emulator
only) and the sandbox's database. With Telegram's limits switched off the bot's own
flood gate is opened as well (it would otherwise still hold a group to 20 messages a minute);
switching them changes the bot's settings, so the sandbox restarts the bot, which resumes its
games as after any restart.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from pydantic import SecretStr

from handlers.lifetime import stop_application
from kozelbot.app import KozelApplication, build_application
from kozelbot.config import Settings

BOT_ID = 7000000001
"""The sandbox bot's id, the same at every start: the saved chats name it as their bot."""
USERNAME = "kozel_sandbox_bot"
FIRST_NAME = "KozelBot"
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
MAX_POLL_TIMEOUT = 10
"""Long polls end at the latest this long after the bot is told to stop."""

UNLIMITED: dict[str, Any] = {
    "overall_max_rate": 1000,
    "group_max_rate": 1000,
    "group_period": 1.0,
    "private_max_rate": 1000,
    "private_period": 1.0,
    "private_interval": 0.0,
}
"""The bot's flood settings while Telegram's limits are off."""


WEBAPP_URL = "https://kozel.sandbox/webapp/"
"""The Mini App's address as the bot's buttons name it; the sandbox maps it to its own."""
WEBAPP_NAME = "table"
"""The Mini App's short name in the sandbox's direct links."""


def new_token() -> str:
    """A token for one run of the sandbox: :data:`BOT_ID` and a random secret, shaped like
    Telegram's. The emulator accepts only it, so a program that reaches the emulator's port
    without being told the token cannot act as the bot (it never reaches Telegram)."""
    return f"{BOT_ID}:{secrets.token_urlsafe(26)}"


def bot_settings(
    settings: Settings, api_root: str, token: str, db_path: str, *, limits: bool
) -> Settings:
    """The user's settings for the bot in the sandbox (see the module docstring)."""
    update: dict[str, Any] = {
        "bot_token": SecretStr(token),
        "api_url": api_root,
        "db_path": db_path,
        # The sandbox keeps its games in its own file, never in a PostgreSQL database the
        # real bot's KOZEL_DATABASE_URL names.
        "database_url": None,
        "poll_timeout": min(settings.poll_timeout, MAX_POLL_TIMEOUT),
        # The Mini App, served by the sandbox's own server beside its page (no port of its
        # own); its public address is never fetched: the page opens it in a phone frame.
        "webapp_url": WEBAPP_URL,
        "webapp_name": WEBAPP_NAME,
        "webapp_port": 0,
    }
    if not limits:
        update.update(UNLIMITED)
    return settings.model_copy(update=update)


class EmbeddedBot:
    """Runs the bot in this event loop as ``run_polling`` would, and stops it cleanly."""

    def __init__(self, settings: Settings, rng: random.Random | None = None) -> None:
        self.settings = settings
        self.rng = rng
        self.application: KozelApplication | None = None

    async def start(self) -> None:
        """Build, initialise (open storage, resume games) and start polling."""
        # With KOZEL_SANDBOX_SEED the sandbox replays its matches: its secrets come from it.
        entropy = None if self.rng is None else random.Random(self.rng.random()).randbytes
        application = build_application(self.settings, rng=self.rng, entropy=entropy)
        await application.initialize()
        try:
            if application.post_init is not None:
                await application.post_init(application)
            await application.start()
            assert application.updater is not None
            await application.updater.start_polling(
                timeout=self.settings.poll_timeout, allowed_updates=ALLOWED_UPDATES
            )
        except BaseException:
            self.application = application
            await self.stop()
            raise
        self.application = application

    async def stop(self) -> None:
        """Stop polling, send what is queued (a few seconds at most), close storage."""
        application, self.application = self.application, None
        if application is None:
            return
        await stop_application(application)
