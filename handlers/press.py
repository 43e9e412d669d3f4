"""The press preamble: ``press`` takes a callback query apart (and refuses users over
their press rate); ``Press.answer`` answers it, retried through transient failures."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import CallbackQuery, Update, User
from telegram.error import TelegramError

from handlers.delivery import deliver
from handlers.deps import BotData
from kozelbot.core import callbacks
from kozelbot.core.fit import fit_plain
from kozelbot.core.i18n import Translator

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Press:
    """A button press: the query, who pressed, their language and the parsed button data."""

    query: CallbackQuery
    user: User
    t: Translator
    button: callbacks.Callback | None
    data: BotData

    async def answer(
        self, text: str | None = None, *, alert: bool = False, url: str | None = None
    ) -> None:
        """Answer the press (retried through transient failures for up to 10 s: Telegram
        drops an unanswered query after about 15 s)."""
        await answer_query(self.data, self.query, text, alert=alert, url=url)

    async def refuse(self, text: str) -> None:
        """Answer with an alert; nothing was changed."""
        await self.answer(text, alert=True)


ANSWER_PATIENCE = 10.0


async def answer_query(
    data: BotData,
    query: CallbackQuery,
    text: str | None = None,
    *,
    alert: bool = False,
    url: str | None = None,
) -> None:
    """Answer a callback query, retrying transient failures; a query too old to answer (or
    already answered) is logged and left."""
    if text:
        text = fit_plain(text)  # Telegram refuses a longer answer, and the press would spin
    try:
        await deliver(
            lambda: query.answer(text, show_alert=alert, url=url),
            backoff=data.sender.backoff,
            what=f"answer:{query.id}",
            give_up_after=ANSWER_PATIENCE,
        )
    except TelegramError as error:
        log.warning("callback query %s not answered: %s", query.id, error)


async def press(update: Update, data: BotData) -> Press | None:
    """The parts of a callback query update (``None`` without a query or sender; a sender
    over their press rate is told to slow down and ``None`` is returned)."""
    query, user = update.callback_query, update.effective_user
    if query is None or user is None:
        return None
    t = await data.user_translator(user.id, user.language_code)
    pressed = Press(query, user, t, callbacks.parse(query.data), data)
    if not data.presses.allow(user.id):
        await pressed.answer(t("Slow down, please: too many presses."))
        return None
    return pressed
