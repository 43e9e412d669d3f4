"""Searching computers at a table (issue #17): with a thinking pool the service stops at a
strong computer's turn with its deadline now, thinks when the timer calls, logs the move as
the computer's; after a restart the owed thinking resumes; a broken pool falls back to the
quick level; without a pool (tools, tests) the strong level thinks in line.

Issue #29 item 6: a computer thinks outside the game's lock, so a person's press at the table
is answered while it thinks, and a thought the table outgrew meanwhile is dropped; under load
a decision thinks less instead of queueing (``thinking.share``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kozelbot.computer import thinking
from kozelbot.computer.thinking import Thinker
from kozelbot.core.decisions import Decision
from kozelbot.core.protocol import GameError
from kozelbot.core.records import MoveSource
from kozelbot.core.table import Player, TableStatus
from kozelbot.tables import turns
from kozelbot.tables.service import GameService
from storage import Storage

NOW = 1000.0


class BrokenThinker(Thinker):
    """A pool that fails every decision."""

    async def decide(self, dump: dict[str, Any], seat: int, seed: str) -> Decision:
        raise RuntimeError("the pool broke")


class HeldThinker(Thinker):
    """The real thinker, whose decisions wait until the test opens ``gate`` — a computer
    thinking as long as the test needs."""

    def __init__(self) -> None:
        super().__init__(5.0, workers=1)
        self.asked = asyncio.Event()
        self.gate = asyncio.Event()

    async def decide(self, dump: dict[str, Any], seat: int, seed: str) -> Decision:
        self.asked.set()
        await self.gate.wait()
        return await super().decide(dump, seat, seed)


def _service(storage: Storage, thinker: Thinker | None) -> GameService:
    return GameService(
        storage.games,
        rng=random.Random(3),
        clock=lambda: NOW,
        entropy=random.Random("think").randbytes,
        thinker=thinker,
    )


async def _play_until_a_computer_thinks(service: GameService) -> int:
    """A person with three strong computers; their moves are played (the first legal card)
    until a computer must think. Returns the game."""
    change = await service.lobby.play_private(Player(user_id=1, name="Аня"), ["computer=strong"])
    game_id = change.table.game_id
    for _ in range(200):
        table = await service.game(game_id)
        assert table is not None and table.status is TableStatus.PLAYING
        state = service.state_of(table)
        assert state is not None
        if turns.thinking_seat(table, state) is not None:
            return game_id
        seat = table.seat_of(1)
        assert seat is not None and seat in state.to_act()
        await service.act(game_id, 1, state.deal_shown or 0, state.legal_actions(seat)[0])
    raise AssertionError("no computer ever had to think")


async def test_a_strong_computer_thinks_when_its_deadline_comes(storage: Storage) -> None:
    thinker = Thinker(5.0, workers=1)
    try:
        service = _service(storage, thinker)
        game_id = await _play_until_a_computer_thinks(service)
        table = await service.game(game_id)
        assert table is not None and table.deadline == NOW and table.turn_time == 0
        moves_before = len(await storage.games.moves(game_id))
        change = await service.time_out(game_id)
        assert change is not None and change.moves
        assert change.moves[0].source is MoveSource.COMPUTER
        assert len(await storage.games.moves(game_id)) > moves_before
        # The person's own turn is not taken by the thinking deadline.
        assert all(m.source is not MoveSource.TIMEOUT for m in change.moves)
    finally:
        thinker.close()


async def test_thinking_owed_before_a_restart_is_resumed(storage: Storage) -> None:
    thinker = Thinker(5.0, workers=1)
    try:
        game_id = await _play_until_a_computer_thinks(_service(storage, thinker))
        restarted = _service(storage, thinker)  # a new process: nothing in memory
        change = await restarted.resume(game_id)
        assert change is not None and change.table.deadline == NOW
        change = await restarted.time_out(game_id)
        assert change is not None and change.moves[0].source is MoveSource.COMPUTER
    finally:
        thinker.close()


async def test_a_press_is_answered_while_a_computer_thinks(storage: Storage) -> None:
    thinker = HeldThinker()
    try:
        service = _service(storage, thinker)
        game_id = await _play_until_a_computer_thinks(service)
        table = await service.game(game_id)
        assert table is not None
        state = service.state_of(table)
        assert state is not None
        thinking_seat = turns.thinking_seat(table, state)
        assert thinking_seat is not None
        thinking = asyncio.create_task(service.time_out(game_id))
        await thinker.asked.wait()
        # The computer is thinking; the table is not locked, so Аня's press (a card at the
        # computer's turn) is refused at once instead of waiting for the thought.
        assert not service.committing.lock(game_id).locked()
        with pytest.raises(GameError):
            await service.act(
                game_id, 1, state.deal_shown or 0, state.legal_actions(thinking_seat)[0]
            )
        thinker.gate.set()
        change = await thinking  # the refused press changed nothing: the thought is played
        assert change is not None and change.moves[0].source is MoveSource.COMPUTER
        assert change.moves[0].seat == thinking_seat
    finally:
        thinker.close()


async def test_a_thought_the_table_outgrew_meanwhile_is_dropped(storage: Storage) -> None:
    thinker = HeldThinker()
    try:
        service = _service(storage, thinker)
        game_id = await _play_until_a_computer_thinks(service)
        moves_before = len(await storage.games.moves(game_id))
        thinking = asyncio.create_task(service.time_out(game_id))
        await thinker.asked.wait()
        assert not service.committing.lock(game_id).locked()
        stopped = await service.vote_stop(game_id, 1)  # the only person stops the match
        assert stopped.table.status is TableStatus.STOPPED
        thinker.gate.set()
        assert await thinking is None
        assert len(await storage.games.moves(game_id)) == moves_before
        table = await service.game(game_id)
        assert table is not None and table.status is TableStatus.STOPPED
    finally:
        thinker.close()


async def test_a_queued_decision_thinks_within_what_is_left_of_the_budget(
    storage: Storage,
) -> None:
    """Eight decisions asked at once of one worker: each gets its share of what is left
    (``thinking.share``), so together they think about one budget, not eight."""
    share = thinking.share
    assert share(200.0, 1, waited_ms=0.0, behind=0) == 200.0
    assert share(200.0, 1, waited_ms=150.0, behind=0) == 50.0
    assert share(200.0, 1, waited_ms=0.0, behind=3) == 50.0
    assert share(200.0, 1, waited_ms=199.9, behind=0) == thinking.FLOOR_MS
    assert share(200.0, 1, waited_ms=500.0, behind=0) == 0  # spent: the quick level moves
    thinker = Thinker(200.0, workers=1)
    try:
        service = _service(storage, None)
        game_id = await _play_until_a_computer_thinks(_service(storage, thinker))
        table = await service.game(game_id)
        assert table is not None and table.state is not None
        state = service.state_of(table)
        assert state is not None
        seat = turns.thinking_seat(table, state)
        assert seat is not None
        asked = (thinker.decide(table.state, seat, f"s{i}") for i in range(8))
        answers = await asyncio.gather(*asked, return_exceptions=True)
        assert all(isinstance(a, Decision | thinking.Overloaded) for a in answers), answers
        budgets = [budget for _latency, budget in thinker.measured]
        assert len(budgets) == 8
        assert sum(budgets) <= 2 * 200.0  # in a queue they would have thought 8 × 200
    finally:
        thinker.close()


async def test_a_broken_pool_never_stalls_a_table(storage: Storage) -> None:
    service = _service(storage, BrokenThinker(5.0, workers=1))
    game_id = await _play_until_a_computer_thinks(service)
    change = await service.time_out(game_id)
    assert change is not None and change.moves[0].source is MoveSource.COMPUTER


async def test_without_a_pool_strong_computers_play_in_line(storage: Storage) -> None:
    service = _service(storage, None)
    words = ["computer=strong", "move_time=60"]  # a chosen timer: the person's deadline
    change = await service.lobby.play_private(Player(user_id=1, name="Аня"), words)
    table = change.table
    state = change.state
    assert state is not None
    seat = table.seat_of(1)
    assert seat is not None and seat in state.to_act()  # the computers moved already
    assert table.turn_time != 0


def test_the_workers_end_with_a_bot_killed_outright(tmp_path: Path) -> None:
    """A bot killed with SIGKILL leaves no thinking worker behind."""
    script = tmp_path / "bot.py"
    script.write_text(
        "import asyncio, os, sys, time\n"
        "from kozelbot.computer.thinking import Thinker\n"
        "from kozelbot.families.registry import new_state\n"
        "import random\n"
        "async def main():\n"
        "    thinker = Thinker(5.0, workers=1)\n"
        "    state = new_state('hvalenyi', {})\n"
        "    state.chance(random.Random(1))\n"
        "    await thinker.decide(state.dump(), state.to_act()[0], 'x')\n"
        "    print(os.getpid(), flush=True)\n"
        "    time.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None
        pid = int(bot.stdout.readline())
        workers = _children(pid)
        assert workers
        os.kill(pid, signal.SIGKILL)
        bot.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.2)
        assert not any(_alive(w) for w in workers)
    finally:
        if bot.poll() is None:
            bot.kill()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
