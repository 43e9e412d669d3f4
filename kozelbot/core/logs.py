"""Log lines: what they are about (chat, game, update, worker), as text or JSON, and what
they must never carry (issue #33 item 3).

**Context.** ``chat``, ``game`` and ``update`` are context variables: set where they become
known (the handlers' first group for every update, the game service while it holds a game's
lock, a timer's job, a Mini App request), they follow the code through its awaits and into
the tasks it starts, and every line logged meanwhile names them. ``bound`` sets some for a
block; ``bind`` sets them for the rest of the running task (an update's own task, a job's);
``detached`` is a context without them, for a task that outlives whatever started it (a
sender lane). ``worker`` names the process (``<hostname>:<pid>``).

**Formats.** ``text`` is the line the bot always wrote; ``json`` (``JsonFormatter``) is one
object a line: ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``, then ``chat``,
``game``, ``update`` when known, ``worker``, and ``exc_info`` (the traceback, as text) when
there is one.

**Redaction** (``Redact``, on every root handler, in both formats): no line carries the bot's
token (PTB logs its API address, ``…/bot<token>``), a Mini App ``initData`` (a bearer pass
for an hour), or what people are sent or press. At DEBUG, PTB logs every Bot API call's
parameters (texts and keyboards: private hands) and answer, every update (a pressed hand's
message, keyboard and all), and a webhook's body; aiosqlite logs every statement with its
parameters (the stored state: every hand). Those records are cut to what they are about
(the method, the update's number, the statement's kind). **Decision**: a Bot API call's
line names the chat it is sent to (its ``chat_id``), not the chat of the update that caused
it — a press in a group sends to private chats too. Records are matched by PTB 22's and
aiosqlite 0.22's own wording (``tests/test_logs.py`` runs the real bot at DEBUG and fails if
a card or the token gets through).

Standard library only (the core layer).
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import socket
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Literal
from urllib.parse import quote

chat: contextvars.ContextVar[int | None] = contextvars.ContextVar("chat", default=None)
game: contextvars.ContextVar[int | None] = contextvars.ContextVar("game", default=None)
update: contextvars.ContextVar[int | None] = contextvars.ContextVar("update", default=None)
FIELDS: Mapping[str, contextvars.ContextVar[int | None]] = {
    "chat": chat,
    "game": game,
    "update": update,
}
"""The context a line carries, by its name in the JSON line (and on the ``LogRecord``)."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def _variables(
    fields: Mapping[str, int | None],
) -> list[tuple[contextvars.ContextVar[int | None], int | None]]:
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown log fields: {sorted(unknown)}")
    return [(FIELDS[name], value) for name, value in fields.items()]


def bind(**fields: int | None) -> None:
    """Set these fields (``None`` clears one) for the rest of the running task: for code
    that runs in a task of its own (an update's, a timer job's)."""
    for variable, value in _variables(fields):
        variable.set(value)


@contextmanager
def bound(**fields: int | None) -> Iterator[None]:
    """Set these fields (``None`` clears one) for the block, then restore them."""
    tokens = [(variable, variable.set(value)) for variable, value in _variables(fields)]
    try:
        yield
    finally:
        for variable, token in reversed(tokens):
            variable.reset(token)


@contextmanager
def about_game(game_id: int) -> Iterator[None]:
    """Name the game for the block (the game service, while it holds the game's lock); in
    an update's task, for the rest of the update too: what follows the change (its
    messages, its timer) is about that game. Elsewhere (the start-up resuming every game)
    only for the block, so that no other game's lines carry it."""
    try:
        with bound(game=game_id):
            yield
    finally:  # a refused change too: what is answered is about that game
        if update.get() is not None:
            game.set(game_id)


def detached() -> contextvars.Context:
    """The current context without chat, game or update: for a task that serves many
    updates (``asyncio.create_task(..., context=detached())``), so that its lines do not
    carry whichever one happened to start it."""
    context = contextvars.copy_context()
    context.run(bind, chat=None, game=None, update=None)
    return context


def worker() -> str:
    """Which process wrote a line: ``<hostname>:<pid>``."""
    return f"{socket.gethostname()}:{os.getpid()}"


