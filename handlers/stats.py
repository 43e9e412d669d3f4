"""/top: the chat's leaderboard (in a private chat: your own record)."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from handlers.deps import Context
from kozelbot.render import leaderboard_text


async def top(update: Update, context: Context) -> None:
    """/top: matches played and won per person in this chat."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None:
        return
    data = context.bot_data
    if chat.type == ChatType.PRIVATE:
        t = await data.user_translator(user.id, user.language_code)
        played, won = await data.storage.user_stats(user.id)
        await message.reply_text(
            t.n("{count} match", "{count} matches", played)
            + ", "
            + t.n("{count} win", "{count} wins", won)
        )
        return
    t = await data.group_translator(chat.id)
    rows = await data.storage.leaderboard(chat.id)
    await message.reply_html(leaderboard_text(rows, chat.title, t))
