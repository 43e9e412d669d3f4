"""The presenter: what a change makes visible, scheduled on the lanes that show it.

Each *place* (a chat, or one forum topic of it) has one lane and each seat's private hand one
(``handlers.lanes``: results first, then the live message, then replies within their share).
``show`` marks what a change made out of date and queues its notices; each lane then
converges on the committed state: ``handlers.outbox`` posts the results, ``handlers.live``
renders the lobby, table and hands, notes render in the chat's language when their turn
comes (``kozelbot.views.screens``), and ``handlers.sender`` sends it all, retrying transient
failures. A handler never waits for a chat's flood budget: it queues a reply and returns.

What a lane meets that changes a chat's life — a group that became a supergroup, a chat that
refuses the bot, a private chat that refuses a hand — the presenter does not act on: it
reports it (``ChatMoved``, ``ChatRefused``, ``HandRefused``) through the callback it is given
(``handlers.lifecycle``), which may then tell it to forget a chat's lanes.
"""

from __future__ import annotations

import asyncio
import functools
import html
import logging
import time
from collections.abc import Awaitable, Callable

from telegram.error import BadRequest, ChatMigrated, Forbidden

from handlers.lanes import Lane, Markup, Note, Outgoing, Place, Render, ReplyBudget
from handlers.languages import Translators
from handlers.lifecycle import ChatMoved, ChatRefused, HandRefused, Report
from handlers.live import LiveMessages
from handlers.message_book import MessageBook
from handlers.outbox import Outbox
from handlers.pacing import Pacing
from handlers.private_asks import PrivateAsks
from handlers.reminders import Reminders
from handlers.selection import Selections
from handlers.sender import Sender
from kozelbot.core.table import Table
from kozelbot.tables.service import Change, GameService
from kozelbot.views.screens import (
    away_notice,
    slow_down_notice,
    table_moved_screen,
    take_over_notice,
)

log = logging.getLogger(__name__)

POSTS_FIRST_WAIT = 30.0
"""Seconds at most that a message sent outside a place's lane (a new deal's hand, a
tournament's next round) waits for the results owed to that place to go out first.

**Decision**: 30 s — a group's budget is 20 messages a minute (3 s each), so a table's last
three posts and an edit fit with room to spare; past it the message goes out anyway (a chat
whose posts cannot go out still gets its cards and its next round)."""


