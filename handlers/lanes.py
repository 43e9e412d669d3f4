"""Lanes: one single-flight sender per place (a chat or forum topic) and per private hand.

A lane serves, in this order: the place's durable posts (results, from the outbox), then a
re-render of its live message (the table) once its interval has passed, then its notes
(replies and notices). So the table of a live game is never starved by what people type:
replies to commands get at most a bounded share of the group's flood budget
(``ReplyBudget``) while a game is live, and the excess is dropped with one "slow down" per
window. Notes that carry the same ``key`` are coalesced; at most ``MAX_NOTES`` wait.

What a lane sends is decided when its turn comes (a note renders in the chat's language at
send time; a refresh renders the latest committed table), so what every chat shows
converges on the committed state whatever failed in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from telegram import InlineKeyboardMarkup
from telegram.error import TelegramError

from kozelbot.core import logs
from kozelbot.core.i18n import Translator
from kozelbot.core.texts import Keyboard
from kozelbot.views.screens import Screen

log = logging.getLogger(__name__)

T = TypeVar("T")

Markup = Keyboard | InlineKeyboardMarkup | None

Place = tuple[int, int | None]
"""Where a game lives and replies go: a chat and its forum topic (``None`` outside forums).
One game per place; a group's flood budget is shared by its topics (``FloodGate``)."""

MAX_NOTES = 3
"""Notes waiting in one place beyond which new ones are dropped (a flooded chat costs only
itself, and a burst of identical commands gets one answer)."""


@dataclass(frozen=True)
class Outgoing:
    """A message for a chat: new, or (``edit_message_id``) an edit of an older one."""

    text: str
    markup: Markup = None
    edit_message_id: int | None = None
    reply_to: int | None = None
    on_sent: Callable[[int], Awaitable[None]] | None = None
    """Told the new message's id once it is sent (a menu or vote whose buttons may later
    edit only that message)."""
    delete: bool = False
    """Delete message ``edit_message_id`` instead (a reminder that is no longer true)."""

    @classmethod
    def of(
        cls,
        screen: Screen,
        *,
        edit_message_id: int | None = None,
        on_sent: Callable[[int], Awaitable[None]] | None = None,
    ) -> Outgoing:
        """A screen as a lane's message (no keyboard: no markup at all)."""
        return cls(
            screen.text, screen.keyboard or None, edit_message_id=edit_message_id, on_sent=on_sent
        )


Render = Callable[[Translator], Outgoing | None]
"""Renders a note in the chat's language when its turn comes (``None``: nothing to send)."""


@dataclass(frozen=True)
class Note:
    """An ephemeral message for a chat; ``key`` coalesces repeats. A ``reply`` answers
    someone's command or press (budgeted while a game is live); other notes are the bot's
    own notices (someone away, a take-over, a prompt to open the private chat)."""

    render: Render
    key: str | None = None
    reply: bool = False


@dataclass
class ReplyBudget:
    """At most ``limit`` replies per ``period`` seconds while ``active()`` (a live game in
    the place); ``slow_down`` is queued once when replies start being dropped."""

    limit: int
    period: float
    active: Callable[[], bool]
    slow_down: Note

    def __post_init__(self) -> None:
        self.sent: deque[float] = deque()
        self.warned = False

    def used(self, now: float) -> int:
        """Replies sent in the window ending now."""
        while self.sent and self.sent[0] <= now - self.period:
            self.sent.popleft()
        if not self.sent:
            self.warned = False  # a quiet window: the next excess is worth a word again
        return len(self.sent)


