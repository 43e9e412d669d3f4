"""The emulated world: people, group chats, messages, callback answers and the call log.

These are the objects a test holds and inspects. Each knows how to render itself as the Bot API
JSON that PTB parses (``to_json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .keyboards import inline_buttons

JsonDict = dict[str, Any]


@dataclass(eq=False)
class User:
    """A human Telegram user; their private chat with the bot has ``id == user.id``.

    ``started`` becomes true once the user opened the bot's private chat (``/start``);
    ``blocked`` while the user has blocked the bot.
    """

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    started: bool = False
    blocked: bool = False

    @property
    def full_name(self) -> str:
        """First and last name, as Telegram clients show them."""
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_json(self) -> JsonDict:
        """The Bot API ``User`` object."""
        data: JsonDict = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    def chat_json(self) -> JsonDict:
        """The Bot API ``Chat`` object of this user's private chat with the bot."""
        data: JsonDict = {"id": self.id, "type": "private", "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        return data


@dataclass(eq=False)
class Group:
    """A supergroup the bot is a member of (``bot_member``), with negative ``id``."""

    id: int
    title: str
    members: set[int] = field(default_factory=set)
    admins: set[int] = field(default_factory=set)
    creator_id: int | None = None
    type: str = "supergroup"
    bot_member: bool = True
    bot_is_admin: bool = False
    migrated_to: int | None = None
    """Set once the group was upgraded to a supergroup with this id (sends then fail)."""

    def to_json(self) -> JsonDict:
        """The Bot API ``Chat`` object."""
        return {"id": self.id, "type": self.type, "title": self.title}


@dataclass(eq=False)
class ChatMessage:
    """A message in a chat, sent by the bot (``from_bot``) or by a user.

    ``text`` is the plain text Telegram shows (tags stripped, entities unescaped); ``html`` the
    text as the bot sent it (same as ``text`` without a parse mode). ``edits`` counts successful
    edits; ``versions`` holds the earlier plain texts, oldest first.
    """

    chat: JsonDict
    message_id: int
    date: int
    sender: JsonDict
    from_bot: bool
    text: str
    html: str
    entities: list[JsonDict] = field(default_factory=list)
    reply_markup: JsonDict | None = None
    reply_to: ChatMessage | None = None
    edits: int = 0
    edit_date: int | None = None
    deleted: bool = False
    versions: list[str] = field(default_factory=list)

    @property
    def chat_id(self) -> int:
        """The id of the chat the message is in."""
        return int(self.chat["id"])

    @property
    def buttons(self) -> list[list[tuple[str, str]]]:
        """The inline keyboard as rows of ``(text, callback_data or url)``."""
        return inline_buttons(self.reply_markup)

    @property
    def button_texts(self) -> list[str]:
        """All inline button texts, row by row."""
        return [text for row in self.buttons for text, _ in row]

    def to_json(self, *, with_reply: bool = True) -> JsonDict:
        """The Bot API ``Message`` object."""
        data: JsonDict = {
            "message_id": self.message_id,
            "from": self.sender,
            "chat": self.chat,
            "date": self.date,
            "text": self.text,
        }
        if self.entities:
            data["entities"] = self.entities
        if self.reply_markup is not None and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_json(with_reply=False)
        return data


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a callback query (``answerCallbackQuery``)."""

    query_id: str
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None


def chat_id_param(params: JsonDict) -> int | None:
    """The numeric ``chat_id`` of a request's parameters, or None (absent or a ``@username``)."""
    value = params.get("chat_id")
    if value is None or isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class ApiCall:
    """One Bot API request the bot made, with its outcome (``error_code`` None on success)."""

    method: str
    params: JsonDict
    ok: bool
    error_code: int | None
    description: str | None
    time: float
    fault: str | None = None
    """The kind of fault injected into this call (see :mod:`.faults`), if any."""

    @property
    def chat_id(self) -> int | None:
        """The numeric ``chat_id`` parameter, if the call has one."""
        return chat_id_param(self.params)

    def __str__(self) -> str:
        outcome = "ok" if self.ok else f"{self.error_code} {self.description}"
        if self.fault is not None:
            outcome += f" [injected {self.fault}]"
        shown = {key: value for key, value in self.params.items() if key != "reply_markup"}
        return f"{self.method}({shown}) -> {outcome}"


@dataclass(frozen=True)
class FloodError:
    """A 429 the emulator issued for a real flood violation (never for an injected fault).

    ``ignored_retry_after`` marks a call made to a chat inside the ``retry_after`` window of an
    injected 429, rather than one over the :class:`~.limits.Limits`.
    """

    method: str
    chat_id: int
    retry_after: int
    time: float
    ignored_retry_after: bool = False


@dataclass(frozen=True)
class Webhook:
    """The webhook set with ``setWebhook``; while one is set, updates are POSTed to ``url``."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: tuple[str, ...] = ()
    """Update types to deliver; empty means every type."""


@dataclass(frozen=True)
class WebhookDelivery:
    """One attempt to POST an update to the webhook: the HTTP status, or the error."""

    update_id: int
    url: str
    status: int | None
    error: str | None
    time: float

    @property
    def ok(self) -> bool:
        """Whether the receiver answered 2xx (the update counts as delivered)."""
        return self.status is not None and 200 <= self.status <= 299
