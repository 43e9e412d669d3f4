"""Issue #33 item 3: log lines as JSON (one object a line, naming the chat, game, update and
worker they are about), and no token, no Mini App ``initData`` and no hidden card in any
line, at DEBUG, in either format — checked here on records as PTB and aiosqlite really make
them (and on everything the real bot logs while four people play: ``test_e2e_logs``)."""

from __future__ import annotations

import asyncio
import calendar
import io
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram._utils.types import ODVInput
from telegram.request import BaseRequest, RequestData

from kozelbot.core import logs
from tests.e2e import ROOT, TOKEN

LONG_TOKEN = "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
"""A token shaped like a real one (BotFather's example)."""


class Lines(logging.Handler):
    """Every line a formatter writes, through ``Redact`` as the bot installs it."""

    def __init__(self, formatter: logging.Formatter, token: str | None = TOKEN) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(formatter)
        self.addFilter(logs.Redact(token))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.extend(self.format(record).split("\n"))

    def objects(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.lines]


@contextmanager
def capturing(*handlers: logging.Handler, name: str = "") -> Iterator[None]:
    """``handlers`` on a logger (the root by default) at DEBUG, for the block."""
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.DEBUG)
    for handler in handlers:
        logger.addHandler(handler)
    try:
        yield
    finally:
        for handler in handlers:
            logger.removeHandler(handler)
        logger.setLevel(level)


def logged(*args: Any, name: str = "kozelbot.test", token: str | None = TOKEN, **kw: Any) -> str:
    """The message of one line logged at INFO through ``Redact`` (``token`` the bot's)."""
    lines = Lines(logs.JsonFormatter(), token)
    with capturing(lines, name=name):
        logging.getLogger(name).info(*args, **kw)
    (line,) = lines.objects()
    return str(line["message"])


# -- the JSON line ------------------------------------------------------------------------


def test_a_json_line_holds_time_level_logger_message_and_worker() -> None:
    lines = Lines(logs.JsonFormatter())
    before = time.time()
    with capturing(lines, name="kozelbot.test"):
        logging.getLogger("kozelbot.test").warning("deal %d of %s", 3, "Козлятня")
    (line,) = lines.lines
    found = json.loads(line)
    assert list(found) == ["time", "level", "logger", "message", "worker"]  # nothing unknown
    assert found["level"] == "WARNING" and found["logger"] == "kozelbot.test"
    assert found["message"] == "deal 3 of Козлятня"
    assert found["worker"] == f"{socket.gethostname()}:{os.getpid()}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", found["time"])
    stamp = calendar.timegm(time.strptime(found["time"][:19], "%Y-%m-%dT%H:%M:%S"))
    assert before - 1 <= stamp <= time.time()  # UTC


def test_an_exception_is_one_line_with_its_traceback_as_text() -> None:
    lines = Lines(logs.JsonFormatter())
    with capturing(lines, name="kozelbot.test"):
        try:
            raise ValueError("broken\nin two lines")
        except ValueError:
            logging.getLogger("kozelbot.test").exception("lane %s failed", "chat:5")
    (line,) = lines.lines  # one line, whatever the traceback holds
    found = json.loads(line)
    assert found["message"] == "lane chat:5 failed" and found["level"] == "ERROR"
    assert found["exc_info"].startswith("Traceback (most recent call last):")
    assert found["exc_info"].endswith("ValueError: broken\nin two lines")


async def test_a_line_names_the_chat_game_and_update_it_is_about() -> None:
    lines = Lines(logs.JsonFormatter())
    log = logging.getLogger("kozelbot.test")

    async def update_task() -> None:  # as an update's task: bound for the rest of it
        logs.bind(chat=-100, update=7, game=None)
        with logs.about_game(12):
            log.info("in the lock")
        log.info("after the lock")

    with capturing(lines, name="kozelbot.test"):
        log.info("nothing known")
        with logs.bound(chat=5, update=1):
            log.info("an update")
            with logs.bound(game=9):
                log.info("its game")
            log.info("the game's block is over")
            logs.detached().run(log.info, "a lane")
        log.info("the update's block is over")
        await asyncio.create_task(update_task())
        log.info("the task's binding stayed in the task")
        with logs.about_game(4):
            log.info("resuming")
        log.info("outside an update the game stays in the block")
        log.info("given", extra={"chat": 8})
    fields = [
        {k: v for k, v in line.items() if k in ("chat", "game", "update")}
        for line in lines.objects()
    ]
    assert fields == [
        {},
        {"chat": 5, "update": 1},
        {"chat": 5, "game": 9, "update": 1},
        {"chat": 5, "update": 1},
        {},
        {},
        {"chat": -100, "game": 12, "update": 7},
        {"chat": -100, "game": 12, "update": 7},
        {},
        {"game": 4},
        {},
        {"chat": 8},
    ]


