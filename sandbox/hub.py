"""The sandbox's event hub: every change it makes, fanned out to each open ``/api/events``
stream of the page (the server publishes, the API's streams read)."""

from __future__ import annotations

import asyncio
import json

from .world import JsonDict

CLIENT_QUEUE = 5000
"""Events one page may fall behind by before its stream is closed (it then reconnects)."""


class EventHub:
    """Fans events out to every open ``/api/events`` stream."""

    def __init__(self) -> None:
        self._clients: set[asyncio.Queue[str | None]] = set()

    def connect(self) -> asyncio.Queue[str | None]:
        """A new stream's queue of JSON lines (None: the stream ends)."""
        queue: asyncio.Queue[str | None] = asyncio.Queue(CLIENT_QUEUE)
        self._clients.add(queue)
        return queue

    def disconnect(self, queue: asyncio.Queue[str | None]) -> None:
        """The stream is gone."""
        self._clients.discard(queue)

    def publish(self, event: JsonDict) -> None:
        """Send ``event`` to every stream; one too far behind is ended."""
        if not self._clients:
            return
        line = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        for queue in list(self._clients):
            try:
                queue.put_nowait(line)
            except asyncio.QueueFull:
                self._end(queue)

    def close(self) -> None:
        """End every stream."""
        for queue in list(self._clients):
            self._end(queue)

    def _end(self, queue: asyncio.Queue[str | None]) -> None:
        self._clients.discard(queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)

    @property
    def clients(self) -> int:
        """How many streams are open."""
        return len(self._clients)
