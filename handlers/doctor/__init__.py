"""``kozelbot doctor``: what an operator gets wrong, checked before the bot starts, one line
per check with what to do (issue #33).

The checks, in the order printed: ``token`` (getMe), ``webhook`` (getWebhookInfo, against
how the bot will run), ``webhook server`` (with ``--webhook``: its port), ``database``
(reachable, this user's to use, its schema), ``Mini App`` (name and port), ``metrics`` (its
port) and ``disk`` (free space beside the database). ``telegram`` asks the Bot API server,
``local`` looks at this machine, ``findings`` is the line each prints. The database is
storage's to judge (its files, its ledger, its engines), and handlers never reach storage:
the composition root hands ``examine`` storage's check (``storage.checkup``) as
``database_check``, whose notes become the database line.

Exit code 0 when nothing failed (warnings allowed), 1 when a check failed. Nothing is
created or migrated; only ``--delete-webhook`` changes anything (Telegram's webhook). A check
that breaks unexpectedly is that check's failure line, never a traceback, and no line shows
the token or a database password (URLs are written with ``storage.postgres.redact``, and
``findings.render`` blanks both wherever an error text might have carried them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TextIO
from urllib.parse import urlsplit

from pydantic import ValidationError

from handlers.doctor.findings import Finding, Part, Status, exit_code, finding, render
from handlers.doctor.local import (
    Listener,
    check_disk,
    check_metrics,
    check_webapp,
    check_webhook_server,
    disk_folder,
)
from handlers.doctor.telegram import (
    RETRY_DELAYS,
    check_token,
    check_webhook,
    doctor_bot,
    token_shape,
)
from kozelbot.config import Settings

__all__ = ["DatabaseCheck", "Finding", "Status", "examine", "render", "run", "settings_findings"]

DatabaseCheck = Callable[[str], Awaitable[Sequence[tuple[str, str]]]]
"""The database's check (``storage.checkup.check_database``): for a SQLite file or a
PostgreSQL URL, the notes ``(severity, text)``, severity ``"ok"``, ``"warn"`` or ``"fail"``."""
_SEVERITY = {"ok": Status.OK, "warn": Status.WARN, "fail": Status.FAIL}


async def examine(
    settings: Settings,
    *,
    database_check: DatabaseCheck,
    webhook: str | None = None,
    port: int = 8443,
    listen: str = "127.0.0.1",
    delete_webhook: bool = False,
    retry_delays: Sequence[float] = RETRY_DELAYS,
) -> list[Finding]:
    """Every check, for the bot as ``kozelbot [--webhook URL --port P --listen ADDR]`` would
    run it with ``settings``."""
    found = await _telegram(settings, webhook, delete_webhook, retry_delays)
    claimed: list[Listener] = []
    if webhook is not None:
        found.append(await _guarded("webhook server", check_webhook_server, listen, port, claimed))
    found.append(await _guarded("database", _database, database_check, settings.database))
    found.append(await _guarded("Mini App", check_webapp, settings, claimed))
    # in a thread: a running bot it asks may share this event loop (the tests')
    found.append(await _guarded("metrics", asyncio.to_thread, check_metrics, settings, claimed))
    found.append(await _guarded("disk", check_disk, disk_folder(settings.db_path)))
    return found


async def _telegram(
    settings: Settings, webhook: str | None, delete: bool, retry_delays: Sequence[float]
) -> list[Finding]:
    """The token, then (if it answered) the webhook."""
    token = settings.token
    if (problem := token_shape(token)) is not None:
        return [problem, Finding(Status.SKIPPED, "webhook", "not checked without a token")]
    assert token is not None  # token_shape refuses a missing one
    bot = doctor_bot(token, settings.api_url)
    try:
        try:
            token_found, me = await check_token(bot, settings.api_url, retry_delays)
        except Exception as error:
            token_found, me = _broke("token", error), None
        if me is None:
            skipped = Finding(Status.SKIPPED, "webhook", "not checked: the token check failed")
            return [token_found, skipped]
        webhook_found = await _guarded(
            "webhook",
            check_webhook,
            bot,
            settings.api_url,
            webhook,
            delete=delete,
            retry_delays=retry_delays,
        )
        return [token_found, webhook_found]
    finally:
        await bot.shutdown()


async def _database(check: DatabaseCheck, database: str) -> Finding:
    """The database line from the notes of its check."""
    notes = await check(database)
    return finding("database", [Part(_SEVERITY[severity], text) for severity, text in notes])


async def _guarded(
    topic: str, check: Callable[..., Finding | Awaitable[Finding]], *args: object, **kw: object
) -> Finding:
    """``check(*args, **kw)`` (a function or a coroutine function); an exception it did not
    expect is its failure line."""
    try:
        result = check(*args, **kw)
        return await result if not isinstance(result, Finding) else result
    except Exception as error:
        return _broke(topic, error)


def _broke(topic: str, error: Exception) -> Finding:
    text = " ".join(str(error).split()) or type(error).__name__
    return Finding(Status.FAIL, topic, f"the check broke: {type(error).__name__}: {text}")


def settings_findings(error: ValidationError) -> list[Finding]:
    """A line per setting pydantic refused (which setting and why, never its value)."""
    found = []
    for problem in error.errors():
        name = "KOZEL_" + "_".join(str(part) for part in problem["loc"]).upper()
        found.append(
            Finding(
                Status.FAIL,
                "settings",
                f"{name}: {problem['msg']} — fix it in the environment or in .env",
            )
        )
    return found


def secrets_of(settings: Settings) -> list[str | None]:
    """What no line may show: the token and the database password."""
    password = None
    if settings.database_url is not None:
        password = urlsplit(settings.database_url.get_secret_value()).password
    return [settings.token, password]


def run(
    settings: Settings,
    out: TextIO,
    *,
    database_check: DatabaseCheck,
    webhook: str | None = None,
    port: int = 8443,
    listen: str = "127.0.0.1",
    delete_webhook: bool = False,
) -> int:
    """Print every check's line to ``out``; the exit code."""
    found = asyncio.run(
        examine(
            settings,
            database_check=database_check,
            webhook=webhook,
            port=port,
            listen=listen,
            delete_webhook=delete_webhook,
        )
    )
    for line in render(found, secrets_of(settings)):
        print(line, file=out)
    return exit_code(found)
