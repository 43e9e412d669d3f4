"""What follows every accepted change: ``publish`` shows it (presenter, Mini App streams,
the tournament it belongs to) and re-arms the game's turn timer, named ``turn:{chat}:{game}``;
the timer's jobs (the deadline, the half-time warning, the reminder) live here too. A job
runs in a task of its own, whose log lines name its game (``kozelbot.core.logs``), not the
chat and update that armed it."""

from __future__ import annotations

import logging

from handlers.deps import BotData, Context
from kozelbot.core import logs
from kozelbot.core.table import Table, TableStatus
from kozelbot.tables.service import Change, TableError

log = logging.getLogger(__name__)


def publish(data: BotData, change: Change) -> None:
    """Schedule the messages of ``change`` and its timer; nudge its Mini App streams; count
    its moves, deals and match for the metrics."""
    data.presenter.show(change)
    table = change.table
    data.meter.changed(table.variant, len(change.moves), len(change.deals), bool(change.result))
    sync_timer(data, change.table)
    data.hub.changed(change.table.game_id)
    if change.table.tournament is not None and not change.table.status.live:
        data.tournaments.table_ended(change.table)  # the tournament moves on (issue #19)


def timer_name(table: Table) -> str:
    """The job name of a game's turn timer."""
    return f"turn:{table.chat_id}:{table.game_id}"


def sync_timer(data: BotData, table: Table) -> None:
    """Cancel the game's timer and arm it again at its stored deadline, if any; a match
    against the computer without a deadline (no move timer) gets a reminder instead."""
    queue = data.job_queue
    name = timer_name(table)
    for job in queue.get_jobs_by_name(name):
        job.schedule_removal()
    for job in queue.get_jobs_by_name(name + ":warn"):
        job.schedule_removal()
    if table.status.live and table.deadline is not None:
        delay = max(0.0, table.deadline - data.service.clock())
        queue.run_once(on_timeout, when=delay, name=name, data=table.game_id)
        half = table.turn_time / 2
        if table.status is TableStatus.PLAYING and half >= 5 and delay > half:
            queue.run_once(
                on_half_time,
                when=delay - half,
                name=name + ":warn",
                data=(table.game_id, table.deadline),
            )
    elif table.private and table.status is TableStatus.PLAYING and data.settings.private_reminder:
        remind = (table.game_id, table.move_seq)
        queue.run_once(on_reminder, data.settings.private_reminder, remind, name + ":warn")


async def on_half_time(context: Context) -> None:
    """Half a move's time has passed: privately warn whoever must act (issue #8)."""
    assert context.job is not None
    job_data = context.job.data
    assert isinstance(job_data, tuple)
    game_id, deadline = job_data
    assert isinstance(game_id, int) and isinstance(deadline, float)
    logs.bind(game=game_id, chat=None, update=None)
    data = context.bot_data
    table = data.service.snapshot(game_id)
    if table is None or table.deadline != deadline or table.status is not TableStatus.PLAYING:
        return  # the turn moved on meanwhile
    state = data.service.state_of(table)
    if state is None:
        return
    seconds = max(1, round(deadline - data.service.clock()))
    data.presenter.warn(table, list(state.to_act()), seconds)


async def on_reminder(context: Context) -> None:
    """A match against the computer without a move timer has waited a while for its person:
    remind them, «⏰ Your move.» (issue #30 item 10: a reminder, never a forced move)."""
    assert context.job is not None
    job_data = context.job.data
    assert isinstance(job_data, tuple)
    game_id, move_seq = job_data
    assert isinstance(game_id, int) and isinstance(move_seq, int)
    logs.bind(game=game_id, chat=None, update=None)
    data = context.bot_data
    table = data.service.snapshot(game_id)
    if table is None or table.status is not TableStatus.PLAYING:
        return
    if table.move_seq != move_seq or table.deadline is not None:
        return  # the turn moved on meanwhile
    state = data.service.state_of(table)
    if state is not None:
        data.presenter.warn(table, list(state.to_act()), 0)  # 0: no time limit to name


async def on_timeout(context: Context) -> None:
    """A deadline passed: the computer moves for a late player (RULES.md §3), or a lobby
    nobody started closes."""
    assert context.job is not None
    game_id = context.job.data
    assert isinstance(game_id, int)
    logs.bind(game=game_id, chat=None, update=None)
    data = context.bot_data
    try:
        change = await data.service.time_out(game_id)
    except TableError as error:  # ended, or changed by another worker that holds it now
        log.info("game %s: the timer found it %s", game_id, error.code)
        return
    if change is not None:
        log.info("game %s: deadline passed", game_id)
        publish(data, change)
        return
    table = await data.service.game(game_id)  # not due yet: the deadline moved meanwhile
    if table is not None:
        sync_timer(data, table)
