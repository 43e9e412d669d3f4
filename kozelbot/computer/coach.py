"""The strong level's advice to a person (issue #17): the 💡 hint — its move for their turn in
a match against the computer (/play), and why — and the 🔍 analysis of a deal they played:
their costliest plays against the strong level's choice.

Both only read: nothing a table holds changes. The search runs in the thinking pool when the
bot has one (``thinking.Thinker``, after the tables' decisions), in line otherwise (tests,
tools). Answers are kept for a while, so a second press shows the same advice at once; a
press while the same advice is being thought joins it (issue #29: eight presses of one 🔍
start one analysis, not eight).

**Decision**: one analysis per person at a time — a different one asked while theirs is
being prepared is refused (``busy``) rather than queued, so one person pressing 🔍 under
every deal of /history holds at most one analysis in the pool.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from kozelbot.computer import analysis
from kozelbot.computer.analysis import Review
from kozelbot.computer.thinking import Thinker, think
from kozelbot.core import decisions
from kozelbot.core.decisions import Decision
from kozelbot.core.records import DealRecord, MoveRecord
from kozelbot.core.table import Table, TableStatus
from kozelbot.families.registry import load_state, players_of

V = TypeVar("V")
KEPT = 256
"""Answers kept for a second press (each kind)."""


class AdviceError(Exception):
    """Advice refused; ``code`` says why (``no_game``, ``not_private``, ``not_seated``,
    ``no_choice``, ``not_scored``, ``not_played``, ``busy``: another analysis of theirs is
    being prepared)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Records(Protocol):
    """What the analysis reads of a match (``storage.games`` provides it)."""

    async def game(self, game_id: int) -> Table | None: ...
    async def moves(self, game_id: int) -> list[MoveRecord]: ...
    async def deals(self, game_id: int) -> list[DealRecord]: ...


@dataclass(frozen=True, slots=True)
class Hint:
    table: Table
    seat: int
    decision: Decision


@dataclass(frozen=True, slots=True)
class Analysis:
    """A deal's analysis for one person: their costliest plays (``worst``) out of
    ``reviewed`` plays with a choice."""

    table: Table
    deal_no: int
    reviewed: int
    worst: tuple[Review, ...]


@dataclass(frozen=True, slots=True)
class Preparing:
    """An analysis being prepared for a person (``Coach.prepare``): ``checked`` once it is
    known it can be made (or why not), ``task`` its making."""

    key: tuple[int, int, int]
    checked: asyncio.Future[None]
    task: asyncio.Task[Analysis]


