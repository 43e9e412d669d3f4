"""The error handler: log first, then tell the person something went wrong.

A look-up Telegram did not answer (``handlers.members.TelegramUnavailable``) is no bug: the
handler stopped before changing anything, and the person is asked to try again — in an
alert for a press, in a reply for a command.
"""

from __future__ import annotations

import logging

from telegram import Update

from handlers.commands import topic_of
from handlers.deps import BotData, Context
from handlers.members import TelegramUnavailable
from handlers.press import answer_query
from kozelbot.core.i18n import Translator, translator

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    """Log the exception with its traceback; answer a pending button press."""
    if isinstance(context.error, TelegramUnavailable):
        log.warning("%s; the person is asked to try again", context.error)
        if isinstance(update, Update):
            await try_again(update, context.bot_data)
        return
    log.error("error while handling %r", update, exc_info=context.error)
    if not isinstance(update, Update) or update.callback_query is None:
        return
    user = update.effective_user
    t = translator(user.language_code if user else None)
    # (answer_query logs and leaves a query already answered or too old to answer)
    await answer_query(
        context.bot_data, update.callback_query, t("Something went wrong; please try again.")
    )


def try_again_text(t: Translator) -> str:
    """What a person hears when Telegram did not answer a look-up their request needed."""
    return t("Telegram did not answer — please try again.")


async def try_again(update: Update, data: BotData) -> None:
    """Ask the person whose press or command met a silent Telegram to try again."""
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if update.callback_query is not None:
        language = user.language_code if user else None
        t = await data.user_translator(user.id, language) if user else translator(None)
        await answer_query(data, update.callback_query, try_again_text(t), alert=True)
        return
    if chat is None or message is None:
        return
    if chat.id > 0:
        t = await data.user_translator(chat.id, user.language_code if user else None)
    else:
        t = await data.group_translator(chat.id)
    data.presenter.reply(
        chat.id, try_again_text(t), reply_to=message.message_id, thread_id=topic_of(message)
    )
