"""The "next game" notice (issue #19): whoever sent /notify in a group gets a private
message when a new table or tournament opens there."""

from __future__ import annotations

from handlers.deps import BotData
from handlers.lanes import Outgoing
from kozelbot.core.i18n import Translator
from kozelbot.views.boards import escape


def _table_text(chat: str, t: Translator) -> str:
    return t("🃏 A new table opened in {chat}.", chat=chat)


def _tournament_text(chat: str, t: Translator) -> str:
    return t("🏆 A tournament opened in {chat}: register there.", chat=chat)


async def tell_subscribers(
    data: BotData, chat_id: int, chat_title: str | None, opener: int, *, tournament: bool = False
) -> int:
    """Queue the notice to every subscriber of the group but ``opener``; return how many.
    Each reads it in their own language; someone who blocked the bot is skipped by the
    private lane as for any private message."""
    chat = f"<b>{escape(chat_title or '')}</b>"
    make = _tournament_text if tournament else _table_text
    told = 0
    for user_id in await data.queries.notices.subscribers(chat_id):
        if user_id == opener:
            continue
        tr = await data.user_translator(user_id)
        text = make(chat, tr)
        data.presenter.note(
            user_id,
            lambda _t, text=text: Outgoing(text),  # type: ignore[misc]
            key=f"notice:{chat_id}",
        )
        told += 1
    return told
