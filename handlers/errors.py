"""The error handler: log first, then tell the person something went wrong."""

from __future__ import annotations

import logging

from telegram import Update

from handlers.deps import Context
from handlers.flow import answer_query
from kozelbot.i18n import translator

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    """Log the exception with its traceback; answer a pending button press."""
    log.error("error while handling %r", update, exc_info=context.error)
    if not isinstance(update, Update) or update.callback_query is None:
        return
    user = update.effective_user
    t = translator(user.language_code if user else None)
    # (answer_query logs and leaves a query already answered or too old to answer)
    await answer_query(
        context.bot_data, update.callback_query, t("Something went wrong; please try again.")
    )
