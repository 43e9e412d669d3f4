"""The one press path (issue #31 item 3): every button handler is made by
``handlers.press.on_button``, and the not-valid answer is written in one place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from telegram.ext import Application, CallbackQueryHandler

import handlers
from handlers.press import on_button

ROOT = Path(__file__).resolve().parent.parent


def test_every_button_handler_goes_through_the_press_path() -> None:
    """Each ``CallbackQueryHandler`` registered calls a body wrapped by ``on_button`` (rate,
    kind and refusals handled once), the catch-all for forged buttons included."""
    application: Application[Any, Any, Any, Any, Any, Any] = (
        Application.builder().token("1:test").build()
    )
    handlers.register(application)
    callbacks = [
        handler.callback
        for group in application.handlers.values()
        for handler in group
        if isinstance(handler, CallbackQueryHandler)
    ]
    assert len(callbacks) >= 12
    made = on_button(object)(_body).__code__  # type: ignore[type-var]
    for callback in callbacks:
        assert callback.__code__ is made, callback.__qualname__


async def _body(pressed: Any, button: Any) -> None:
    """A body for ``on_button`` (only its code object is compared)."""


def test_the_not_valid_answer_is_written_once() -> None:
    """«This button is not valid.» (one msgid, so its translations hold) is written in
    ``handlers.press.not_valid`` alone; it was written 24 times in handlers."""
    written = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "handlers").rglob("*.py"))
        for _ in re.finditer(r"This button is not valid\.", path.read_text(encoding="utf-8"))
    ]
    assert written == ["handlers/press.py"]
