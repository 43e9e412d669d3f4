"""Everything the bot shows about a game, kept in step with the state without flooding.

Each group has one *lane* and each private hand one lane. A lane is single-flight: it keeps a
queue of new posts (deal results) and a "dirty" flag for its live message (lobby, table or
hand); its task sends the posts in order, then re-renders the live message from the latest
committed table, never faster than its interval. So a burst of moves (computer players move
instantly) becomes one edit, group traffic stays under Telegram's ~20 messages a minute, and
what the chat shows always converges to the real state. ``AIORateLimiter`` below handles any
``RetryAfter`` left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from handlers.keyboards import to_markup
from kozelbot.engine import DealScored, MatchOver, Phase
from kozelbot.i18n import Translator
from kozelbot.render import (
    Keyboard,
    final_table_text,
    hand_keyboard,
    hand_text,
    lobby_keyboard,
    lobby_text,
    match_over_text,
    mention,
    result_text,
    table_text,
)
from kozelbot.service import Change, GameService
from kozelbot.table import Table, TableStatus

if TYPE_CHECKING:
    from handlers.deps import BotData

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outgoing:
    """A message for a group: new, or (``edit_message_id``) a final edit of an older one."""

    text: str
    markup: Keyboard | InlineKeyboardMarkup | None = None
    edit_message_id: int | None = None


Post = Callable[["Translator"], Outgoing | None]
"""Renders a group post in the group's language when its turn comes (``None``: nothing)."""
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
SHOWN_LIMIT = 20_000


class Lane:
    """A single-flight, rate-spaced sender for one chat message and the posts before it."""

    def __init__(
        self,
        name: str,
        interval: float,
        refresh: Callable[[], Awaitable[None]],
        send_post: Callable[[Post], Awaitable[None]] | None = None,
        on_idle: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.interval = interval
        self._refresh = refresh
        self._send_post = send_post
        self._on_idle = on_idle
        self.posts: deque[Post] = deque()
        self.dirty = False
        self.task: asyncio.Task[None] | None = None
        self.last = -1e9

    def touch(self) -> None:
        """The live message is out of date: re-render it soon."""
        self.dirty = True
        self._kick()

    def post(self, item: Post) -> None:
        """Queue a new message (sent before the next refresh)."""
        self.posts.append(item)
        self._kick()

    @property
    def busy(self) -> bool:
        """Work queued or in flight."""
        return self.task is not None and not self.task.done()

    def _kick(self) -> None:
        if not self.busy:
            self.task = asyncio.create_task(self._run(), name=f"lane:{self.name}")

    async def _run(self) -> None:
        while self.posts or self.dirty:
            delay = self.last + self.interval - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.posts and self._send_post is not None:
                item = self.posts[0]
                if await self._attempt(self._send_post(item)):
                    self.posts.popleft()
            else:
                self.posts.clear()
                self.dirty = False
                if not await self._attempt(self._refresh()):
                    self.dirty = True
            self.last = time.monotonic()
        if self._on_idle is not None:
            self._on_idle()

    async def _attempt(self, work: Awaitable[None]) -> bool:
        """Run one send; ``False`` means "try again" (flood wait)."""
        try:
            await work
        except RetryAfter as error:
            wait = error.retry_after
            seconds = wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)
            log.warning("lane %s: flood wait %.1fs", self.name, seconds)
            await asyncio.sleep(seconds)
            return False
        except TelegramError as error:
            log.warning("lane %s: %s", self.name, error)
        except Exception:
            log.exception("lane %s failed", self.name)
        return True