class Lane:
    """A single-flight sender for one place's posts, live message and notes."""

    def __init__(
        self,
        name: str,
        interval: float,
        refresh: Callable[[], Awaitable[None]] | None = None,
        outbox: Callable[[], Awaitable[bool]] | None = None,
        send_note: Callable[[Note], Awaitable[None]] | None = None,
        on_idle: Callable[[], None] | None = None,
        budget: ReplyBudget | None = None,
    ) -> None:
        self.name = name
        self.interval = interval
        self._refresh = refresh
        self._outbox = outbox
        self._send_note = send_note
        self._on_idle = on_idle
        self.budget = budget
        self.notes: deque[Note] = deque()
        self.dirty = False
        self.outbox_pending = False
        self.task: asyncio.Task[None] | None = None
        self.last = -1e9
        self.closed = False
        self._notes_out = asyncio.Event()
        self._notes_out.set()
        self._posts_out = asyncio.Event()
        self._posts_out.set()

    def touch(self) -> None:
        """The live message is out of date: re-render it soon."""
        if self._refresh is not None:
            self.dirty = True
            self._kick()

    def touch_outbox(self) -> None:
        """Durable posts are waiting in storage."""
        if self._outbox is not None:
            self.outbox_pending = True
            self._posts_out.clear()
            self._kick()

    def note(self, note: Note) -> bool:
        """Queue a note; ``False`` if it was coalesced with an identical one or dropped."""
        if note.key is not None and any(n.key == note.key for n in self.notes):
            return False
        if note.reply and not self._reply_fits():
            return False
        if len(self.notes) >= MAX_NOTES:
            log.info("lane %s: note dropped (%d waiting)", self.name, len(self.notes))
            return False
        self.notes.append(note)
        self._notes_out.clear()
        self._kick()
        return True

    async def notes_sent(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the notes queued now have gone out: a
        person's "you have a seat" comes before their first hand."""
        if not self._notes_out.is_set() and self.busy:  # queued, or in flight
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._notes_out.wait(), timeout)

    async def posts_sent(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the posts waiting now have gone out: a
        deal's result comes before the next deal's hand in the same chat. A lane that ends
        (or is cancelled at shutdown) meanwhile ends the wait too."""
        task = self.task
        if self._posts_out.is_set() or task is None or task.done():
            return
        sent = asyncio.ensure_future(self._posts_out.wait())
        try:
            await asyncio.wait({sent, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sent.cancel()

    def _reply_fits(self) -> bool:
        """Whether one more reply fits the budget (replies waiting count as sent); past it,
        the first refused reply queues the "slow down"."""
        budget = self.budget
        if budget is None or not budget.active():
            return True
        waiting = sum(1 for n in self.notes if n.reply)
        if budget.used(time.monotonic()) + waiting < budget.limit:
            return True
        if not budget.warned:
            budget.warned = True
            self.notes.append(budget.slow_down)
            self._kick()
        log.info("lane %s: reply over the budget dropped", self.name)
        return False

    @property
    def busy(self) -> bool:
        """Work queued or in flight."""
        return self.task is not None and not self.task.done()

    @property
    def pending(self) -> int:
        """Messages this lane still owes (posts are durable and not counted)."""
        return len(self.notes) + int(self.dirty)

    def _kick(self) -> None:
        if not self.busy and not self.closed:
            # Detached: a lane serves many updates, its lines carry none of them; its Bot
            # API calls name the chat they send to (``kozelbot.core.logs``).
            self.task = asyncio.create_task(
                self._run(), name=f"lane:{self.name}", context=logs.detached()
            )

    async def _run(self) -> None:
        while not self.closed and (self.outbox_pending or self.notes or self.dirty):
            if self.outbox_pending and self._outbox is not None:
                self.outbox_pending = await self._guard(self._outbox(), default=False)
                if not self.outbox_pending:
                    self._posts_out.set()
                continue
            delay = self.last + self.interval - time.monotonic()
            if self.dirty and delay <= 0:
                self.dirty = False
                assert self._refresh is not None
                await self._guard(self._refresh(), default=None)
                self.last = time.monotonic()
                continue
            if self.notes and self._send_note is not None:
                note = self.notes.popleft()
                if note.reply and self.budget is not None:
                    self.budget.sent.append(time.monotonic())
                await self._guard(self._send_note(note), default=None)
                if not self.notes:
                    self._notes_out.set()
                continue
            if not self.dirty:
                break
            await asyncio.sleep(delay)  # only the live message is due, later
        self._notes_out.set()
        self._posts_out.set()
        if self._on_idle is not None and not self.closed:
            self._on_idle()

    async def _guard(self, work: Awaitable[T], default: T) -> T:
        """Run one step; a bug is logged and the lane goes on (no tight loop, no dead lane)."""
        try:
            return await work
        except asyncio.CancelledError:
            raise
        except TelegramError as error:  # permanent, and not handled by the step itself
            log.warning("lane %s: %s", self.name, error)
        except Exception:
            log.exception("lane %s failed", self.name)
        return default
