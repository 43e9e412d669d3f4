"""The bot's command menus, per language and scope (``setMyCommands``): what Telegram shows
under "/" in a group and in a private chat. Set at every start by the single bot or the
intake (the workers leave it to the intake)."""

from __future__ import annotations

import logging

from telegram import (
    Bot,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from handlers import command_list
from kozelbot.core.i18n import LANGUAGES

log = logging.getLogger(__name__)


async def set_command_menus(bot: Bot, default_language: str) -> None:
    """The command menu per language and scope: the group commands in groups, the private
    ones in private chats (and by default); the default language's menu also serves every
    language the bot has no catalog for."""
    scopes = (
        (BotCommandScopeDefault(), True),
        (BotCommandScopeAllPrivateChats(), True),
        (BotCommandScopeAllGroupChats(), False),
    )
    for language in LANGUAGES:
        for scope, private in scopes:
            try:
                await bot.set_my_commands(
                    command_list(language, private),
                    scope=scope,
                    language_code=None if language == default_language else language,
                )
            except TelegramError as error:
                log.warning("could not set the command menu (%s): %s", language, error)
