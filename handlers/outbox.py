"""Outbox delivery: the deal and match results a place is owed, posted in order, each once.

The service writes these posts (``kozelbot.tables.posts``) in the same transaction as the move that
ended the deal or the match; a place's lane asks for them before anything else
(``handlers.lanes``). Each post is rendered in the chat's language when its turn comes, sent
(retrying transient failures), and only then deleted from storage — so a post survives a
crash or a restart and is sent by the next run, and what the place shows converges on the
committed results whatever failed in between. A post Telegram refuses for good is dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram.error import BadRequest, Forbidden

from handlers.lanes import Outgoing, Place
from handlers.message_book import MessageBook
from handlers.sender import Sender
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.core.records import OutboxItem
from kozelbot.tables.posts import DEAL_RESULT, FINAL_TABLE, MATCH_OVER, read_post
from kozelbot.tables.queries import Queries
from kozelbot.tables.service import GameService
from kozelbot.views.links import WebAppLinks
from kozelbot.views.screens import deal_result_screen, final_table_screen, match_over_screen

log = logging.getLogger(__name__)


class Outbox:
    """Posts each place's waiting results, oldest first."""

    def __init__(
        self,
        queries: Queries,
        service: GameService,
        sender: Sender,
        book: MessageBook,
        translator: Callable[[int], Awaitable[Translator]],
        links: WebAppLinks | None = None,
    ) -> None:
        """``translator``: the language of a chat; ``links``: the Mini App's buttons."""
        self.links = links
        self.queries = queries
        self.service = service
        self.sender = sender
        self.book = book
        self.translator = translator

    async def places_waiting(self) -> list[Place]:
        """The places that have posts waiting (after a start: what a previous run left)."""
        return await self.queries.posts.chats_with_posts()

    async def waiting(self, place: Place) -> bool:
        """Whether a post to ``place`` waits in storage (read where a message must come
        after the posts already committed, e.g. a new deal's hand after the last result)."""
        chat_id, thread_id = place
        return bool(await self.queries.posts.pending_posts(chat_id, limit=1, thread_id=thread_id))

    async def send_next(self, place: Place) -> bool:
        """Send the place's oldest waiting post; ``True`` if more may be waiting.

        ``Forbidden`` (the chat refuses the bot: its post is dropped) and ``ChatMigrated`` (the
        post stays, to move along with the chat) are raised for the caller to act on."""
        chat_id, thread_id = place
        items = await self.queries.posts.pending_posts(chat_id, limit=1, thread_id=thread_id)
        if not items:
            return False
        item = items[0]
        try:
            await self._send_post(place, item)
        except Forbidden:
            await self.queries.posts.post_done(item.id)
            raise
        except BadRequest as error:
            log.warning("post %s to %s cannot be sent: %s", item.id, chat_id, error)
        await self.queries.posts.post_done(item.id)
        return True

    async def _send_post(self, place: Place, item: OutboxItem) -> None:
        chat_id, thread_id = place
        table = self.service.snapshot(item.game_id) or await self.service.game(item.game_id)
        if table is None:
            return
        post = read_post(item, table)
        t = await self.translator(chat_id)
        event = post.event
        if item.kind == FINAL_TABLE and isinstance(event, DealScored):
            ref = await self.book.message(item.game_id, "table")
            if ref is None or ref.chat_id != chat_id or ref.deal_no != event.deal_no:
                return
            final = final_table_screen(post.table, event, t)
            out = Outgoing(final.text, final.keyboard, edit_message_id=ref.message_id)
        elif item.kind == DEAL_RESULT and isinstance(event, DealScored):
            out = Outgoing(deal_result_screen(post.table, event, t).text)
        elif item.kind == MATCH_OVER and isinstance(event, MatchOver):
            changes = await self.queries.boards.rating_changes(item.game_id)
            over = match_over_screen(post.table, event, t, changes)
            replay = (
                ()
                if self.links is None
                else self.links.replay_row(item.game_id, t, private=chat_id > 0)
            )
            rows = (*over.keyboard, replay) if replay else over.keyboard
            out = Outgoing(over.text, rows or None)
        else:
            log.warning("post %s of unknown kind %r skipped", item.id, item.kind)
            return
        await self.sender.put(chat_id, thread_id, out)
