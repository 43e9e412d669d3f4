"""The Mini App's sign-in (``handlers.webapp.auth``): initData signed as Telegram signs it is
accepted; forged, altered, stale, future, another bot's, unsigned or malformed initData is
refused with its reason."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode

import pytest

from handlers.webapp.auth import InitDataError, check_init_data, sign
from kozelbot.config import Settings

TOKEN = "123456:ABC-the-bot"
NOW = 1_800_000_000.0
HOUR = 3600.0


def init_data(token: str = TOKEN, *, auth_date: float = NOW - 10, **extra: str) -> str:
    """initData as a Telegram client hands it over: a query string with its hash."""
    fields = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(
            {"id": 279058397, "first_name": "Влад", "language_code": "uk"},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
        "auth_date": str(int(auth_date)),
        "signature": "c2lnbmF0dXJl",
        **extra,
    }
    return urlencode({**fields, "hash": sign(fields, token)})


def test_the_signature_is_telegram_s_recipe() -> None:
    """Written out independently of the module: HMAC-SHA-256 of the sorted ``key=value``
    lines (hash left out), keyed by HMAC-SHA-256 of the token keyed by "WebAppData"."""
    fields = {"b": "2", "a": "1", "user": '{"id":1}'}
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    expected = hmac.new(key, b'a=1\nb=2\nuser={"id":1}', hashlib.sha256).hexdigest()
    assert sign(fields, TOKEN) == expected


def test_signed_init_data_names_the_person() -> None:
    user = check_init_data(
        init_data(start_param="g42", chat_type="group"), TOKEN, max_age=HOUR, now=NOW
    )
    assert (user.user_id, user.first_name, user.language_code) == (279058397, "Влад", "uk")
    assert (user.start_param, user.chat_type, user.auth_date) == ("g42", "group", NOW - 10)


def _altered() -> str:
    return init_data().replace("279058397", "279058398")


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (init_data("654321:another-bot"), "forged"),
        (_altered(), "forged"),
        (init_data(auth_date=NOW - HOUR - 1), "stale"),
        (init_data(auth_date=NOW + 120), "future"),
        (init_data().split("&hash=")[0], "unsigned"),
        ("", "unsigned"),
        ("user=%7B%7D&user=%7B%7D&hash=" + "0" * 64, "malformed"),
        ("a&&b", "malformed"),
    ],
)
def test_bad_init_data_is_refused_with_its_reason(raw: str, reason: str) -> None:
    with pytest.raises(InitDataError) as refused:
        check_init_data(raw, TOKEN, max_age=HOUR, now=NOW)
    assert refused.value.reason == reason


def test_a_signed_field_may_not_be_dropped_or_added() -> None:
    raw = init_data()
    dropped = "&".join(p for p in raw.split("&") if not p.startswith("query_id="))
    added = raw + "&start_param=g1"
    for altered in (dropped, added):
        with pytest.raises(InitDataError, match="forged"):
            check_init_data(altered, TOKEN, max_age=HOUR, now=NOW)


def test_signed_init_data_without_a_user_is_refused() -> None:
    fields = {"auth_date": str(int(NOW)), "chat_type": "group"}
    raw = urlencode({**fields, "hash": sign(fields, TOKEN)})
    with pytest.raises(InitDataError, match="malformed"):
        check_init_data(raw, TOKEN, max_age=HOUR, now=NOW)


def test_the_mini_app_is_off_unless_an_https_address_is_set() -> None:
    assert Settings(_env_file=None).webapp_url is None  # type: ignore[call-arg]
    assert Settings(_env_file=None, webapp_url=" ").webapp_url is None  # type: ignore[call-arg]
    on = Settings(_env_file=None, webapp_url="https://kozel.example/app")  # type: ignore[call-arg]
    assert on.webapp_url == "https://kozel.example/app" and on.webapp_max_age == 3600
    with pytest.raises(ValueError, match="https"):
        Settings(_env_file=None, webapp_url="http://kozel.example/app")  # type: ignore[call-arg]
