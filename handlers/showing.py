"""The parts that show the game to people, wired on a ``BotData`` whose settings, queries and
service are set: the sender, the message book, the selections, the Mini App's links, the live
messages, the outbox, the presenter and the chat lifecycle (what the presenter meets about a
chat goes to it). The composition root calls ``wire_showing`` once at the start."""

from __future__ import annotations

import random

from telegram import Bot

from handlers.delivery import Backoff
from handlers.deps import BotData
from handlers.lifecycle import ChatLifecycle
from handlers.live import LiveMessages
from handlers.message_book import MessageBook
from handlers.outbox import Outbox
from handlers.presenter import Presenter
from handlers.publish import publish
from handlers.selection import Selections
from handlers.sender import Sender
from kozelbot.views.links import WebAppLinks


def wire_showing(data: BotData, bot: Bot) -> None:
    """Build the showing parts on ``data`` (see the module)."""

    translators = data.translators()
    # Retry jitter draws from its own RNG: the game's seeds stay reproducible.
    data.sender = Sender(bot, Backoff(random.Random()))
    data.messages = MessageBook(data.queries)
    data.selections = Selections()
    mini_app = data.settings.webapp_url
    data.links = links = (
        WebAppLinks(mini_app, data.settings.webapp_name, bot.username) if mini_app else None
    )
    live = LiveMessages(
        data.service,
        data.queries,
        data.sender,
        data.messages,
        data.selections,
        translators,
        links,
        data.hub.viewing,
    )
    outbox = Outbox(data.queries, data.service, data.sender, data.messages, translators.chat, links)
    data.presenter = Presenter(
        data.service,
        data.sender,
        data.messages,
        live,
        outbox,
        data.selections,
        translators,
        report=lambda event: data.lifecycle.met(event),
        group_interval=data.settings.group_interval,
        private_interval=data.settings.private_interval,
        reply_budget=data.settings.reply_budget,
        viewing=data.hub.viewing,
    )
    data.lifecycle = ChatLifecycle(
        data.service, data.queries, data.presenter, on_change=lambda change: publish(data, change)
    )
