"""The typed ``bot_data`` every handler reaches through ``context.bot_data``.

The composition root (``kozelbot/app.py``) fills it in ``post_init``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from telegram import Bot
from telegram.ext import CallbackContext, ExtBot, JobQueue

from kozelbot.config import Settings
from kozelbot.i18n import Translator, pick_language, translator
from kozelbot.service import GameService
from storage import Storage

if TYPE_CHECKING:
    from handlers.presenter import Presenter


class BotData:
    """Services shared by all handlers (``ContextTypes(bot_data=BotData)``)."""

    settings: Settings
    storage: Storage
    service: GameService
    presenter: Presenter
    job_queue: JobQueue[Any]
    bot: Bot

    def __init__(self) -> None:
        self.chat_languages: dict[int, str] = {}
        """Cache of each group's language."""

    async def group_translator(self, chat_id: int) -> Translator:
        """The language of a group chat (its /language choice, else the default)."""
        language = self.chat_languages.get(chat_id)
        if language is None:
            language = pick_language(
                await self.storage.chat_language(chat_id), default=self.settings.language
            )
            self.chat_languages[chat_id] = language
        return translator(language)

    async def user_translator(self, user_id: int, language_code: str | None = None) -> Translator:
        """The language of a person: their /language choice, else Telegram's, else default."""
        record = await self.storage.user(user_id)
        chosen = record.language if record is not None else None
        known = language_code or (record.language_code if record is not None else None)
        return translator(pick_language(chosen, known, default=self.settings.language))


Context = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]
