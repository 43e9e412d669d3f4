"""Searching computers at a table (issue #17): with a thinking pool the service stops at a
strong computer's turn with its deadline now, thinks when the timer calls, logs the move as
the computer's; after a restart the owed thinking resumes; a broken pool falls back to the
quick level; without a pool (tools, tests) the strong level thinks in line."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from kozelbot import turns
from kozelbot.decisions import Decision
from kozelbot.records import MoveSource
from kozelbot.service import GameService
from kozelbot.table import Player, TableStatus
from kozelbot.thinking import Thinker
from storage import Storage

NOW = 1000.0


class BrokenThinker(Thinker):
    """A pool that fails every decision."""

    async def decide(self, dump: dict[str, Any], seat: int, seed: str) -> Decision:
        raise RuntimeError("the pool broke")


def _service(storage: Storage, thinker: Thinker | None) -> GameService:
    return GameService(storage.games, rng=random.Random(3), clock=lambda: NOW,
                       entropy=random.Random("think").randbytes, thinker=thinker)  # fmt: skip


async def _play_until_a_computer_thinks(service: GameService) -> int:
    """A person with three strong computers; their moves are played (the first legal card)
    until a computer must think. Returns the game."""
    change = await service.play_private(Player(user_id=1, name="Аня"), ["computer=strong"])
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


async def test_a_broken_pool_never_stalls_a_table(storage: Storage) -> None:
    service = _service(storage, BrokenThinker(5.0, workers=1))
    game_id = await _play_until_a_computer_thinks(service)
    change = await service.time_out(game_id)
    assert change is not None and change.moves[0].source is MoveSource.COMPUTER


async def test_without_a_pool_strong_computers_play_in_line(storage: Storage) -> None:
    service = _service(storage, None)
    change = await service.play_private(Player(user_id=1, name="Аня"), ["computer=strong"])
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
        "from kozelbot.thinking import Thinker\n"
        "from kozelbot.games import new_state\n"
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
