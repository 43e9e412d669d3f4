"""Live messages: a game's lobby or table in its place and each seat's private hand, rendered
from the latest committed table.

A refresh renders the game's screen now (``kozelbot.views.screens``) and edits the message the book
says shows it (``handlers.message_book``); the sender skips the edit when nothing changed. A
message that shows an older deal first gets that deal's last word — its outcome on a table,
"deal over" on a hand — and a new message is sent and recorded for the deal in play. Each
refresh is one attempt: the lanes call it one at a time per message and again after a
transient failure (``handlers.delivery.deliver``), and each attempt renders the latest state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from telegram.error import BadRequest, Forbidden

from handlers.lanes import Place
from handlers.languages import Translators
from handlers.message_book import MessageBook
from handlers.selection import Selections
from handlers.sender import Sender
from kozelbot.core.i18n import Translator
from kozelbot.core.records import MessageRef
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.texts import Button
from kozelbot.tables.queries import Queries
from kozelbot.tables.service import GameService
from kozelbot.views.links import WebAppLinks
from kozelbot.views.screens import (
    Screen,
    closed_lobby_screen,
    deal_over_screen,
    final_table_screen,
    hand_screen,
    left_table_screen,
    lobby_screen,
    table_screen,
)


class LiveMessages:
    """Renders and sends (or edits) the lobby, table and hand messages of live games."""

    def __init__(
        self,
        service: GameService,
        queries: Queries,
        sender: Sender,
        book: MessageBook,
        selections: Selections,
        translators: Translators,
        links: WebAppLinks | None = None,
        viewing: Callable[[int, int], bool] = lambda game_id, user_id: False,
    ) -> None:
        self.service = service
        self.links = links
        """The Mini App's buttons (``KOZEL_WEBAPP_URL``), or ``None``."""
        self.viewing = viewing
        """Whether a person has their table open in the Mini App (``hub.viewing``): their
        hand message then waits, and catches up when the page closes."""
        self.queries = queries
        self.sender = sender
        self.book = book
        self.selections = selections
        self.translators = translators
        self._lobby_closed: set[int] = set()
        """Games whose lobby message was turned into its closed form (the match started)."""

    def forget_game(self, game_id: int) -> None:
        """A game is over: drop what this keeps about it."""
        self._lobby_closed.discard(game_id)

    # -- the place's message -------------------------------------------------------------

    async def show_place(self, place: Place, game_id: int | None) -> None:
        """Bring a place's message of ``game_id`` (its lobby, else its table) up to date."""
        chat_id, thread_id = place
        table = None if game_id is None else self.service.snapshot(game_id)
        if table is None:
            return
        t = await self.translators.chat(chat_id)
        state = self.service.state_of(table)
        deal_no = None if state is None else state.deal_shown
        if state is None or deal_no is None:
            await self._show_lobby(table, t)
            return
        lobby = await self.book.message(table.game_id, "lobby")
        if lobby is not None and table.game_id not in self._lobby_closed:
            closed = closed_lobby_screen(table, t)
            await self.sender.edit(chat_id, lobby.message_id, closed.text, closed.keyboard)
            self._lobby_closed.add(table.game_id)
        screen = table_screen(table, state, t)
        if self.links is not None and table.status is TableStatus.PLAYING:
            screen = _with_row(screen, self.links.table_row(table.game_id, t))
        result = state.last_result
        ref = await self.book.message(table.game_id, "table")
        if ref is not None and ref.chat_id == chat_id:
            if ref.deal_no == deal_no and await self.sender.edit(
                chat_id, ref.message_id, screen.text, screen.keyboard
            ):
                return
            if result is not None and ref.deal_no == result.deal_no:
                # The deal's outcome replaces its stale turn before the next table appears.
                final = final_table_screen(table, result, t)
                await self.sender.edit(chat_id, ref.message_id, final.text, final.keyboard)
        message = await self.sender.send(chat_id, screen.text, screen.keyboard, thread_id=thread_id)
        await self.book.remember(
            MessageRef(
                game_id=table.game_id,
                kind="table",
                seat=-1,
                chat_id=chat_id,
                deal_no=deal_no,
                message_id=message.message_id,
            )
        )

    async def _show_lobby(self, table: Table, t: Translator) -> None:
        flagged = set()
        for _seat, player in table.humans:
            assert player.user_id is not None
            record = await self.queries.people.user(player.user_id)
            if record is not None and record.flagged:
                flagged.add(player.user_id)
        screen = lobby_screen(table, t, frozenset(flagged))
        ref = await self.book.message(table.game_id, "lobby")
        if ref is not None and await self.sender.edit(
            table.chat_id, ref.message_id, screen.text, screen.keyboard
        ):
            return
        if table.status is not TableStatus.LOBBY:
            return
        message = await self.sender.send(
            table.chat_id, screen.text, screen.keyboard, thread_id=table.thread_id
        )
        await self.book.remember(
            MessageRef(
                game_id=table.game_id,
                kind="lobby",
                seat=-1,
                chat_id=table.chat_id,
                deal_no=None,
                message_id=message.message_id,
            )
        )

    # -- a seat's hand -------------------------------------------------------------------

    async def show_hand(
        self,
        game_id: int,
        seat: int,
        *,
        before_send: Callable[[int], Awaitable[None]],
        sent: Callable[[int], None],
    ) -> None:
        """Bring a seat's private hand message up to date. A new message waits for
        ``before_send(person)`` (what the person was told first) and is reported to
        ``sent(person)``."""
        table = self.service.snapshot(game_id)
        player = None if table is None else table.seats[seat]
        if table is None or player is None or player.user_id is None:
            return
        state = self.service.state_of(table)
        deal_no = None if state is None else state.deal_shown
        if state is None or deal_no is None:
            return
        user_id = player.user_id
        t = await self.translators.user(user_id)
        screen = hand_screen(table, state, seat, t, self.selections.of(game_id, seat))
        if self.links is not None and table.status is TableStatus.PLAYING and not player.away:
            screen = _with_row(screen, self.links.hand_row(game_id, t))
        known = await self.book.message(game_id, "hand", seat)
        if known is not None and known.chat_id == user_id:
            if self.viewing(game_id, user_id):
                return  # played in the Mini App: no edit per card, no hand per deal (#18)
            if known.deal_no == deal_no:
                if await self.sender.edit(user_id, known.message_id, screen.text, screen.keyboard):
                    return
            else:
                over = deal_over_screen(table, known.deal_no or 0, t)
                with contextlib.suppress(BadRequest):
                    await self.sender.edit(user_id, known.message_id, over.text, over.keyboard)
        if table.status is not TableStatus.PLAYING:
            return
        await before_send(user_id)
        message = await self.sender.send(user_id, screen.text, screen.keyboard)
        sent(user_id)
        await self.book.remember(
            MessageRef(
                game_id=game_id,
                kind="hand",
                seat=seat,
                chat_id=user_id,
                deal_no=deal_no,
                message_id=message.message_id,
            )
        )

    async def close_hand(self, game_id: int, seat: int, user_id: int) -> None:
        """Take the buttons off the hand of someone who left the running match (a bot plays
        on); the seat's next hand is a new message, whoever holds it."""
        known = await self.book.message(game_id, "hand", seat)
        if known is None or known.chat_id != user_id:
            return
        t = await self.translators.user(user_id)
        text = left_table_screen(t).text
        with contextlib.suppress(BadRequest, Forbidden):
            await self.sender.deliver(
                lambda: self.sender.edit(user_id, known.message_id, text), f"left:{user_id}"
            )
        await self.book.forget(game_id, "hand", seat)


def _with_row(screen: Screen, row: tuple[Button, ...]) -> Screen:
    """``screen`` with one more row of buttons at the bottom (none if ``row`` is empty)."""
    return Screen(screen.text, (*screen.keyboard, row)) if row else screen
