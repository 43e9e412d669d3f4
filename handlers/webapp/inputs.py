"""What the Mini App's routes accept, checked before anything is read or applied (issue #29
item 8): each malformed input is refused with 400 and a word naming the field, never a 500.

A game number is a JSON integer (not a bool) or a string of 1–18 ASCII digits, a deal number
a JSON integer, between 1 (0 for a deal) and ``LARGEST``: ``str.isdigit`` accepts "١٢٣" and "²", and
``int`` of 5,000 digits raises (Python's limit on converting long numbers), so neither is
asked. ``initData`` is a string; a move is a string of at most ``ACTION_LENGTH`` characters.

**Decision**: ``initData`` in an address (``?init=…``) is refused (400 ``init_in_url``) on
every read route: proxies and access logs keep addresses, and a signed ``initData`` is a
bearer pass for an hour. The page sends it in the ``X-Telegram-Init-Data`` header.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

LARGEST = 10**18 - 1
"""The largest game or deal number accepted (18 digits: within SQLite's 64-bit integers)."""
ACTION_LENGTH = 64
"""The longest move accepted, in characters (the longest real one is far shorter)."""
DIGITS = re.compile(r"[0-9]{1,18}")
INIT_LENGTH = 4096
"""The longest ``initData`` looked at (Telegram's is a few hundred characters)."""


def refuse(status: type[web.HTTPException], reason: str, **more: Any) -> web.HTTPException:
    """A refusal answering JSON ``{"error": reason, …more}``."""
    return status(
        text=json.dumps({"error": reason, **more}, ensure_ascii=False),
        content_type="application/json",
    )


def number(value: object, field: str, *, least: int = 1, text: bool = True) -> int:
    """``value`` as a number from ``least`` to ``LARGEST`` (given as digits too, with
    ``text``), or 400 ``field``."""
    if isinstance(value, int) and not isinstance(value, bool):
        found: int | None = value
    elif text and isinstance(value, str) and DIGITS.fullmatch(value):
        found = int(value)
    else:
        found = None
    if found is None or not least <= found <= LARGEST:
        raise refuse(web.HTTPBadRequest, field)
    return found


def init_text(value: object) -> str:
    """``initData`` as sent: a string (its proof is ``auth``'s to check), or 400 ``init``."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > INIT_LENGTH:
        raise refuse(web.HTTPBadRequest, "init")
    return value


def read_query(request: web.Request) -> tuple[str, int]:
    """A read route's ``initData`` (header) and game (``?game=``); ``init`` in the address
    is refused (see the module's decision)."""
    if "init" in request.query:
        raise refuse(web.HTTPBadRequest, "init_in_url")
    return init_text(request.headers.get("X-Telegram-Init-Data")), number(
        request.query.get("game"), "game"
    )


@dataclass(frozen=True, slots=True)
class MoveBody:
    """A move sent from the page: who (``init``), which table, which deal, what move."""

    init: str
    game: int
    deal: int
    action: str


async def move_body(request: web.Request) -> MoveBody:
    """The POSTed move, every field checked, or 400 naming the first bad one."""
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise refuse(web.HTTPBadRequest, "json") from None
    if not isinstance(body, dict):
        raise refuse(web.HTTPBadRequest, "json")
    if not isinstance(body.get("init"), str):
        raise refuse(web.HTTPBadRequest, "init")
    init = init_text(body["init"])
    game = number(body.get("game"), "game")
    deal = number(body.get("deal"), "deal", least=0, text=False)
    action = body.get("action")
    if not isinstance(action, str) or not 0 < len(action) <= ACTION_LENGTH:
        raise refuse(web.HTTPBadRequest, "action")
    return MoveBody(init, game, deal, action)
