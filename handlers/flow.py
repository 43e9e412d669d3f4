"""The preambles every handler shares, and what follows every accepted change.

``command`` and ``press`` take an update apart (and refuse users over their rate limit);
``reply`` and ``Press.answer`` are the only ways handlers talk back: a reply is queued on the
chat's lane (a handler never waits for a chat's flood budget), a callback answer is retried
through transient failures. ``publish`` shows a change (presenter) and re-arms the turn timer.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError

from handlers.delivery import deliver
from handlers.deps import BotData, Context
from handlers.lanes import Markup, Outgoing
from kozelbot.core import callbacks
from kozelbot.core.fit import fit_plain
from kozelbot.core.i18n import Translator
from kozelbot.core.options import OptionError
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.registry import TABLE_PRESETS
from kozelbot.tables.service import Change, TableError
from kozelbot.views.general import table_error_text

log = logging.getLogger(__name__)


def publish(data: BotData, change: Change) -> None:
    """Schedule the messages of ``change`` and its timer; nudge its Mini App streams."""
    data.presenter.show(change)
    sync_timer(data, change.table)
    data.hub.changed(change.table.game_id)
    if change.table.tournament is not None and not change.table.status.live:
        data.tournaments.table_ended(change.table)  # the tournament moves on (issue #19)


def timer_name(table: Table) -> str:
    """The job name of a game's turn timer."""
    return f"turn:{table.chat_id}:{table.game_id}"


def sync_timer(data: BotData, table: Table) -> None:
    """Cancel the game's timer and arm it again at its stored deadline, if any; a match
    against the computer without a deadline (no move timer) gets a reminder instead."""
    queue = data.job_queue
    name = timer_name(table)
    for job in queue.get_jobs_by_name(name):
        job.schedule_removal()
    for job in queue.get_jobs_by_name(name + ":warn"):
        job.schedule_removal()
    if table.status.live and table.deadline is not None:
        delay = max(0.0, table.deadline - data.service.clock())
        queue.run_once(on_timeout, when=delay, name=name, data=table.game_id)
        half = table.turn_time / 2
        if table.status is TableStatus.PLAYING and half >= 5 and delay > half:
            queue.run_once(
                on_half_time,
                when=delay - half,
                name=name + ":warn",
                data=(table.game_id, table.deadline),
            )
    elif table.private and table.status is TableStatus.PLAYING and data.settings.private_reminder:
        remind = (table.game_id, table.move_seq)
        queue.run_once(on_reminder, data.settings.private_reminder, remind, name + ":warn")


async def on_half_time(context: Context) -> None:
    """Half a move's time has passed: privately warn whoever must act (issue #8)."""
    assert context.job is not None
    job_data = context.job.data
    assert isinstance(job_data, tuple)
    game_id, deadline = job_data
    assert isinstance(game_id, int) and isinstance(deadline, float)
    data = context.bot_data
    table = data.service.snapshot(game_id)
    if table is None or table.deadline != deadline or table.status is not TableStatus.PLAYING:
        return  # the turn moved on meanwhile
    state = data.service.state_of(table)
    if state is None:
        return
    seconds = max(1, round(deadline - data.service.clock()))
    data.presenter.warn(table, list(state.to_act()), seconds)


async def on_reminder(context: Context) -> None:
    """A match against the computer without a move timer has waited a while for its person:
    remind them, «⏰ Your move.» (issue #30 item 10: a reminder, never a forced move)."""
    assert context.job is not None
    job_data = context.job.data
    assert isinstance(job_data, tuple)
    game_id, move_seq = job_data
    assert isinstance(game_id, int) and isinstance(move_seq, int)
    data = context.bot_data
    table = data.service.snapshot(game_id)
    if table is None or table.status is not TableStatus.PLAYING:
        return
    if table.move_seq != move_seq or table.deadline is not None:
        return  # the turn moved on meanwhile
    state = data.service.state_of(table)
    if state is not None:
        data.presenter.warn(table, list(state.to_act()), 0)  # 0: no time limit to name