def test_only_known_fields_are_bound() -> None:
    try:
        logs.bind(user=5)
    except TypeError as error:
        assert "user" in str(error)
    else:
        raise AssertionError("an unknown field was bound")


# -- what no line carries -----------------------------------------------------------------


def test_the_token_is_hidden_in_a_message_its_arguments_and_a_traceback() -> None:
    url = f"https://bot-api.example/bot{LONG_TOKEN}/sendMessage"  # any Bot API server
    assert logged(f"POST {url}", token=LONG_TOKEN) == (
        "POST https://bot-api.example/bot<token>/sendMessage"
    )
    assert logged("POST %s", url, token=LONG_TOKEN).endswith("/bot<token>/sendMessage")
    encoded = quote(LONG_TOKEN, safe="")
    assert logged("GET /bot%s/getMe", encoded, token=LONG_TOKEN) == "GET /bot<token>/getMe"
    secret = LONG_TOKEN.partition(":")[2]
    assert logged("half: %s", secret, token=LONG_TOKEN) == "half: <token>"
    lines = Lines(logs.JsonFormatter(), LONG_TOKEN)
    with capturing(lines, name="kozelbot.test"):
        try:
            raise ConnectionError(f"cannot reach {url}")
        except ConnectionError:
            logging.getLogger("kozelbot.test").exception("start-up failed")
    text = "\n".join(lines.lines)
    assert "<token>" in text and LONG_TOKEN not in text and secret not in text


def test_init_data_is_hidden_raw_url_encoded_and_in_an_address() -> None:
    raw = (
        "query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%7D"
        "&auth_date=1662771648&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2"
    )
    assert logged("init %s", raw) == "init <initData>"
    assert logged("body %r", {"init": raw, "game": 5}) == "body {'init': '<initData>', 'game': 5}"
    address = f"https://kozel.example/app/#tgWebAppData={quote(raw, safe='')}&tgWebAppVersion=7.0"
    assert logged("opened %s", address) == "opened https://kozel.example/app/#<initData>"
    assert logged("GET /webapp/api/state?init=%s&game=5", quote(raw, safe="")) == (
        "GET /webapp/api/state?<initData>"
    )
    # A line without initData keeps its words (``hash`` alone is no initData).
    assert logged("hash of the seed: %s", "3f2a") == "hash of the seed: 3f2a"


class Answering(BaseRequest):
    """PTB's request interface answering every call with a message in chat 1001, as the
    Bot API does (no network): so ``Bot`` logs its real records."""

    @property
    def read_timeout(self) -> float | None:
        return None

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        message = {
            "message_id": 1,
            "date": 0,
            "chat": {"id": 1001, "type": "private"},
            "text": "Ваши карты: 10♥ Д♣",
        }
        return 200, json.dumps({"ok": True, "result": message}).encode()


async def test_a_bot_api_call_is_cut_to_its_method_and_names_the_chat_it_is_sent_to() -> None:
    """PTB's Bot logs at DEBUG each call's parameters (the text, the keyboard) and what it
    returned: both lines keep only the method, and name the chat of the call."""
    lines = Lines(logs.JsonFormatter(), LONG_TOKEN)
    hand = InlineKeyboardMarkup([[InlineKeyboardButton("10♥", callback_data="c:1:1:10H")]])
    with capturing(lines, name="telegram"), logs.bound(chat=-100, update=3):
        bot = Bot(LONG_TOKEN, request=Answering())
        await bot.send_message(1001, "Ваши карты: 10♥ Д♣", reply_markup=hand)
    calls = [line for line in lines.objects() if "endpoint" in line["message"]]
    assert [(c["message"], c.get("chat"), c.get("update")) for c in calls] == [
        ("Calling Bot API endpoint `sendMessage`", 1001, 3),
        ("Call to Bot API endpoint `sendMessage` finished", 1001, 3),
    ]
    text = "\n".join(lines.lines)
    assert "10♥" not in text and "10H" not in text and "Д♣" not in text
    assert "Set Bot API URL" in text and LONG_TOKEN not in text  # (logged as Bot is built)


