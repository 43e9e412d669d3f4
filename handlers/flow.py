"""After every accepted change: show it (presenter) and re-arm the turn timer (job queue)."""

from __future__ import annotations

import logging

from telegram import User

from handlers.deps import BotData, Context
from kozelbot.service import Change
from kozelbot.table import Player, Table, TableStatus

log = logging.getLogger(__name__)


def publish(data: BotData, change: Change) -> None:
    """Schedule the messages of ``change`` and its timer."""
    data.presenter.show(change)
    sync_timer(data, change.table)


def timer_name(table: Table) -> str:
    """The job name of a game's turn timer."""
    return f"turn:{table.chat_id}:{table.game_id}"


def sync_timer(data: BotData, table: Table) -> None:
    """Cancel the game's timer and arm it again at its stored deadline, if any."""
    queue = data.job_queue
    name = timer_name(table)
    for job in queue.get_jobs_by_name(name):
        job.schedule_removal()
    if table.status is TableStatus.PLAYING and table.deadline is not None:
        delay = max(0.0, table.deadline - data.service.clock())
        queue.run_once(on_timeout, when=delay, name=name, data=table.game_id)


async def on_timeout(context: Context) -> None:
    """A turn timed out: the computer moves for the player (RULES.md §3)."""
    assert context.job is not None
    game_id = context.job.data
    assert isinstance(game_id, int)
    data = context.bot_data
    change = await data.service.time_out(game_id)
    if change is not None:
        log.info("game %s: turn timed out", game_id)
        publish(data, change)


def player_of(user: User) -> Player:
    """A seat's player from a Telegram user."""
    return Player(user_id=user.id, name=user.first_name or user.full_name)


async def remember(data: BotData, user: User) -> None:
    """Record the user's current name and language."""
    await data.storage.upsert_user(user.id, user.first_name, user.username, user.language_code)
