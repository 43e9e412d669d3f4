"""Watch mode: the sandbox's four people play a match by themselves, one move every few seconds.

The autopilot acts only through what the people's chats show, as a person would: person 1
opens a table with ``/newgame`` (unless the group already has a game), the others ``/join``
until it starts, and then, for whoever's private hand message says it is their turn (``👉``, or
offers a redeal), it presses a legal button — a card not bracketed «(К♥)», "play on"
to a redeal offer, the plain call, the hand-off offer, a card to return. It stops when the
group shows the match result (``🏆``), when the group has no game any more, or when told.

The follow-suit variants are played; in the cover game (several cards selected, then an
action) the autopilot only waits, and the table's move timer plays for the absent people.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from botapi_emulator import BotApiEmulator, ChatMessage, Group, User
from kozelbot.core.callbacks import Callback, parse
from kozelbot.core.texts import is_not_now
from kozelbot.families.registry import hand_buttons

log = logging.getLogger(__name__)

YOUR_TURN = "👉"
"""Starts the line of a hand message that asks its holder to act."""
TROPHY = "🏆"
"""Marks the match result the group is sent."""

MIN_DELAY = 0.2
MAX_DELAY = 10.0
DEFAULT_DELAY = 1.0
RETRY_SECONDS = 3.0
"""A press that changed nothing (refused, or never answered) is tried again after this long."""
SEAT_SECONDS = 30.0
"""How long opening the table or taking a seat may take before the autopilot gives up."""
ANSWER_SECONDS = 10.0


@dataclass(frozen=True)
class GameInfo:
    """The group's live game as the autopilot needs it: ``lobby`` or ``playing``, and the
    people seated."""

    status: str
    seated: frozenset[int]


GameProbe = Callable[[], Awaitable[GameInfo | None]]
"""Reads the group's live game (None: no lobby or match)."""


@dataclass(frozen=True)
class Move:
    """A button ``person`` may press now on their hand ``message``."""

    person: User
    message: ChatMessage
    data: str

    @property
    def key(self) -> tuple[int, int, int]:
        """The hand as it looked: a press on it is not repeated until it changes."""
        return self.person.id, self.message.message_id, self.message.edits


def _button_list(message: ChatMessage) -> list[tuple[str, str]]:
    return [(text, data) for row in message.buttons for text, data in row]


def hand_moves(message: ChatMessage) -> list[tuple[str, str, str]]:
    """The hand's buttons that make a move: (label, data, the move's notation)."""
    found = []
    for text, data in _button_list(message):
        action = getattr(parse(data), "action", None)
        if isinstance(action, str):
            found.append((text, data, action))
    return found


def _is_hand_button(data: str) -> bool:
    button: Callback | None = parse(data)
    return isinstance(button, hand_buttons())


def hand_message(emu: BotApiEmulator, person: User) -> ChatMessage | None:
    """The person's latest private message that carries hand buttons."""
    for message in reversed(emu.messages(person.id)):
        if any(_is_hand_button(data) for _, data in _button_list(message)):
            return message
    return None


def shows_turn(message: ChatMessage) -> bool:
    """Whether a hand message asks its holder to act (their turn, or a redeal offer)."""
    return YOUR_TURN in message.text or any(a == "redeal" for _, _, a in hand_moves(message))


def choose_button(message: ChatMessage, rng: random.Random) -> str | None:
    """The button to press on a hand that shows its holder's turn: "play on" to a redeal
    offer, the plain call, the hand-off (kryuk's trump, sixes' offer, "go ahead" to a
    partner's offer, the first trumps offered), a card to return, else a random legal card
    (one not bracketed); None when none of these is there (the cover game)."""
    moves = hand_moves(message)
    by = {action: data for _, data, action in moves}
    calls = [data for _, data, a in moves if a.startswith("call:")]
    gives = [data for _, data, a in moves if a.startswith("give:")]
    returns = [data for text, data, a in moves if a.startswith("return:") and not is_not_now(text)]
    if "redeal" in by:
        return by.get("keep", by["redeal"])
    if calls:
        return by.get("call:plain", calls[0])
    if "agree" in by:
        return by["agree"]
    if "offer" in by or gives or "keep" in by:
        return by.get("offer") or (gives[0] if gives else by["keep"])
    if returns:
        return returns[0]
    cards = [data for text, data, a in moves if a.startswith("play:") and not is_not_now(text)]
    return rng.choice(cards) if cards else None


def next_moves(emu: BotApiEmulator, people: Sequence[User], seed: int) -> list[Move]:
    """Every press some person's hand asks for now, in the people's order. A choice depends
    only on ``seed`` and what the hand shows, so a seeded match is played the same way
    however fast the hands are updated."""
    moves = []
    for person in people:
        message = hand_message(emu, person)
        if message is None or not shows_turn(message):
            continue
        shown = "|".join(data for _, data in _button_list(message))
        data = choose_button(message, random.Random(f"{seed}:{person.id}:{message.text}:{shown}"))
        if data is not None:
            moves.append(Move(person, message, data))
    return moves