def test_a_webhook_s_update_body_is_not_logged() -> None:
    """PTB's webhook server logs the body it received (and, on a body it cannot read, the
    data as one ``%r`` argument: a lone mapping, which logging keeps apart)."""
    body = '{"update_id": 3, "message": {"text": "10♥"}}'
    updater = "telegram.ext.Updater"
    assert logged("Webhook received data: %s", body, name=updater) == "Webhook received data"
    broken = logged(
        "Something went wrong processing the data received from Telegram. "
        "Received data was *not* processed! Received data was: %r",
        json.loads(body),
        name=updater,
    )
    assert "10♥" not in broken and broken.endswith("was *not* processed!")
    assert logged("%(who)s pressed", {"who": "Аня"}) == "Аня pressed"  # (others untouched)


def test_an_update_is_logged_as_its_number() -> None:
    """PTB logs each update it processes (a pressed hand's message, keyboard and all), and
    the bot's error handler the update it failed on: both as the update's number."""
    update = Update.de_json(
        {
            "update_id": 41,
            "callback_query": {
                "id": "q",
                "from": {"id": 1001, "is_bot": False, "first_name": "Аня"},
                "chat_instance": "i",
                "data": "c:1:1:10H",
                "message": {
                    "message_id": 5,
                    "date": 0,
                    "chat": {"id": 1001, "type": "private"},
                    "text": "10♥ Д♣",
                },
            },
        },
        None,
    )
    assert logged("Processing update %s", update, name="telegram.ext.Application") == (
        "Processing update <update 41>"
    )
    assert logged("error while handling %r", update, name="handlers.errors") == (
        "error while handling <update 41>"
    )
    lines = Lines(logs.JsonFormatter())
    with capturing(lines, name="telegram.ext.Application"):
        logging.getLogger("telegram.ext.Application").debug("Processing update %s", update)
    assert lines.objects()[0]["update"] == 41


async def test_a_stored_statement_is_logged_without_its_parameters(tmp_path: Path) -> None:
    """aiosqlite logs at DEBUG every call with its SQL parameters (the stored state holds
    every hand): the line keeps the call's name."""
    lines = Lines(logs.JsonFormatter())
    with capturing(lines, name="aiosqlite"):
        async with aiosqlite.connect(tmp_path / "x.db") as db:
            await db.execute("CREATE TABLE t (hand TEXT)")
            await db.execute("INSERT INTO t VALUES (?)", ('["10H", "QC"]',))
    messages = [line["message"] for line in lines.objects()]
    assert "executing execute" in messages
    assert not [m for m in messages if "10H" in m or "INSERT" in m]


@contextmanager
def no_root_handlers() -> Iterator[None]:
    """The root logger as a fresh process has it (pytest adds its own handlers)."""
    root = logging.getLogger()
    kept, level = root.handlers[:], root.level
    root.handlers = []
    try:
        yield
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers, root.level = kept, level


@contextmanager
def stderr_to(stream: io.StringIO) -> Iterator[None]:
    saved = sys.stderr
    sys.stderr = stream
    try:
        yield
    finally:
        sys.stderr = saved


def test_configure_writes_json_or_the_old_text_line_through_the_filter() -> None:
    """``KOZEL_LOG_FORMAT``: ``json`` writes objects, ``text`` the line the bot always wrote;
    the token is hidden in both."""
    for log_format in ("json", "text"):
        out = io.StringIO()
        with stderr_to(out), no_root_handlers():
            logs.configure("info", log_format, LONG_TOKEN)
            logging.getLogger("telegram.ext.Updater").info("GET /bot%s/getMe", LONG_TOKEN)
            logging.getLogger("kozelbot").debug("below the level")
        (line,) = out.getvalue().splitlines()
        if log_format == "json":
            assert json.loads(line)["message"] == "GET /bot<token>/getMe"
        else:
            assert re.fullmatch(
                r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO telegram\.ext\.Updater: "
                r"GET /bot<token>/getMe",
                line,
            )


def test_the_bot_logs_json_when_asked(tmp_path: Path) -> None:
    """``python -m kozelbot`` with ``KOZEL_LOG_FORMAT=json`` writes JSON lines (here: the
    one saying its database cannot be opened, a directory)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")}
    env.update(
        PYTHONPATH=str(ROOT),
        KOZEL_BOT_TOKEN=LONG_TOKEN,
        KOZEL_API_URL="http://127.0.0.1:9",
        KOZEL_DB_PATH=str(tmp_path),
        KOZEL_LOG_FORMAT="json",
        KOZEL_LOG_LEVEL="DEBUG",
    )
    done = subprocess.run(
        [sys.executable, "-m", "kozelbot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    found = [json.loads(line) for line in done.stderr.splitlines()]
    assert found[-1]["level"] == "ERROR" and found[-1]["message"].startswith("database")
    assert LONG_TOKEN not in done.stderr
