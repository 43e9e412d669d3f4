"""/top: the chat's leaderboard (in a private chat: your own record)."""

from __future__ import annotations

from telegram import Update

from handlers.deps import Context
from handlers.flow import command
from kozelbot.render import leaderboard_text


async def top(update: Update, context: Context) -> None:
    """/top: matches played and won per person in this chat."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    message, chat, user, t = cmd.message, cmd.chat, cmd.user, cmd.t
    if cmd.private:
        played, won = await data.storage.user_stats(user.id)
        await message.reply_text(
            t.n("{count} match", "{count} matches", played)
            + ", "
            + t.n("{count} win", "{count} wins", won)
        )
        return
    rows = await data.storage.leaderboard(chat.id)
    await message.reply_html(leaderboard_text(rows, chat.title, t))
