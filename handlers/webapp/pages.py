"""Each distinct page of a table built once per change and shared (issue #29 item 4).

What a reader is sent depends on the committed table (its ``version``), their seat (or
none: an onlooker), their language and the clock (``seconds_left``). After a change every
stream of the game wakes and asks ``Pages.get`` for its page: the first to ask builds it
(``kozelbot.views.page.page``) with its JSON text, and every other stream with the same seat and
language gets the same one — a change costs one build per distinct page, not one per
stream (before: 1,500 open streams made one move's ``/state`` take 604 ms).

A build also keeps ``shown``: the page's JSON without the ticking ``seconds_left``, which a
stream compares with what it last sent, so a frame goes out only when what the reader sees
changed. Two builds that show the same share one ``shown`` object, so most comparisons are
one identity check.

**Decision**: a build is reused for at most ``FRESH`` seconds of the same table version (a
stream opened later gets a ``seconds_left`` at most that stale; the page counts down from
it anyway), and ``KEPT`` builds are kept, the least recently used dropped.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import AnyState
from kozelbot.core.table import Table
from kozelbot.views.page import page

FRESH = 1.0
"""Seconds a build of one table version is reused."""
KEPT = 4096
"""Builds kept at once (tables × seats × languages being read)."""


@dataclass(frozen=True, slots=True)
class Built:
    """One page as built: the payload, its JSON text, and its text without the clock."""

    version: int
    at: float
    payload: dict[str, Any]
    text: str
    shown: str
    frame: bytes
    """The page as one Server-Sent Event, encoded once for every stream."""
    chunk: bytes
    """``frame`` as one chunk of a chunked HTTP/1.1 answer (what a broadcast writes)."""


class Pages:
    """The pages being read, by (game, seat, language); ``clock`` is wall time."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._built: OrderedDict[tuple[int, int | None, str], Built] = OrderedDict()
        self.builds = 0
        """Pages built so far (the benchmark reads it)."""

    def get(self, table: Table, state: AnyState | None, seat: int | None, t: Translator) -> Built:
        """The page of ``table`` for ``seat`` in ``t``'s language: shared while fresh."""
        key = (table.game_id, seat, t.language)
        now = self.clock()
        before = self._built.get(key)
        if before is not None and before.version == table.version and now - before.at < FRESH:
            self._built.move_to_end(key)
            return before
        payload = page(table, state, seat, now, t)
        shown = json.dumps(
            {k: v for k, v in payload.items() if k != "seconds_left"}, ensure_ascii=False
        )
        if before is not None and before.shown == shown:
            shown = before.shown
        text = json.dumps(payload, ensure_ascii=False)
        frame = b"event: table\ndata: " + text.encode() + b"\n\n"
        chunk = b"%x\r\n%s\r\n" % (len(frame), frame)
        built = Built(table.version, now, payload, text, shown, frame, chunk)
        self.builds += 1
        self._built[key] = built
        self._built.move_to_end(key)
        while len(self._built) > KEPT:
            self._built.popitem(last=False)
        return built
