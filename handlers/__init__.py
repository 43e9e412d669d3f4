"""Telegram handlers: thin adapters from updates to the game service and the presenter.

``register`` is the one place that lists every handler of the bot.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import BotCommand, Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    filters,
)

from handlers import admin, advice, info, lobby, play, seals, settings, stats, tournament
from handlers.errors import on_error
from handlers.log_fields import FIRST_GROUP, tagger
from kozelbot.core.callbacks import (
    AnalysisButton,
    BackButton,
    Callback,
    HintButton,
    HistoryButton,
    LobbyButton,
    OptionButton,
    SealButton,
    SeatButton,
    SettingsButton,
    TournamentButton,
    VoteButton,
    pattern,
)
from kozelbot.core.i18n import translator
from kozelbot.families.registry import hand_buttons
from kozelbot.views.general import GROUP_COMMANDS, PRIVATE_COMMANDS, command_descriptions


def on_press(
    callback: Callable[[Update, Any], Coroutine[Any, Any, None]], *kinds: type[Callback]
) -> CallbackQueryHandler[Any, None]:
    """The handler of these buttons' presses (matched by their declared prefixes)."""
    return CallbackQueryHandler(callback, pattern=pattern(*kinds))


def register(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register every handler of the bot."""
    private = filters.ChatType.PRIVATE
    application.add_handler(tagger(), group=FIRST_GROUP)  # log lines name the update's chat
    # Lobby and deep links
    application.add_handler(CommandHandler("start", lobby.start, filters=private))
    application.add_handler(CommandHandler("newgame", lobby.new_game))
    application.add_handler(CommandHandler("join", lobby.join))
    application.add_handler(CommandHandler("leave", lobby.leave))
    application.add_handler(CommandHandler("seed", lobby.seed))
    application.add_handler(on_press(lobby.lobby_button, LobbyButton))
    application.add_handler(on_press(lobby.option_button, OptionButton))
    # Play
    application.add_handler(on_press(play.hand_button, *hand_buttons()))
    application.add_handler(on_press(play.back_button, BackButton))
    application.add_handler(CommandHandler("hand", play.hand))
    application.add_handler(CommandHandler("table", play.table))
    application.add_handler(CommandHandler("play", play.play))
    # Administration, stats, help
    application.add_handler(CommandHandler("stop", admin.stop))
    application.add_handler(on_press(admin.vote_button, VoteButton))
    application.add_handler(CommandHandler("settings", settings.settings))
    application.add_handler(on_press(settings.settings_button, SettingsButton))
    application.add_handler(CommandHandler("language", admin.language))
    application.add_handler(CommandHandler("top", stats.top))
    application.add_handler(CommandHandler("stats", stats.stats))
    application.add_handler(CommandHandler("history", stats.history))
    application.add_handler(on_press(stats.history_button, HistoryButton))
    application.add_handler(on_press(seals.seal_button, SealButton))
    application.add_handler(on_press(advice.hint_button, HintButton))
    application.add_handler(on_press(advice.analysis_button, AnalysisButton))
    # Tournaments (issue #19)
    application.add_handler(CommandHandler("tournament", tournament.tournament))
    application.add_handler(CommandHandler("pair", tournament.pair))
    application.add_handler(CommandHandler("notify", tournament.notify))
    application.add_handler(on_press(tournament.tournament_button, TournamentButton))
    application.add_handler(on_press(tournament.take_seat, SeatButton))
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


def command_list(language: str, private: bool = False) -> list[BotCommand]:
    """The command menu in one language, for groups or for private chats."""
    descriptions = command_descriptions(translator(language))
    names = PRIVATE_COMMANDS if private else GROUP_COMMANDS
    return [BotCommand(name, descriptions[name]) for name in names]


__all__ = ["command_list", "register"]
