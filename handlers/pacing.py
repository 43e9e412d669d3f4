"""When the group's table is refreshed while its players follow the match in the Mini App
(issue #18): their pages show every card, so the table catches up ``PAGE_PACE`` group
intervals after a card instead of at once; with anyone outside the page, at once as always.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from handlers.lanes import Lane, Place
from kozelbot.core.table import Table, TableStatus

PAGE_PACE = 3.0
"""Group intervals between refreshes of a table whose players are all in the Mini App: at
Telegram's limits (4.5 s) every 13.5 s, so a table played at a card every 4 s is edited
about every third card instead of at every card.

**Decision** (issue #18's ≤ 0.5 message calls a card): the group's table is then what
onlookers read, and they may follow live in the page too (the table's 🃏 link); 13.5 s
behind is what they trade for a bot that serves more tables. At 2 intervals the paced edits
alone were 0.37 a card, which with each deal's posts left a long evening at about 0.5."""


class Pacing:
    """The paced refreshes waiting, by place; ``viewing(game, user)`` says who is in a page."""

    def __init__(self, viewing: Callable[[int, int], bool], interval: float) -> None:
        self.viewing = viewing
        self.interval = interval
        self._waiting: dict[Place, asyncio.TimerHandle] = {}

    def all_in_page(self, table: Table) -> bool:
        """Every seated person follows the match in the Mini App (there is one at least)."""
        humans = [p for _, p in table.humans]
        return (
            table.status is TableStatus.PLAYING
            and bool(humans)
            and all(
                p.user_id is not None and self.viewing(table.game_id, p.user_id) for p in humans
            )
        )

    def later(self, place: Place, lane: Lane) -> None:
        """Refresh the place's table ``PAGE_PACE`` intervals from now; a refresh already
        waiting is not put off again."""
        if place in self._waiting:
            return

        def due() -> None:
            self._waiting.pop(place, None)
            lane.touch()

        loop = asyncio.get_running_loop()
        self._waiting[place] = loop.call_later(self.interval * PAGE_PACE, due)

    def close(self) -> None:
        """Drop every refresh still waiting (shutdown)."""
        for handle in self._waiting.values():
            handle.cancel()
        self._waiting.clear()
