"""/help, /rules, unknown commands, and the private chat being blocked or unblocked."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType

from handlers.commands import command
from handlers.deps import Context
from kozelbot.families.registry import DEFAULT_PRESET, TABLE_PRESETS
from kozelbot.views.general import help_text, rules_text


async def help_command(update: Update, context: Context) -> None:
    """/help: the commands."""
    cmd = await command(update, context.bot_data)
    if cmd is not None:
        cmd.reply(html=True, text=help_text(cmd.t, cmd.private))


async def rules(update: Update, context: Context) -> None:
    """/rules [VARIANT]: a variant's rules in brief — the one named, else the one this group
    is playing, else the default."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    words = context.args or []
    variant = words[0].lower() if words else None
    if variant is None:
        table = await cmd.live_game()
        variant = None if table is None else table.variant
    variant = variant or DEFAULT_PRESET
    if variant not in TABLE_PRESETS:
        names = ", ".join(TABLE_PRESETS)
        cmd.reply(
            cmd.t("Unknown variant {name}. Variants: {names}", name=_shorten(variant), names=names)
        )
        return
    cmd.reply(html=True, text=rules_text(variant, cmd.t))


def _shorten(word: str) -> str:
    return word if len(word) <= 20 else word[:19] + "…"


async def unknown_command(update: Update, context: Context) -> None:
    """A command the bot does not know, in the private chat."""
    cmd = await command(update, context.bot_data)
    if cmd is not None:
        cmd.reply(cmd.t("I don't know that command. See /help."))


async def bot_membership(update: Update, context: Context) -> None:
    """The bot's own membership changed: a private chat blocked or unblocked (remember
    whether hands can be sent), or the bot removed from a group (stop its game)."""
    change = update.my_chat_member
    if change is None:
        return
    data = context.bot_data
    present = change.new_chat_member.status not in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT)
    if change.chat.type == ChatType.PRIVATE:
        await data.lifecycle.private_chat(change.chat.id, present)
        return
    if not present:
        await data.lifecycle.group_lost(change.chat.id)


async def chat_migrated(update: Update, context: Context) -> None:
    """The group was upgraded to a supergroup (a new chat id): move its game there."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    await context.bot_data.lifecycle.migrated(message.chat_id, message.migrate_to_chat_id)
