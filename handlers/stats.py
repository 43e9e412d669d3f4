"""/top, /stats and /history: boards, personal records and a chat's last matches.

Thin adapters: parse the command, read the queries (``kozelbot.tables.queries``), render
with ``kozelbot.views.boards``, reply. A /history button edits its own message in place:
a match deal by deal (◀ ▶ between pages, and its 🃏 replay in the Mini App where there is
one) and back to the list. A button only ever shows a match of the chat its message is in, and
only on a message the bot sent as /history (storage keeps which).
"""

from __future__ import annotations

from telegram import Message, Update

from handlers.commands import command, group_command, topic_of
from handlers.deps import BotData, Context
from handlers.lanes import Outgoing
from handlers.press import Press, Refusal, board_message, not_valid, on_button
from kozelbot.core.callbacks import HistoryButton
from kozelbot.core.i18n import Translator
from kozelbot.families.registry import DEFAULT_PRESET, TABLE_PRESETS
from kozelbot.views.boards import (
    BOARD_MIN_MATCHES,
    BOARD_SIZE,
    HISTORY_SIZE,
    board_text,
    deals_keyboard,
    deals_page_text,
    history_keyboard,
    history_text,
    match_numbers,
    page_count,
    stats_text,
)
from kozelbot.views.tournament.texts import history_lines

GLOBAL = "global"
HISTORY = "history"
"""The kind under which /history messages are kept (only they take /history buttons)."""
HISTORY_TOURNAMENTS = 5
"""The group's latest tournaments /history lists under its matches (issue #19)."""


async def chat_variant(data: BotData, chat_id: int) -> str:
    """The variant a group's board shows without one named: the one last played there, else
    its default (its settings), else the bot's default."""
    last = await data.queries.boards.history(chat_id, limit=1)
    if last and last[0].variant in TABLE_PRESETS:
        return last[0].variant
    chosen = await data.queries.people.chat_settings(chat_id)
    if chosen is not None and chosen.variant in TABLE_PRESETS:
        return chosen.variant
    return DEFAULT_PRESET


async def person_variant(data: BotData, user_id: int) -> str:
    """The variant the global board shows a person without one named: the one they play
    most in groups, else the bot's default."""
    played = await data.queries.boards.player_stats(user_id, scope="group")
    return next((s.variant for s in played if s.variant in TABLE_PRESETS), DEFAULT_PRESET)


