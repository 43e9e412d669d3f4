"""The bot under load as processes (``load.py``, ``scale.py``): one ``python -m kozelbot``,
or, past one process (issue #32), one ``kozelbot intake`` and ``workers`` ``kozelbot
worker`` processes sharing a PostgreSQL database. ``start_bot`` returns once the bot polls
(and every worker has beaten); ``BotProcesses`` reads the CPU and memory of all of them with
their children (the strong computers think in a process pool of each bot process, which a
process's own CPU time leaves out) and their logs.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

from benchmarks.players import LoadEmulator
from kozelbot.config import Settings
from tests.e2e import BotProcess

TICKS = os.sysconf("SC_CLK_TCK")


def default_flood_env() -> dict[str, str]:
    """The bot's own defaults for every setting but where it connects and the poll timeout:
    ``BotProcess`` speeds up the flood limits and per-user throttles for tests; undo that."""
    keep = {"bot_token", "db_path", "api_url", "log_level", "poll_timeout"}
    return {
        f"KOZEL_{name.upper()}": str(info.default)
        for name, info in Settings.model_fields.items()
        if name not in keep and isinstance(info.default, int | float | str)
    }


def _children() -> dict[int, list[int]]:
    """Every live process's children (Linux /proc)."""
    found: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        found.setdefault(parent, []).append(int(entry.name))
    return found


def _tree(pids: list[int]) -> list[int]:
    """These processes and all their live descendants."""
    children = _children()
    seen: list[int] = []
    todo = list(pids)
    while todo:
        pid = todo.pop()
        seen.append(pid)
        todo.extend(children.get(pid, []))
    return seen


def _cpu(pid: int, *, reaped: bool) -> float:
    """User + system CPU seconds of a process (and, ``reaped``, of its children it waited
    for); 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICKS


def _rss_mb(pid: int) -> float:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0
    return next((int(x.split()[1]) / 1024 for x in lines if x.startswith("VmRSS:")), 0.0)


class BotProcesses:
    """The bot's processes: ``[bot]``, or ``[intake, worker 1, …]``."""

    def __init__(self, processes: list[BotProcess], database_url: str | None) -> None:
        self.processes = processes
        self.database_url = database_url
        self.workers = len(processes) - 1

    @property
    def logs(self) -> list[Path]:
        return [p.log for p in self.processes]

    def pids(self) -> list[int]:
        return [p.process.pid for p in self.processes if p.process is not None]

    def cpu_seconds(self) -> float:
        """CPU seconds of every bot process and its live children so far (a child that
        exited counts once its parent waited for it)."""
        roots = self.pids()
        return sum(_cpu(pid, reaped=pid in roots) for pid in _tree(roots))

    def rss_mb(self) -> float:
        """Resident memory of every bot process and its children, in MiB (shared pages
        counted in each)."""
        return sum(_rss_mb(pid) for pid in _tree(self.pids()))

    def tail(self, lines: int = 15) -> str:
        return "\n".join(
            f"--- {p.log}\n" + "\n".join(p.log.read_text(errors="replace").splitlines()[-lines:])
            for p in self.processes
            if p.log.exists()
        )

    async def start(self, emu: LoadEmulator, timeout: float = 60.0) -> None:
        """Start them all; return once the bot (or the intake) polls and every worker beat.
        The workers start once the intake polls: it has made the database's tables by then
        (processes that migrate a new PostgreSQL database at the same moment can collide on
        ``CREATE TABLE schema_migrations``: one of them exits)."""
        await self.processes[0].start()
        await self._until(emu.polled.is_set, timeout)
        for process in self.processes[1:]:
            await process.start()
        await self._until(lambda: self._workers_alive() >= self.workers, timeout)

    async def _until(self, ready: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            exited = [p for p in self.processes if p.process and p.process.returncode is not None]
            if exited or time.monotonic() > deadline:
                await self.stop()
                raise RuntimeError(f"the bot did not start polling:\n{self.tail()}")
            await asyncio.sleep(0.2)

    def _workers_alive(self) -> int:
        if not self.workers:
            return 0
        assert self.database_url is not None
        with psycopg.connect(self.database_url) as db:
            row = db.execute("SELECT COUNT(*) FROM workers").fetchone()
        return int(row[0]) if row else 0

    async def stop(self) -> int | None:
        """Stop every process still running; the first exit code of one that had exited."""
        crashed = None
        for process in self.processes:
            running = process.process
            if running is None:
                continue
            if running.returncode is not None:
                process.process = None
                crashed = crashed if crashed is not None else running.returncode
                continue
            await process.stop()
        return crashed


async def start_bot(
    emu: LoadEmulator,
    workdir: Path,
    extra: dict[str, str] | None = None,
    *,
    workers: int = 0,
) -> BotProcesses:
    """The bot with its default flood settings, once it polls for updates: one process, or
    (``workers`` > 0, ``KOZEL_DATABASE_URL`` in ``extra``) an intake and that many workers,
    each in a folder of its own (its log, its flood journal)."""
    env = {**default_flood_env(), **(extra or {})}
    if not workers:
        bots = BotProcesses([BotProcess(emu, workdir / "load.db", workdir, env=env)], None)
    else:
        database_url = env.get("KOZEL_DATABASE_URL")
        if not database_url:
            raise ValueError("workers share a PostgreSQL database: set KOZEL_DATABASE_URL")
        processes = []
        for name in ["intake", *(f"w{n}" for n in range(1, workers + 1))]:
            folder = workdir / name
            folder.mkdir(exist_ok=True)
            processes.append(
                BotProcess(
                    emu,
                    folder / "flood.db",
                    folder,
                    env={**env, "KOZEL_WORKER_NAME": name},
                    args=["intake" if name == "intake" else "worker"],
                )
            )
        bots = BotProcesses(processes, database_url)
    await bots.start(emu)
    return bots


async def stop_bot(bots: BotProcesses) -> int | None:
    """Stop the bot (if it is still running); an exit code if a process had already exited."""
    return await bots.stop()
