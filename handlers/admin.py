"""Chat administration: /stop and /language."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from handlers.deps import BotData, Context
from handlers.flow import command, group_command, publish
from kozelbot.i18n import LANGUAGES, supported, translator
from kozelbot.render import table_error_text
from kozelbot.service import Change, TableError

ADMINS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


async def is_admin(data: BotData, chat_id: int, user_id: int) -> bool:
    """Whether the user administers the chat, as Telegram says (answers are trusted for a
    minute; a failed look-up counts as no and is not remembered)."""
    known = data.cached_admin(chat_id, user_id)
    if known is not None:
        return known
    try:
        member = await data.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    answer = member.status in ADMINS
    data.remember_admin(chat_id, user_id, answer)
    return answer


async def stop(update: Update, context: Context) -> None:
    """/stop: end this group's game (its creator or a chat admin)."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /stop in the group where the game is.")
    )
    if cmd is None:
        return
    chat, user, t = cmd.chat, cmd.user, cmd.t
    table = await data.service.live_game(chat.id)
    if table is None:
        cmd.reply(table_error_text("no_game", t))
        return
    if user.id != table.creator_id and not await is_admin(data, chat.id, user.id):
        cmd.reply(table_error_text("not_allowed", t))
        return
    try:
        change = await data.service.stop(table.game_id)
    except TableError as error:
        cmd.reply(table_error_text(error.code, t))
        return
    publish(data, change)
    cmd.reply(t("The game was stopped."))


async def language(update: Update, context: Context) -> None:
    """/language ru|uk|en: the language of this group (admins) or of your private messages."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    chat, user, t = cmd.chat, cmd.user, cmd.t
    private = cmd.private
    chosen = supported(context.args[0]) if context.args else None
    if chosen is None:
        cmd.reply(
            t("Language: {lang}. Choose one of: {choices}", lang=t.language,
                    choices=", ".join(f"/language {code}" for code in LANGUAGES))
        )  # fmt: skip
        return
    if private:
        await data.storage.set_user_language(user.id, chosen)
    else:
        if not await is_admin(data, chat.id, user.id):
            cmd.reply(t("Only a chat admin can change the group's language."))
            return
        await data.storage.upsert_chat(chat.id, chat.title)
        await data.storage.set_chat_language(chat.id, chosen)
        data.chat_languages.pop(chat.id, None)
        table = await data.service.live_game(chat.id)
        if table is not None:
            data.presenter.show(Change(table))
    t = translator(chosen)
    cmd.reply(t("Language: {lang}.", lang=chosen))
