"""Who is watching which table in the Mini App, and the nudge a committed change gives them.

Each open page stream is a ``Reader`` of its game; ``changed`` hands the game to the
``broadcast`` the Mini App set (``streams``: one pass over the game's readers), or without
one wakes every reader of that game (a wake already pending is enough: changes coalesce,
and the stream reads the newest committed table when it runs). ``viewing`` tells whether a
person has their table open (their private hand then waits: ``live``). Nothing here knows
Telegram or the game; ``publish.publish`` calls ``changed`` for every change it shows.

Limits (issue #29 item 4): a person has at most ``per_person`` streams on one table, a table
at most ``per_game``, and a person at most ``PERSON_TOTAL`` over all tables; a new stream
past any of these closes the oldest it displaces — the person's
own oldest, or, at a full table, the oldest stream of someone not seated (a seated person's
stream is never closed for an onlooker's). One sweep a ``LOOK`` for the whole hub asks each
reader whether it should end (its page went away, its ``initData`` grew too old) and tells
the quiet ones to send a keep-alive: no timer per stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

LOOK = 1.0
"""Seconds between sweeps: whether a stream's page went away or its initData grew old."""
HEARTBEAT = 15.0
"""Seconds of quiet after which a stream is told to send a keep-alive comment."""
PERSON_TOTAL = 10
"""Streams one person may keep open over all tables.

**Decision**: the issue caps a person's streams on one table; a person may also watch
many tables (every table of every group they are in), so their streams over all tables
are capped too, their oldest closed first."""


@dataclass(eq=False)
class Reader:
    """One open stream of a game: woken by changes, by its keep-alive, by its end."""

    game_id: int
    user_id: int
    seated: bool
    check: Callable[[], str | None]
    """Why the stream should end now (its page went away, …), or ``None``: asked each sweep."""
    closing: str | None = None
    """Why the stream must end (``replaced``, ``full``, ``expired``, ``gone``)."""
    changed: bool = False
    beat: bool = False
    quiet_since: float = field(default_factory=time.monotonic)
    t: Any = None
    """The reader's translator, once its first page is written (``streams``)."""
    last: str | None = None
    """What the reader was last sent, without the clock (``pages.Built.shown``)."""
    checked: float = 0.0
    """When an onlooker's membership of the group was last asked (``time.monotonic``)."""
    transport: asyncio.Transport | None = None
    """The connection a broadcast writes chunks to (``None``: the reader's task writes)."""
    _wake: asyncio.Future[None] | None = None

    def nudge(self) -> None:
        """Wake the stream (a change, a keep-alive, its end)."""
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def close(self, reason: str) -> None:
        """Ask the stream to end, saying why."""
        if self.closing is None:
            self.closing = reason
        self.nudge()

    async def wait(self) -> None:
        """Until something happened (``changed``, ``beat`` or ``closing``)."""
        if self.changed or self.beat or self.closing:
            return
        self._wake = asyncio.get_running_loop().create_future()
        try:
            await self._wake
        finally:
            self._wake = None


class Hub:
    """The open streams by game."""

    def __init__(self) -> None:
        self._streams: defaultdict[int, list[Reader]] = defaultdict(list)
        """Each game's readers, oldest first."""
        self._readers: defaultdict[tuple[int, int], int] = defaultdict(int)
        self._sweeper: asyncio.Task[None] | None = None
        self.broadcast: Callable[[int], None] | None = None
        """What sends a change to a game's readers (the Mini App's ``Streams``); unset,
        ``changed`` wakes each reader's own task."""

    @contextlib.contextmanager
    def watch(
        self,
        game_id: int,
        user_id: int,
        *,
        seated: bool,
        check: Callable[[], str | None],
        per_person: int = 3,
        per_game: int = 1000,
    ) -> Iterator[Reader]:
        """A reader woken on each change of the game, for as long as the block runs (the
        person ``user_id`` has the table open meanwhile); the streams it displaces (see the
        module's limits) are told to close."""
        reader = Reader(game_id, user_id, seated, check)
        everywhere = [
            r
            for s in self._streams.values()
            for r in s
            if r.user_id == user_id and r.closing is None
        ]
        for old in everywhere[: max(0, len(everywhere) - PERSON_TOTAL + 1)]:
            old.close("replaced")
        streams = self._streams[game_id]
        open_ = [r for r in streams if r.closing is None]
        mine = [r for r in open_ if r.user_id == user_id]
        for old in mine[: max(0, len(mine) - per_person + 1)]:
            old.close("replaced")
            open_.remove(old)
        if len(open_) >= per_game:
            onlookers = [r for r in open_ if not r.seated]
            for old in onlookers[: len(open_) - per_game + 1]:
                old.close("full")
        streams.append(reader)
        self._readers[game_id, user_id] += 1
        self._sweep_soon()
        try:
            yield reader
        finally:
            streams.remove(reader)
            if not streams:
                del self._streams[game_id]
            self._readers[game_id, user_id] -= 1
            if not self._readers[game_id, user_id]:
                del self._readers[game_id, user_id]

    def stop(self) -> None:
        """End every stream and stop sweeping (the server is going away)."""
        for streams in self._streams.values():
            for reader in streams:
                reader.close("gone")
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    def viewing(self, game_id: int, user_id: int) -> bool:
        """Whether the person has the game's table open in the Mini App now."""
        return (game_id, user_id) in self._readers

    def count(self, game_id: int | None = None) -> int:
        """Open streams of a game (of all games without one)."""
        if game_id is not None:
            return len(self._streams.get(game_id, ()))
        return sum(len(s) for s in self._streams.values())

    def readers(self, game_id: int) -> list[Reader]:
        """The game's open readers, oldest first."""
        return list(self._streams.get(game_id, ()))

    def changed(self, game_id: int) -> None:
        """A change of the game was committed: send it to its streams."""
        if game_id not in self._streams:
            return
        if self.broadcast is not None:
            self.broadcast(game_id)
            return
        for reader in self._streams[game_id]:
            reader.changed = True
            reader.nudge()

    def _sweep_soon(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Every ``LOOK``, while any stream is open: end those that should end, tell the
        quiet ones to send a keep-alive."""
        while self._streams:
            await asyncio.sleep(LOOK)
            now = time.monotonic()
            for streams in list(self._streams.values()):
                for reader in streams:
                    reason = reader.check()
                    if reason is not None:
                        reader.close(reason)
                    elif now - reader.quiet_since >= HEARTBEAT:
                        reader.beat = True
                        reader.nudge()
