"""A local Telegram Bot API emulator for end-to-end tests and benchmarks of the bot.

Start a :class:`BotApiEmulator`, point an unmodified PTB ``Application`` at it with
``base_url(emu.base_url)`` and ``base_file_url(emu.base_file_url)``, run it in polling mode, then
act as people (``add_user``, ``add_group``, ``start_private``, ``send_text``, ``press``) and read
what every chat shows (``messages``, ``last_message``, ``find_message``, ``history``). Flood
limits (:class:`Limits`) answer 429 like Telegram; every 429 is kept in ``flood_errors``.
"""

from .entities import FormattedText, HtmlParseError, parse_html, utf16_len
from .errors import ApiError
from .limits import FloodControl, Limits
from .models import ApiCall, CallbackAnswer, ChatMessage, FloodError, Group, User
from .server import BotApiEmulator
from .state import ChatRef, EmulatorState

__all__ = [
    "ApiCall",
    "ApiError",
    "BotApiEmulator",
    "CallbackAnswer",
    "ChatMessage",
    "ChatRef",
    "EmulatorState",
    "FloodControl",
    "FloodError",
    "FormattedText",
    "Group",
    "HtmlParseError",
    "Limits",
    "User",
    "parse_html",
    "utf16_len",
]
