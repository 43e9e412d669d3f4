"""Starting the real ``kozelbot`` command: a refused token or an unreachable server ends it with a
one-line reason and exit code 1, not a traceback."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from botapi_emulator import BotApiEmulator
from tests.e2e import ROOT


async def _run_bot(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")}
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kozelbot",
        cwd=cwd,
        env={**base, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def test_a_refused_token_ends_the_bot_with_a_clear_reason(
    emu: BotApiEmulator, tmp_path: Path
) -> None:
    env = {
        "KOZEL_BOT_TOKEN": "999:WRONG",
        "KOZEL_API_URL": emu.api_root,
        "KOZEL_DB_PATH": str(tmp_path / "k.db"),
    }
    code, output = await _run_bot(env, tmp_path)
    assert code == 1
    assert "refused the token" in output and "Traceback" not in output


async def test_an_unreachable_server_ends_the_bot_with_a_clear_reason(tmp_path: Path) -> None:
    env = {
        "KOZEL_BOT_TOKEN": "123:ABC",
        "KOZEL_API_URL": "http://127.0.0.1:9",
        "KOZEL_DB_PATH": str(tmp_path / "k.db"),
    }
    code, output = await _run_bot(env, tmp_path)
    assert code == 1
    assert "cannot reach" in output and "Traceback" not in output
