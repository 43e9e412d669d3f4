"""The one press path: every button of the bot, and the Mini App's move, goes through here.

1. ``press`` takes the callback query apart: who pressed, their language, the typed button
   (``kozelbot.core.callbacks.parse``), and refuses someone over their press rate.
2. ``on_button(kind)`` makes a handler of a body ``(press, button)``: a button of another
   kind is refused as not valid, and every ``Refusal`` the body raises is answered as an
   alert (nothing changed). ``not_valid`` is the one place that answer is written.
3. ``table_of``, ``seat_at`` and ``deal_shown`` give the quick polite answer to a press at
   a game: finished, not seated, stale. ``act`` calls the service, which checks all of it
   again under the game's lock (the authority), and turns its refusals into ``Refusal``.
4. ``Press.answer`` answers, retried through transient failures.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from functools import wraps
from typing import Any, TypeVar

from telegram import CallbackQuery, MaybeInaccessibleMessage, Update, User
from telegram.error import TelegramError

from handlers.delivery import deliver
from handlers.deps import BotData, Context
from kozelbot.core import callbacks
from kozelbot.core.fit import fit_plain
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import GameError
from kozelbot.core.table import Table
from kozelbot.families.registry import reader_of
from kozelbot.tables.change import Change
from kozelbot.tables.service import TableError
from kozelbot.views.general import table_error_text

log = logging.getLogger(__name__)


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


class Refusal(Exception):
    """A press refused before anything changed: ``text`` is what the presser is told,
    ``code`` a word naming why (the Mini App answers with it), ``alert`` whether the
    answer is an alert."""

    def __init__(self, text: str, code: str = "refused", *, alert: bool = True) -> None:
        super().__init__(code)
        self.text = text
        self.code = code
        self.alert = alert


def not_valid(t: Translator) -> Refusal:
    """A button that is not ours, of another message, game or family: the one place its
    answer is written."""
    return Refusal(t("This button is not valid."), "not_valid")


def within_rate(data: BotData, user_id: int, t: Translator) -> None:
    """Refuse someone over their press rate (buttons and Mini App moves share it)."""
    if not data.presses.allow(user_id):
        raise Refusal(t("Slow down, please: too many presses."), "slow_down", alert=False)


async def press(update: Update, data: BotData) -> Press | None:
    """The parts of a callback query update (``None`` without a query or sender; a sender
    over their press rate is told to slow down and ``None`` is returned)."""
    query, user = update.callback_query, update.effective_user
    if query is None or user is None:
        return None
    t = await data.user_translator(user.id, user.language_code)
    pressed = Press(query, user, t, callbacks.parse(query.data), data)
    try:
        within_rate(data, user.id, t)
    except Refusal as refusal:
        await pressed.answer(refusal.text, alert=refusal.alert)
        return None
    return pressed


ButtonT = TypeVar("ButtonT", bound=callbacks.Callback)
Body = Callable[[Press, ButtonT], Awaitable[None]]
Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


def on_button(kind: type[ButtonT]) -> Callable[[Body[ButtonT]], Handler]:
    """The handler of ``kind``'s presses around ``body``: the press taken apart (``press``),
    a button of another kind refused as not valid, a ``Refusal`` answered."""

    def handler_of(body: Body[ButtonT]) -> Handler:
        @wraps(body)
        async def handler(update: Update, context: Context) -> None:
            pressed = await press(update, context.bot_data)
            if pressed is None:
                return
            try:
                if not isinstance(pressed.button, kind):
                    raise not_valid(pressed.t)
                await body(pressed, pressed.button)
            except Refusal as refusal:
                await pressed.answer(refusal.text, alert=refusal.alert)

        return handler

    return handler_of


async def table_of(data: BotData, game_id: int) -> Table | None:
    """The game's latest commit this process made, else the stored one."""
    return data.service.snapshot(game_id) or await data.service.game(game_id)


async def table_here(pressed: Press, game_id: int) -> Table:
    """The game a button names, if it is one of the chat the pressed message is in (the
    latest commit); else ``Refusal`` (not valid: a button forged onto another chat)."""
    message = pressed.query.message
    table = await table_of(pressed.data, game_id)
    if table is None or message is None or table.chat_id != message.chat.id:
        raise not_valid(pressed.t)
    return table


async def board_message(pressed: Press, kind: str) -> MaybeInaccessibleMessage:
    """The pressed message, if the bot sent it as a ``kind`` board (/history, /settings, a
    stop vote); else ``Refusal`` (not valid: a button forged onto another message must not
    turn it into a board)."""
    message = pressed.query.message
    if message is None or not await pressed.data.queries.posts.is_board_message(
        message.chat.id, message.message_id, kind
    ):
        raise not_valid(pressed.t)
    return message


def seat_at(table: Table | None, user_id: int, t: Translator) -> int:
    """The presser's seat at a live table; else ``Refusal`` (finished, not seated), in the
    service's order."""
    if table is None or not table.status.live:
        raise Refusal(table_error_text("finished", t), "finished")
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal(table_error_text("not_seated", t), "not_seated")
    return seat


def deal_shown(data: BotData, table: Table, deal_no: int, t: Translator) -> None:
    """``Refusal`` (stale) unless ``deal_no`` is the deal the latest committed state shows."""
    state = data.service.state_of(table)
    if state is None or not state.accepts(deal_no):
        raise Refusal(table_error_text("stale", t), "stale")


async def act(
    data: BotData, table: Table, user_id: int, deal_no: int, action: Any, t: Translator
) -> Change:
    """The move made by the service (which checks the table, seat and deal again under the
    game's lock, verifies and commits); its refusals as ``Refusal``."""
    try:
        return await data.service.act(table.game_id, user_id, deal_no, action)
    except GameError as error:
        raise Refusal(reader_of(table.variant).error_text(error, table, t)) from error
    except TableError as error:
        raise Refusal(table_error_text(error.code, t), error.code) from error
