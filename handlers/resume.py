"""Play goes on after a start, or after a worker took a place over (issue #32): a game is
resumed as stored — what computers or the dealer owe is played, its timer armed at the
stored deadline, its table and hands redrawn (``publish``)."""

from __future__ import annotations

import logging

from handlers.deps import BotData
from handlers.publish import publish

log = logging.getLogger(__name__)


async def resume_game(data: BotData, game_id: int) -> None:
    """Go on with one game (nothing if it ended)."""
    change = await data.service.resume(game_id)
    if change is not None:
        publish(data, change)  # (arms its timer too)


async def resume_games(data: BotData) -> int:
    """Go on with every lobby and match found in storage; how many."""
    tables = await data.service.live_games()
    for table in tables:
        await resume_game(data, table.game_id)
    if tables:
        log.info("resumed %d game(s)", len(tables))
    return len(tables)
