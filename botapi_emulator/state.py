"""The emulator's world and the synchronous half of the test API.

:class:`EmulatorState` holds users, group chats, every chat's messages, the queue of updates
waiting for ``getUpdates``, open callback queries, bot commands and the log of Bot API calls.
Tests build the world (``add_user``, ``add_group``), act as people (``send_text``,
``press_nowait``) and read what each chat shows (``messages``, ``last_message``). Every change
calls :meth:`EmulatorState.changed`, which the server uses to wake long polls and waiters.
What a person would see change — a message sent, edited or deleted, a press answered — also
goes to the listeners of :meth:`EmulatorState.subscribe`. :meth:`EmulatorState.snapshot` and
:meth:`EmulatorState.restore` carry the world over a restart (:mod:`.snapshot`).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import errors, snapshot
from .entities import command_entities
from .faults import Faults, InjectedFault, RetryAfterWindows
from .limits import MESSAGE_METHODS, FloodControl, Limits, max_in_window
from .models import (
    GENERAL_TOPIC_ID,
    TOPIC_ICON_COLORS,
    ApiCall,
    CallbackAnswer,
    ChatMessage,
    EmulatorEvent,
    FloodError,
    Group,
    JsonDict,
    MessageEvent,
    Photo,
    Topic,
    User,
    Webhook,
    WebhookDelivery,
)

#: A chat as tests name it: a group, a user (meaning their private chat) or a raw chat id.
ChatRef = Group | User | int

#: A forum topic as tests name it: a :class:`Topic` or its ``message_thread_id``
#: (:data:`GENERAL_TOPIC_ID` for the General topic).
ThreadRef = Topic | int

_DEEP_LINK_PAYLOAD_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")

_LOGGER = logging.getLogger(__name__)

#: Receives every :data:`~.models.EmulatorEvent` (see :meth:`EmulatorState.subscribe`).
Listener = Callable[[EmulatorEvent], None]


@dataclass
class PendingUpdate:
    """An update waiting in the queue until a ``getUpdates`` offset (or, with a webhook, a 2xx
    answer of the receiver) confirms it; ``in_flight`` while being POSTed to the webhook."""

    update_id: int
    payload: JsonDict
    delivered: bool = False
    in_flight: bool = False

    def to_json(self) -> JsonDict:
        """The update as ``getUpdates`` returns it."""
        return {"update_id": self.update_id, **self.payload}

    @property
    def kind(self) -> str:
        """The update type (``message``, ``callback_query``, ...), as in ``allowed_updates``."""
        return next(iter(self.payload), "")

    @property
    def chat_key(self) -> int | None:
        """The chat the update belongs to (updates of one chat are delivered in order)."""
        body = self.payload.get(self.kind)
        if not isinstance(body, dict):
            return None
        chat = body.get("chat") or (body.get("message") or {}).get("chat") or body.get("from")
        return int(chat["id"]) if isinstance(chat, dict) and "id" in chat else None


@dataclass
class CallbackQuery:
    """A button press sent to the bot; ``answer`` is set once the bot answers it."""

    id: str
    user: User
    message: ChatMessage
    data: str
    answer: CallbackAnswer | None = None
    created: float = field(default_factory=time.monotonic)


def chat_id_of(chat: ChatRef) -> int:
    """The chat id a :data:`ChatRef` stands for."""
    return chat if isinstance(chat, int) else chat.id


def thread_id_of(thread: ThreadRef) -> int:
    """The ``message_thread_id`` a :data:`ThreadRef` stands for."""
    return thread if isinstance(thread, int) else thread.message_thread_id


def in_thread(message: ChatMessage, thread: ThreadRef | None) -> bool:
    """Whether ``message`` is in ``thread`` (None: any; :data:`GENERAL_TOPIC_ID`: General)."""
    if thread is None:
        return True
    wanted = thread_id_of(thread)
    if wanted == GENERAL_TOPIC_ID:
        return message.thread_id is None
    return message.thread_id == wanted


class EmulatorState:
    """Everything the emulated Telegram knows, plus the test API that needs no event loop."""

    def __init__(
        self,
        token: str = "123456:TEST",
        bot_username: str = "kozel_test_bot",
        *,
        bot_first_name: str = "KozelBot",
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
        faults: Faults | None = None,
    ) -> None:
        prefix = token.split(":", 1)[0]
        if not prefix.isdigit():
            raise ValueError(f"a bot token starts with the bot id and a colon: {token!r}")
        self.token = token
        self.bot_id = int(prefix)
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.limits = limits if limits is not None else Limits()
        self.clock = clock
        self.flood = FloodControl(self.limits, clock)
        self.users: dict[int, User] = {}
        self.groups: dict[int, Group] = {}
        self.history: list[ApiCall] = []
        self.flood_errors: list[FloodError] = []
        self.commands: dict[tuple[str, str], list[JsonDict]] = {}
        self._chats: dict[int, dict[int, ChatMessage]] = {}
        self._last_message_id: dict[int, int] = {}
        self._updates: list[PendingUpdate] = []
        self._next_update_id = 1
        self._next_user_id = 1001
        self._next_group_no = 1
        self._next_query_no = 1
        self._listeners: list[Listener] = []
        self.queries: dict[str, CallbackQuery] = {}
        self.faults: Faults = faults if faults is not None else Faults()
        """Fault injection settings; assign a new :class:`Faults` to change them at run time."""
        self.injected_faults: list[InjectedFault] = []
        self._retry_windows = RetryAfterWindows()
        self.webhook: Webhook | None = None
        """The webhook set with ``setWebhook``, or None (polling with ``getUpdates``)."""
        self.webhook_deliveries: list[WebhookDelivery] = []
        self.webhook_last_error: tuple[int, str] | None = None
        """``(unix time, message)`` of the last failed webhook delivery."""
        self.can_join_groups = True
        """BotFather's "Allow Groups?" for the bot (``getMe``'s ``can_join_groups``)."""
        self.photos: dict[str, Photo] = {}
        """Every photo the bot sent, by ``file_id`` (a later ``sendPhoto`` may name one)."""
        self._next_file_no = 1

    # ----------------------------------------------------------------- notifications

    def changed(self) -> None:
        """Called after every change of state; the server overrides it to wake waiters."""

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every message sent, edited or deleted in any chat and every
        callback answer, as it happens; returns the function that unsubscribes it.

        Listeners run synchronously inside the change: they must be quick and must not raise
        (an exception is logged and ignored).
        """
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def notify(self, event: EmulatorEvent) -> None:
        """Hand ``event`` to every listener of :meth:`subscribe`."""
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                _LOGGER.exception("an emulator listener failed on %r", event)

    def set_limits(self, limits: Limits) -> None:
        """Apply other flood limits from now on (the meters start empty)."""
        self.limits = limits
        self.flood = FloodControl(limits, self.clock)
        self.changed()

    # ----------------------------------------------------------------- persistence

    def snapshot(self) -> JsonDict:
        """The world as JSON (see :mod:`.snapshot` for what is kept); :meth:`restore` reads it."""
        return {
            "version": snapshot.SNAPSHOT_VERSION,
            "bot_id": self.bot_id,
            "users": [snapshot.user_to_json(user) for user in self.users.values()],
            "groups": [snapshot.group_to_json(group) for group in self.groups.values()],
            "chats": {
                str(chat_id): [snapshot.message_to_json(m) for m in messages.values()]
                for chat_id, messages in self._chats.items()
            },
            "last_message_id": {str(chat): last for chat, last in self._last_message_id.items()},
            "counters": {
                "user": self._next_user_id,
                "group": self._next_group_no,
                "query": self._next_query_no,
                "update": self._next_update_id,
            },
            "commands": [
                {"scope": scope, "language_code": language, "commands": commands}
                for (scope, language), commands in self.commands.items()
            ],
        }

    def restore(self, data: JsonDict) -> None:
        """Replace the world by a :meth:`snapshot` (of an emulator of the same bot).

        ValueError for a snapshot of another version or another bot. Updates waiting in the
        queue and open callback queries are dropped.
        """
        data = snapshot.check_version(data)
        if int(data.get("bot_id", self.bot_id)) != self.bot_id:
            raise ValueError(f"the snapshot is of bot {data['bot_id']}, not {self.bot_id}")
        users = [snapshot.user_from_json(item) for item in data.get("users", [])]
        groups = [snapshot.group_from_json(item) for item in data.get("groups", [])]
        chats: dict[int, dict[int, ChatMessage]] = {}
        links: list[tuple[ChatMessage, JsonDict]] = []
        for chat_id, items in data.get("chats", {}).items():
            messages = chats.setdefault(int(chat_id), {})
            for item in items:
                message = snapshot.message_from_json(item)
                messages[message.message_id] = message
                links.append((message, item))
        for message, item in links:
            reply_to = item.get("reply_to")
            if reply_to is not None:
                message.reply_to = chats.get(int(reply_to[0]), {}).get(int(reply_to[1]))
            root = item.get("topic_root")
            if root is not None:
                message.topic_root = chats.get(message.chat_id, {}).get(int(root))
        counters = data.get("counters", {})
        self.users = {user.id: user for user in users}
        self.groups = {group.id: group for group in groups}
        self._chats = chats
        self._last_message_id = {
            int(chat): int(last) for chat, last in data.get("last_message_id", {}).items()
        }
        self._next_user_id = int(counters.get("user", self._next_user_id))
        self._next_group_no = int(counters.get("group", self._next_group_no))
        self._next_query_no = int(counters.get("query", self._next_query_no))
        self._next_update_id = int(counters.get("update", self._next_update_id))
        self.commands = {
            (str(item["scope"]), str(item["language_code"])): list(item["commands"])
            for item in data.get("commands", [])
        }
        self._updates = []
        self.queries = {}
        self.changed()

    def trim(self, *, calls: int = 2000, messages_per_chat: int | None = None) -> None:
        """Forget what a long-running emulator piles up: all but the last ``calls`` logged
        calls and flood errors, answered callback queries older than a minute and, with
        ``messages_per_chat``, the oldest messages of a chat beyond that many (the bot gets
        "message to edit not found" for those, as for a message deleted in Telegram)."""
        for log in (self.history, self.flood_errors, self.injected_faults):
            del log[: max(len(log) - calls, 0)]
        old = time.monotonic() - 60.0
        for query_id in [
            key
            for key, query in self.queries.items()
            if query.answer is not None and query.created < old
        ]:
            del self.queries[query_id]
        if messages_per_chat is not None:
            for messages in self._chats.values():
                for message_id in list(messages)[: max(len(messages) - messages_per_chat, 0)]:
                    del messages[message_id]

    # ----------------------------------------------------------------- the bot itself

    def bot_json(self) -> JsonDict:
        """The bot as a Bot API ``User``."""
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    # ----------------------------------------------------------------- building the world

    def add_user(
        self,
        first_name: str = "User",
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "ru",
    ) -> User:
        """Create a person (ids count up from 1001). They have not started the bot yet."""
        user = User(self._next_user_id, first_name, last_name, username, language_code)
        self._next_user_id += 1
        self.users[user.id] = user
        return user

    def add_group(
        self,
        title: str = "Group",
        members: Iterable[User] = (),
        admins: Iterable[User] = (),
        creator: User | None = None,
        *,
        bot_is_admin: bool = False,
        forum: bool = False,
    ) -> Group:
        """Create a supergroup with the bot in it (ids -1001000000001, -1001000000002, ...).

        Admins and the creator are members too. ``forum`` makes it a forum (``is_forum``) with
        only the General topic; add topics with :meth:`create_topic`. Message id 1 of a forum
        is taken (by the General topic in Telegram), so no topic gets id 1.
        """
        group_id = -1001000000000 - self._next_group_no
        self._next_group_no += 1
        admin_ids = {user.id for user in admins}
        member_ids = {user.id for user in members} | admin_ids
        if creator is not None:
            member_ids.add(creator.id)
        group = Group(
            group_id,
            title,
            members=member_ids,
            admins=admin_ids,
            creator_id=creator.id if creator is not None else None,
            bot_is_admin=bot_is_admin,
            is_forum=forum,
        )
        self.groups[group_id] = group
        if forum:
            self.new_message_id(group_id)
        return group

    def migrate_group(self, group: Group, by: User, *, notify: bool = True) -> Group:
        """Upgrade a (basic) group to a supergroup, as Telegram does when its settings change.

        A new group with a new id and the same people is created; sends to the old id fail with
        400 and ``migrate_to_chat_id``; the two service messages Telegram posts
        (``migrate_to_chat_id`` in the old chat, ``migrate_from_chat_id`` in the new) are queued
        unless ``notify`` is false (the bot then learns it from a failed send).
        """
        new = self.add_group(group.title, bot_is_admin=group.bot_is_admin)
        new.members, new.admins, new.creator_id = (
            set(group.members),
            set(group.admins),
            group.creator_id,
        )
        group.type = "group"
        group.migrated_to = new.id
        for chat, key, value in (
            ()
            if not notify
            else ((group, "migrate_to_chat_id", new.id), (new, "migrate_from_chat_id", group.id))
        ):
            self.enqueue_update(
                {
                    "message": {
                        "message_id": self.new_message_id(chat.id),
                        "date": int(time.time()),
                        "chat": chat.to_json(),
                        "from": by.to_json(),
                        key: value,
                    }
                }
            )
        return new

    def add_member(self, group: Group, user: User, *, admin: bool = False) -> None:
        """Add ``user`` to ``group`` (as an administrator if ``admin``)."""
        group.members.add(user.id)
        if admin:
            group.admins.add(user.id)

    def block(self, user: User, *, notify: bool = True) -> None:
        """``user`` blocks the bot: sends to them fail with 403 until :meth:`unblock`.

        With ``notify`` a ``my_chat_member`` update (member -> kicked) is queued.
        """
        if user.blocked:
            return
        user.blocked = True
        if notify:
            self._enqueue_my_chat_member(user, "member", "kicked")
        self.changed()

    def unblock(self, user: User, *, notify: bool = True) -> None:
        """``user`` unblocks the bot (queues a ``my_chat_member`` kicked -> member update)."""
        if not user.blocked:
            return
        user.blocked = False
        if notify:
            self._enqueue_my_chat_member(user, "kicked", "member")
        self.changed()

    def remove_bot(self, group: Group, by: User) -> None:
        """``by`` removes the bot from ``group``: sends there fail with 403 from now on, and
        a ``my_chat_member`` update (member -> kicked) is queued."""
        group.bot_member = False
        self._enqueue_my_chat_member(by, "member", "kicked", chat=group.to_json())

    def _enqueue_my_chat_member(
        self, user: User, old: str, new: str, *, chat: JsonDict | None = None
    ) -> None:
        def member(status: str) -> JsonDict:
            data: JsonDict = {"status": status, "user": self.bot_json()}
            if status == "kicked":
                data["until_date"] = 0
            return data

        self.enqueue_update(
            {
                "my_chat_member": {
                    "chat": chat if chat is not None else user.chat_json(),
                    "from": user.to_json(),
                    "date": int(time.time()),
                    "old_chat_member": member(old),
                    "new_chat_member": member(new),
                }
            }
        )

    # ----------------------------------------------------------------- chats and messages

    def chat_json(self, chat_id: int) -> JsonDict:
        """The Bot API ``Chat`` of a known chat id (a group or a user's private chat)."""
        if chat_id in self.groups:
            return self.groups[chat_id].to_json()
        return self.users[chat_id].chat_json()

    def is_group(self, chat_id: int) -> bool:
        """Whether ``chat_id`` is a group chat (negative ids)."""
        return chat_id < 0

    def new_message_id(self, chat_id: int) -> int:
        """The next message id in a chat; ids are per chat, shared by the bot and people."""
        message_id = self._last_message_id.get(chat_id, 0) + 1
        self._last_message_id[chat_id] = message_id
        return message_id

    def store(self, message: ChatMessage) -> ChatMessage:
        """Put a new message into its chat (and tell the listeners of :meth:`subscribe`)."""
        self._chats.setdefault(message.chat_id, {})[message.message_id] = message
        self.notify(MessageEvent(message, "new"))
        return message

    def add_photo(self, data: bytes, width: int, height: int) -> Photo:
        """Keep a photo the bot uploaded, under a new ``file_id``."""
        number = self._next_file_no
        self._next_file_no += 1
        photo = Photo(f"AgACAgEmu{number:08d}", f"AQADEmu{number:06d}", data, width, height)
        self.photos[photo.file_id] = photo
        return photo

    def message(self, chat: ChatRef, message_id: int) -> ChatMessage:
        """The message ``message_id`` of a chat, deleted or not; AssertionError if unknown."""
        found = self._chats.get(chat_id_of(chat), {}).get(message_id)
        if found is None:
            raise AssertionError(f"no message {message_id} in chat {chat_id_of(chat)}")
        return found

    def lookup(self, chat_id: int, message_id: int) -> ChatMessage | None:
        """The message or None (deleted messages included)."""
        return self._chats.get(chat_id, {}).get(message_id)

    def all_messages(
        self, chat: ChatRef, *, include_deleted: bool = False, thread: ThreadRef | None = None
    ) -> list[ChatMessage]:
        """Every message of a chat, the bot's and people's, service messages too, in order.

        ``thread`` keeps one forum topic (:data:`GENERAL_TOPIC_ID`: the General topic); None
        keeps every message.
        """
        return [
            message
            for message in self._chats.get(chat_id_of(chat), {}).values()
            if (include_deleted or not message.deleted) and in_thread(message, thread)
        ]

    def messages(
        self, chat: ChatRef, *, include_deleted: bool = False, thread: ThreadRef | None = None
    ) -> list[ChatMessage]:
        """The bot's messages in a chat (not deleted ones unless asked), in order; service
        messages (a topic the bot created, closed, ...) are not among them. ``thread`` as in
        :meth:`all_messages`."""
        return [
            message
            for message in self.all_messages(chat, include_deleted=include_deleted, thread=thread)
            if message.from_bot and not message.is_service
        ]

    def last_message(self, chat: ChatRef, *, thread: ThreadRef | None = None) -> ChatMessage | None:
        """The bot's most recent live message in a chat (or in one topic), or None."""
        found = self.messages(chat, thread=thread)
        return found[-1] if found else None

    def find_message(
        self, chat: ChatRef, contains: str, *, thread: ThreadRef | None = None
    ) -> ChatMessage | None:
        """The bot's most recent live message in a chat (or in one topic) whose plain text
        contains ``contains``."""
        for message in reversed(self.messages(chat, thread=thread)):
            if contains in message.text:
                return message
        return None

    def calls(self, method: str | None = None) -> list[ApiCall]:
        """Logged Bot API calls, optionally only those of one method (case-insensitive)."""
        if method is None:
            return list(self.history)
        wanted = method.lower()
        return [call for call in self.history if call.method.lower() == wanted]

    def describe_recent_calls(self, count: int = 8) -> str:
        """The last ``count`` calls other than ``getUpdates``, one a line, for error messages."""
        recent = [call for call in self.history if call.method.lower() != "getupdates"]
        lines = [f"  {call}" for call in recent[-count:]]
        return "\n".join(lines) if lines else "  (no calls)"

    # ----------------------------------------------------------------- updates

    def enqueue_update(self, payload: JsonDict) -> int:
        """Queue a raw update (without ``update_id``) for ``getUpdates``; returns its id."""
        update = PendingUpdate(self._next_update_id, payload)
        self._next_update_id += 1
        self._updates.append(update)
        self.changed()
        return update.update_id

    def take_updates(self, offset: int | None, limit: int) -> list[JsonDict]:
        """``getUpdates`` semantics: drop updates below ``offset``, return up to ``limit``."""
        if offset is not None:
            if offset < 0:
                self._updates = self._updates[offset:]
            else:
                self._updates = [u for u in self._updates if u.update_id >= offset]
        batch = self._updates[:limit]
        for update in batch:
            update.delivered = True
        return [update.to_json() for update in batch]

    def pending_update_ids(self) -> list[int]:
        """The ids of the updates not confirmed yet (delivered or not): Telegram forgets an
        update once a ``getUpdates`` offset above it confirms it."""
        return [update.update_id for update in self._updates]

    def drop_pending_updates(self) -> int:
        """Forget every queued update (``drop_pending_updates``); returns how many.

        Callback queries whose update is dropped before delivery are forgotten too, so that
        ``settle`` does not wait for answers the bot will never see.
        """
        dropped = self._updates
        self._updates = []
        for update in dropped:
            query = update.payload.get("callback_query")
            if not update.delivered and isinstance(query, dict):
                self.queries.pop(str(query.get("id")), None)
        self.changed()
        return len(dropped)

    def set_webhook(self, webhook: Webhook | None, *, drop_pending_updates: bool = False) -> None:
        """Set (or with None delete) the webhook; optionally drop the queued updates."""
        self.webhook = webhook
        if drop_pending_updates:
            self.drop_pending_updates()
        self.changed()

    def webhook_ready(self) -> list[PendingUpdate]:
        """Updates to POST to the webhook now, oldest first, marked ``in_flight``.

        At most ``max_connections`` are in flight at once and at most one per chat, so the
        updates of one chat arrive in order. Updates of types outside ``allowed_updates`` are
        dropped.
        """
        webhook = self.webhook
        if webhook is None:
            return []
        if webhook.allowed_updates:
            allowed = [u for u in self._updates if u.kind in webhook.allowed_updates]
            if len(allowed) < len(self._updates):
                self._updates = allowed
                self.changed()
        room = webhook.max_connections - sum(1 for u in self._updates if u.in_flight)
        busy: set[int | None] = set()
        ready: list[PendingUpdate] = []
        for update in self._updates:
            key = update.chat_key
            if not update.in_flight and key not in busy and len(ready) < room:
                ready.append(update)
            busy.add(key)
        for update in ready:
            update.in_flight = True
        return ready

    def confirm_update(self, update: PendingUpdate) -> None:
        """The webhook receiver accepted ``update``: it leaves the queue."""
        update.delivered = True
        update.in_flight = False
        self._updates = [queued for queued in self._updates if queued is not update]
        self.changed()

    def is_queued(self, update: PendingUpdate) -> bool:
        """Whether ``update`` still waits in the queue (not confirmed, not dropped)."""
        return any(queued is update for queued in self._updates)

    @property
    def has_updates(self) -> bool:
        """Whether any update waits for confirmation."""
        return bool(self._updates)

    @property
    def undelivered_updates(self) -> int:
        """How many queued updates no ``getUpdates`` call has returned yet."""
        return sum(1 for update in self._updates if not update.delivered)

    # ----------------------------------------------------------------- acting as people

    def send_text(
        self,
        user: User,
        chat: ChatRef,
        text: str,
        *,
        reply_to: int | None = None,
        thread: ThreadRef | None = None,
    ) -> ChatMessage:
        """``user`` writes ``text`` in ``chat``; queues a ``message`` update and returns it.

        A text starting with ``/command`` or ``/command@bot`` gets the ``bot_command`` entity
        that PTB's ``CommandHandler`` needs. Writing in the private chat opens it.

        In a forum, ``thread`` is the topic written in (None or :data:`GENERAL_TOPIC_ID`: the
        General topic, or with ``reply_to`` the replied message's topic, as a client does). A
        closed topic takes messages only from admins and its creator. ``reply_to`` names a
        message of the same chat; see :class:`ChatMessage` for how threads and replies show.
        """
        chat_id = chat_id_of(chat)
        if chat_id > 0:
            if chat_id != user.id:
                raise AssertionError(f"{user.full_name} cannot write in the private chat {chat_id}")
            user.started = True
        elif chat_id not in self.groups:
            raise AssertionError(f"unknown group {chat_id}")
        else:
            self.groups[chat_id].members.add(user.id)
        reply_message = self.message(chat_id, reply_to) if reply_to is not None else None
        if reply_message is not None and reply_message.deleted:
            raise AssertionError(f"message {reply_to} in chat {chat_id} is deleted")
        topic = self._user_topic(user, chat_id, thread, reply_message)
        message = self.store(
            ChatMessage(
                chat=self.chat_json(chat_id),
                message_id=self.new_message_id(chat_id),
                date=int(time.time()),
                sender=user.to_json(),
                from_bot=False,
                text=text,
                html=text,
                entities=command_entities(text),
                reply_to=reply_message,
                **self.thread_fields(chat_id, topic, reply_message, infer=False),
            )
        )
        self.enqueue_update({"message": message.to_json()})
        return message

    def _user_topic(
        self, user: User, chat_id: int, thread: ThreadRef | None, reply_to: ChatMessage | None
    ) -> Topic | None:
        """The topic a person's message goes to; AssertionError where a client cannot write."""
        group = self.groups.get(chat_id)
        if thread is None or thread_id_of(thread) == GENERAL_TOPIC_ID:
            if group is None or not group.is_forum:
                return None
            if thread is None and reply_to is not None and reply_to.thread_id is not None:
                topic = group.topic(reply_to.thread_id)
            else:
                return None
        else:
            if group is None or not group.is_forum:
                raise AssertionError(f"chat {chat_id} is not a forum: it has no topics")
            topic = group.topic(thread_id_of(thread))
        if topic is None:
            raise AssertionError(f"no live topic {thread!r} in chat {chat_id}")
        if topic.closed and not self._can_manage_topic(group, user.id, topic):
            raise AssertionError(f"topic {topic.name!r} is closed for {user.full_name}")
        return topic

    @staticmethod
    def _can_manage_topic(group: Group | None, user_id: int, topic: Topic) -> bool:
        """Admins, the group's creator and the topic's creator may write in a closed topic."""
        if group is None:
            return False
        return user_id in group.admins or user_id == group.creator_id or user_id == topic.creator_id

    def thread_fields(
        self, chat_id: int, topic: Topic | None, reply_to: ChatMessage | None, *, infer: bool = True
    ) -> JsonDict:
        """The thread fields of a new :class:`ChatMessage` sent to ``topic`` (None: General or
        no forum), replying to ``reply_to``; with ``infer`` a reply sent without a topic lands
        in the replied message's topic, as the Bot API does."""
        group = self.groups.get(chat_id)
        if group is None or group.type != "supergroup":
            return {}
        same_chat = reply_to is not None and reply_to.chat_id == chat_id
        if group.is_forum:
            if infer and topic is None and same_chat and reply_to is not None:
                topic = group.topic(reply_to.thread_id) if reply_to.thread_id else None
            if topic is None:
                return {}
            return {
                "thread_id": topic.message_thread_id,
                "topic_root": self.lookup(chat_id, topic.message_thread_id),
            }
        if same_chat and reply_to is not None:
            return {"reply_thread_id": reply_to.reply_thread_id or reply_to.message_id}
        return {}

    # ----------------------------------------------------------------- forum topics

    def create_topic(
        self,
        group: Group,
        by: User | None,
        name: str,
        *,
        icon_color: int = TOPIC_ICON_COLORS[0],
        icon_custom_emoji_id: str | None = None,
    ) -> Topic:
        """Create a topic in a forum, as ``by`` (None: the bot, which gets no update).

        Posts the ``forum_topic_created`` service message; its id is the topic's
        ``message_thread_id``. A person's topic queues a ``message`` update, as Telegram does.
        """
        if not group.is_forum:
            raise AssertionError(f"group {group.title!r} is not a forum")
        if by is not None:
            group.members.add(by.id)
        message_id = self.new_message_id(group.id)
        topic = Topic(
            group.id,
            message_id,
            name,
            icon_color,
            by.id if by is not None else self.bot_id,
            icon_custom_emoji_id,
        )
        group.topics[message_id] = topic
        created: JsonDict = {"name": name, "icon_color": icon_color}
        if icon_custom_emoji_id:
            created["icon_custom_emoji_id"] = icon_custom_emoji_id
        self.post_service(group, topic, by, {"forum_topic_created": created})
        return topic

    def post_service(
        self, group: Group, topic: Topic, by: User | None, service: JsonDict
    ) -> ChatMessage:
        """Post a service message in ``topic`` from ``by`` (None: the bot); a person's
        service message queues a ``message`` update."""
        message_id = (
            topic.message_thread_id
            if "forum_topic_created" in service
            else self.new_message_id(group.id)
        )
        message = self.store(
            ChatMessage(
                chat=group.to_json(),
                message_id=message_id,
                date=int(time.time()),
                sender=by.to_json() if by is not None else self.bot_json(),
                from_bot=by is None,
                text="",
                html="",
                service=service,
                thread_id=topic.message_thread_id,
                topic_root=self.lookup(group.id, topic.message_thread_id),
            )
        )
        if by is not None:
            self.enqueue_update({"message": message.to_json()})
        self.changed()
        return message

    def close_topic(self, topic: Topic, by: User, *, closed: bool = True) -> ChatMessage:
        """``by`` (an admin or the topic's creator) closes the topic (``closed=False``:
        reopens it); posts ``forum_topic_closed`` / ``forum_topic_reopened``."""
        group = self.groups[topic.chat_id]
        if topic.deleted:
            raise AssertionError(f"topic {topic.name!r} is deleted")
        if not self._can_manage_topic(group, by.id, topic):
            raise AssertionError(f"{by.full_name} may not close or reopen {topic.name!r}")
        if topic.closed == closed:
            raise AssertionError(
                f"topic {topic.name!r} is already {'closed' if closed else 'open'}"
            )
        topic.closed = closed
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        return self.post_service(group, topic, by, {kind: {}})

    def reopen_topic(self, topic: Topic, by: User) -> ChatMessage:
        """``by`` reopens a closed topic (see :meth:`close_topic`)."""
        return self.close_topic(topic, by, closed=False)

    def delete_topic(self, topic: Topic, by: User | None = None) -> None:
        """Delete a topic with all its messages (as ``by``, or the bot); no update is sent."""
        group = self.groups[topic.chat_id]
        if by is not None and not self._can_manage_topic(group, by.id, topic):
            raise AssertionError(f"{by.full_name} may not delete {topic.name!r}")
        topic.deleted = True
        for message in self._chats.get(topic.chat_id, {}).values():
            if message.thread_id == topic.message_thread_id and not message.deleted:
                message.deleted = True
                self.notify(MessageEvent(message, "deleted"))
        self.changed()

    def topic(self, group: Group, name_or_id: str | int) -> Topic:
        """A live topic of ``group`` by name or ``message_thread_id``; AssertionError if none."""
        for topic in group.topics.values():
            if not topic.deleted and name_or_id in (topic.name, topic.message_thread_id):
                return topic
        raise AssertionError(f"no live topic {name_or_id!r} in {group.title!r}")

    def start_private_nowait(self, user: User, payload: str | None = None) -> ChatMessage:
        """``user`` presses Start in the bot's private chat (optionally from a deep link).

        Pressing Start (Restart) after blocking the bot unblocks it first.
        """
        if payload is not None and not _DEEP_LINK_PAYLOAD_RE.fullmatch(payload):
            raise AssertionError(f"invalid deep-link payload {payload!r}")
        self.unblock(user)
        user.started = True
        text = "/start" if payload is None else f"/start {payload}"
        return self.send_text(user, user, text)

    def press_nowait(
        self,
        user: User,
        chat: ChatRef,
        message_id: int,
        callback_data: str | None = None,
        *,
        text: str | None = None,
    ) -> str:
        """``user`` presses an inline button; queues a ``callback_query``; returns the query id.

        The button is picked by ``callback_data`` or by its exact ``text`` (or the only
        callback button if the keyboard has just one).
        """
        chat_id = chat_id_of(chat)
        if chat_id > 0 and chat_id != user.id:
            raise AssertionError(f"{user.full_name} cannot see the private chat {chat_id}")
        message = self.lookup(chat_id, message_id)
        if message is None or message.deleted or not message.from_bot:
            raise AssertionError(f"no live bot message {message_id} in chat {chat_id}")
        buttons = [
            button
            for row in (message.reply_markup or {}).get("inline_keyboard", [])
            for button in row
            if "callback_data" in button
        ]
        if callback_data is None and text is None:
            chosen = buttons if len(buttons) == 1 else []
        else:
            chosen = [
                button
                for button in buttons
                if callback_data in (None, button["callback_data"])
                and text in (None, button["text"])
            ][:1]
        if not chosen:
            wanted = f"data={callback_data!r} text={text!r}"
            raise AssertionError(
                f"no single callback button ({wanted}) on message {message_id} in chat "
                f"{chat_id}; buttons: {message.buttons}"
            )
        data = str(chosen[0]["callback_data"])
        query_id = self._new_query_id()
        self.queries[query_id] = CallbackQuery(query_id, user, message, data)
        self.enqueue_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_json(),
                    "message": message.to_json(),
                    "chat_instance": str(abs(chat_id) * 7 + self.bot_id),
                    "data": data,
                }
            }
        )
        return query_id

    def forged_press_nowait(
        self, user: User, chat: ChatRef, message_id: int, callback_data: str
    ) -> str:
        """A press carrying ``callback_data`` that the message's buttons do not have (a
        modified client, or a button of an older keyboard); returns the query id."""
        chat_id = chat if isinstance(chat, int) else chat.id
        message = self.message(chat_id, message_id)
        query_id = self._new_query_id()
        self.queries[query_id] = CallbackQuery(query_id, user, message, callback_data)
        self.enqueue_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.to_json(),
                    "message": message.to_json(),
                    "chat_instance": str(abs(chat_id) * 7 + self.bot_id),
                    "data": callback_data,
                }
            }
        )
        return query_id

    def _new_query_id(self) -> str:
        query_id = f"{self.bot_id}{self._next_query_no:08d}"
        self._next_query_no += 1
        return query_id

    def deep_link_payload(self, url: str) -> str | None:
        """The ``start`` payload of a ``https://t.me/<bot>?start=...`` link to this bot.

        AssertionError if the link does not point at this bot's private chat.
        """
        match = re.fullmatch(
            r"(?:https?://)?(?:t\.me|telegram\.me)/([A-Za-z0-9_]+)(?:\?start=([^&#]*))?", url
        )
        if match is None or match.group(1).lower() != self.bot_username.lower():
            raise AssertionError(f"{url!r} is not a link to @{self.bot_username}")
        return match.group(2) or None

    def record_call(self, call: ApiCall) -> None:
        """Log a handled Bot API call."""
        self.history.append(call)
        self.changed()

    def record_flood(self, error: FloodError) -> None:
        """Remember a 429 the emulator issued."""
        self.flood_errors.append(error)

    # ----------------------------------------------------------------- faults and metrics

    def record_fault(self, fault: InjectedFault) -> None:
        """Remember an injected fault; an injected 429 opens a ``retry_after`` window."""
        self.injected_faults.append(fault)
        if fault.kind == "429":
            self._retry_windows.open(fault)

    def check_retry_after(self, method: str, chat_id: int | None) -> None:
        """429 (recorded in ``flood_errors``) for a message call that ignores the
        ``retry_after`` of an injected 429 to the same chat, if the faults punish that."""
        if method.lower() not in MESSAGE_METHODS or not self.faults.punish_ignored_retry_after:
            return
        now = self.clock()
        wait = self._retry_windows.violated(chat_id, now, self.faults.retry_after_grace)
        if wait is None or chat_id is None:
            return
        error = errors.too_many_requests(wait)
        self.record_flood(FloodError(method, chat_id, wait, now, ignored_retry_after=True))
        raise error

    def max_message_calls_in_window(
        self, window: float = 1.0, chat_id: ChatRef | None = None
    ) -> int:
        """The most successful message calls (sends, edits, deletions; see
        :data:`~.limits.MESSAGE_METHODS`) in any ``window`` seconds, overall or to one chat."""
        wanted = chat_id_of(chat_id) if chat_id is not None else None
        times = [
            call.time
            for call in self.history
            if call.ok
            and call.method.lower() in MESSAGE_METHODS
            and (wanted is None or call.chat_id == wanted)
        ]
        return max_in_window(times, window)

    def answered(self, query_id: str) -> CallbackAnswer | None:
        """The bot's answer to a query, if it answered."""
        query = self.queries.get(query_id)
        return query.answer if query is not None else None