async def on_timeout(context: Context) -> None:
    """A deadline passed: the computer moves for a late player (RULES.md §3), or a lobby
    nobody started closes."""
    assert context.job is not None
    game_id = context.job.data
    assert isinstance(game_id, int)
    data = context.bot_data
    change = await data.service.time_out(game_id)
    if change is not None:
        log.info("game %s: deadline passed", game_id)
        publish(data, change)
        return
    table = await data.service.game(game_id)  # not due yet: the deadline moved meanwhile
    if table is not None:
        sync_timer(data, table)


async def refusal_text(data: BotData, error: TableError, t: Translator) -> str:
    """Why a table operation was refused (HTML), for the person alone (a private chat or a
    button's answer, which only the presser sees): a second seat is refused with a link to
    the person's first table."""
    other = error.table
    if error.code != "elsewhere" or other is None:
        return table_error_text(error.code, t)
    return elsewhere_text(other, await _table_link(data, other), t)


def elsewhere_text(other: Table, link: str | None, t: Translator) -> str:
    """ "You already sit at a table in <that chat>" (HTML): for the person's eyes only, since
    it names the other chat."""
    if other.private:
        return t(
            "You are playing against the computer in our private chat. Finish it or "
            "/leave it first."
        )
    title = html.escape(other.chat_title or t("another chat"))
    where = f'<a href="{link}">{title}</a>' if link else f"<b>{title}</b>"
    return t(
        "You already sit at a table in {where}. One table at a time: finish it or /leave "
        "it there first.",
        where=where,
    )


async def _table_link(data: BotData, table: Table) -> str | None:
    ref = await data.messages.message(table.game_id, "table") or await data.messages.message(
        table.game_id, "lobby"
    )
    return None if ref is None else message_link(ref.chat_id, ref.message_id)


async def refuse_in_group(cmd: Command, error: TableError) -> None:
    """Answer a refused group command. A second seat is explained privately — the other
    table's chat is nobody else's business — and the group only hears that it was refused."""
    other = error.table
    if error.code != "elsewhere" or other is None:
        cmd.reply(table_error_text(error.code, cmd.t))
        return
    link = await _table_link(cmd.data, other)
    cmd.data.presenter.note(
        cmd.user.id,
        lambda t: Outgoing(elsewhere_text(other, link, t)),
        key=f"elsewhere:{other.game_id}",
    )
    cmd.reply(
        cmd.t(
            "{name}, you already sit at another table: I sent you the details in our private chat.",
            name=cmd.user.first_name,
        )
    )


def message_link(chat_id: int, message_id: int) -> str | None:
    """A ``t.me`` link to a message of a supergroup (basic groups have none)."""
    digits = str(chat_id)
    if not digits.startswith("-100"):
        return None
    return f"https://t.me/c/{digits[4:]}/{message_id}"


def plain(text: str) -> str:
    """HTML made plain for a callback answer (alerts show no formatting)."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def variant_and_options(args: list[str] | None, default: str) -> tuple[str, list[str]]:
    """``[VARIANT] [KEY=VALUE …]`` as typed after /newgame or /play: the variant (``default``
    when none is named) and the option words. ``OptionError`` for an unknown variant."""
    words = list(args or [])
    variant = default
    if words and "=" not in words[0]:
        variant = words.pop(0).lower()
    if variant not in TABLE_PRESETS:
        raise OptionError("variant", variant, "|".join(TABLE_PRESETS))
    return variant, words


def player_of(user: User) -> Player:
    """A seat's player from a Telegram user."""
    return Player(user_id=user.id, name=user.first_name or user.full_name)


async def remember(data: BotData, user: User) -> None:
    """Record the user's current name and language (once per change, not per command)."""
    known = (user.first_name, user.username, user.language_code)
    if data.remembered.get(user.id) == known:
        return  # nothing new to write
    await data.storage.people.upsert_user(
        user.id, user.first_name, user.username, user.language_code
    )
    if len(data.remembered) >= 10_000:
        data.remembered.clear()
    data.remembered[user.id] = known


