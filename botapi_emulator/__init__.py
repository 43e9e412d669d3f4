"""A local Telegram Bot API emulator for end-to-end tests and benchmarks of the bot.

Start a :class:`BotApiEmulator`, point an unmodified PTB ``Application`` at it with
``base_url(emu.base_url)`` and ``base_file_url(emu.base_file_url)``, run it in polling mode, then
act as people (``add_user``, ``add_group``, ``start_private``, ``send_text``, ``press``) and read
what every chat shows (``messages``, ``last_message``, ``find_message``, ``history``). Flood
limits (:class:`Limits`) answer 429 like Telegram; every 429 is kept in ``flood_errors``.
``setWebhook`` switches it to POSTing updates to the bot (webhook mode), and :class:`Faults`
makes a share of the bot's calls fail (429, 5xx, slow answers, dropped connections), listed in
``injected_faults``. Forum supergroups (``add_group(..., forum=True)``) have topics
(``create_topic``; ``send_text(..., thread=topic)``; ``messages(chat, thread=topic)``) and the
bot's ``message_thread_id`` and topic methods work on them as in Telegram. ``subscribe`` reports
every message sent, edited or deleted and every callback answer as it happens;
``snapshot``/``restore`` carry the world over a restart; ``set_limits`` switches flood limits.
It refuses requests whose ``Host`` is not a local host (:mod:`.hosts`; ``local_only``).
"""

from .entities import FormattedText, HtmlParseError, parse_html, utf16_len
from .errors import ApiError
from .faults import FAULT_KINDS, FaultKind, Faults, InjectedFault
from .limits import MESSAGE_METHODS, FloodControl, Limits, max_in_window
from .models import (
    GENERAL_TOPIC_ID,
    TOPIC_ICON_COLORS,
    AnswerEvent,
    ApiCall,
    CallbackAnswer,
    ChatMessage,
    EmulatorEvent,
    FloodError,
    Group,
    MessageEvent,
    Topic,
    User,
    Webhook,
    WebhookDelivery,
)
from .server import BotApiEmulator
from .state import CallbackQuery, ChatRef, EmulatorState, Listener, ThreadRef

__all__ = [
    "FAULT_KINDS",
    "GENERAL_TOPIC_ID",
    "MESSAGE_METHODS",
    "TOPIC_ICON_COLORS",
    "AnswerEvent",
    "ApiCall",
    "ApiError",
    "BotApiEmulator",
    "CallbackAnswer",
    "CallbackQuery",
    "ChatMessage",
    "ChatRef",
    "EmulatorEvent",
    "EmulatorState",
    "FaultKind",
    "Faults",
    "FloodControl",
    "FloodError",
    "FormattedText",
    "Group",
    "HtmlParseError",
    "InjectedFault",
    "Limits",
    "Listener",
    "MessageEvent",
    "ThreadRef",
    "Topic",
    "User",
    "Webhook",
    "WebhookDelivery",
    "max_in_window",
    "parse_html",
    "utf16_len",
]