class Coach:
    """Hints and analyses for people, by the strong level."""

    def __init__(
        self,
        records: Records,
        thinker: Thinker | None = None,
        budget_ms: float | None = None,
    ) -> None:
        self.records = records
        self.thinker = thinker
        self.budget_ms = budget_ms
        self._hints: OrderedDict[tuple[int, int, int], Hint] = OrderedDict()
        self._analyses: OrderedDict[tuple[int, int, int], Analysis] = OrderedDict()
        self._sent: OrderedDict[tuple[int, int, int], bool] = OrderedDict()
        self._flying: dict[Hashable, asyncio.Future[Any]] = {}
        """Advice being prepared, by key: a second identical press joins it."""
        self._preparing: dict[int, Preparing] = {}
        """The analysis each person is waiting for."""

    @property
    def budget(self) -> float:
        if self.budget_ms is not None:
            return self.budget_ms
        return self.thinker.budget_ms if self.thinker else decisions.DEFAULT_BUDGET_MS

    async def hint(self, game_id: int, user_id: int) -> Hint:
        """The strong level's move for the person's turn in their match against the
        computer (``AdviceError`` when there is no choice of theirs to advise on)."""
        table = await self.records.game(game_id)
        if table is None or table.status is not TableStatus.PLAYING:
            raise AdviceError("no_game")
        if not table.private:
            raise AdviceError("not_private")  # a hint at a group table would be a crib
        seat = table.seat_of(user_id)
        if seat is None:
            raise AdviceError("not_seated")
        key = (game_id, table.move_seq, seat)
        if key in self._hints:
            return self._hints[key]
        assert table.state is not None
        state = load_state(table.state)
        if seat not in state.to_act() or not players_of(table.variant).searches(state, seat):
            raise AdviceError("no_choice")
        return await self._once(("hint", *key), lambda: self._hint(table, seat, key))

    async def _hint(self, table: Table, seat: int, key: tuple[int, int, int]) -> Hint:
        assert table.state is not None
        seed = f"hint:{table.seed}:{table.move_seq}"
        if self.thinker is not None:
            decision = await self.thinker.decide(table.state, seat, seed, sheds=False)
        else:
            decision = think(table.state, seat, seed, self.budget)
        return _keep(self._hints, key, Hint(table, seat, decision))

    async def analyse(self, game_id: int, deal_no: int, user_id: int) -> Analysis:
        """The person's plays in a scored deal against the strong level's choices
        (``prepare``, awaited)."""
        return await asyncio.shield(await self.prepare(game_id, deal_no, user_id))

    async def prepare(self, game_id: int, deal_no: int, user_id: int) -> asyncio.Future[Analysis]:
        """Start the analysis of a deal for a person, once it is checked (``AdviceError``
        if it cannot be made): its future, done at once if it was made already. The same
        analysis asked again while it is prepared joins it; another one of theirs is
        refused (``busy``) until it is ready."""
        key = (game_id, deal_no, user_id)
        if key in self._analyses:
            made: asyncio.Future[Analysis] = asyncio.get_running_loop().create_future()
            made.set_result(self._analyses[key])
            return made
        preparing = self._preparing.get(user_id)
        if preparing is None:
            checked: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            task = asyncio.ensure_future(self._analyse(key, checked))
            preparing = self._preparing[user_id] = Preparing(key, checked, task)
            preparing.task.add_done_callback(lambda _: self._ready(user_id, preparing))
        elif preparing.key != key:
            raise AdviceError("busy")
        await asyncio.shield(preparing.checked)
        return preparing.task

    def _ready(self, user_id: int, preparing: Preparing) -> None:
        if self._preparing.get(user_id) is preparing:
            del self._preparing[user_id]  # ready (or refused): they may ask another
        for done in (preparing.checked, preparing.task):
            if done.done() and not done.cancelled():
                done.exception()  # retrieved: every presser may be gone

    async def _analyse(self, key: tuple[int, int, int], checked: asyncio.Future[None]) -> Analysis:
        game_id, deal_no, user_id = key
        try:
            table = await self.records.game(game_id)
            if table is None or table.status is TableStatus.LOBBY:
                raise AdviceError("no_game")
            if not any(deal.deal_no == deal_no for deal in await self.records.deals(game_id)):
                raise AdviceError("not_scored")
            moves = await self.records.moves(game_id)
            if not any(m.deal_no == deal_no and m.user_id == user_id for m in moves):
                raise AdviceError("not_played")
        except Exception as error:
            checked.set_exception(error)
            raise
        checked.set_result(None)
        found = analysis.positions(table.variant, table.options, table, moves, deal_no, user_id)
        asked = [(p, f"review:{table.seed}:{deal_no}:{p.number}") for p in found]
        thinker = self.thinker
        if thinker is not None:  # all asked at once: the pool takes them between decisions
            reviews = list(await asyncio.gather(*(thinker.review(p, s) for p, s in asked)))
        else:
            reviews = [analysis.review(p, self.budget, s) for p, s in asked]
        result = Analysis(table, deal_no, len(reviews), tuple(analysis.worst(reviews)))
        return _keep(self._analyses, key, result)

    async def _once(self, key: Hashable, make: Callable[[], Awaitable[V]]) -> V:
        """``make()``'s answer, started once for every press of ``key`` while it runs."""
        flying = self._flying.get(key)
        if flying is None:
            flying = asyncio.ensure_future(make())
            self._flying[key] = flying
            flying.add_done_callback(lambda done: self._landed(key, done))
        answer: V = await asyncio.shield(flying)
        return answer

    def _landed(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        del self._flying[key]
        if not done.cancelled():
            done.exception()  # retrieved: every presser may be gone

    def first_sending(self, found: Analysis, user_id: int) -> bool:
        """Whether this analysis goes to the person for the first time (a double tap, or a
        second press, gets no second copy)."""
        key = (found.table.game_id, found.deal_no, user_id)
        if key in self._sent:
            return False
        _keep(self._sent, key, True)
        return True


def _keep(store: OrderedDict[Any, V], key: Any, value: V) -> V:
    store[key] = value
    while len(store) > KEPT:
        store.popitem(last=False)
    return value


__all__ = ["AdviceError", "Analysis", "Coach", "Hint"]
