"""The service's memory of committed tables and their parsed engine states, for renders.

Presenters render from the latest committed table of a game (``snapshot``) and its engine
state (``state_of``), parsed once per version and shared. Every change of a game commits
through the service, which tells this cache (``remember``), handing over the state it just
committed so that nobody parses it again. Cached tables and states are never changed
afterwards: an operation works on its own copy.
"""

from __future__ import annotations

from collections import Counter, OrderedDict

from kozelbot.core.protocol import AnyState
from kozelbot.core.table import Table
from kozelbot.families.registry import load_state

STATES_CACHE = 512
"""Parsed engine states kept for renders (a few per live game suffice)."""
ENDED_CACHE = 256
"""Ended games kept in memory for their last renders; older ones are read from storage."""


class TableCache:
    """Live games (bounded by the number of chats), the most recently ended ones, and parsed
    states by (game, version)."""

    def __init__(self) -> None:
        self.live: dict[int, Table] = {}
        self.ended: OrderedDict[int, Table] = OrderedDict()
        self._states: OrderedDict[tuple[int, int], AnyState] = OrderedDict()

    def snapshot(self, game_id: int) -> Table | None:
        """The latest committed table of a game this process has seen (recently)."""
        return self.live.get(game_id) or self.ended.get(game_id)

    def remember(self, table: Table, state: AnyState | None = None) -> None:
        """Cache a table (and, when the caller parsed or built it, its state) unless a newer
        version is cached already: reads outside the game's lock can finish after a newer
        commit, and must not replace what presenters render from."""
        cached = self.snapshot(table.game_id)
        if cached is not None and table.version < cached.version:
            return
        if state is not None and table.state is not None:
            self._keep((table.game_id, table.version), state)
        if table.status.live:
            self.live[table.game_id] = table
            return
        self.live.pop(table.game_id, None)
        self.ended[table.game_id] = table
        self.ended.move_to_end(table.game_id)
        while len(self.ended) > ENDED_CACHE:
            self.ended.popitem(last=False)

    def state_of(self, table: Table) -> AnyState | None:
        """The engine state inside a committed table, for reading only (renders): parsed once
        per version and shared, so do not change it."""
        if table.state is None:
            return None
        key = (table.game_id, table.version)
        state = self._states.get(key)
        if state is None:
            self._keep(key, state := load_state(table.state))
        else:
            self._states.move_to_end(key)
        return state

    def census(self) -> Counter[tuple[str, str]]:
        """How many live games there are by (status, variant): lobbies and matches."""
        return Counter((str(t.status), t.variant) for t in self.live.values())

    def forget(self, game_id: int) -> None:
        """Drop one game (another process committed a newer version of it)."""
        self.live.pop(game_id, None)
        self.ended.pop(game_id, None)

    def forget_chat(self, chat_id: int) -> None:
        """Drop a chat's games (storage moved or stopped them)."""
        for cache in (self.live, self.ended):
            for game_id in [g for g, t in cache.items() if t.chat_id == chat_id]:
                del cache[game_id]

    def _keep(self, key: tuple[int, int], state: AnyState) -> None:
        self._states[key] = state
        self._states.move_to_end(key)
        while len(self._states) > STATES_CACHE:
            self._states.popitem(last=False)
