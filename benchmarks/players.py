"""The emulated people of ``load.py``: an emulator that wakes only the game a message belongs
to (``store`` and ``record_call`` hooks, O(1) per call), and the people of each group, who
open a match and press as fast as the bot lets them — in their hand messages, or in the Mini
App (``PageRun``, ``pages.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.pages import PageTable, Tap
from botapi_emulator import ApiCall, BotApiEmulator, ChatMessage, Group, User
from kozelbot.core.callbacks import parse
from kozelbot.core.texts import is_not_now
from sandbox.watch import YOUR_TURN, hand_moves
from tests.e2e import TOKEN

MESSAGE_METHODS = frozenset(
    {"sendmessage", "editmessagetext", "editmessagereplymarkup", "deletemessage"}
)
KINDS = ("people", "solo", "duo")
PEOPLE_OF_KIND = {"people": 4, "solo": 1, "duo": 2}
NEW_GAME = "/newgame seating=ordered move_time=0 computer={computer}"
JOIN_BUTTON = "Сесть за стол"
START_BUTTON = "Начать с ботами"
MATCH_OVER = "🏆"
PRESS_TIMEOUT = 120.0
"""Seconds a person waits for the answer to a press before counting it as unanswered."""
GRACE = 120.0
"""Seconds after the run during which the bot may still answer presses and send its queue."""


# ----------------------------------------------------------------------------- emulator hooks


class LoadEmulator(BotApiEmulator):
    """The emulator with O(1) hooks on every bot message and call.

    ``watch(chat_id, game)`` routes the bot's sends/edits in that chat to ``game.saw``;
    answers to callback queries are timed (``answered_at``) and wake whoever waits for them.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.games_by_chat: dict[int, Game] = {}
        self.answered_at: dict[str, float] = {}
        self.answer_waiters: dict[str, asyncio.Future[float]] = {}
        self.unanswered: set[str] = set()
        self.chat_waiters: dict[int, asyncio.Future[float]] = {}
        """chat id → resolved at the bot's next new message in that chat."""
        self.last_busy = 0.0
        """Time of the last Bot API call other than ``getUpdates``."""
        self.polled = asyncio.Event()

    async def __aenter__(self) -> LoadEmulator:
        await self.start()
        return self

    def watch(self, chat_id: int, game: Game) -> None:
        self.games_by_chat[chat_id] = game

    def store(self, message: ChatMessage) -> ChatMessage:
        stored = super().store(message)
        if message.from_bot:
            waiter = self.chat_waiters.pop(message.chat_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(time.monotonic())
            game = self.games_by_chat.get(message.chat_id)
            if game is not None:
                game.saw(message)
        return stored

    def record_call(self, call: ApiCall) -> None:
        super().record_call(call)
        method = call.method.lower()
        if method == "getupdates":
            self.polled.set()
            return
        self.last_busy = call.time
        if not call.ok:
            return
        if method == "answercallbackquery":
            query_id = str(call.params.get("callback_query_id"))
            self.answered_at[query_id] = call.time
            self.unanswered.discard(query_id)
            waiter = self.answer_waiters.pop(query_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(call.time)
        elif method in MESSAGE_METHODS and method != "sendmessage":  # sends: see ``store``
            chat_id = int(call.params["chat_id"])
            game = self.games_by_chat.get(chat_id)
            message = self.lookup(chat_id, int(call.params["message_id"]))
            if game is not None and message is not None:
                game.saw(message)

    def press_async(
        self,
        user: User,
        chat: int,
        message_id: int,
        data: str | None = None,
        *,
        text: str | None = None,
    ) -> tuple[str, asyncio.Future[float]]:
        """Press a button; the future resolves at the time the bot answered the query."""
        query_id = self.press_nowait(user, chat, message_id, data, text=text)
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.answer_waiters[query_id] = future
        self.unanswered.add(query_id)
        return query_id, future

    def next_message(self, chat_id: int) -> asyncio.Future[float]:
        """Resolves at the time of the bot's next new message in ``chat_id``."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.chat_waiters[chat_id] = future
        return future

    async def quiet(self, quiet: float, timeout: float) -> bool:
        """Wait until every update was fetched, every press answered and the bot made no
        call but ``getUpdates`` for ``quiet`` seconds; False if ``timeout`` passed first."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            busy = bool(self.unanswered) or self.undelivered_updates > 0
            if not busy and now - self.last_busy >= quiet:
                return True
            if now >= deadline:
                return False
            await asyncio.sleep(0.1)


# ----------------------------------------------------------------------------- people


def is_hand(message: ChatMessage) -> bool:
    """A hand message: it carries card or redeal buttons."""
    return any(card_press(data) for row in message.buttons for _, data in row)


def card_press(data: str) -> bool:
    """The data of a hand's card or redeal button (the rest are lobby buttons)."""
    action = getattr(parse(data), "action", None)
    return isinstance(action, str) and (
        action.startswith("play:") or action == "redeal" or action == "keep"
    )


def choose(message: ChatMessage, rng: random.Random) -> str | None:
    """The button a person presses on their hand now: "play on" when offered a redeal,
    a random legal card on their turn, else nothing."""
    moves = hand_moves(message)
    if any(action == "redeal" for _, _, action in moves):
        return next(data for _, data, action in moves if action == "keep")
    cards = [
        data for text, data, action in moves if action.startswith("play:") and not is_not_now(text)
    ]
    if YOUR_TURN in message.text and cards:
        return rng.choice(cards)
    return None


@dataclass(eq=False)
class Person:
    """An emulated person and the hand message they last saw."""

    user: User
    hand: ChatMessage | None = None
    acted_on: tuple[int, int] | None = None
    """(message id, edits) of the hand as it was at their last press."""


@dataclass
class Press:
    """One card (or lobby) press: query id, when it was queued, when it was answered."""

    query_id: str
    created: float
    answered: float | None = None
    refused: bool = False


@dataclass(eq=False)
class Game:
    """One group with its emulated people, played by one task."""

    index: int
    kind: str
    emu: LoadEmulator
    group: Group
    people: list[Person]
    rng: random.Random
    presses: list[Press]
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lobby: ChatMessage | None = None
    over: bool = False
    matches_started: int = 0
    matches_finished: int = 0
    stuck: str | None = None
    computer: str = "strong"
    """The computer level of the tables it opens (``--computer``)."""
    lobby_waits: list[float] = field(default_factory=list)
    """Seconds from each ``/newgame`` to its lobby message."""
    by_user: dict[int, Person] = field(default_factory=dict)
    pages: PageRun | None = None
    """``--webapp``: the people play in the Mini App (``pages``) instead of their hands."""
    impatient: float = 0.0
    """``--impatient S``: while nobody of the table may press, a person presses a card of
    their hand every S seconds anyway (refused: not their turn), as people tap while the
    computers think."""
    think: float = 0.0
    """``--think S``: a person takes S seconds, give or take half, to press on their turn
    (0: at once), as a person would."""

    def __post_init__(self) -> None:
        self.by_user = {p.user.id: p for p in self.people}
        for chat_id in (self.group.id, *self.by_user):
            self.emu.watch(chat_id, self)

    def saw(self, message: ChatMessage) -> None:
        """The bot sent or edited ``message`` in one of this game's chats."""
        person = self.by_user.get(message.chat_id)
        if person is not None:
            if is_hand(message) and not message.deleted:
                person.hand = message
            elif person.hand is message:
                person.hand = None
        elif not message.deleted:
            if any(text == JOIN_BUTTON for row in message.buttons for text, _ in row):
                self.lobby = message
            elif MATCH_OVER in message.text:
                self.over = True
        self.wake.set()

    async def until(self, predicate: Callable[[], bool], deadline: float) -> bool:
        """Wait for ``predicate()`` (re-checked when one of the game's chats changes)."""
        while True:
            self.wake.clear()
            if predicate():
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), remaining)

    async def press(
        self,
        person: Person,
        message: ChatMessage,
        data: str | None = None,
        *,
        text: str | None = None,
    ) -> Press:
        """``person`` presses a button and waits for the bot's answer."""
        query_id, future = self.emu.press_async(
            person.user, message.chat_id, message.message_id, data, text=text
        )
        record = Press(query_id, self.emu.queries[query_id].created)
        self.presses.append(record)
        with contextlib.suppress(TimeoutError):
            record.answered = await asyncio.wait_for(future, PRESS_TIMEOUT)
        answer = self.emu.queries[query_id].answer
        record.refused = answer is not None and answer.show_alert
        return record

    async def run(self, deadline: float) -> None:
        """Open a match, play it, and again, until ``deadline``."""
        while time.monotonic() < deadline:
            if not await self.open_match(deadline):
                return
            if self.pages is None:
                await self.play(deadline)
                continue
            assert self.lobby is not None
            table = self.pages.table(self.lobby, [p.user for p in self.people], self.rng)
            if await table.play(deadline):
                self.matches_finished += 1

    async def open_match(self, deadline: float) -> bool:
        creator = self.people[0]
        self.lobby, self.over = None, False
        for person in self.people:
            person.hand, person.acted_on = None, None
        self.emu.send_text(creator.user, self.group.id, NEW_GAME.format(computer=self.computer))
        sent = time.monotonic()
        if not await self.until(lambda: self.lobby is not None, deadline):
            self.stuck = "no lobby message before the end"
            return False
        self.lobby_waits.append(time.monotonic() - sent)
        lobby = self.lobby
        assert lobby is not None
        joins = await asyncio.gather(
            *(self.press(p, lobby, text=JOIN_BUTTON) for p in self.people[1:])
        )
        if any(j.answered is None or j.refused for j in joins):
            self.stuck = "a join was refused or unanswered"
            return False
        if len(self.people) < 4:
            # /newgame seats its sender just after the lobby shows: wait to see them seated
            # (a person would), or the start is refused as coming from someone not seated.
            name = creator.user.first_name
            if not await self.until(
                lambda: self.lobby is not None and name in self.lobby.text, deadline
            ):
                self.stuck = "the creator was never seated"
                return False
            lobby = self.lobby
            assert lobby is not None
            start = await self.press(creator, lobby, text=START_BUTTON)
            if start.answered is None or start.refused:
                self.stuck = "the start was refused or unanswered"
                return False
        self.matches_started += 1
        return True

    def next_press(self) -> tuple[Person, ChatMessage, str] | None:
        """Someone whose hand changed since their last press and asks for a press now."""
        for person in self.people:
            hand = person.hand
            if hand is None or (hand.message_id, hand.edits) == person.acted_on:
                continue
            data = choose(hand, self.rng)
            if data is not None:
                return person, hand, data
        return None

    async def play(self, deadline: float) -> None:
        found: list[tuple[Person, ChatMessage, str]] = []

        def something_to_do() -> bool:
            found.clear()
            if self.over:
                return True
            found.extend(filter(None, [self.next_press()]))
            return bool(found)

        while time.monotonic() < deadline:
            until = deadline
            if self.impatient:
                until = min(deadline, time.monotonic() + self.impatient)
            if not await self.until(something_to_do, until):
                if time.monotonic() >= deadline:
                    return
                await self.press_out_of_turn()
                continue
            if self.over:
                self.matches_finished += 1
                return
            person, hand, data = found[0]
            seen = (hand.message_id, hand.edits)
            if self.think:
                await asyncio.sleep(self.rng.uniform(self.think / 2, 1.5 * self.think))
                if person.hand is not hand or (hand.message_id, hand.edits) != seen:
                    continue  # the hand changed meanwhile: look at it again
            person.acted_on = seen
            await self.press(person, hand, data)

    async def press_out_of_turn(self) -> None:
        """``--impatient``: someone presses a card of their hand though it is not their
        turn (the answer says so; it must come at once all the same)."""
        for person in self.rng.sample(self.people, len(self.people)):
            hand = person.hand
            cards = (
                []
                if hand is None
                else [data for _, data, action in hand_moves(hand) if action.startswith("play:")]
            )
            if hand is not None and cards:
                await self.press(person, hand, self.rng.choice(cards))
                return


