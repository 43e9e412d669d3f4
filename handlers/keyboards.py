"""Inline keyboards from the rendering layer's plain ``Button`` rows."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from kozelbot.views.general import Keyboard


def to_markup(keyboard: Keyboard) -> InlineKeyboardMarkup | None:
    """The Telegram markup of a keyboard; ``None`` (no keyboard) when it has no rows."""
    if not keyboard:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(b.text, url=b.url)
                if b.url
                else InlineKeyboardButton(b.text, web_app=WebAppInfo(b.web_app))
                if b.web_app
                else InlineKeyboardButton(b.text, callback_data=b.data)
                for b in row
            ]
            for row in keyboard
        ]
    )