class Pace:
    """Keeps each person under the bot's own press limit (``KOZEL_PRESS_BURST`` presses at
    once, then ``KOZEL_PRESS_RATE`` a second), with a margin, so that the bot never has to
    say "slow down": token buckets by person, as the bot keeps them."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst = max(burst - 1.0, 1.0)
        self.rate = rate * 0.9
        self._buckets: dict[int, tuple[float, float]] = {}

    def _tokens(self, person: int, now: float) -> float:
        tokens, last = self._buckets.get(person, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.rate)

    def wait(self, person: int, now: float) -> float:
        """Seconds until ``person`` may press again (0: now)."""
        return max(1.0 - self._tokens(person, now), 0.0) / self.rate

    def take(self, person: int, now: float) -> None:
        """``person`` pressed at ``now``."""
        self._buckets[person] = (self._tokens(person, now) - 1.0, now)


class Autopilot:
    """Plays the group's match for the four people, one move every ``delay`` seconds."""

    def __init__(
        self,
        emu: BotApiEmulator,
        group: Group,
        people: Sequence[User],
        game: GameProbe,
        *,
        on_change: Callable[[], None] = lambda: None,
        seed: int | None = None,
        delay: float = DEFAULT_DELAY,
        press_burst: float = 8,
        press_rate: float = 2.0,
    ) -> None:
        self.emu = emu
        self.group = group
        self.people = list(people)
        self.game = game
        self.on_change = on_change
        self.seed = secrets.randbits(64) if seed is None else seed
        self.delay = delay
        """Seconds between two moves; may change while it runs."""
        self.pace = Pace(press_burst, press_rate)
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Whether a match is being played (or its table opened)."""
        return self._task is not None and not self._task.done()

    def start(self, newgame: str = "") -> None:
        """Start playing (``/newgame {newgame}`` if the group has no game); nothing if it
        already runs."""
        if self.running:
            return
        self._task = asyncio.create_task(self._run(newgame), name="sandbox-watch")
        self.on_change()

    async def stop(self) -> None:
        """Stop playing (the match stays where it is)."""
        task, self._task = self._task, None
        if task is None or task.done():
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        self.on_change()

    async def _run(self, newgame: str) -> None:
        try:
            baseline = self._last_group_message_id()
            if await self._seat(newgame):
                await self._play(baseline)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("watch mode stopped by an error")
        if asyncio.current_task() is self._task:
            self._task = None
            self.on_change()

    def _last_group_message_id(self) -> int:
        messages = self.emu.all_messages(self.group.id, include_deleted=True)
        return messages[-1].message_id if messages else 0

    async def _until(
        self, done: Callable[[GameInfo | None], bool], timeout: float = SEAT_SECONDS
    ) -> tuple[bool, GameInfo | None]:
        """Poll the game until ``done`` holds; ``(whether it did, the game last seen)``."""
        deadline = time.monotonic() + timeout
        while True:
            game = await self.game()
            if done(game):
                return True, game
            if time.monotonic() >= deadline:
                return False, game
            await asyncio.sleep(0.1)

    async def _seat(self, newgame: str) -> bool:
        """Open a table if there is none and seat the people until the match starts."""
        game = await self.game()
        if game is None:
            creator = self.people[0].id
            self.emu.send_text(self.people[0], self.group.id, f"/newgame {newgame}".strip())
            # The lobby is stored first and its creator seated in a second commit: a look in
            # between would send the creator a /join of their own.
            _, game = await self._until(
                lambda found: (
                    found is not None and (found.status != "lobby" or creator in found.seated)
                )
            )
            if game is None:
                log.warning("watch mode: no table opened after /newgame %s", newgame)
                return False
        while game is not None and game.status == "lobby":
            waiting = [person for person in self.people if person.id not in game.seated]
            if not waiting:
                _, game = await self._until(lambda found: found is None or found.status != "lobby")
                break
            person = waiting[0]

            def joined(found: GameInfo | None, who: int = person.id) -> bool:
                return found is None or found.status != "lobby" or who in found.seated

            self.emu.send_text(person, self.group.id, "/join")
            seated, game = await self._until(joined)
            if not seated:
                log.warning("watch mode: %s could not take a seat", person.first_name)
                return False
        return game is not None

    def _match_over(self, baseline: int) -> bool:
        for message in reversed(self.emu.messages(self.group.id)):
            if message.message_id <= baseline:
                return False
            if TROPHY in message.text:
                return True
        return False

    async def _play(self, baseline: int) -> None:
        """Press for whoever's hand shows their turn until the match is over."""
        pressed: dict[tuple[int, int, int], float] = {}
        last_move = 0.0
        next_check = 0.0
        while not self._match_over(baseline):
            now = time.monotonic()
            if now >= next_check:
                if await self.game() is None:
                    return
                next_check = now + 1.0
            for key in [key for key, at in pressed.items() if now - at > RETRY_SECONDS]:
                del pressed[key]
            moves = [
                move
                for move in next_moves(self.emu, self.people, self.seed)
                if move.key not in pressed
            ]
            if not moves:
                await self.emu.wait_change(0.5)
                continue
            now = time.monotonic()
            move = min(moves, key=lambda move: self.pace.wait(move.person.id, now))
            wait = max(last_move + self.delay - now, self.pace.wait(move.person.id, now))
            if wait > 0:
                await asyncio.sleep(wait)
                continue  # the hands may have changed meanwhile
            try:
                query = self.emu.press_nowait(
                    move.person, move.person.id, move.message.message_id, move.data
                )
            except AssertionError:
                continue
            pressed[move.key] = last_move = time.monotonic()
            self.pace.take(move.person.id, last_move)
            with contextlib.suppress(TimeoutError):
                await self.emu.wait_answer(query, ANSWER_SECONDS)
