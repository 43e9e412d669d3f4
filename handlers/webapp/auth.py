"""Who opened the Mini App: the ``initData`` Telegram hands the page, checked as Telegram
documents it ("Validating data received via the Mini App").

The page sends the raw ``initData`` query string with every request. It is taken apart
(each key once), ``hash`` removed, the other fields sorted by key and joined as
``key=value`` lines (the data-check string); the hash must be HMAC-SHA-256 of that string
keyed by HMAC-SHA-256 of the bot token keyed by ``"WebAppData"``, compared in constant
time. ``auth_date`` must be no older than the allowed age (``KOZEL_WEBAPP_MAX_AGE``) and
not from the future (a minute of clock skew allowed). Anything else is refused with the
reason, and the caller answers 401: nothing of a refused request is acted on.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

SKEW = 60
"""Seconds an ``auth_date`` may be ahead of this machine's clock."""


class InitDataError(ValueError):
    """``initData`` that does not prove who sent it; ``reason`` says why, in a word."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The person the checked ``initData`` names, and what it says of how they came."""

    user_id: int
    first_name: str
    language_code: str | None
    auth_date: int
    start_param: str | None
    """The direct link's ``startapp`` payload (the group's button names its table)."""
    chat_type: str | None


def secret_key(token: str) -> bytes:
    """The key the hash is made with: HMAC-SHA-256 of the bot token, keyed by "WebAppData"."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    """Every field but ``hash``, sorted by key, as ``key=value`` lines."""
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign(fields: dict[str, str], token: str) -> str:
    """The ``hash`` Telegram gives these fields (the sandbox signs as Telegram does)."""
    message = data_check_string(fields).encode()
    return hmac.new(secret_key(token), message, hashlib.sha256).hexdigest()


def check_init_data(raw: str, token: str, *, max_age: float, now: float) -> WebAppUser:
    """The person ``raw`` proves, or ``InitDataError``."""
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InitDataError("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataError("malformed")  # a key given twice
    given = fields.get("hash", "")
    if len(given) != 64:
        raise InitDataError("unsigned")
    if not hmac.compare_digest(sign(fields, token), given.lower()):
        raise InitDataError("forged")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError, OverflowError):
        raise InitDataError("malformed") from None
    if not isinstance(user.get("language_code"), str | None):
        raise InitDataError("malformed")
    if now - auth_date > max_age:
        raise InitDataError("stale")
    if auth_date - now > SKEW:
        raise InitDataError("future")
    return WebAppUser(
        user_id=user_id,
        first_name=str(user.get("first_name", "")),
        language_code=user.get("language_code"),
        auth_date=auth_date,
        start_param=fields.get("start_param"),
        chat_type=fields.get("chat_type"),
    )
