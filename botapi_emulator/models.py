"""The emulated world: people, group chats, messages, callback answers and the call log.

These are the objects a test holds and inspects. Each knows how to render itself as the Bot API
JSON that PTB parses (``to_json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

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
    is_forum: bool = False
    """A forum supergroup: its messages live in the General topic or in topics (:class:`Topic`)."""
    topics: dict[int, Topic] = field(default_factory=dict)
    """Forum topics by ``message_thread_id`` (deleted ones included, marked ``deleted``)."""

    def to_json(self) -> JsonDict:
        """The Bot API ``Chat`` object."""
        data: JsonDict = {"id": self.id, "type": self.type, "title": self.title}
        if self.is_forum:
            data["is_forum"] = True
        return data

    def topic(self, thread_id: int) -> Topic | None:
        """The live (not deleted) topic with this ``message_thread_id``, or None."""
        topic = self.topics.get(thread_id)
        return topic if topic is not None and not topic.deleted else None


#: Topic icon colours Telegram allows (``createForumTopic``'s ``icon_color``); the first is the
#: default.
TOPIC_ICON_COLORS = (0x6FB9F0, 0xFFD67E, 0xCB86DB, 0x8EEE98, 0xFF93B2, 0xFB6F5F)

#: The General topic of a forum, as tests name it (``messages(chat, thread=GENERAL_TOPIC_ID)``).
#: Telegram's General topic has id 1; its messages carry no ``message_thread_id``, and the Bot
#: API refuses ``message_thread_id=1`` ("message thread not found").
GENERAL_TOPIC_ID = 1


@dataclass(eq=False)
class Topic:
    """A forum topic; ``message_thread_id`` is the id of its ``forum_topic_created`` message.

    ``creator_id`` is the user (or bot) who created it: the creator may still write in, edit,
    close and delete it without admin rights, as Telegram allows.
    """

    chat_id: int
    message_thread_id: int
    name: str
    icon_color: int
    creator_id: int
    icon_custom_emoji_id: str | None = None
    closed: bool = False
    deleted: bool = False

    @property
    def id(self) -> int:
        """Same as ``message_thread_id``."""
        return self.message_thread_id

    def to_json(self) -> JsonDict:
        """The Bot API ``ForumTopic`` object."""
        data: JsonDict = {
            "message_thread_id": self.message_thread_id,
            "name": self.name,
            "icon_color": self.icon_color,
        }
        if self.icon_custom_emoji_id:
            data["icon_custom_emoji_id"] = self.icon_custom_emoji_id
        return data


@dataclass(frozen=True, eq=False, repr=False)
class UploadedFile:
    """A file part of a ``multipart/form-data`` request (how PTB uploads a photo)."""

    filename: str
    content_type: str
    data: bytes

    def __repr__(self) -> str:  # the call log prints parameters: not megabytes of bytes
        return f"UploadedFile({self.filename!r}, {self.content_type!r}, {len(self.data)} bytes)"


@dataclass(frozen=True, eq=False, repr=False)
class Photo:
    """A photo the bot sent (``sendPhoto``), as the uploaded bytes and their dimensions.

    Telegram re-encodes a photo into several sizes (thumbnails up to 1280 px); the emulator
    keeps the upload as its one size, so a test can open exactly what the bot drew.
    """

    file_id: str
    file_unique_id: str
    data: bytes
    width: int
    height: int

    @property
    def file_size(self) -> int:
        """The photo's size in bytes."""
        return len(self.data)

    def to_json(self) -> JsonDict:
        """The Bot API ``PhotoSize`` object."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "width": self.width,
            "height": self.height,
            "file_size": self.file_size,
        }

    def __repr__(self) -> str:
        return f"Photo({self.file_id!r}, {self.width}x{self.height}, {self.file_size} bytes)"


@dataclass(eq=False)
class ChatMessage:
    """A message in a chat, sent by the bot (``from_bot``) or by a user.

    ``text`` is the plain text Telegram shows (tags stripped, entities unescaped); ``html`` the
    text as the bot sent it (same as ``text`` without a parse mode). ``edits`` counts successful
    edits; ``versions`` holds the earlier plain texts, oldest first, and ``shown`` every earlier
    state a person saw — plain text and inline keyboard — keyboard-only edits included.

    Threads, as Telegram has them: ``thread_id`` is the forum topic the message is in (None in
    the General topic and outside forums); it goes out as ``message_thread_id`` with
    ``is_topic_message: true``, and a message of a topic that replies to nothing explicit (or
    replies to a message of another topic) carries the topic's creation message as
    ``reply_to_message``. In a supergroup that is not a forum, a reply belongs to the thread of
    the reply chain: ``reply_thread_id`` is the chain's first message, sent as
    ``message_thread_id`` without ``is_topic_message``. ``service`` holds the fields of a
    service message (``{"forum_topic_created": {...}}``), which has no text.

    A photo message (``photo``) keeps its caption in ``text``/``html``/``entities`` and goes
    out with ``photo`` and ``caption``/``caption_entities`` instead of ``text``/``entities``.
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
    shown: list[tuple[str, JsonDict | None]] = field(default_factory=list)
    thread_id: int | None = None
    reply_thread_id: int | None = None
    topic_root: ChatMessage | None = None
    """The ``forum_topic_created`` message of the topic (its implicit reply target)."""
    service: JsonDict | None = None
    parse_mode: str | None = None
    """The ``parse_mode`` the bot sent the current text with (``"HTML"``), or None."""
    photo: Photo | None = None
    """The photo of a ``sendPhoto`` message (``photo.data`` is the image as uploaded)."""

    @property
    def chat_id(self) -> int:
        """The id of the chat the message is in."""
        return int(self.chat["id"])

    @property
    def caption(self) -> str | None:
        """A photo's caption as shown (plain text, "" if none); None for other messages."""
        return self.text if self.photo is not None else None

    @property
    def is_service(self) -> bool:
        """Whether this is a service message (topic created, closed, ...) rather than text."""
        return self.service is not None

    @property
    def message_thread_id(self) -> int | None:
        """The ``message_thread_id`` Telegram sends: the topic, else the reply chain's root."""
        return self.thread_id if self.thread_id is not None else self.reply_thread_id

    @property
    def buttons(self) -> list[list[tuple[str, str]]]:
        """The inline keyboard as rows of ``(text, callback_data or url)``."""
        return inline_buttons(self.reply_markup)

    @property
    def button_texts(self) -> list[str]:
        """All inline button texts, row by row."""
        return [text for row in self.buttons for text, _ in row]

    def to_json(self, *, with_reply: bool = True) -> JsonDict:
        """The Bot API ``Message`` object.

        ``reply_to_message`` (one level deep, as in Telegram) is left out once the replied
        message is deleted. A reply to a message of another chat or topic is an
        ``external_reply`` instead.
        """
        data: JsonDict = {
            "message_id": self.message_id,
            "from": self.sender,
            "chat": self.chat,
            "date": self.date,
        }
        if self.message_thread_id is not None:
            data["message_thread_id"] = self.message_thread_id
        if self.thread_id is not None:
            data["is_topic_message"] = True
        if self.service is not None:
            data.update(self.service)
        elif self.photo is not None:
            data["photo"] = [self.photo.to_json()]
            if self.text:
                data["caption"] = self.text
        else:
            data["text"] = self.text
        if self.entities:
            data["caption_entities" if self.photo is not None else "entities"] = self.entities
        if self.reply_markup is not None and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if with_reply:
            replied = self._reply_to_message()
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = replied.to_json(with_reply=False)
        if self.reply_to is not None and self.is_external_reply:
            data["external_reply"] = self.reply_to.external_reply_json()
        return data

    @property
    def is_external_reply(self) -> bool:
        """Whether ``reply_to`` is a message of another chat or of another forum topic."""
        target = self.reply_to
        return target is not None and (
            target.chat_id != self.chat_id
            or (bool(self.chat.get("is_forum")) and target.thread_id != self.thread_id)
        )

    def _reply_to_message(self) -> ChatMessage | None:
        """The message shown as ``reply_to_message``: the explicit same-topic reply, else the
        topic's creation message (Telegram's implicit reply inside a topic)."""
        if self.reply_to is not None and not self.is_external_reply:
            return self.reply_to
        root = self.topic_root
        if root is not None and root.message_id < self.message_id:
            return root
        return None

    def external_reply_json(self) -> JsonDict:
        """This message as the ``ExternalReplyInfo`` of a reply from another chat or topic."""
        data: JsonDict = {
            "origin": {"type": "user", "sender_user": self.sender, "date": self.date},
        }
        if self.chat.get("type") in ("supergroup", "channel"):
            data["chat"] = self.chat
            data["message_id"] = self.message_id
        return data


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a callback query (``answerCallbackQuery``)."""

    query_id: str
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None


@dataclass(frozen=True)
class MessageEvent:
    """A message appeared in a chat, was edited or was deleted: what a viewer of the chat
    sees change (see :meth:`~botapi_emulator.EmulatorState.subscribe`)."""

    message: ChatMessage
    kind: Literal["new", "edited", "deleted"]


@dataclass(frozen=True)
class AnswerEvent:
    """The bot answered ``user``'s press of a button carrying ``data`` on ``message``."""

    user: User
    message: ChatMessage
    data: str
    answer: CallbackAnswer


#: What :meth:`~botapi_emulator.EmulatorState.subscribe` listeners receive.
EmulatorEvent = MessageEvent | AnswerEvent


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
