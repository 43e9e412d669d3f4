"""Validation of ``reply_markup``, with Telegram's limits on inline keyboards.

Inline buttons need a text and exactly one action; ``callback_data`` must be 1-64 UTF-8 bytes
(else ``BUTTON_DATA_INVALID``); a ``web_app`` button needs an ``https://`` address and a
private chat. A keyboard holds at most 100 buttons, at most 8 in a row.
Reply keyboards, keyboard removal and force-reply markups are accepted as they are.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import ApiError, bad_request

MAX_BUTTONS = 100
MAX_BUTTONS_PER_ROW = 8
MAX_CALLBACK_DATA_BYTES = 64

_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "callback_game",
    "pay",
    "web_app",
    "copy_text",
)
_URL_SCHEMES = ("http://", "https://", "tg://")


def parse_reply_markup(
    raw: Any, *, inline_only: bool = False, private: bool = True
) -> dict[str, Any] | None:
    """Validate a ``reply_markup`` value (JSON text or decoded) and return it decoded.

    ``private``: the markup goes to a private chat — the only place a ``web_app`` button is
    allowed (elsewhere Telegram answers ``BUTTON_TYPE_INVALID``). Raises
    :class:`~botapi_emulator.errors.ApiError` (400) on the first problem found.
    """
    if raw is None or raw == "":
        return None
    markup = raw
    if isinstance(raw, str):
        try:
            markup = json.loads(raw)
        except ValueError as error:
            raise bad_request("can't parse reply keyboard markup JSON object") from error
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        keyboard = _inline_keyboard(markup["inline_keyboard"])
        if not private and any("web_app" in button for row in keyboard for button in row):
            raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
        return {"inline_keyboard": keyboard}
    if inline_only:
        raise bad_request("inline keyboard expected")
    if any(key in markup for key in ("keyboard", "remove_keyboard", "force_reply")):
        return markup
    raise bad_request("can't parse reply keyboard markup JSON object")


def _inline_keyboard(rows: Any) -> list[list[dict[str, Any]]]:
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
    if sum(len(row) for row in rows) > MAX_BUTTONS:
        raise bad_request(f"too many buttons: at most {MAX_BUTTONS} are allowed")
    if any(len(row) > MAX_BUTTONS_PER_ROW for row in rows):
        raise bad_request(f"too many buttons in a row: at most {MAX_BUTTONS_PER_ROW} are allowed")
    return [[_inline_button(button) for button in row] for row in rows if row]


def _inline_button(button: Any) -> dict[str, Any]:
    if not isinstance(button, dict):
        raise bad_request("can't parse inline keyboard button: InlineKeyboardButton expected")
    text = button.get("text")
    if not isinstance(text, str) or not text.strip():
        raise bad_request("BUTTON_TEXT_INVALID")
    actions = [key for key in _BUTTON_ACTIONS if key in button]
    if not actions:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if len(actions) > 1:
        raise bad_request("can't parse inline keyboard button: exactly one action is allowed")
    action = actions[0]
    value = button[action]
    if action == "callback_data" and not _valid_callback_data(value):
        raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
    if action == "url" and not (isinstance(value, str) and value.startswith(_URL_SCHEMES)):
        raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
    if action == "web_app" and not (
        isinstance(value, dict) and str(value.get("url", "")).startswith("https://")
    ):
        raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")  # Mini Apps open over HTTPS
    return {"text": text, action: value}


def _valid_callback_data(value: Any) -> bool:
    return isinstance(value, str) and 1 <= len(value.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES


def inline_buttons(markup: dict[str, Any] | None) -> list[list[tuple[str, str]]]:
    """Rows of ``(text, callback_data or url)`` of an inline keyboard; empty for other markups."""
    if not markup or "inline_keyboard" not in markup:
        return []
    rows: list[list[tuple[str, str]]] = []
    for row in markup["inline_keyboard"]:
        rows.append(
            [
                (
                    button["text"],
                    str(
                        button.get("callback_data", button.get("url", ""))
                        or button.get("web_app", {}).get("url", "")
                    ),
                )
                for button in row
            ]
        )
    return rows
