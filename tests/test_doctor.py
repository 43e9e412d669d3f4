"""``kozelbot doctor`` (issue #33): each fault an operator makes, planted for real (a refused
token, a server failing or out of reach, a webhook left set or another one, a database folder
or file this user cannot write, a Mini App without a good name, a port another process holds,
a disk fuller than a threshold), is the one failing or warning line of its check, with what to
do; an all-good setup is all ✓ and exit code 0. The Bot API is the project's emulator; the
command runs as a subprocess too, whose output never shows the token. (The database check's
other faults: ``tests/test_doctor_database.py``.)"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from botapi_emulator import BotApiEmulator, Faults, Webhook
from handlers.doctor import Finding, Status, examine
from handlers.doctor.findings import exit_code
from handlers.doctor.local import check_disk
from kozelbot.config import Settings
from kozelbot.core.metrics import PrometheusMeter
from storage import Storage
from storage.checkup import check_database
from tests.e2e import TOKEN, BotRunner, bot_settings, run_kozelbot
from tests.postgres import free_port

FAST = (0.05, 0.05)
"""Retry delays of the Telegram checks in tests (the command waits 1 s, then 2 s)."""


def settings(emu: BotApiEmulator | None, db_path: Path, **overrides: object) -> Settings:
    """The settings of a bot on ``emu`` (none: a server nobody answers) and ``db_path``."""
    values: dict[str, object] = {
        "bot_token": TOKEN,
        "api_url": emu.api_root if emu is not None else f"http://127.0.0.1:{free_port()}",
        "db_path": str(db_path),
    }
    values.update(overrides)
    return Settings.model_validate(values)


async def check(config: Settings, **options: Any) -> dict[str, Finding]:
    """Every finding of the doctor by topic (fast retries)."""
    found = await examine(config, database_check=check_database, retry_delays=FAST, **options)
    return {f.topic: f for f in found}


@pytest.fixture
def listening() -> Iterator[int]:
    """A port another process (here: this one) listens on."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        yield int(held.getsockname()[1])


async def migrated(db_path: Path) -> None:
    """A SQLite database migrated to this release."""
    await (await Storage.open(db_path)).close()


# -- all good -------------------------------------------------------------------------------


async def test_a_sound_setup_is_all_checks_passed_and_exit_code_0(
    emu: BotApiEmulator, db_path: Path
) -> None:
    await migrated(db_path)
    config = settings(
        emu,
        db_path,
        webapp_url="https://kozel.example.org/app",
        webapp_name="table",
        webapp_port=free_port(),
        metrics_port=free_port(),
    )
    found = await check(config)
    assert list(found) == ["token", "webhook", "database", "Mini App", "metrics", "disk"]
    assert {topic: f.status for topic, f in found.items()} == dict.fromkeys(found, Status.OK)
    assert "@kozel_test_bot answers" in found["token"].text
    assert exit_code(found.values()) == 0


async def run_doctor(
    env: dict[str, str], cwd: Path, *args: str, through: Sequence[str] = ()
) -> tuple[int, str]:
    """``python -m kozelbot doctor ARGS`` with these settings only (``through`` a command
    that runs a shell line): exit code and output."""
    return await run_kozelbot(env, cwd, "doctor", *args, through=through)


async def test_the_command_prints_one_line_a_check_and_exits_0_when_all_is_well(
    emu: BotApiEmulator, db_path: Path, tmp_path: Path
) -> None:
    await migrated(db_path)
    env = {"KOZEL_BOT_TOKEN": TOKEN, "KOZEL_API_URL": emu.api_root, "KOZEL_DB_PATH": str(db_path)}
    code, output = await run_doctor(env, tmp_path)
    lines = output.splitlines()
    assert code == 0, output
    assert len(lines) == 6 and all(line.startswith("✓ ") for line in lines), output
    assert TOKEN not in output and TOKEN.split(":")[1] not in output


