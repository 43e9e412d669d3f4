"""``kozelbot`` as a person first runs it (issue #9): with no token it is the sandbox, prints
its one line with the page's address, plays a whole match in watch mode (driven through the
page's own HTTP API), and Ctrl-C stops it with exit code 0; ``kozelbot sandbox`` runs it with
a token too, on the next free port when the asked one is taken, and SIGTERM stops it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"KozelBot sandbox: http://127\.0\.0\.1:(\d+)")
SEED = "10"
"""``KOZEL_SANDBOX_SEED`` of a short match: with it, ``hvalenyi deck=32`` in watch mode ends in
under 10 s at 0.2 s a move; an unseeded match takes 40–70 s."""
MATCH_SECONDS = 150.0


def environment(**extra: str) -> dict[str, str]:
    """This environment without any KOZEL_ setting (no token), the project importable."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("KOZEL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


class Kozelbot:
    """``python -m kozelbot ARGS`` in a directory of its own (so no .env is read)."""

    def __init__(self, workdir: Path, args: list[str], env: dict[str, str]) -> None:
        self.workdir = workdir
        self.args = args
        self.env = env
        self.process: asyncio.subprocess.Process | None = None
        self.url = ""

    async def start(self) -> str:
        """Start it and wait for its one line; the page's address."""
        assert not (self.workdir / ".env").exists()
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "kozelbot",
            *self.args,
            cwd=self.workdir,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=(self.workdir / "kozelbot.log").open("ab"),
        )
        assert self.process.stdout is not None
        line = (await asyncio.wait_for(self.process.stdout.readline(), 60)).decode()
        match = LINE.fullmatch(line.rstrip("\n"))
        assert match, (line, self.log())
        self.url = f"http://127.0.0.1:{match.group(1)}"
        return self.url

    def log(self) -> str:
        return (self.workdir / "kozelbot.log").read_text(encoding="utf-8", errors="replace")

    async def stop(self, signum: int) -> tuple[int, str]:
        """Send ``signum``; the exit code and what else it printed on stdout."""
        assert self.process is not None and self.process.stdout is not None
        self.process.send_signal(signum)
        code = await asyncio.wait_for(self.process.wait(), 30)
        rest = (await self.process.stdout.read()).decode()
        self.process = None
        return code, rest

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


async def call(session: aiohttp.ClientSession, url: str, body: object | None = None) -> Any:
    """GET (no body) or POST JSON; the JSON answer, which must be a success."""
    if body is None:
        request = session.get(url)
    else:
        request = session.post(
            url, data=json.dumps(body), headers={"Content-Type": "application/json"}
        )
    async with request as response:
        answer = await response.json()
        assert response.status == 200, answer
        return answer


async def test_kozelbot_without_a_token_is_the_sandbox_watch_plays_a_match_ctrl_c_stops_it(
    tmp_path: Path, session: aiohttp.ClientSession
) -> None:
    bot = Kozelbot(tmp_path, [], environment(KOZEL_SANDBOX_PORT="0", KOZEL_SANDBOX_SEED=SEED))
    try:
        url = await bot.start()
        state = await call(session, f"{url}/api/state")
        assert [p["name"] for p in state["people"]] == ["Аня", "Борис", "Вера", "Глеб"]
        await call(session, f"{url}/api/limits", {"on": False})
        body = {"on": True, "delay": 0.2, "newgame": "hvalenyi deck=32"}
        assert (await call(session, f"{url}/api/watch", body))["watch"]["running"] is True
        deadline = time.monotonic() + MATCH_SECONDS
        while (await call(session, f"{url}/api/state"))["watch"]["running"]:
            assert time.monotonic() < deadline, "the match did not end in time"
            await asyncio.sleep(0.5)
        group = state["group"]["id"]
        shown = (await call(session, f"{url}/api/messages?chat={group}"))["messages"]
        assert any(m["from"]["bot"] and "🏆" in m["html"] for m in shown), shown[-3:]
        code, rest = await bot.stop(signal.SIGINT)
    finally:
        await bot.kill()
    assert code == 0, bot.log()
    assert rest == ""  # the address was the only line
    assert (tmp_path / "kozel-sandbox.db").is_file()
    saved = json.loads((tmp_path / "kozel-sandbox.db.chats.json").read_text(encoding="utf-8"))
    assert saved["sandbox"]["people"] == [p["id"] for p in state["people"]]
    assert "Traceback" not in bot.log()


async def test_kozelbot_sandbox_runs_with_a_token_on_the_next_free_port_and_sigterm_stops_it(
    tmp_path: Path, session: aiohttp.ClientSession
) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    env = environment(KOZEL_BOT_TOKEN="123:NOT-USED")
    bot = Kozelbot(tmp_path, ["sandbox", "--port", str(port), "--db", "games/my.db"], env)
    try:
        url = await bot.start()
        assert int(url.rsplit(":", 1)[1]) > port
        state = await call(session, f"{url}/api/state")
        assert state["bot"]["username"] == "kozel_sandbox_bot"
        code, rest = await bot.stop(signal.SIGTERM)
    finally:
        taken.close()
        await bot.kill()
    assert (code, rest) == (0, "")
    assert (tmp_path / "games" / "my.db").is_file()
    assert (tmp_path / "games" / "my.db.chats.json").is_file()


@pytest.mark.parametrize(
    "args", [["sandbox", "--port", "http"], ["sandbox", "--db"], ["sandbox", "--verbose"]]
)
def test_kozelbot_sandbox_with_bad_options_prints_the_usage_and_exits_2(
    tmp_path: Path, args: list[str]
) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "kozelbot", *args],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "kozelbot sandbox" in done.stderr and done.stdout == ""