@dataclass
class PageRun:
    """What ``--webapp`` tables share: the HTTP session, the Mini App's address, the taps."""

    session: Any
    base: str
    pace: float
    taps: list[Tap] = field(default_factory=list)
    tables: list[tuple[frozenset[int], PageTable]] = field(default_factory=list)
    """Each match played in pages, with its chats (the group's and its people's)."""

    def table(self, lobby: ChatMessage, users: list[User], rng: random.Random) -> PageTable:
        """The pages of the match the lobby opened (its buttons name its game)."""
        ids = [getattr(parse(data), "game_id", None) for row in lobby.buttons for _, data in row]
        game_id = next(i for i in ids if isinstance(i, int))
        table = PageTable(self.session, self.base, TOKEN, game_id, users, rng, self.taps, self.pace)
        self.tables.append((frozenset([lobby.chat_id, *(u.id for u in users)]), table))
        return table

    def calls_in_play(self, calls: list[ApiCall], until: float) -> int:
        """Message calls to a table's chats from its first match's first move until
        ``until`` (the run's end, when the pages close): what playing costs, without a
        table's start (its lobby and first posts) and its end (each hand caught up as its
        page closes), which a long evening spreads thin. Still counted: the hands sent to
        people whose page opened before their hand message came (no person could do that:
        the page opens from the hand's 🃏)."""
        started: dict[int, float] = {}
        for chats, table in self.tables:
            if table.first_tap is None:
                continue
            for chat in chats:
                started[chat] = min(started.get(chat, table.first_tap), table.first_tap)
        return sum(
            1
            for c in calls
            if c.time < until
            and c.time >= started.get(int(c.params.get("chat_id", 0)), float("inf"))
        )
