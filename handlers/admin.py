"""Chat administration: /stop and /language."""

from __future__ import annotations

import html

from telegram import Update

from handlers.commands import Command, command
from handlers.deps import BotData, Context
from handlers.lanes import Outgoing
from handlers.members import is_admin
from handlers.press import Press, Refusal, board_message, on_button
from handlers.publish import publish
from kozelbot.core.callbacks import VoteButton
from kozelbot.core.i18n import LANGUAGES, Translator, supported, translator
from kozelbot.core.table import TableStatus
from kozelbot.core.texts import Button, Keyboard
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.service import Change, TableError
from kozelbot.views.general import table_error_text


async def stop(update: Update, context: Context) -> None:
    """/stop: end this place's game. A lobby is closed at once by its creator or a chat
    admin. Once a match runs only a chat admin stops it at once; a seated person — the
    creator too — starts (or joins) a vote that stops it when a majority of the people
    seated agree within two minutes (a stopped match is unrated, so a losing creator must
    not escape the rating alone). At a tournament's table a person seated there — a chat
    admin too — only votes, and everyone at it must agree (``tables.stops_by_vote``). In the
    private chat it ends your /play match."""
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
    if tables.stops_by_vote(table, user.id):
        await _vote(data, cmd, table.game_id)
        return
    running = table.status is TableStatus.PLAYING
    allowed = cmd.private or (not running and user.id == table.creator_id)
    if not allowed and not await is_admin(data, cmd.chat.id, user.id):
        if running and table.seat_of(user.id) is not None:
            await _vote(data, cmd, table.game_id)
            return
        cmd.reply(table_error_text("stop_running" if running else "not_allowed", t))
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
    chat_id = cmd.chat.id

    async def sent(message_id: int) -> None:
        await data.queries.posts.remember_board_message(chat_id, message_id, vote_kind(game_id))

    cmd.reply(
        html=True,
        text=vote_text(change, cmd.user.first_name, cmd.t),
        markup=vote_markup(change, cmd.t),
        on_sent=sent,
    )


def vote_kind(game_id: int) -> str:
    """The kind under which a game's stop-vote messages are kept (only they take its vote
    button)."""
    return f"vote:{game_id}"


def vote_text(change: Change, name: str, t: Translator) -> str:
    """What a vote to stop says: stopped, or how many more are needed (at a tournament's
    table: that everyone must agree, and then the score decides)."""
    assert change.vote is not None
    votes, needed = change.vote
    tournament = change.table.tournament is not None
    if not change.table.status.live:
        text = t("🗳 {votes} of {needed} voted: the game was stopped.", votes=votes, needed=needed)
        return text + ("\n" + t("🏆 The score decided the match.") if tournament else "")
    text = t(
        "🗳 {name} votes to stop the game: {votes} of {needed}. Players at the table: "
        "press the button or send /stop within two minutes.",
        name=html.escape(name),
        votes=votes,
        needed=needed,
    )
    if tournament:
        text += "\n" + t(
            "🏆 A tournament table stops only if everyone at it agrees, both "
            "sides; then the score decides, as the round clock does."
        )
    return text


def vote_markup(change: Change, t: Translator) -> Keyboard | None:
    """The vote's button while it runs."""
    if not change.table.status.live:
        return None
    return ((Button(t("✋ Stop the game"), VoteButton(change.table.game_id).pack()),),)


@on_button(VoteButton)
async def vote_button(pressed: Press, button: VoteButton) -> None:
    """The stop vote's button: a seated person agrees."""
    data, t = pressed.data, pressed.t
    # Only the game's own vote message acts (a forged button on another message must
    # neither count a vote nor turn that message into a vote).
    message = await board_message(pressed, vote_kind(button.game_id))
    chat_id, vote_id = message.chat.id, message.message_id
    try:
        change = await data.service.vote_stop(button.game_id, pressed.user.id)
    except TableError as error:
        text = t("You have voted already.") if error.code == "seated" else None
        raise Refusal(text or table_error_text(error.code, t)) from error
    publish(data, change)
    await pressed.answer(t("Your vote counts."))
    name = pressed.user.first_name

    def render(gt: Translator) -> Outgoing:
        return Outgoing(
            vote_text(change, name, gt), vote_markup(change, gt), edit_message_id=vote_id
        )

    data.presenter.note(chat_id, render, thread_id=change.table.thread_id, reply=True)


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
            t(
                "Language: {lang}. Choose one of: {choices}",
                lang=t.language,
                choices=", ".join(f"/language {code}" for code in LANGUAGES),
            )
        )
        return
    if private:
        await data.queries.people.set_user_language(user.id, chosen)
    else:
        if not await is_admin(data, chat.id, user.id):
            cmd.reply(t("Only a chat admin can change the group's language."))
            return
        await data.queries.people.upsert_chat(chat.id, chat.title)
        await data.queries.people.set_chat_language(chat.id, chosen)
        data.chat_languages.pop(chat.id, None)
        for table in await data.service.live_games_of(chat.id):
            data.presenter.show(Change(table))
    t = translator(chosen)
    cmd.reply(t("Language: {lang}.", lang=chosen))
