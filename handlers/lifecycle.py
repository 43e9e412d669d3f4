"""Chat lifecycle: what happens to games when a chat changes under the bot.

A group upgraded to a supergroup gets a new id: its game moves along. A group that removed
or banned the bot has its games stopped (the players' hands close, the chat is free if the
bot comes back). A person who blocked the bot, or whose private chat refuses their hand, is
marked unreachable: their match against the computer stops; in a group, they are asked once
to open the private chat again.

Telegram says so in two ways: as updates (``my_chat_member``, the migration service message:
``handlers.info``), and as the answer to a call the presenter made. The presenter does not act
on the latter itself: it reports what it met (``ChatMoved``, ``ChatRefused``, ``HandRefused``)
to ``ChatLifecycle.met``, which calls the service and publishes what changed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from handlers.private_asks import PrivateAsks
from kozelbot.core.table import Table
from kozelbot.tables.queries import Queries
from kozelbot.tables.service import Change, GameService, TableError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChatMoved:
    """Telegram says a group became a supergroup with a new id."""

    old_chat_id: int
    new_chat_id: int


@dataclass(frozen=True)
class ChatRefused:
    """A chat refuses the bot's messages (removed from a group, blocked by a person);
    ``live_message``: what it refused was the place's lobby or table, not a post or reply."""

    chat_id: int
    live_message: bool = False


@dataclass(frozen=True)
class HandRefused:
    """A seat's private chat refuses its hand message."""

    table: Table
    seat: int


ChatEvent = ChatMoved | ChatRefused | HandRefused
Report = Callable[[ChatEvent], Awaitable[None]]
"""Told what the presenter met about a chat (awaited where it was met, before its lane goes
on)."""


class Shown(Protocol):
    """What the lifecycle asks of the presenter (``handlers.presenter.Presenter``)."""

    def chat_moved(self, old_chat_id: int, new_chat_id: int) -> None: ...
    def forget_chat(self, chat_id: int) -> None: ...
    @property
    def private_asks(self) -> PrivateAsks: ...


class ChatLifecycle:
    """Moves, stops and marks games as their chats change."""

    def __init__(
        self,
        service: GameService,
        queries: Queries,
        shown: Shown,
        on_change: Callable[[Change], None],
    ) -> None:
        """``on_change`` publishes a change this makes (the presenter and the timers)."""
        self.service = service
        self.queries = queries
        self.shown = shown
        self._on_change = on_change

    async def met(self, event: ChatEvent) -> None:
        """What the presenter met answering one of its calls."""
        if isinstance(event, ChatMoved):
            await self.migrated(event.old_chat_id, event.new_chat_id)
        elif isinstance(event, HandRefused):
            await self._hand_refused(event.table, event.seat)
        elif event.live_message or event.chat_id < 0:
            await self.group_lost(event.chat_id)
        else:
            await self.private_closed(event.chat_id)

    async def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup with a new id: the game goes on there."""
        table = await self.service.migrate_chat(old_chat_id, new_chat_id)
        self.shown.chat_moved(old_chat_id, new_chat_id)
        if table is not None:
            log.info("chat %s moved to %s with game %s", old_chat_id, new_chat_id, table.game_id)
            self._on_change(Change(table))

    async def group_lost(self, chat_id: int) -> None:
        """The bot can no longer write to a group (removed, banned): stop its games (every
        topic's), so the players' hands close and the chat is free if the bot comes back."""
        self.shown.forget_chat(chat_id)
        for table in await self.service.live_games_of(chat_id):
            log.warning("lost group %s: stopping game %s", chat_id, table.game_id)
            await self._stop_quietly(table.game_id)

    async def private_closed(self, user_id: int) -> None:
        """A person's private chat refuses the bot: mark it closed, stop their /play match."""
        await self.queries.people.set_private_open(user_id, False)
        table = await self.service.live_game(user_id)
        if table is not None:
            await self._stop_quietly(table.game_id)

    async def private_chat(self, user_id: int, present: bool) -> None:
        """The person blocked (``present`` false) or unblocked the bot: remember whether hands
        can be sent."""
        await self.queries.people.set_private_open(user_id, present)

    async def _hand_refused(self, table: Table, seat: int) -> None:
        """A player's private chat refuses their hand: ask them, once, in the group."""
        player = table.seats[seat]
        assert player is not None and player.user_id is not None
        await self.queries.people.set_private_open(player.user_id, False)
        if table.private:  # a /play match: nobody is left to play it
            await self._stop_quietly(table.game_id)
            return
        self.shown.private_asks.ask(
            table.chat_id,
            table.game_id,
            player.user_id,
            player.name,
            f"hand-{table.game_id}",
            thread_id=table.thread_id,
        )

    async def _stop_quietly(self, game_id: int) -> None:
        """Stop a game the bot can no longer show; one that ended meanwhile (the bot removed
        twice, a match just finished) is left as it is."""
        try:
            change = await self.service.stop(game_id)
        except TableError as error:
            log.info("game %s not stopped: %s", game_id, error.code)
            return
        self._on_change(change)
