"""Starting the real ``kozelbot`` command: a refused token, an unreachable server or a
database it cannot use (unreachable, a wrong password, a schema newer than the code) ends it
with a one-line reason and exit code 1, not a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from botapi_emulator import BotApiEmulator
from storage import Storage
from tests import postgres
from tests.e2e import run_kozelbot


async def test_a_refused_token_ends_the_bot_with_a_clear_reason(
    emu: BotApiEmulator, tmp_path: Path
) -> None:
    env = {
        "KOZEL_BOT_TOKEN": "999:WRONG",
        "KOZEL_API_URL": emu.api_root,
        "KOZEL_DB_PATH": str(tmp_path / "k.db"),
    }
    code, output = await run_kozelbot(env, tmp_path)
    assert code == 1
    assert "refused the token" in output and "Traceback" not in output


async def test_an_unreachable_server_ends_the_bot_with_a_clear_reason(tmp_path: Path) -> None:
    env = {
        "KOZEL_BOT_TOKEN": "123:ABC",
        "KOZEL_API_URL": "http://127.0.0.1:9",
        "KOZEL_DB_PATH": str(tmp_path / "k.db"),
    }
    code, output = await run_kozelbot(env, tmp_path)
    assert code == 1
    assert "cannot reach" in output and "Traceback" not in output


# -- a database the bot cannot use (issue #32): one line, exit code 1 ----------------------


def _only_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


async def test_an_unreachable_database_server_ends_the_bot_with_one_line(tmp_path: Path) -> None:
    env = {
        "KOZEL_BOT_TOKEN": "123:ABC",
        "KOZEL_API_URL": "http://127.0.0.1:9",
        "KOZEL_DATABASE_URL": f"postgresql://kozel:secret@127.0.0.1:{postgres.free_port()}/kozel",
    }
    code, output = await run_kozelbot(env, tmp_path)
    assert code == 1
    line = _only_line(output)
    assert "cannot connect to the database" in line and "KOZEL_DATABASE_URL" in line
    assert "secret" not in line


async def test_a_wrong_database_password_ends_the_bot_with_one_line(
    pg_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    url = pg_cluster.url(password="not-the-password")
    env = {"KOZEL_BOT_TOKEN": "123:ABC", "KOZEL_API_URL": "http://127.0.0.1:9"}
    code, output = await run_kozelbot({**env, "KOZEL_DATABASE_URL": url}, tmp_path)
    assert code == 1
    line = _only_line(output)
    assert "password authentication failed" in line and "not-the-password" not in line


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
async def test_a_schema_newer_than_the_code_ends_the_bot_with_one_line(
    engine: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    if engine == "sqlite":
        database = str(tmp_path / "k.db")
        env = {"KOZEL_DB_PATH": database}
    else:
        cluster: postgres.Cluster = request.getfixturevalue("pg_cluster")
        database = cluster.new_database()
        env = {"KOZEL_DATABASE_URL": database}
    async with await Storage.open(database) as storage, storage.database.write() as tx:
        await tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)"
        )
    env |= {"KOZEL_BOT_TOKEN": "123:ABC", "KOZEL_API_URL": "http://127.0.0.1:9"}
    code, output = await run_kozelbot(env, tmp_path)
    assert code == 1
    line = _only_line(output)
    assert "schema 999 is newer than this release" in line