async def test_the_command_exits_1_on_a_fault_and_never_shows_the_token(
    emu: BotApiEmulator, db_path: Path, tmp_path: Path
) -> None:
    env = {
        "KOZEL_BOT_TOKEN": "999:NOT-THE-TOKEN",
        "KOZEL_API_URL": emu.api_root,
        "KOZEL_DB_PATH": str(db_path),
    }
    code, output = await run_doctor(env, tmp_path)
    assert code == 1
    assert output.splitlines()[0].startswith(f"✗ token: {emu.api_root} refused the token")
    assert "NOT-THE-TOKEN" not in output and "Traceback" not in output


async def test_a_setting_pydantic_refuses_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    code, output = await run_doctor({"KOZEL_WEBAPP_URL": "http://kozel.example.org"}, tmp_path)
    assert code == 1
    assert output.splitlines() == [
        "✗ settings: KOZEL_WEBAPP_URL: Value error, KOZEL_WEBAPP_URL must be an https:// "
        "address — fix it in the environment or in .env"
    ]


async def test_delete_webhook_with_webhook_is_bad_usage(tmp_path: Path) -> None:
    code, output = await run_doctor({}, tmp_path, "--delete-webhook", "--webhook", "https://x.org")
    assert code == 2 and "usage:" in output


# -- token ----------------------------------------------------------------------------------


async def test_a_refused_token_says_to_get_it_from_botfather(
    emu: BotApiEmulator, db_path: Path
) -> None:
    found = await check(settings(emu, db_path, bot_token="999:WRONG"))
    assert found["token"].status is Status.FAIL
    assert "refused the token" in found["token"].text and "@BotFather" in found["token"].text
    assert found["webhook"].status is Status.SKIPPED


async def test_no_token_says_where_to_get_one(db_path: Path) -> None:
    found = await check(settings(None, db_path, bot_token=None))
    assert (
        found["token"].status is Status.FAIL and "KOZEL_BOT_TOKEN is not set" in found["token"].text
    )


async def test_an_unreachable_server_is_reported_as_such_not_as_a_wrong_token(
    db_path: Path,
) -> None:
    found = await check(settings(None, db_path))
    assert found["token"].status is Status.FAIL
    assert "cannot reach the Bot API server" in found["token"].text
    assert "Connection refused; 3 tries" in found["token"].text
    assert "refused the token" not in found["token"].text