class Presenter:
    """Keeps every place's lobby/table message and every private hand up to date."""

    def __init__(
        self,
        service: GameService,
        sender: Sender,
        book: MessageBook,
        live: LiveMessages,
        outbox: Outbox,
        selections: Selections,
        translators: Translators,
        *,
        report: Report,
        group_interval: float,
        private_interval: float,
        reply_budget: tuple[int, float] = (5, 60.0),
        viewing: Callable[[int, int], bool] = lambda game_id, user_id: False,
    ) -> None:
        """``reply_budget``: replies per seconds a group place may get while its game is
        live (a share of the group's flood budget: the table comes first)."""
        self.service = service
        self.sender = sender
        self.book = book
        self.live = live
        self.outbox = outbox
        self.selections = selections
        self.translators = translators
        self._report = report
        self.group_interval = group_interval
        self.private_interval = private_interval
        self.reply_budget = reply_budget
        self.pacing = Pacing(viewing, group_interval)
        """Tables whose players are all in the Mini App: refreshed a little later."""
        self.closed = False
        self._chats: dict[Place, Lane] = {}
        self._hands: dict[tuple[int, int], Lane] = {}
        self._chat_game: dict[Place, int] = {}
        self._ended_game: dict[Place, int] = {}
        """A place's game before its current one, until its last state was shown."""
        self.private_asks = PrivateAsks(
            lambda chat_id, render, key, thread_id: self.note(chat_id, render, key, thread_id),
            lambda: self.sender.bot.username,
        )
        """Who was asked in a group to open the private chat."""
        self.reminders = Reminders(self.note)
        """The "⏰ your move" reminders still standing."""

    # -- scheduling ----------------------------------------------------------------------

    def show(self, change: Change) -> None:
        """Schedule everything a change makes visible: result posts, table, hands."""
        table = change.table
        before = self._chat_game.get(table.place)
        if before is not None and before != table.game_id:
            # the place's next game (a tournament's next table) must not hide the last
            # state of the one before: its end (and «🔑 Check the deals») is shown first
            self._ended_game[table.place] = before
        self._chat_game[table.place] = table.game_id
        lane = self.chat_lane(*table.place)
        if change.outbox:
            lane.touch_outbox()
        if change.outbox or not self.pacing.all_in_page(table):
            lane.touch()
        else:
            self.pacing.later(table.place, lane)
        for seat, _player in table.humans:
            self.hand_lane(table.game_id, seat).touch()
        for seat in change.away:
            self._announce_away(table, seat)
        for seat in change.taken_over:
            self._announce_take_over(table, seat)
        for user_id, seat in change.abandoned:
            self._close_hand_of_leaver(table, user_id, seat)
        if change.moves:
            self.reminders.drop(table.game_id)

    def show_hand(self, game_id: int, seat: int) -> None:
        """Re-render a seat's hand soon (its selection changed)."""
        self.hand_lane(game_id, seat).touch()

    def _announce_away(self, table: Table, seat: int) -> None:
        """Tell the place that a computer now plays for someone who missed two moves (their
        own hand message turns into an "I'm here" button)."""
        player = table.seats[seat]
        if player is None or player.user_id is None or table.private:
            return
        self.note(
            table.chat_id,
            lambda t: Outgoing.of(away_notice(table, seat, t)),
            key=f"away:{table.game_id}:{seat}",
            thread_id=table.thread_id,
        )

    def _announce_take_over(self, table: Table, seat: int) -> None:
        """Tell the place that someone who waited sat down as the new deal was dealt."""
        player = table.seats[seat]
        if player is None or player.user_id is None:
            return
        self.note(
            table.chat_id,
            lambda t: Outgoing.of(take_over_notice(table, seat, t)),
            key=f"seat:{table.game_id}:{seat}:{table.move_seq}",
            thread_id=table.thread_id,
        )

    def warn(self, table: Table, seats: list[int], seconds: int) -> None:
        """Privately warn the people to act that half their move time has passed."""
        self.reminders.warn(table, seats, seconds)

    async def resume_posts(self) -> int:
        """After a start: send the posts a previous run left in the outbox."""
        places = await self.outbox.places_waiting()
        for chat_id, thread_id in places:
            self.chat_lane(chat_id, thread_id).touch_outbox()
        return len(places)

    def reply(
        self,
        chat_id: int,
        text: str,
        *,
        reply_to: int | None = None,
        html_text: bool = False,
        markup: Markup = None,
        thread_id: int | None = None,
        on_sent: Callable[[int], Awaitable[None]] | None = None,
    ) -> bool:
        """Queue an answer to a chat (a forum topic of it) without waiting for its flood
        budget. Identical answers still waiting are sent once; ``False`` if coalesced or
        dropped."""
        body = text if html_text else html.escape(text, quote=False)
        outgoing = Outgoing(body, markup, reply_to=reply_to, on_sent=on_sent)
        return self.chat_lane(chat_id, thread_id).note(
            Note(lambda _t: outgoing, key=body, reply=True)
        )

    def note(
        self,
        chat_id: int,
        render: Render,
        key: str | None = None,
        thread_id: int | None = None,
        *,
        reply: bool = False,
    ) -> bool:
        """Queue a message rendered in the chat's language when its turn comes; a
        ``reply`` (to someone's command or press) counts against the place's reply budget."""
        return self.chat_lane(chat_id, thread_id).note(Note(render, key, reply))

    async def repost_table(self, table: Table) -> None:
        """Send the table again at the bottom of the group (busy chats scroll it away);
        the old message says where it went."""
        old = await self.book.message(table.game_id, "table")
        await self.book.forget(table.game_id, "table")
        if old is not None:
            moved_id = old.message_id
            self.note(
                table.chat_id,
                lambda t: Outgoing.of(table_moved_screen(t), edit_message_id=moved_id),
                thread_id=table.thread_id,
            )
        self._chat_game[table.place] = table.game_id
        self.chat_lane(*table.place).touch()

    async def resend_hand(self, game_id: int, seat: int) -> None:
        """Send a seat's hand as a new message (the old one's buttons go stale)."""
        await self.book.forget(game_id, "hand", seat)
        self.hand_lane(game_id, seat).touch()

    def _close_hand_of_leaver(self, table: Table, user_id: int, seat: int) -> None:
        """Take the card buttons off the hand of someone who left; a bot plays on."""

        async def close() -> None:
            await self.live.close_hand(table.game_id, seat, user_id)

        key = (table.game_id, -user_id)
        lane = Lane(
            f"left:{table.game_id}:{user_id}", 0.0, close, on_idle=lambda: self._drop_hand_lane(key)
        )
        lane.closed = self.closed
        self._hands[key] = lane
        lane.touch()

    # -- lanes ---------------------------------------------------------------------------

    def hand_lane(self, game_id: int, seat: int) -> Lane:
        """The lane of one seat's private hand message."""
        key = (game_id, seat)
        lane = self._hands.get(key)
        if lane is None:  # (after close, a new lane is born closed: it sends nothing)
            lane = Lane(
                f"hand:{game_id}:{seat}",
                self.private_interval,
                lambda: self._refresh_hand(game_id, seat),
                on_idle=lambda: self._forget_if_ended(game_id, seat),
            )
            lane.closed = self.closed
            self._hands[key] = lane
        return lane

    def _drop_hand_lane(self, key: tuple[int, int]) -> None:
        self._hands.pop(key, None)

    def _live(self, place: Place) -> bool:
        """Whether the place has a live game (its table comes before replies)."""
        game_id = self._chat_game.get(place)
        table = None if game_id is None else self.service.snapshot(game_id)
        return table is not None and table.status.live

    def _drop_chat_lane(self, place: Place) -> None:
        """A lane with no live game left is dropped when idle, a group's as a private
        chat's (memory stays bounded by the live games, not by every chat ever answered)."""
        if self._live(place):
            return
        self._chat_game.pop(place, None)
        self._ended_game.pop(place, None)
        self._chats.pop(place, None)

    def _forget_if_ended(self, game_id: int, seat: int) -> None:
        """Drop an idle hand lane of a game that is over (memory stays bounded)."""
        table = self.service.snapshot(game_id)
        if table is None or not table.status.live:
            self._drop_hand_lane((game_id, seat))
            self.selections.clear(game_id, seat)
            self.live.forget_game(game_id)
            self.book.drop_game(game_id)

    def chat_lane(self, chat_id: int, thread_id: int | None = None) -> Lane:
        """The lane of a place: its posts and replies, and its game's table or lobby (a
        group's, a topic's, or a /play match's in a private chat)."""
        place: Place = (chat_id, thread_id)
        lane = self._chats.get(place)
        if lane is None:
            group = chat_id < 0
            budget = None
            if group:
                limit, period = self.reply_budget
                slow_down = Note(lambda t: Outgoing.of(slow_down_notice(t)), key="slow-down")
                budget = ReplyBudget(limit, period, lambda: self._live(place), slow_down)
            lane = Lane(
                f"chat:{chat_id}" + (f":{thread_id}" if thread_id else ""),
                self.group_interval if group else self.private_interval,
                lambda: self._refresh_place(place),
                lambda: self._send_outbox(place),
                lambda note: self._send_note(place, note),
                on_idle=lambda: self._drop_chat_lane(place),
                budget=budget,
            )
            lane.closed = self.closed
            self._chats[place] = lane
        return lane

    def chat_moved(self, old_chat_id: int, new_chat_id: int) -> None:
        """Forget the lane and messages of a group that moved to a new id; its waiting posts
        follow it there."""
        self._chats.pop((old_chat_id, None), None)
        self._chat_game.pop((old_chat_id, None), None)
        self.book.forget_chat(old_chat_id)
        self.translators.forget(old_chat_id)
        self.translators.forget(new_chat_id)
        self.chat_lane(new_chat_id).touch_outbox()

    def forget_chat(self, chat_id: int) -> None:
        """Drop the lanes of every place of a chat the bot can no longer write to."""
        for place in [place for place in self._chats if place[0] == chat_id]:
            self._chats.pop(place, None)

    @property
    def backlog(self) -> int:
        """Messages waiting on the lanes (the metrics' lane backlog)."""
        return sum(lane.pending for lane in self._lanes())

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until every lane is idle (tests, benchmarks, shutdown)."""
        deadline = time.monotonic() + timeout
        while True:
            busy = [lane.task for lane in self._lanes() if lane.busy and lane.task is not None]
            if not busy:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("lanes still busy: " + ", ".join(t.get_name() for t in busy))
            await asyncio.wait(busy, timeout=remaining)

    async def close(self) -> None:
        """Stop sending (at shutdown), in order: refuse new work, cancel every lane, wait
        for each to end. Posts stay in the outbox for the next start; replies and edits that
        were still waiting are dropped on purpose, and counted once in the log."""
        self.closed = True
        self.pacing.close()
        lanes = self._lanes()
        dropped = sum(lane.pending for lane in lanes)
        tasks = [lane.task for lane in lanes if lane.task is not None and not lane.task.done()]
        for lane in lanes:
            lane.closed = True
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if dropped:
            log.info(
                "shutdown: %d queued message(s) not sent (results wait in the outbox)", dropped
            )

    def _lanes(self) -> list[Lane]:
        return [*self._chats.values(), *self._hands.values()]

    # -- the lanes' steps ----------------------------------------------------------------

    async def _refresh_place(self, place: Place) -> None:
        chat_id = place[0]
        games = [self._ended_game.pop(place, None), self._chat_game.get(place)]
        try:
            for game_id in (g for g in games if g is not None):
                show = functools.partial(self.live.show_place, place, game_id)
                await self.sender.deliver(show, f"group:{chat_id}")
        except Forbidden:
            await self._report(ChatRefused(chat_id, live_message=True))
        except ChatMigrated as moved:
            await self._report(ChatMoved(chat_id, moved.new_chat_id))

    async def _send_outbox(self, place: Place) -> bool:
        """Send the place's oldest waiting post; ``True`` if more may be waiting."""
        try:
            return await self.outbox.send_next(place)
        except Forbidden:
            await self._report(ChatRefused(place[0]))
            return True
        except ChatMigrated as moved:
            await self._report(ChatMoved(place[0], moved.new_chat_id))  # the post moves along
            return False

    async def _send_note(self, place: Place, note: Note) -> None:
        chat_id, thread_id = place
        t = await self.translators.chat(chat_id)
        out = note.render(t)
        if out is None:
            return
        try:
            await self.sender.put(chat_id, thread_id, out)
        except Forbidden:
            await self._report(ChatRefused(chat_id))
        except ChatMigrated as moved:
            await self._report(ChatMoved(chat_id, moved.new_chat_id))
        except BadRequest as error:
            log.warning("reply to %s not sent: %s", chat_id, error)

    async def _refresh_hand(self, game_id: int, seat: int) -> None:
        table = self.service.snapshot(game_id)
        player = None if table is None else table.seats[seat]
        if table is None or player is None or player.user_id is None:
            return
        opened = functools.partial(self.private_asks.opened, game_id)
        try:
            await self.sender.deliver(
                lambda: self.live.show_hand(
                    game_id, seat, before_send=self._notes_first, sent=opened
                ),
                f"hand:{game_id}:{seat}",
            )
        except Forbidden:
            await self._report(HandRefused(table, seat))

    async def _notes_first(self, user_id: int) -> None:
        """The person reads, above their new hand: "you have a seat" (their notes) and the
        results already owed to their private chat (the last deal's, in a /play match).

        **Decision**: the results owed are read from storage (they are committed with the
        move that ended the deal, perhaps before this change was shown), and the hand waits
        for them at most ``POSTS_FIRST_WAIT`` seconds: a chat whose posts cannot go out
        still gets its cards."""
        private = self._chats.get((user_id, None))
        if private is not None:
            await private.notes_sent(timeout=5.0)
        await self.posts_first((user_id, None))

    async def posts_first(self, place: Place, timeout: float = POSTS_FIRST_WAIT) -> None:
        """Wait (at most ``timeout`` seconds) until the results committed for ``place`` have
        been posted: what is sent next there, outside its lane, comes below them (a new
        deal's hand in a /play chat, a tournament's next round in its group)."""
        if await self.outbox.waiting(place):
            lane = self.chat_lane(*place)
            lane.touch_outbox()
            await lane.posts_sent(timeout)