def context_of(record: logging.LogRecord) -> dict[str, int]:
    """The fields a record is about: stamped on it (by ``Redact``, or ``extra=``), else the
    context's current values; unknown ones left out."""
    found = {}
    for name, variable in FIELDS.items():
        value = getattr(record, name, None)
        if value is None and not hasattr(record, name):
            value = variable.get()
        if value is not None:
            found[name] = value
    return found


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module's docstring for its fields)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **context_of(record),
            "worker": worker(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc_info"] = record.exc_text
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


# -- redaction ----------------------------------------------------------------------------

CALL = "Calling Bot API endpoint `%s` with parameters `%s`"
"""PTB's ``Bot._do_post`` (logger ``telegram.Bot``, ``telegram.ext.ExtBot``): the method and
every parameter (texts, keyboards)."""
RETURNED = "Call to Bot API endpoint `%s` finished with return value `%s`"
"""The same, after the call: the method and its answer (the message sent, with its text)."""
CUT: Mapping[str, tuple[str, int]] = {
    CALL: ("Calling Bot API endpoint `%s`", 1),
    RETURNED: ("Call to Bot API endpoint `%s` finished", 1),
    # telegram.ext.Updater (the webhook server): the update's JSON
    "Webhook received data: %s": ("Webhook received data", 0),
    "Something went wrong processing the data received from Telegram. "
    "Received data was *not* processed! Received data was: %r": (
        "Something went wrong processing the data received from Telegram. "
        "Received data was *not* processed!",
        0,
    ),
    # telegram.request.BaseRequest: an answer that is not JSON, as received
    'Can not load invalid JSON data: "%s"': ("Can not load invalid JSON data", 0),
}
"""PTB's records that carry message contents: their wording without it, and how many of
their leading arguments stay."""
STATEMENTS = frozenset({"executing %s", "operation %s completed"})
"""aiosqlite's per-statement records, whose argument is the call with its SQL parameters."""

_INIT_DATA = re.compile(r"[^\s\"'<>?#]*(?:auth_date|hash|signature)(?:=|%3[Dd])[^\s\"'<>?#]*")
"""A Mini App ``initData`` (``query_id=…&user=…&auth_date=…&hash=…``), raw or URL-encoded
(``tgWebAppData=…`` in the page's address): a run with ``auth_date``, ``hash`` or
``signature`` in it, up to a space, a quote or an address's ``?``/``#``."""
SECRET_SHORTEST = 20
"""A token's secret half (after the bot id and ``:``) is hidden on its own only from this
length (real ones have 35 characters): a short test token's half is a common word."""


def _is_telegram_object(value: object) -> bool:
    return type(value).__module__.startswith("telegram") and not isinstance(value, BaseException)


class _Shown(str):
    """A stand-in that reads the same through ``%s`` and ``%r``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _short(value: object) -> object:
    """A Telegram object as its kind (an update as its number): never its contents."""
    if not _is_telegram_object(value):
        return value
    number = getattr(value, "update_id", None)
    kind = f"update {number}" if isinstance(number, int) else type(value).__name__
    return _Shown(f"<{kind}>")


def _chat_id(parameters: object, key: str = "chat_id") -> int | None:
    """The chat a Bot API call is sent to (its ``chat_id``), or the chat of the message it
    returned (``key`` ``chat``)."""
    value = parameters.get(key) if isinstance(parameters, Mapping) else None
    if isinstance(value, Mapping):
        value = value.get("id")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _call_name(function: object) -> str:
    inner = getattr(function, "func", function)  # a functools.partial of the call
    return str(getattr(inner, "__name__", type(inner).__name__))


class Redact(logging.Filter):
    """Cuts a record to what may be logged (see the module's docstring) and stamps it with
    its context. On a handler it sees every record that handler writes, whatever logger
    made it; it changes the record itself, so every handler after it sees the cut one."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        secrets: list[str] = []
        if token:
            secrets += [token, quote(token, safe="")]
            half = token.partition(":")[2]
            if len(half) >= SECRET_SHORTEST:
                secrets.append(half)
        self.secrets = [s for s in dict.fromkeys(secrets) if s]

    def clean(self, text: str) -> str:
        """``text`` without the token or any ``initData``."""
        for secret in self.secrets:
            text = text.replace(secret, "<token>")
        return _INIT_DATA.sub("<initData>", text)

    def filter(self, record: logging.LogRecord) -> bool:
        for name, variable in FIELDS.items():
            if not hasattr(record, name):
                setattr(record, name, variable.get())
        self._cut(record)
        try:
            message = record.getMessage()
        except Exception:  # a broken call: the handler reports it (without its arguments)
            message = str(record.msg)
        record.msg, record.args = self.clean(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self.clean(record.stack_info)
        return True

    def _cut(self, record: logging.LogRecord) -> None:
        template, args = record.msg, record.args
        if isinstance(args, Mapping):  # one mapping argument: ``%(name)s`` or a lone ``%r``
            if not (isinstance(template, str) and template in CUT):
                return
            args = (args,)
        if not args:
            return
        if isinstance(template, str) and template in CUT:
            if template in (CALL, RETURNED) and len(args) > 1:
                target = _chat_id(args[1], "chat_id" if template == CALL else "chat")
                if target is not None:
                    setattr(record, "chat", target)  # noqa: B010 (a field of our own)
            record.msg, kept = CUT[template]
            record.args = args[:kept]
        elif record.name.startswith("aiosqlite") and template in STATEMENTS:
            record.args = (_call_name(args[0]),)
        else:
            for value in args:  # PTB's "Processing update %s": name the update it is about
                number = getattr(value, "update_id", None) if _is_telegram_object(value) else None
                if isinstance(number, int) and getattr(record, "update", None) is None:
                    setattr(record, "update", number)  # noqa: B010
            record.args = tuple(_short(value) for value in args)


def configure(level: str, log_format: Literal["text", "json"], token: str | None) -> None:
    """Log to stderr at ``level`` in ``log_format``, through ``Redact`` (the bot's start-up,
    ``KOZEL_LOG_LEVEL`` and ``KOZEL_LOG_FORMAT``); any handler the root logger already has
    gets the filter too."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    logging.basicConfig(level=level.upper(), handlers=[handler])
    redact = Redact(token)
    for each in logging.getLogger().handlers:
        if not any(isinstance(f, Redact) for f in each.filters):
            each.addFilter(redact)
