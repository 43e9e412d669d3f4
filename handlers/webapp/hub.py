"""Who is watching which table in the Mini App, and the nudge a committed change gives them.

Each open page stream holds a queue of one slot for its game; ``changed`` puts a nudge in
every queue of that game (a nudge already waiting is enough: changes coalesce, and the
stream reads the newest committed table when it wakes). ``viewing`` tells whether a person
has their table open (their private hand then waits: ``live``). Nothing here knows Telegram
or the game; ``flow.publish`` calls ``changed`` for every change it shows.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import Iterator


class Hub:
    """The open streams by game."""

    def __init__(self) -> None:
        self._streams: defaultdict[int, set[asyncio.Queue[None]]] = defaultdict(set)
        self._readers: defaultdict[tuple[int, int], int] = defaultdict(int)

    @contextlib.contextmanager
    def watch(self, game_id: int, user_id: int) -> Iterator[asyncio.Queue[None]]:
        """A queue nudged on each change of the game, for as long as the block runs (the
        person ``user_id`` has the table open meanwhile)."""
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._streams[game_id].add(queue)
        self._readers[game_id, user_id] += 1
        try:
            yield queue
        finally:
            self._streams[game_id].discard(queue)
            if not self._streams[game_id]:
                del self._streams[game_id]
            self._readers[game_id, user_id] -= 1
            if not self._readers[game_id, user_id]:
                del self._readers[game_id, user_id]

    def viewing(self, game_id: int, user_id: int) -> bool:
        """Whether the person has the game's table open in the Mini App now."""
        return (game_id, user_id) in self._readers

    def changed(self, game_id: int) -> None:
        """A change of the game was committed: nudge its streams."""
        for queue in self._streams.get(game_id, ()):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)
