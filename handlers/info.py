"""/help, /rules, unknown commands, and the private chat being blocked or unblocked."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus

from handlers.deps import BotData, Context
from kozelbot.i18n import Translator
from kozelbot.render import help_text, rules_text


async def _translator(data: BotData, update: Update) -> Translator:
    chat, user = update.effective_chat, update.effective_user
    if chat is not None and chat.type != chat.PRIVATE:
        return await data.group_translator(chat.id)
    assert user is not None
    return await data.user_translator(user.id, user.language_code)


async def help_command(update: Update, context: Context) -> None:
    """/help: the commands."""
    if update.effective_message is None or update.effective_user is None:
        return
    t = await _translator(context.bot_data, update)
    await update.effective_message.reply_html(help_text(t))


async def rules(update: Update, context: Context) -> None:
    """/rules: the rules in brief."""
    if update.effective_message is None or update.effective_user is None:
        return
    t = await _translator(context.bot_data, update)
    await update.effective_message.reply_html(rules_text(t))


async def unknown_command(update: Update, context: Context) -> None:
    """A command the bot does not know, in the private chat."""
    if update.effective_message is None or update.effective_user is None:
        return
    t = await _translator(context.bot_data, update)
    await update.effective_message.reply_text(t("I don't know that command. See /help."))


async def private_chat_member(update: Update, context: Context) -> None:
    """The user blocked or unblocked the bot: remember whether hands can be sent."""
    change = update.my_chat_member
    if change is None:
        return
    is_open = change.new_chat_member.status not in (
        ChatMemberStatus.BANNED,
        ChatMemberStatus.LEFT,
    )
    await context.bot_data.storage.set_private_open(change.chat.id, is_open)
