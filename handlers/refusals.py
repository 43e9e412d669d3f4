"""Why a table operation was refused, told to the right person: a second seat is explained
privately with a link to the person's first table (the other chat is nobody else's
business)."""

from __future__ import annotations

import html
import re

from handlers.commands import Command
from handlers.deps import BotData
from handlers.lanes import Outgoing
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table
from kozelbot.tables.service import TableError
from kozelbot.views.general import table_error_text


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
