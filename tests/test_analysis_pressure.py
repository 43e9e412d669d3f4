"""Issue #29 item 5: 🔍 analyses never crowd out the tables' computers. The thinking pool
takes a table's decision before any review waiting; the same request pressed again joins
the one in flight (eight presses of one 🔍 start one analysis); a person has one analysis
at a time; a review holding the only worker stops early when a decision comes."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from kozelbot.computer import analysis
from kozelbot.computer.coach import AdviceError, Coach
from kozelbot.computer.thinking import Overloaded, Thinker
from kozelbot.core.table import Player
from kozelbot.tables.service import GameService
from storage import Storage

T = TypeVar("T")
ANN = 1


class CountingThinker(Thinker):
    """The real thinker, counting the searches it starts in its workers."""

    def __init__(self) -> None:
        super().__init__(20.0, workers=1)
        self.searches = 0

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        self.searches += 1
        return await super()._run(function, *args)


async def _two_deals_played(storage: Storage) -> int:
    """Аня's match against three quick computers, played (her first legal move each
    turn) until two deals are scored. Returns the game."""
    service = GameService(
        storage.games,
        rng=random.Random(5),
        clock=lambda: 1000.0,
        entropy=random.Random("press").randbytes,
    )
    change = await service.lobby.play_private(Player(user_id=ANN, name="Аня"), ["computer=normal"])
    game_id = change.table.game_id
    for _ in range(400):
        if len(await storage.games.deals(game_id)) >= 2:
            return game_id
        table = await service.game(game_id)
        assert table is not None
        state = service.state_of(table)
        seat = table.seat_of(ANN)
        assert state is not None and seat is not None and seat in state.to_act()
        await service.act(game_id, ANN, state.deal_shown or 0, state.legal_actions(seat)[0])
    raise AssertionError("two deals were never scored")


async def _positions(storage: Storage, game_id: int) -> list[analysis.Position]:
    table = await storage.games.game(game_id)
    assert table is not None
    moves = await storage.games.moves(game_id)
    found = analysis.positions(table.variant, table.options, table, moves, 0, ANN)
    assert len(found) >= 3, "Аня had choices to review"
    return found


async def test_eight_presses_of_one_analysis_start_one(storage: Storage) -> None:
    game_id = await _two_deals_played(storage)
    positions = await _positions(storage, game_id)
    thinker = CountingThinker()
    try:
        coach = Coach(storage.games, thinker)
        found = await asyncio.gather(*(coach.analyse(game_id, 0, ANN) for _ in range(8)))
        assert thinker.searches == len(positions)  # one review a play, not eight
        assert all(f is found[0] for f in found)
    finally:
        thinker.close()


async def test_a_second_analysis_waits_until_the_first_is_ready(storage: Storage) -> None:
    game_id = await _two_deals_played(storage)
    thinker = CountingThinker()
    try:
        coach = Coach(storage.games, thinker)
        first = asyncio.ensure_future(coach.analyse(game_id, 0, ANN))
        await asyncio.sleep(0)  # the first is being prepared
        with pytest.raises(AdviceError) as refused:
            await coach.analyse(game_id, 1, ANN)
        assert refused.value.code == "busy"
        await first
        second = await coach.analyse(game_id, 1, ANN)  # the first is ready: now it is made
        assert second.deal_no == 1
    finally:
        thinker.close()


async def test_a_tables_decisions_go_before_the_reviews_waiting(storage: Storage) -> None:
    game_id = await _two_deals_played(storage)
    positions = await _positions(storage, game_id)
    asked = positions[0]  # a state and the seat to act in it: the table's decision
    thinker = Thinker(300.0, workers=1)  # a decision waits one review: thought, not shed
    try:
        finished: list[str] = []

        async def review(number: int) -> None:
            await thinker.review(positions[number % len(positions)], f"r{number}")
            finished.append("review")

        async def decide(number: int) -> None:
            with contextlib.suppress(Overloaded):  # answered too: the quick level would move
                await thinker.decide(asked.dump, asked.seat, f"d{number}")
            finished.append("decision")

        reviews = [asyncio.ensure_future(review(n)) for n in range(8)]
        await asyncio.sleep(0)  # the first review has the worker
        decisions = [asyncio.ensure_future(decide(n)) for n in range(3)]
        await asyncio.gather(*reviews, *decisions)
        # At most the review holding the worker (and one more that started before the
        # decisions were asked) ends before them; in one queue they would end last.
        last_decision = max(i for i, kind in enumerate(finished) if kind == "decision")
        assert last_decision <= 4, finished
    finally:
        thinker.close()


async def test_a_review_running_stops_early_when_a_decision_waits(storage: Storage) -> None:
    """With one worker, a review that holds it when a table's decision comes stops at its
    least samples instead of thinking its whole budget (3 s here) first."""
    game_id = await _two_deals_played(storage)
    positions = await _positions(storage, game_id)
    asked = positions[0]
    thinker = Thinker(3000.0, workers=1)
    try:
        await thinker.decide(asked.dump, asked.seat, "warm", sheds=False)  # the worker is up
        # Аня's fifth play of the seeded deal searches its whole budget (the others
        # end before their budget).
        long = next(p for p in positions if p.number == 5)
        reviewed = asyncio.ensure_future(thinker.review(long, "long"))
        await asyncio.sleep(0.3)  # the review is searching
        decided = asyncio.ensure_future(
            thinker.decide(asked.dump, asked.seat, "table", sheds=False)
        )
        came = time.monotonic()
        await reviewed
        held = time.monotonic() - came
        await decided
        assert held < 1.5, f"the review went on {held:.2f} s after the decision came"
    finally:
        thinker.close()
