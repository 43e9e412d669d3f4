"""Chat administration: /stop and /language."""

from __future__ import annotations

import html

from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from handlers.deps import BotData, Context
from handlers.flow import Command, command, press, publish
from handlers.presenter import Outgoing
from kozelbot.callbacks import VoteButton
from kozelbot.i18n import LANGUAGES, Translator, supported, translator
from kozelbot.render import table_error_text
from kozelbot.service import Change, TableError
from kozelbot.table import TableStatus
from kozelbot.texts import Button, Keyboard

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
    """/stop: end this place's game. Its creator or a chat admin stops it at once; another
    seated person starts (or joins) a vote that stops it when a majority of the people
    seated agree within two minutes. In the private chat it ends your /play match."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    user, t = cmd.user, cmd.t
    table = await cmd.live_game()
    if table is None and cmd.private:
        cmd.reply(t("Send /stop in the group where the game is."))
        return
    if table is None:
        cmd.reply(table_error_text("no_game", t))
        return
    allowed = cmd.private or user.id == table.creator_id
    if not allowed and not await is_admin(data, cmd.chat.id, user.id):
        if table.status is TableStatus.PLAYING and table.seat_of(user.id) is not None:
            await _vote(data, cmd, table.game_id)
            return
        cmd.reply(table_error_text("not_allowed", t))
        return
    try:
        change = await data.service.stop(table.game_id)
    except TableError as error:
        cmd.reply(table_error_text(error.code, t))
        return
    publish(data, change)
    cmd.reply(t("The game was stopped."))


async def _vote(data: BotData, cmd: Command, game_id: int) -> None:
    try:
        change = await data.service.vote_stop(game_id, cmd.user.id)
    except TableError as error:
        text = cmd.t("You have voted already.") if error.code == "seated" else None
        cmd.reply(text or table_error_text(error.code, cmd.t))
        return
    publish(data, change)
    cmd.reply(html=True, text=vote_text(change, cmd.user.first_name, cmd.t),
              markup=vote_markup(change, cmd.t))  # fmt: skip


def vote_text(change: Change, name: str, t: Translator) -> str:
    """What a vote to stop says: stopped, or how many more are needed."""
    assert change.vote is not None
    votes, needed = change.vote
    if change.table.status is TableStatus.STOPPED:
        return t("🗳 {votes} of {needed} voted: the game was stopped.", votes=votes,
                 needed=needed)  # fmt: skip
    return t("🗳 {name} votes to stop the game: {votes} of {needed}. Players at the table: "
             "press the button or send /stop within two minutes.",
             name=html.escape(name), votes=votes, needed=needed)  # fmt: skip


def vote_markup(change: Change, t: Translator) -> Keyboard | None:
    """The vote's button while it runs."""
    if change.table.status is TableStatus.STOPPED:
        return None
    return ((Button(t("✋ Stop the game"), VoteButton(change.table.game_id).pack()),),)


async def vote_button(update: Update, context: Context) -> None:
    """The stop vote's button: a seated person agrees."""
    data = context.bot_data
    pressed = await press(update, data)
    if pressed is None:
        return
    button, t = pressed.button, pressed.t
    if not isinstance(button, VoteButton):
        await pressed.refuse(t("This button is not valid."))
        return
    try:
        change = await data.service.vote_stop(button.game_id, pressed.user.id)
    except TableError as error:
        text = t("You have voted already.") if error.code == "seated" else None
        await pressed.refuse(text or table_error_text(error.code, t))
        return
    publish(data, change)
    await pressed.answer(t("Your vote counts."))
    message = pressed.query.message
    if message is not None:
        chat_t = await data.group_translator(message.chat.id)
        data.presenter.note(
            message.chat.id,
            lambda _t: Outgoing(
                vote_text(change, pressed.user.first_name, chat_t),
                vote_markup(change, chat_t),
                edit_message_id=message.message_id,
            ),
            thread_id=change.table.thread_id,
        )


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
        for table in await data.service.live_games_of(chat.id):
            data.presenter.show(Change(table))
    t = translator(chosen)
    cmd.reply(t("Language: {lang}.", lang=chosen))