@dataclass(frozen=True)
class Command:
    """A command's message, chat and sender, and the language to answer in."""

    message: Message
    chat: Chat
    user: User
    t: Translator

    data: BotData

    @property
    def private(self) -> bool:
        """Sent in the bot's private chat."""
        return self.chat.type == ChatType.PRIVATE

    @property
    def thread_id(self) -> int | None:
        """The forum topic the command was sent in (``None`` outside forum topics: a
        forum's General topic included)."""
        return topic_of(self.message)

    def reply(
        self,
        text: str,
        *,
        html: bool = False,
        markup: Markup = None,
        on_sent: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        """Answer in the chat and topic (queued on its lane; plain text is escaped);
        ``on_sent`` is told the answer's message id."""
        self.data.presenter.reply(
            self.chat.id,
            text,
            reply_to=self.message.message_id,
            html_text=html,
            markup=markup,
            thread_id=self.thread_id,
            on_sent=on_sent,
        )

    async def live_game(self) -> Table | None:
        """The lobby or running game of the chat and topic the command was sent in."""
        return await self.data.service.live_game(self.chat.id, self.thread_id)


def topic_of(message: Message | None) -> int | None:
    """The forum topic a message belongs to, if any."""
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


async def command(update: Update, data: BotData) -> Command | None:
    """The parts of a command update (``None`` for updates without a sender or chat, from a
    bot, or from someone over their command rate, who is told to slow down once).

    Answers go in the group's language in a group, in the sender's own in private.
    """
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None or user.is_bot:
        return None
    if chat.type == ChatType.PRIVATE:
        t = await data.user_translator(user.id, user.language_code)
    else:
        t = await data.group_translator(chat.id)
    cmd = Command(message, chat, user, t, data)
    if not data.commands.allow(user.id):
        if data.commands.first_refusal(user.id):
            cmd.reply(t("Slow down, please: too many commands."))
        return None
    return cmd


async def group_command(
    update: Update, data: BotData, in_private: Callable[[Translator], str]
) -> Command | None:
    """A command that only makes sense in a group; in private it is answered with
    ``in_private(t)`` (where to send it instead) and ``None`` is returned."""
    cmd = await command(update, data)
    if cmd is not None and cmd.private:
        cmd.reply(in_private(cmd.t))
        return None
    return cmd


@dataclass(frozen=True)
class Press:
    """A button press: the query, who pressed, their language and the parsed button data."""

    query: CallbackQuery
    user: User
    t: Translator
    button: callbacks.Callback | None
    data: BotData

    async def answer(
        self, text: str | None = None, *, alert: bool = False, url: str | None = None
    ) -> None:
        """Answer the press (retried through transient failures for up to 10 s: Telegram
        drops an unanswered query after about 15 s)."""
        await answer_query(self.data, self.query, text, alert=alert, url=url)

    async def refuse(self, text: str) -> None:
        """Answer with an alert; nothing was changed."""
        await self.answer(text, alert=True)


ANSWER_PATIENCE = 10.0


async def answer_query(
    data: BotData,
    query: CallbackQuery,
    text: str | None = None,
    *,
    alert: bool = False,
    url: str | None = None,
) -> None:
    """Answer a callback query, retrying transient failures; a query too old to answer (or
    already answered) is logged and left."""
    if text:
        text = fit_plain(text)  # Telegram refuses a longer answer, and the press would spin
    try:
        await deliver(
            lambda: query.answer(text, show_alert=alert, url=url),
            backoff=data.sender.backoff,
            what=f"answer:{query.id}",
            give_up_after=ANSWER_PATIENCE,
        )
    except TelegramError as error:
        log.warning("callback query %s not answered: %s", query.id, error)


async def press(update: Update, data: BotData) -> Press | None:
    """The parts of a callback query update (``None`` without a query or sender; a sender
    over their press rate is told to slow down and ``None`` is returned)."""
    query, user = update.callback_query, update.effective_user
    if query is None or user is None:
        return None
    t = await data.user_translator(user.id, user.language_code)
    pressed = Press(query, user, t, callbacks.parse(query.data), data)
    if not data.presses.allow(user.id):
        await pressed.answer(t("Slow down, please: too many presses."))
        return None
    return pressed