async def top(update: Update, context: Context) -> None:
    """/top [VARIANT] [global]: the chat's board of a variant, or the global board (always in
    a private chat)."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    words = [word.lower() for word in context.args or []]
    everywhere = cmd.private or GLOBAL in words
    named = [word for word in words if word != GLOBAL]
    unknown = next((word for word in named if word not in TABLE_PRESETS), None)
    if unknown is not None or len(named) > 1:
        word = unknown if unknown is not None else named[1]
        cmd.reply(
            cmd.t(
                "Unknown variant {name}. Variants: {names}",
                name=_shorten(word),
                names=", ".join(TABLE_PRESETS),
            )
        )
        return
    if named:
        variant = named[0]
    elif cmd.private:
        variant = await person_variant(data, cmd.user.id)
    else:
        variant = await chat_variant(data, cmd.chat.id)
    rows = await data.queries.boards.board(
        variant,
        chat_id=None if everywhere else cmd.chat.id,
        limit=BOARD_SIZE,
        min_matches=BOARD_MIN_MATCHES,
    )
    text = board_text(rows, variant, cmd.t, chat_title=cmd.chat.title, global_board=everywhere)
    cmd.reply(html=True, text=text)


def _shorten(word: str) -> str:
    return word if len(word) <= 20 else word[:19] + "…"


def replied_to(message: Message) -> Message | None:
    """The message a command answers, if it answers one (in a forum topic every message
    "answers" the topic's first service message: that is no reply)."""
    replied = message.reply_to_message
    if replied is None or replied.forum_topic_created is not None:
        return None
    return replied


async def stats(update: Update, context: Context) -> None:
    """/stats: your record per variant; in a group, sent as a reply, that person's. In a
    private chat your group record and, apart, your matches against the computer."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    t, boards = cmd.t, data.queries.boards
    if cmd.private:
        user = cmd.user
        group = await boards.player_stats(user.id, scope="group")
        computer = await boards.player_stats(user.id, scope="private")
        name = user.first_name or user.full_name
        cmd.reply(html=True, text=stats_text(name, group, t, computer=computer))
        return
    person = cmd.user
    replied = replied_to(cmd.message)
    if replied is not None:
        sender = replied.from_user
        if sender is None or sender.is_bot or replied.sender_chat is not None:
            cmd.reply(t("Send /stats as a reply to a person's message to see their stats."))
            return
        person = sender
    records = await boards.player_stats(person.id, scope="group")
    name = person.first_name or person.full_name
    cmd.reply(html=True, text=stats_text(name, records, t))


async def history(update: Update, context: Context) -> None:
    """/history in a group: its last matches, each with a button that shows it deal by deal."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /history in a group: it lists the group's matches.")
    )
    if cmd is None:
        return
    chat_id = cmd.chat.id
    rows = await data.queries.boards.history(chat_id, limit=HISTORY_SIZE)
    total = await data.queries.boards.finished_matches(chat_id)

    async def sent(message_id: int) -> None:
        await data.queries.posts.remember_board_message(chat_id, message_id, HISTORY)

    tours = await data.queries.tournaments.tournaments_in(chat_id, limit=HISTORY_TOURNAMENTS)
    text = "\n".join(
        [
            history_text(rows, cmd.t, total=total, chat_title=cmd.chat.title),
            *history_lines(tours, cmd.t),
        ]
    )
    cmd.reply(html=True, text=text, markup=history_keyboard(rows, cmd.t, total=total), on_sent=sent)


@on_button(HistoryButton)
async def history_button(pressed: Press, button: HistoryButton) -> None:
    """A /history button: a match deal by deal (a page of it), or back to the list. Refused,
    changing nothing, for a match of another chat, an unknown match or a page it has not."""
    data, t = pressed.data, pressed.t
    # A forged button on another message (a lobby, a table) must not replace it.
    message = await board_message(pressed, HISTORY)
    if not isinstance(message, Message):
        raise not_valid(t)
    chat_id = message.chat.id
    result = await data.queries.records.match_result(button.game_id)
    if result is None or result.chat_id != chat_id:
        raise Refusal(t("This match is not in this chat's history."))
    title = message.chat.title
    rows = await data.queries.boards.history(chat_id, limit=HISTORY_SIZE)
    total = await data.queries.boards.finished_matches(chat_id)
    if button.page == -1:
        tours = await data.queries.tournaments.tournaments_in(chat_id, limit=HISTORY_TOURNAMENTS)

        def render(gt: Translator) -> Outgoing:
            text = "\n".join(
                [history_text(rows, gt, total=total, chat_title=title), *history_lines(tours, gt)]
            )
            return Outgoing(
                text, history_keyboard(rows, gt, total=total), edit_message_id=message.message_id
            )

    else:
        summary = await data.queries.boards.match_summary(button.game_id)
        deals = await data.queries.records.deals(button.game_id)
        pages = page_count(deals)
        if summary is None or not 0 <= button.page < pages:
            raise Refusal(t("This page does not exist."))
        numbers = dict(zip((row.game_id for row in rows), match_numbers(rows, total), strict=True))
        number, page, game_id = numbers.get(button.game_id), button.page, button.game_id

        links = data.links

        def render(gt: Translator) -> Outgoing:
            keyboard = deals_keyboard(game_id, page, pages, gt, deals)
            replay = () if links is None else links.replay_row(game_id, gt, private=False)
            return Outgoing(
                deals_page_text(summary, deals, page, gt, number=number),
                (*keyboard, replay) if replay else keyboard,
                edit_message_id=message.message_id,
            )

    data.presenter.note(chat_id, render, thread_id=topic_of(message), reply=True)
    await pressed.answer()


__all__ = ["chat_variant", "history", "history_button", "stats", "top"]