class Presenter:
    """Keeps every group's lobby/table message and every private hand up to date."""

    def __init__(self, bot: Bot, data: BotData) -> None:
        self.bot = bot
        self.data = data
        self._groups: dict[int, Lane] = {}
        self._hands: dict[tuple[int, int], Lane] = {}
        self._chat_game: dict[int, int] = {}
        self._lobby_closed: set[int] = set()
        self._asked_private: set[tuple[int, int]] = set()
        self._shown: dict[tuple[int, int], tuple[str, object]] = {}
        """(chat, message) → the text and keyboard last shown, to skip edits that change
        nothing (Telegram would refuse them as "not modified" anyway)."""

    @property
    def service(self) -> GameService:
        return self.data.service

    # -- scheduling ----------------------------------------------------------------------

    def show(self, change: Change) -> None:
        """Schedule everything a change makes visible: result posts, table, hands."""
        table = change.table
        self._chat_game[table.chat_id] = table.game_id
        lane = self._group_lane(table.chat_id)
        for event in change.events:
            if isinstance(event, DealScored):
                lane.post(self._final_table(table.game_id, event))
            if isinstance(event, DealScored | MatchOver):
                lane.post(_announcement(table, event))
        lane.touch()
        for seat, _player in table.humans:
            self.hand_lane(table.game_id, seat).touch()
        if change.abandoned_by is not None and change.abandoned_seat is not None:
            self._close_hand_of_leaver(table, change.abandoned_by, change.abandoned_seat)

    def _final_table(self, game_id: int, result: DealScored) -> Post:
        """The last edit of a deal's table message: its outcome instead of whose turn it is.

        Which message that is gets decided when the lane gets to it: by then the lane has
        recorded any table message it sent for the deal."""

        def render(t: Translator) -> Outgoing | None:
            table = self.service.snapshot(game_id)
            if table is None or table.table_message_deal != result.deal_no:
                return None
            text = final_table_text(table, result, t)
            return Outgoing(text, edit_message_id=table.table_message_id)

        return render

    async def repost_table(self, table: Table) -> None:
        """Send the table again at the bottom of the group (busy chats scroll it away);
        the old message says where it went."""
        old = table.table_message_id
        await self.service.set_table_message(table.game_id, None, None)
        if old is not None:
            self.post(table.chat_id, lambda t: Outgoing(t("⬇️ The table moved down."),
                                                        edit_message_id=old))  # fmt: skip
        self._chat_game[table.chat_id] = table.game_id
        self._group_lane(table.chat_id).touch()

    def _close_hand_of_leaver(self, table: Table, user_id: int, seat: int) -> None:
        """Take the card buttons off the hand of someone who left; a bot plays on."""
        known = table.hand_messages.get(seat)
        if known is None:
            return

        async def close() -> None:
            t = await self.data.user_translator(user_id)
            await self.edit(user_id, known[1], t("You left the table; a bot plays for you."))

        key = (table.game_id, -user_id)
        lane = Lane(f"left:{table.game_id}:{user_id}", 0.0, close,
                    on_idle=lambda: self._drop_hand_lane(key))  # fmt: skip
        self._hands[key] = lane
        lane.touch()

    def post(self, chat_id: int, item: Post) -> None:
        """Queue a message to a group in order with its table updates."""
        self._group_lane(chat_id).post(item)

    def hand_lane(self, game_id: int, seat: int) -> Lane:
        """The lane of one seat's private hand message."""
        key = (game_id, seat)
        lane = self._hands.get(key)
        if lane is None:
            lane = Lane(
                f"hand:{game_id}:{seat}",
                self.data.settings.private_interval,
                lambda: self._refresh_hand(game_id, seat),
                on_idle=lambda: self._forget_if_ended(game_id, key),
            )
            self._hands[key] = lane
        return lane

    def _forget_if_ended(self, game_id: int, key: tuple[int, int]) -> None:
        """Drop an idle hand lane of a game that is over (memory stays bounded)."""
        table = self.service.snapshot(game_id)
        if table is None or not table.status.live:
            self._drop_hand_lane(key)
            self._lobby_closed.discard(game_id)

    def _drop_hand_lane(self, key: tuple[int, int]) -> None:
        self._hands.pop(key, None)

    def _group_lane(self, chat_id: int) -> Lane:
        lane = self._groups.get(chat_id)
        if lane is None:
            lane = Lane(
                f"group:{chat_id}",
                self.data.settings.group_interval,
                lambda: self._refresh_group(chat_id),
                lambda item: self._send_post(chat_id, item),
            )
            self._groups[chat_id] = lane
        return lane

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until every lane is idle (tests and benchmarks)."""
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
        """Cancel pending work (at shutdown)."""
        tasks = [lane.task for lane in self._lanes() if lane.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _lanes(self) -> list[Lane]:
        return [*self._groups.values(), *self._hands.values()]

    # -- sending -------------------------------------------------------------------------

    async def send(
        self, chat_id: int, text: str, markup: Keyboard | InlineKeyboardMarkup | None = None
    ) -> Message:
        """Send an HTML message."""
        reply_markup = _markup(markup)
        message = await self.bot.send_message(
            chat_id,
            text,
            parse_mode=ParseMode.HTML,
            reply_markup=reply_markup,
            link_preview_options=NO_PREVIEW,
        )
        self._remember_shown((chat_id, message.message_id), text, reply_markup)
        return message

    async def edit(
        self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None
    ) -> bool:
        """Edit a message in place; ``False`` if it no longer exists."""
        reply_markup = _markup(markup)
        key = (chat_id, message_id)
        if self._shown.get(key) == (text, reply_markup):
            return True
        try:
            await self.bot.edit_message_text(
                text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=reply_markup,
                link_preview_options=NO_PREVIEW,
            )
        except BadRequest as error:
            reason = str(error).lower()
            if "not modified" in reason:
                self._remember_shown(key, text, reply_markup)
                return True
            if "not found" in reason or "can't be edited" in reason:
                self._shown.pop(key, None)
                return False
            raise
        self._remember_shown(key, text, reply_markup)
        return True

    def _remember_shown(self, key: tuple[int, int], text: str, markup: object) -> None:
        if len(self._shown) >= SHOWN_LIMIT:
            self._shown.clear()  # a cache: forgetting costs one redundant edit at most
        self._shown[key] = (text, markup)

    async def _send_post(self, chat_id: int, item: Post) -> None:
        translate = await self.data.group_translator(chat_id)
        out = item(translate)
        if out is None:
            return
        try:
            if out.edit_message_id is not None:
                markup = out.markup if not isinstance(out.markup, InlineKeyboardMarkup) else None
                await self.edit(chat_id, out.edit_message_id, out.text, markup)
            else:
                await self.send(chat_id, out.text, out.markup)
        except Forbidden:
            await self.group_lost(chat_id)
        except ChatMigrated as moved:
            await self.chat_migrated(chat_id, moved.new_chat_id)
            if out.edit_message_id is None:
                self.post(moved.new_chat_id, item)

    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup with a new id: the game goes on there."""
        from handlers.flow import publish

        table = await self.service.migrate_chat(old_chat_id, new_chat_id)
        self._groups.pop(old_chat_id, None)
        self._chat_game.pop(old_chat_id, None)
        for chat_id in (old_chat_id, new_chat_id):
            self.data.chat_languages.pop(chat_id, None)
        if table is not None:
            log.info("chat %s moved to %s with game %s", old_chat_id, new_chat_id, table.game_id)
            publish(self.data, Change(table))

    async def group_lost(self, chat_id: int) -> None:
        """The bot can no longer write to a group (removed, banned): stop its game, so the
        players' hands close and the chat is free if the bot comes back."""
        from handlers.flow import publish  # flow imports the presenter's owner, not us

        table = await self.service.live_game(chat_id)
        self._groups.pop(chat_id, None)
        if table is None:
            return
        log.warning("lost group %s: stopping game %s", chat_id, table.game_id)
        publish(self.data, await self.service.stop(table.game_id))

    # -- group ---------------------------------------------------------------------------

    async def _refresh_group(self, chat_id: int) -> None:
        try:
            await self._render_group(chat_id)
        except Forbidden:
            await self.group_lost(chat_id)
        except ChatMigrated as moved:
            await self.chat_migrated(chat_id, moved.new_chat_id)

    async def _render_group(self, chat_id: int) -> None:
        game_id = self._chat_game.get(chat_id)
        table = None if game_id is None else self.service.snapshot(game_id)
        if table is None:
            return
        t = await self.data.group_translator(chat_id)
        state = self.service.state_of(table)
        if state is None or state.current is None:
            await self._show_lobby(table, t)
            return
        if table.lobby_message_id is not None and table.game_id not in self._lobby_closed:
            self._lobby_closed.add(table.game_id)
            await self.edit(chat_id, table.lobby_message_id, lobby_text(table, t))
        deal_no = state.current.deal_no
        result = state.last_result
        if state.phase is Phase.OVER and result is not None and result.deal_no == deal_no:
            text = final_table_text(table, result, t)
        else:
            text = table_text(table, state, t)
        current = table.table_message_deal == deal_no and table.table_message_id is not None
        if current and await self.edit(chat_id, table.table_message_id or 0, text):
            return
        message = await self.send(chat_id, text)
        await self.service.set_table_message(table.game_id, deal_no, message.message_id)

    async def _show_lobby(self, table: Table, t: Translator) -> None:
        flagged = set()
        for _seat, player in table.humans:
            assert player.user_id is not None
            record = await self.data.storage.user(player.user_id)
            if record is not None and record.flagged:
                flagged.add(player.user_id)
        text, keyboard = lobby_text(table, t, frozenset(flagged)), lobby_keyboard(table, t)
        if table.lobby_message_id is not None and await self.edit(
            table.chat_id, table.lobby_message_id, text, keyboard
        ):
            return
        if table.status is not TableStatus.LOBBY:
            return
        message = await self.send(table.chat_id, text, keyboard)
        await self.service.set_lobby_message(table.game_id, message.message_id)

    # -- hands ---------------------------------------------------------------------------

    async def _refresh_hand(self, game_id: int, seat: int) -> None:
        table = self.service.snapshot(game_id)
        player = None if table is None else table.seats[seat]
        if table is None or player is None or player.user_id is None:
            return
        state = self.service.state_of(table)
        if state is None or state.current is None:
            return
        user_id = player.user_id
        t = await self.data.user_translator(user_id)
        deal_no = state.current.deal_no
        text, keyboard = hand_text(table, state, seat, t), hand_keyboard(table, state, seat, t)
        known = table.hand_messages.get(seat)
        if known is not None and known[0] == deal_no:
            if await self.edit(user_id, known[1], text, keyboard):
                return
        elif known is not None:
            with contextlib.suppress(TelegramError):
                await self.edit(user_id, known[1], t("Deal {n} is over.", n=known[0] + 1))
        if table.status is not TableStatus.PLAYING:
            return
        try:
            message = await self.send(user_id, text, keyboard)
        except Forbidden:
            await self.private_closed(table, seat)
            return
        self.private_opened(game_id, user_id)
        await self.service.set_hand_message(game_id, seat, deal_no, message.message_id)

    def deep_link(self, payload: str) -> str:
        """``t.me`` link that opens the bot's private chat and sends ``/start payload``."""
        return f"https://t.me/{self.bot.username}?start={payload}"

    async def private_closed(self, table: Table, seat: int) -> None:
        """A player's private chat refuses messages: ask them, once, in the group."""
        player = table.seats[seat]
        assert player is not None and player.user_id is not None
        await self.data.storage.set_private_open(player.user_id, False)
        self.ask_to_open_private(table.chat_id, table.game_id, player.user_id, player.name,
                                 f"hand-{table.game_id}")  # fmt: skip

    def ask_to_open_private(
        self, chat_id: int, game_id: int, user_id: int, name: str, payload: str
    ) -> None:
        """Ask someone in the group, once per game until they answer, to open the private
        chat: a post with a deep-link button (``payload`` says what Start then does)."""
        key = (game_id, user_id)
        if key in self._asked_private:
            return
        self._asked_private.add(key)
        self.post(chat_id, self._open_private_prompt(user_id, name, payload))

    def private_opened(self, game_id: int, user_id: int) -> None:
        """The person opened the private chat: a later refusal may be asked about again."""
        self._asked_private.discard((game_id, user_id))

    def _open_private_prompt(self, user_id: int, name: str, payload: str) -> Post:
        url = self.deep_link(payload)

        def render(t: Translator) -> Outgoing:
            text = t("{name}, open a private chat with me to receive your cards.",
                     name=mention(user_id, name))  # fmt: skip
            button = InlineKeyboardButton(t("Open the chat"), url=url)
            return Outgoing(text, InlineKeyboardMarkup([[button]]))

        return render


def _announcement(table: Table, event: DealScored | MatchOver) -> Post:
    """A deal or match result as a group post, rendered in the group's language."""

    def render(t: Translator) -> Outgoing:
        if isinstance(event, DealScored):
            return Outgoing(result_text(table, event, t))
        return Outgoing(match_over_text(table, event.winner, event.score, t))

    return render


def _markup(markup: Keyboard | InlineKeyboardMarkup | None) -> InlineKeyboardMarkup | None:
    if markup is None or isinstance(markup, InlineKeyboardMarkup):
        return markup
    return to_markup(markup)
