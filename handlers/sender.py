"""The sender: the bot's own messages sent, edited and deleted, each edit only when it changes.

Telegram counts every call against the chat's flood budget, an edit that changes nothing
included (and refuses it as "not modified"), so the sender remembers what each message it
sent or edited last shows and skips an edit to the same text and keyboard. ``send``, ``edit``
and ``delete`` make one attempt each; ``put`` and ``deliver`` retry transient failures through
``handlers.delivery.deliver`` (the flood gate admits every call), and raise permanent ones for
the caller to act on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.error import BadRequest

from handlers.delivery import Backoff, deliver
from handlers.keyboards import to_markup
from handlers.lanes import Markup, Outgoing
from kozelbot.core.fit import fit_html

log = logging.getLogger(__name__)

T = TypeVar("T")

SHOWN_LIMIT = 20_000
"""Messages whose last text and keyboard stay in memory (to skip edits that change nothing)."""


class Sender:
    """Sends, edits and deletes the bot's HTML messages; skips edits that change nothing."""

    def __init__(self, bot: Bot, backoff: Backoff) -> None:
        self.bot = bot
        self.backoff = backoff
        """Retry jitter of every call the bot makes (callback answers included)."""
        self._shown: dict[tuple[int, int], tuple[str, object]] = {}
        """(chat, message) → the text and keyboard last shown, to skip edits that change
        nothing (Telegram would refuse them as "not modified" anyway)."""

    async def deliver(self, call: Callable[[], Awaitable[T]], what: str) -> T:
        """Run ``call`` until it succeeds (``handlers.delivery.deliver``)."""
        return await deliver(call, backoff=self.backoff, what=what)

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Markup = None,
        reply_to: int | None = None,
        thread_id: int | None = None,
    ) -> Message:
        """Send an HTML message, into a forum topic if ``thread_id`` (one attempt; callers
        decide about retries)."""
        parameters = (
            None
            if reply_to is None
            else ReplyParameters(reply_to, allow_sending_without_reply=True)
        )
        message = await self.bot.send_message(
            chat_id,
            fit_html(text),
            reply_markup=_markup(markup),
            reply_parameters=parameters,
            message_thread_id=thread_id,
        )
        self._remember_shown((chat_id, message.message_id), text, markup)
        return message

    async def edit(self, chat_id: int, message_id: int, text: str, markup: Markup = None) -> bool:
        """Edit a message in place unless it already shows this; ``False`` if it is gone."""
        key = (chat_id, message_id)
        if self._shown.get(key) == (text, markup):  # compared as plain data: cheap
            return True
        try:
            await self.bot.edit_message_text(
                fit_html(text), chat_id=chat_id, message_id=message_id, reply_markup=_markup(markup)
            )
        except BadRequest as error:
            reason = str(error).lower()
            if "not modified" in reason:
                self._remember_shown(key, text, markup)
                return True
            if "not found" in reason or "can't be edited" in reason:
                self._shown.pop(key, None)
                return False
            raise
        self._remember_shown(key, text, markup)
        return True

    async def delete(self, chat_id: int, message_id: int) -> None:
        """Delete a message of the bot's; one already gone (or too old to delete) is left."""
        try:
            await self.bot.delete_message(chat_id, message_id)
        except BadRequest as error:
            log.info("message %s/%s not deleted: %s", chat_id, message_id, error)
        self._shown.pop((chat_id, message_id), None)

    def _remember_shown(self, key: tuple[int, int], text: str, markup: object) -> None:
        if len(self._shown) >= SHOWN_LIMIT:
            self._shown.clear()  # a cache: forgetting costs one redundant edit at most
        self._shown[key] = (text, markup)

    async def put(self, chat_id: int, thread_id: int | None, out: Outgoing) -> None:
        """Send, edit or delete ``out`` in a chat (a forum topic of it), retrying transient
        failures; ``out.on_sent`` is told a new message's id."""
        if out.delete and out.edit_message_id is not None:
            gone = out.edit_message_id
            await self.deliver(lambda: self.delete(chat_id, gone), f"delete:{chat_id}")
            return
        if out.edit_message_id is not None:
            markup = out.markup if not isinstance(out.markup, InlineKeyboardMarkup) else None
            edit_id = out.edit_message_id
            await self.deliver(
                lambda: self.edit(chat_id, edit_id, out.text, markup), f"edit:{chat_id}"
            )
        else:
            sent = await self.deliver(
                lambda: self.send(chat_id, out.text, out.markup, out.reply_to, thread_id),
                f"send:{chat_id}",
            )
            if out.on_sent is not None:
                await out.on_sent(sent.message_id)


def _markup(markup: Markup) -> InlineKeyboardMarkup | None:
    if markup is None or isinstance(markup, InlineKeyboardMarkup):
        return markup
    return to_markup(markup)
