"""A throwaway Prometheus server for the tests: Debian's own (``apt-get install prometheus``,
which ``.ci/run`` does), on a free port of 127.0.0.1, its configuration and data in a
temporary folder, stopped and removed at the end. Never the system's service.

As ``tests/postgres.py`` does for PostgreSQL, when the tests run as root (CI's container) the
server runs as the unprivileged ``nobody``, its folder handed to it (the data directory must
be writable by whoever runs the server); otherwise as whoever runs the tests.

Everything here is asynchronous: the bot it scrapes runs in the test's own event loop, so a
blocking wait would stop the very bot being watched.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

from tests.postgres import free_port

PROMETHEUS = Path("/usr/bin/prometheus")
"""Debian's server (package ``prometheus``)."""
POLL = 0.2
"""Seconds between two looks while waiting on the server."""


class Prometheus:
    """One running server: its HTTP API's ``query`` and ``rules``, and ``until`` to wait."""

    def __init__(self, root: Path, port: int, user: str | None) -> None:
        self.root = root
        self.port = port
        self.user = user
        self.url = f"http://127.0.0.1:{port}"
        self.log = root / "log"
        self._process: asyncio.subprocess.Process | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self, config: str, files: dict[str, str], timeout: float = 20.0) -> None:
        """Write ``config`` (``prometheus.yml``) and ``files`` beside it (rule files named
        relative to it), start the server and return once it says it is ready."""
        for name, text in {"prometheus.yml": config, **files}.items():
            (self.root / name).write_text(text, encoding="utf-8")
        data = self.root / "data"
        data.mkdir()
        for path in (self.root, data):
            self._hand_over(path)
        with self.log.open("wb") as log:
            self._process = await asyncio.create_subprocess_exec(
                str(PROMETHEUS),
                f"--config.file={self.root / 'prometheus.yml'}",
                f"--storage.tsdb.path={data}",
                f"--web.listen-address=127.0.0.1:{self.port}",
                "--log.level=warn",
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                user=self.user,
            )
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5))
        await self.until(self._ready, timeout, "the server to be ready")

    async def stop(self) -> None:
        """Stop the server cleanly (SIGTERM; SIGKILL after 10 s) and close the client."""
        if self._session is not None:
            await self._session.close()
            self._session = None
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()

    async def query(self, expr: str) -> list[dict[str, Any]]:
        """The instant vector ``expr`` evaluates to now (``/api/v1/query``)."""
        body = await self._get("/api/v1/query", {"query": expr})
        assert body["data"]["resultType"] == "vector", body
        result: list[dict[str, Any]] = body["data"]["result"]
        return result

    async def value(self, expr: str) -> float | None:
        """The single sample's value of ``expr`` now (``None``: no sample)."""
        result = await self.query(expr)
        assert len(result) <= 1, result
        return float(result[0]["value"][1]) if result else None

    async def rules(self) -> list[dict[str, Any]]:
        """The rule groups loaded, with each rule's health and state (``/api/v1/rules``)."""
        groups: list[dict[str, Any]] = (await self._get("/api/v1/rules", {}))["data"]["groups"]
        return groups

    async def until(
        self, ready: Callable[[], Awaitable[bool]], timeout: float = 20.0, what: str = "the server"
    ) -> None:
        """Wait, looking every ``POLL`` seconds, until the coroutine function ``ready``
        returns true; fail after ``timeout`` seconds with what was awaited and the log."""
        deadline = time.monotonic() + timeout
        while True:
            if self._process is not None and self._process.returncode is not None:
                raise AssertionError(f"prometheus exited: {self.log.read_text()[-2000:]}")
            if await ready():
                return
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"waited {timeout:.0f} s for {what}; log: {self.log.read_text()[-2000:]}"
                )
            await asyncio.sleep(POLL)

    async def _ready(self) -> bool:
        assert self._session is not None
        try:
            async with self._session.get(f"{self.url}/-/ready") as response:
                return response.status == 200
        except aiohttp.ClientError:
            return False

    async def _get(self, path: str, params: dict[str, str]) -> dict[str, Any]:
        assert self._session is not None
        async with self._session.get(f"{self.url}{path}", params=params) as response:
            body: dict[str, Any] = await response.json()
        assert response.status == 200 and body["status"] == "success", body
        return body

    def _hand_over(self, path: Path) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(path, entry.pw_uid, entry.pw_gid)


@contextlib.asynccontextmanager
async def server(config: str, files: dict[str, str]) -> AsyncIterator[Prometheus]:
    """A running server on ``config`` (with ``files`` beside it), stopped and removed
    afterwards."""
    if not PROMETHEUS.exists():
        raise RuntimeError("Prometheus is not installed: apt-get install prometheus (.ci/run does)")
    user = "nobody" if os.geteuid() == 0 else None
    # In /tmp, which every user may cross (a TMPDIR of root's own would shut ``nobody`` out).
    root = Path(tempfile.mkdtemp(prefix="kozel-prom-", dir="/tmp" if user else None))
    os.chmod(root, 0o700)
    running = Prometheus(root, free_port(), user)
    try:
        await running.start(config, files)
        yield running
    finally:
        await running.stop()
        shutil.rmtree(root, ignore_errors=True)
