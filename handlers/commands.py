"""The command preamble: ``command`` takes an update apart (and refuses users over their
command rate); ``Command.reply`` is the only way a command answers (queued on the chat's
lane: a handler never waits for a chat's flood budget)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Chat, Message, Update, User
from telegram.constants import ChatType

from handlers.deps import BotData
from handlers.lanes import Markup
from kozelbot.core.i18n import Translator
from kozelbot.core.options import OptionError
from kozelbot.core.table import Table
from kozelbot.families.registry import TABLE_PRESETS


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
