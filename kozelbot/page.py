"""What the Mini App shows one person at a table (issue #18), as JSON: the table's public
facts and that seat's own view of the game.

Everything of the game comes from ``view_for(seat)`` — the seat's own view, or the group's
for someone who is not seated — and from the seat's own legal moves (what its private
buttons offer), so a page payload never holds a card its reader cannot see. Cards are
written as the move log writes them (``QC``, ``10H``), moves in the move log's notation
(``play:QC``), which is also what a move sent from the page says.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from kozelbot.cards import Card
from kozelbot.game import GameState
from kozelbot.table import Table

HIDDEN_FIELDS = frozenset({"rules", "strength"})
"""View fields that are the preset's tables, not the game: left out."""


def page(table: Table, state: GameState | None, seat: int | None, now: float) -> dict[str, Any]:
    """The payload of the table for ``seat`` (``None``: a spectator) at time ``now``."""
    players = [
        {"seat": index, "name": player.name, "computer": player.is_computer, "away": player.away}
        for index, player in enumerate(table.seats)
        if player is not None
    ]
    legal = [] if state is None or seat is None else [str(a) for a in state.legal_actions(seat)]
    return {
        "game_id": table.game_id,
        "variant": table.variant,
        "status": str(table.status),
        "version": table.version,
        "seat": seat,
        "players": players,
        "seconds_left": None if table.deadline is None else max(0.0, table.deadline - now),
        "deal": None if state is None else state.deal_shown,
        "view": None if state is None else plain(state.view_for(seat)),
        "legal": legal,
    }


def plain(value: Any) -> Any:
    """A view as JSON values: cards as their names, enums as their values, records as
    objects (the preset's tables left out), tuples as lists."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.name not in HIDDEN_FIELDS}  # fmt: skip
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