async def test_a_server_failing_now_and_then_is_asked_again(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """Two 5xx answers to getMe, then the server recovers: the check passes."""
    emu.faults = Faults(share=1.0, weights={"5xx": 1.0})

    async def recover() -> None:
        await emu.wait_for(lambda: len(emu.injected_faults) >= 2, timeout=10)
        emu.faults = Faults()

    recovering = asyncio.create_task(recover())
    found = await examine(
        settings(emu, db_path), database_check=check_database, retry_delays=(0.3, 0.3, 0.3)
    )
    await recovering
    assert found[0].status is Status.OK, found[0]
    assert [f.method for f in emu.injected_faults] == ["getMe", "getMe"]


async def test_a_server_failing_every_time_is_unreachable_not_a_wrong_token(
    emu: BotApiEmulator, db_path: Path
) -> None:
    emu.faults = Faults(share=1.0, weights={"5xx": 1.0})
    found = await check(settings(emu, db_path))
    assert found["token"].status is Status.FAIL
    assert "cannot reach the Bot API server" in found["token"].text
    assert len(emu.injected_faults) == 3


async def test_a_bot_barred_from_groups_is_a_warning(emu: BotApiEmulator, db_path: Path) -> None:
    emu.can_join_groups = False
    found = await check(settings(emu, db_path))
    assert found["token"].status is Status.WARN
    assert "cannot be added to groups" in found["token"].text


# -- webhook --------------------------------------------------------------------------------


async def test_a_webhook_left_set_fails_a_polling_bot_and_delete_webhook_clears_it(
    emu: BotApiEmulator, db_path: Path
) -> None:
    emu.set_webhook(Webhook("https://old.example.org/kozel"))
    found = await check(settings(emu, db_path))
    assert found["webhook"].status is Status.FAIL
    assert "https://old.example.org/kozel" in found["webhook"].text
    assert "kozelbot doctor --delete-webhook" in found["webhook"].text
    assert emu.webhook is not None  # the doctor changed nothing

    found = await check(settings(emu, db_path), delete_webhook=True)
    assert found["webhook"].status is Status.OK and "deleted" in found["webhook"].text
    assert emu.webhook is None
    found = await check(settings(emu, db_path))
    assert found["webhook"] == Finding(Status.OK, "webhook", "none set; the bot polls (getUpdates)")


async def test_a_webhook_other_than_the_one_given_is_a_warning(
    emu: BotApiEmulator, db_path: Path
) -> None:
    emu.set_webhook(Webhook("https://old.example.org/kozel"))
    given = "https://new.example.org/kozel"
    found = await check(settings(emu, db_path), webhook=given, port=free_port())
    assert found["webhook"].status is Status.WARN
    assert "https://old.example.org/kozel, not https://new.example.org/kozel" in (
        found["webhook"].text
    )
    assert found["webhook server"].status is Status.OK
    emu.set_webhook(Webhook(given))
    found = await check(settings(emu, db_path), webhook=given, port=free_port())
    assert found["webhook"].status is Status.OK


async def test_a_recent_delivery_error_is_a_warning_with_its_message(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """The webhook points at a closed port: Telegram's (the emulator's) delivery fails."""
    url = f"http://127.0.0.1:{free_port()}/kozel"
    emu.set_webhook(Webhook(url))
    user = emu.add_user("Аня")
    emu.send_text(user, user, "/start")
    await emu.wait_for(lambda: emu.webhook_last_error is not None, timeout=10)
    found = await check(settings(emu, db_path), webhook=url, port=free_port())
    assert found["webhook"].status is Status.WARN
    assert "the last delivery failed just now" in found["webhook"].text
    assert "Connect" in found["webhook"].text  # the emulator's words: a refused connection


async def test_a_webhook_port_taken_fails(
    emu: BotApiEmulator, db_path: Path, listening: int
) -> None:
    found = await check(settings(emu, db_path), webhook="https://x.org/k", port=listening)
    assert found["webhook server"].status is Status.FAIL
    assert "is taken (the bot already running?" in found["webhook server"].text


# -- database (the check itself: tests/test_doctor_database.py) ---------------------------


WITHOUT_ROOTS_PASS = ["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c"]
"""Root runs the command through this, without the two capabilities that let root read and
write whatever the file modes say: the modes then bind root too (``os.access`` included)."""


@pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("capsh") is None,
    reason="as root, a folder or file mode binds only without CAP_DAC_OVERRIDE: needs capsh",
)
@pytest.mark.parametrize(
    ("closed", "mode", "says"),
    [("folder", 0o500, "is not writable by"), ("file", 0o000, "is not readable and writable")],
)
async def test_a_folder_or_file_this_user_cannot_write_fails(
    emu: BotApiEmulator, tmp_path: Path, closed: str, mode: int, says: str
) -> None:
    database = tmp_path / "data" / "kozel.db"
    database.parent.mkdir()
    await migrated(database)
    target = database.parent if closed == "folder" else database
    target.chmod(mode)
    env = {"KOZEL_BOT_TOKEN": TOKEN, "KOZEL_API_URL": emu.api_root, "KOZEL_DB_PATH": str(database)}
    through = WITHOUT_ROOTS_PASS if os.geteuid() == 0 else []
    try:
        code, output = await run_doctor(env, tmp_path, through=through)
    finally:
        target.chmod(0o700 if closed == "folder" else 0o600)
    lines = [line for line in output.splitlines() if line.startswith("✗ database: ")]
    assert code == 1 and len(lines) == 1, output
    assert f"{target} {says}" in lines[0], output


# -- Mini App and metrics -------------------------------------------------------------------


def mini_app(emu: BotApiEmulator, db_path: Path, **overrides: object) -> Settings:
    """Settings with the Mini App on (a name, a free port) but for ``overrides``."""
    values = {"webapp_url": "https://k.example.org", "webapp_name": "table"}
    return settings(emu, db_path, **{**values, "webapp_port": free_port(), **overrides})


async def test_a_mini_app_without_a_name_is_a_warning(emu: BotApiEmulator, db_path: Path) -> None:
    found = await check(mini_app(emu, db_path, webapp_name=None))
    assert found["Mini App"].status is Status.WARN
    assert "KOZEL_WEBAPP_NAME unset" in found["Mini App"].text


async def test_a_mini_app_name_botfather_would_refuse_fails(
    emu: BotApiEmulator, db_path: Path
) -> None:
    found = await check(mini_app(emu, db_path, webapp_name="my table"))
    assert found["Mini App"].status is Status.FAIL
    assert "'my table' is not a BotFather short name" in found["Mini App"].text


async def test_a_mini_app_port_taken_fails(
    emu: BotApiEmulator, db_path: Path, listening: int
) -> None:
    found = await check(mini_app(emu, db_path, webapp_port=listening))
    assert found["Mini App"].status is Status.FAIL
    assert f"127.0.0.1:{listening} is taken (the bot already running?" in found["Mini App"].text


async def test_a_metrics_port_taken_fails(
    emu: BotApiEmulator, db_path: Path, listening: int
) -> None:
    found = await check(settings(emu, db_path, metrics_port=listening))
    assert found["metrics"].status is Status.FAIL
    assert "— stop it, or change KOZEL_METRICS_PORT" in found["metrics"].text


async def test_the_mini_app_and_metrics_on_one_port_fail(
    emu: BotApiEmulator, db_path: Path
) -> None:
    port = free_port()
    found = await check(mini_app(emu, db_path, webapp_port=port, metrics_port=port))
    assert found["Mini App"].status is Status.OK
    assert found["metrics"].status is Status.FAIL
    assert "the Mini App's too" in found["metrics"].text


# -- disk -----------------------------------------------------------------------------------


def test_free_space_under_the_thresholds_warns_then_fails(tmp_path: Path) -> None:
    free = shutil.disk_usage(tmp_path).free
    assert check_disk(tmp_path).status is Status.OK  # (this machine has 1 GB free)
    warned = check_disk(tmp_path, fail_below=1, warn_below=free + 10**9)
    failed = check_disk(tmp_path, fail_below=free + 10**9, warn_below=free + 2 * 10**9)
    assert warned.status is Status.WARN and "make room" in warned.text
    assert failed.status is Status.FAIL and "make room now" in failed.text


async def test_a_running_bot_on_the_metrics_port_is_asked_how_it_is(
    emu: BotApiEmulator, db_path: Path, tmp_path: Path
) -> None:
    """Beside a running bot the metrics port is taken by that bot: the doctor asks its
    ``/healthz`` and ``/readyz`` instead of calling the port taken, and says why it is not
    ready (here a database held by a write that does not end)."""
    port = free_port()
    runner = BotRunner(bot_settings(emu, tmp_path / "running.db", metrics_port=port))
    await runner.start()
    try:
        assert runner.app is not None
        meter = runner.app.bot_data.meter
        assert isinstance(meter, PrometheusMeter)
        for _ in range(100):  # the first long poll answers within a second
            if meter.last_update is not None:
                break
            await asyncio.sleep(0.05)
        found = await check(settings(emu, db_path, metrics_port=port))
        assert found["metrics"].status is Status.OK
        assert found["metrics"].text.endswith("a running bot answers, and is ready")
        async with runner.app.bot_data.storage.database.lock:
            found = await check(settings(emu, db_path, metrics_port=port))
        assert found["metrics"].status is Status.FAIL
        assert "a running bot answers, not ready — database: no answer" in found["metrics"].text
    finally:
        await runner.stop()
