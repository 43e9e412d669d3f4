"""Telegram handlers: thin adapters from updates to the game service and the presenter.

``register`` is the one place that lists every handler of the bot.
"""

from __future__ import annotations

from typing import Any

from telegram import BotCommand
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from handlers import admin, info, lobby, play, stats
from handlers.errors import on_error
from kozelbot.i18n import translator

COMMANDS = (
    "newgame", "join", "leave", "hand", "table", "stop", "top", "language", "rules", "help",
)  # fmt: skip


def register(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register every handler of the bot."""
    private = filters.ChatType.PRIVATE
    # Lobby and deep links
    application.add_handler(CommandHandler("start", lobby.start, filters=private))
    application.add_handler(CommandHandler("newgame", lobby.new_game))
    application.add_handler(CommandHandler("join", lobby.join))
    application.add_handler(CommandHandler("leave", lobby.leave))
    application.add_handler(CallbackQueryHandler(lobby.lobby_button, pattern=r"^l:"))
    application.add_handler(CallbackQueryHandler(lobby.option_button, pattern=r"^o:"))
    # Play
    application.add_handler(CallbackQueryHandler(play.hand_button, pattern=r"^[cr]:"))
    application.add_handler(CommandHandler("hand", play.hand))
    application.add_handler(CommandHandler("table", play.table))
    # Administration, stats, help
    application.add_handler(CommandHandler("stop", admin.stop))
    application.add_handler(CommandHandler("language", admin.language))
    application.add_handler(CommandHandler("top", stats.top))
    application.add_handler(CommandHandler("help", info.help_command))
    application.add_handler(CommandHandler("rules", info.rules))
    application.add_handler(MessageHandler(filters.COMMAND & private, info.unknown_command))
    application.add_handler(
        ChatMemberHandler(info.bot_membership, ChatMemberHandler.MY_CHAT_MEMBER)
    )
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, info.chat_migrated))
    # Any other button (forged or from an old version of the bot) is still answered.
    application.add_handler(CallbackQueryHandler(play.hand_button))
    application.add_error_handler(on_error)


def command_list(language: str) -> list[BotCommand]:
    """The command menu in one language."""
    t = translator(language)
    descriptions = {
        "newgame": t("open a table"),
        "join": t("take a seat"),
        "leave": t("leave the table"),
        "hand": t("send your cards again"),
        "table": t("show the table again"),
        "stop": t("end the game"),
        "top": t("leaderboard"),
        "language": t("language"),
        "rules": t("the rules"),
        "help": t("help"),
    }
    return [BotCommand(name, descriptions[name]) for name in COMMANDS]


__all__ = ["command_list", "register"]
