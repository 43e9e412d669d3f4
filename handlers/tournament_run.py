"""Runs the group's tournaments: what the director decided, shown and set in motion.

One ``step`` brings a tournament up to date, whatever happened before it — a match ended, the
clock struck, the bot restarted after a kill -9: results of ended tables are recorded, rounds
drawn are announced, the due tables opened (their people told privately), pictures posted,
the standings message edited and the clock armed again. Every part is idempotent (the
director keeps what was done; posts are marked once sent), and steps of one tournament run
one at a time, so calling ``step`` again is always safe.

**Decision**: a post is marked after it was sent, so a kill -9 between the two sends it again
after the restart (at least once, never lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import TYPE_CHECKING, Any

from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from handlers.publish import publish
from kozelbot.core.table import Table
from kozelbot.core.tournament.model import Status, Tournament
from kozelbot.core.tournament.standings import cross, standings
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.change import Change
from kozelbot.tables.director import Director
from kozelbot.tables.tournament_words import TournamentError
from kozelbot.views.boards import escape, short_name
from kozelbot.views.tournament import texts
from kozelbot.views.tournament.picture import picture

if TYPE_CHECKING:
    from handlers.deps import BotData

log = logging.getLogger(__name__)

RETRY = 1.0
"""Tournament minutes (``Director.minute``) before trying again what could not be done yet:
a table the group had no room for, a topic the bot may not create, a failed step."""


class TournamentRunner:
    """The bot's side of every tournament (``BotData.tournaments``)."""

    def __init__(self, data: BotData, director: Director) -> None:
        self.data = data
        self.director = director
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[None]] = set()
        self._told_rights: set[int] = set()
        """Tournaments whose group was told the bot may not open topics (told once)."""

    # -- entry points --------------------------------------------------------------------

    def table_ended(self, table: Table) -> None:
        """A tournament table's match ended: record it and move on (in the background: the
        handler that ended it is not kept waiting)."""
        if table.tournament is not None:
            self.spawn(table.tournament.tournament_id)

    def spawn(self, tournament_id: int) -> None:
        """Run ``step`` soon, off the caller's path."""
        task = asyncio.get_running_loop().create_task(self._guarded(tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def resume(self) -> int:
        """After a start: bring every live tournament up to date; return how many."""
        live = await self.data.queries.tournaments.live_tournaments()
        for tour in live:
            await self._guarded(tour.tournament_id)
        return len(live)

    async def on_clock(self, tournament_id: int) -> None:
        """The tournament's timer: the automatic start, or matches past their time."""
        tour = await self.data.queries.tournaments.tournament(tournament_id)
        if tour is None:
            return
        now = self.director.clock()
        due = tour.starts_at is not None and tour.starts_at <= now
        if tour.status is Status.REGISTRATION and due:
            await self.begin(tour)
            return
        if tour.status is Status.REGISTRATION:  # a minute less to the start: say so
            await self._guarded(tournament_id)
            return
        for game_id in self.director.overdue(tour):
            with contextlib.suppress(Exception):  # ended meanwhile: its step records it
                publish(self.data, await self.data.service.change(game_id, tables.decide))
        await self._guarded(tournament_id)

    async def begin(self, tour: Tournament) -> Tournament | None:
        """Close registration and draw round 1; too few entrants at the automatic start
        end the tournament (**Decision**: nobody would press Start for it later)."""
        try:
            tour = await self.director.begin(tour.tournament_id)
        except TournamentError as error:
            if error.code == "too_few" and tour.starts_at is not None:
                tour = await self.director.stop(tour.tournament_id)
                await self.step(tour.tournament_id)
                return None
            raise
        await self._guarded(tour.tournament_id)
        return tour

    async def stop(self, tour: Tournament) -> Tournament:
        """An admin ends the tournament: its tables in play stop without a result."""
        tour = await self.director.stop(tour.tournament_id)
        current = tour.played[-1] if tour.played else None
        for draw in current.tables if current is not None else []:
            if draw.game_id is not None and draw.result is None:
                with contextlib.suppress(Exception):
                    publish(self.data, await self.data.service.stop(draw.game_id))
        await self._guarded(tour.tournament_id)
        return tour

    # -- the step ------------------------------------------------------------------------

    async def _guarded(self, tournament_id: int) -> None:
        try:
            await self.step(tournament_id)
        except Forbidden as gone:  # the bot was removed from the group: nobody to play for
            log.warning("tournament %s: stopped, %s", tournament_id, gone)
            with contextlib.suppress(TournamentError):
                await self.director.stop(tournament_id)
        except Exception:
            log.exception("tournament %s: step failed", tournament_id)
            self.arm(tournament_id, RETRY * self.director.minute)

    async def step(self, tournament_id: int) -> None:
        """Bring the tournament's tables, posts and clock up to date (see the module)."""
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        async with lock:
            tour = await self.data.queries.tournaments.tournament(tournament_id)
            if tour is None:
                return
            tour = await self._record_ended(tour)
            await self._results_first(tour)
            tour = await self._announce(tour)
            opened: list[Table] = []
            if tour.status is Status.RUNNING:
                opened = await self.director.open_due(tournament_id, self)
                for table in opened:
                    publish(self.data, Change(table))
                    await self._invite(tour, table)
            tour = await self.data.queries.tournaments.tournament(tournament_id) or tour
            tour = await self._pictures(tour)
            await self._show_standings(tour)
            current = tour.current if tour.status is Status.RUNNING else None
            busy = (
                current is not None
                and not opened
                and all(d.game_id is None for d in current.tables)
            )
            due = self.director.next_due(tour)
            if tour.status is Status.REGISTRATION and due is not None:
                # the post counts the minutes down: edited once a minute until the start
                due = min(due, self.director.clock() + self.director.minute)
            if busy:
                self.arm(tournament_id, RETRY * self.director.minute)
            elif due is not None:
                # a due time already past (a match the clock could not end yet) is tried
                # again half a second later, never in a tight loop
                self.arm(tournament_id, max(0.5, due - self.director.clock()))

    async def _record_ended(self, tour: Tournament) -> Tournament:
        """Results of the current round's tables whose matches have ended."""
        changed = True
        while changed and tour.status is Status.RUNNING and tour.current is not None:
            changed = False
            for draw in tour.current.tables:
                if draw.game_id is None or draw.result is not None:
                    continue
                table = await self.data.service.game(draw.game_id)
                if table is not None and not table.status.live:
                    recorded = await self.director.record(table)
                    if recorded is not None:
                        tour, changed = recorded, True
                        break
        return tour

    async def _results_first(self, tour: Tournament) -> None:
        """Let the tables of the last two rounds post their results (the last deal's table,
        its result, the match's) before the round's end, the next round or a picture is
        posted: the group reads them in that order.

        **Decision**: the posts go out on their place's lane and this waits for them (at
        most ``POSTS_FIRST_WAIT`` seconds a place, 30); a group whose posts cannot go out still
        gets its next round."""
        threads = {d.thread_id for r in tour.played[-2:] for d in r.tables if d.game_id is not None}
        for thread_id in sorted(threads, key=lambda thread: thread or 0):
            await self.data.presenter.posts_first((tour.chat_id, thread_id))

    async def _announce(self, tour: Tournament) -> Tournament:
        """Post each drawn round's tables once; close the registration post."""
        t = await self.data.group_translator(tour.chat_id)
        if tour.status is not Status.REGISTRATION and "registration" in tour.messages:
            await self._edit(tour, "registration", texts.registration_text(tour, t), ())
        for rnd in tour.played[tour.announced :]:
            await self._send(tour, texts.round_text(tour, rnd, t))
            tour = await self.director.mark(tour.tournament_id, announced=rnd.number)
        return tour

    async def _pictures(self, tour: Tournament) -> Tournament:
        """The cross table and standings as a picture after each finished round."""
        finished = sum(r.finished for r in tour.played)
        if tour.status is Status.STOPPED or finished <= tour.pictured:
            return tour
        t = await self.data.group_translator(tour.chat_id)
        rows = standings(tour)
        final = tour.status is Status.FINISHED
        champion = rows[0].name if final and rows else None
        title = (
            t("Tournament · final standings")
            if final
            else t("Tournament · round {n} of {total}", n=finished, total=tour.rounds)
        )
        board = cross(tour)
        png = await asyncio.to_thread(picture, title, board, t, final=final, champion=champion)
        caption = "🏆 " + escape(title)
        if champion is not None:
            caption += "\n" + t("🥇 Champion: <b>{name}</b>", name=short_name(champion, 40))
        bot = self.data.bot
        try:
            await self.data.sender.deliver(
                lambda: bot.send_photo(
                    tour.chat_id,
                    png,
                    caption=caption,
                    parse_mode=ParseMode.HTML,
                    message_thread_id=tour.thread_id,
                ),
                f"photo:{tour.chat_id}",
            )
        except BadRequest as refused:  # e.g. no right to send photos: the text says it all
            log.warning("tournament %s: picture refused: %s", tour.tournament_id, refused)
        return await self.director.mark(tour.tournament_id, pictured=finished)

    async def _show_standings(self, tour: Tournament) -> None:
        """The registration post while registering; the standings message after."""
        t = await self.data.group_translator(tour.chat_id)
        if tour.status is Status.REGISTRATION:
            text = texts.registration_text(tour, t, self.director.clock(), self.director.minute)
            await self._put(tour, "registration", text, texts.registration_keyboard(tour, t))
            return
        if not tour.played:
            return  # stopped before it began: the registration post says so
        await self._put(tour, "standings", texts.standings_text(tour, standings(tour), t), ())

    # -- Telegram ------------------------------------------------------------------------

    async def open_topic(self, tour: Tournament, round_no: int, table_no: int) -> int:
        """A forum topic for a table ("Тур 2 · стол 1") (``Topics``)."""
        t = await self.data.group_translator(tour.chat_id)
        bot = self.data.bot
        try:
            topic = await self.data.sender.deliver(
                lambda: bot.create_forum_topic(
                    tour.chat_id, texts.topic_name(round_no, table_no, t)
                ),
                f"topic:{tour.chat_id}",
            )
        except (BadRequest, Forbidden):
            if tour.tournament_id not in self._told_rights:  # tried again each minute
                self._told_rights.add(tour.tournament_id)
                text = t(
                    "🏆 I cannot open the tables' topics: make me an admin who may "
                    "manage topics, and the round begins."
                )
                await self._send(tour, text)
            raise
        self._told_rights.discard(tour.tournament_id)
        return int(topic.message_thread_id)

    async def _invite(self, tour: Tournament, table: Table) -> None:
        """Tell each person drawn to the table privately where, with whom, and give them the
        one button that seats them (``handlers.tournament.take_seat``)."""
        assert table.tournament is not None and table.reserved is not None
        for user_id in table.reserved:
            if user_id is None:
                continue
            t = await self.data.user_translator(user_id)
            text = texts.table_invite_text(
                tour,
                table.tournament.round_no,
                table.tournament.table_no,
                table.reserved,
                user_id,
                t,
            )
            keyboard = texts.invite_keyboard(table.game_id, t)
            with contextlib.suppress(Forbidden, TelegramError):
                await self.data.sender.deliver(
                    lambda: self.data.sender.send(user_id, text, keyboard),  # noqa: B023
                    f"invite:{user_id}",
                )

    async def _put(self, tour: Tournament, kind: str, text: str, keyboard: Any) -> None:
        """Edit the tournament's ``kind`` message, or send it if there is none yet."""
        if kind in tour.messages:
            await self._edit(tour, kind, text, keyboard)
            return
        message_id = await self._send(tour, text, keyboard)
        await self.director.mark(tour.tournament_id, message=(kind, message_id))

    async def _edit(self, tour: Tournament, kind: str, text: str, keyboard: Any) -> None:
        sender, message_id, markup = self.data.sender, tour.messages[kind], keyboard or None
        await sender.deliver(
            lambda: sender.edit(tour.chat_id, message_id, text, markup), f"edit:{tour.chat_id}"
        )

    async def _send(self, tour: Tournament, text: str, keyboard: Any = None) -> int:
        sender = self.data.sender
        message = await sender.deliver(
            lambda: sender.send(tour.chat_id, text, keyboard or None, thread_id=tour.thread_id),
            f"send:{tour.chat_id}",
        )
        return int(message.message_id)

    def arm(self, tournament_id: int, delay: float) -> None:
        """(Re)arm the tournament's one timer."""
        queue, name = self.data.job_queue, f"tournament:{tournament_id}"
        for job in queue.get_jobs_by_name(name):
            job.schedule_removal()
        queue.run_once(_on_clock, when=delay, name=name, data=tournament_id)


async def _on_clock(context: Any) -> None:
    """The job queue's callback for a tournament's timer."""
    data = context.bot_data
    await data.tournaments.on_clock(int(context.job.data))
