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
    chat, user, t = cmd.chat, cmd.user, cmd.t
    if cmd.private:
        played, won = await data.storage.user_stats(user.id)
        cmd.reply(
            t.n("{count} match", "{count} matches", played)
            + ", "
            + t.n("{count} win", "{count} wins", won)
        )
        return
    rows = await data.storage.leaderboard(chat.id)
    cmd.reply(html=True, text=leaderboard_text(rows, chat.title, t))
