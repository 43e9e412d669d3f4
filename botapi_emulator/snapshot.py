"""The emulated world as plain JSON, so that an emulator can be stopped and started again.

:meth:`~botapi_emulator.EmulatorState.snapshot` writes, and
:meth:`~botapi_emulator.EmulatorState.restore` reads, what Telegram itself would still know
after a bot restarts: people, groups (with their topics), every chat's messages with their ids,
edits, keyboards and replies, the id counters and the command menus. What only lives for one
connection is left out: queued updates, open callback queries, the call log, flood meters,
webhooks and injected faults. The earlier states of an edited message (``versions``,
``shown``) are not kept; its ``edits`` count is.

These functions turn single objects to and from JSON; the state assembles them.
"""

from __future__ import annotations

from typing import Any

from .models import ChatMessage, Group, JsonDict, Topic, User

SNAPSHOT_VERSION = 1


def user_to_json(user: User) -> JsonDict:
    """A person with whether they opened (``started``) or blocked the bot's private chat."""
    return {
        "id": user.id,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "username": user.username,
        "language_code": user.language_code,
        "started": user.started,
        "blocked": user.blocked,
    }


def user_from_json(data: JsonDict) -> User:
    """The inverse of :func:`user_to_json`."""
    return User(
        id=int(data["id"]),
        first_name=str(data["first_name"]),
        last_name=data.get("last_name"),
        username=data.get("username"),
        language_code=data.get("language_code"),
        started=bool(data.get("started")),
        blocked=bool(data.get("blocked")),
    )


def group_to_json(group: Group) -> JsonDict:
    """A group with its members, admins and forum topics."""
    return {
        "id": group.id,
        "title": group.title,
        "members": sorted(group.members),
        "admins": sorted(group.admins),
        "creator_id": group.creator_id,
        "type": group.type,
        "bot_member": group.bot_member,
        "bot_is_admin": group.bot_is_admin,
        "migrated_to": group.migrated_to,
        "is_forum": group.is_forum,
        "topics": [
            {
                "message_thread_id": topic.message_thread_id,
                "name": topic.name,
                "icon_color": topic.icon_color,
                "creator_id": topic.creator_id,
                "icon_custom_emoji_id": topic.icon_custom_emoji_id,
                "closed": topic.closed,
                "deleted": topic.deleted,
            }
            for topic in group.topics.values()
        ],
    }


def group_from_json(data: JsonDict) -> Group:
    """The inverse of :func:`group_to_json`."""
    group = Group(
        id=int(data["id"]),
        title=str(data["title"]),
        members={int(member) for member in data.get("members", [])},
        admins={int(admin) for admin in data.get("admins", [])},
        creator_id=data.get("creator_id"),
        type=str(data.get("type", "supergroup")),
        bot_member=bool(data.get("bot_member", True)),
        bot_is_admin=bool(data.get("bot_is_admin")),
        migrated_to=data.get("migrated_to"),
        is_forum=bool(data.get("is_forum")),
    )
    for topic in data.get("topics", []):
        thread_id = int(topic["message_thread_id"])
        group.topics[thread_id] = Topic(
            chat_id=group.id,
            message_thread_id=thread_id,
            name=str(topic["name"]),
            icon_color=int(topic["icon_color"]),
            creator_id=int(topic["creator_id"]),
            icon_custom_emoji_id=topic.get("icon_custom_emoji_id"),
            closed=bool(topic.get("closed")),
            deleted=bool(topic.get("deleted")),
        )
    return group


def message_to_json(message: ChatMessage) -> JsonDict:
    """A stored message; the messages it replies to are named by ``[chat id, message id]``."""
    reply_to = message.reply_to
    return {
        "chat": message.chat,
        "message_id": message.message_id,
        "date": message.date,
        "sender": message.sender,
        "from_bot": message.from_bot,
        "text": message.text,
        "html": message.html,
        "parse_mode": message.parse_mode,
        "entities": message.entities,
        "reply_markup": message.reply_markup,
        "reply_to": [reply_to.chat_id, reply_to.message_id] if reply_to is not None else None,
        "edits": message.edits,
        "edit_date": message.edit_date,
        "deleted": message.deleted,
        "thread_id": message.thread_id,
        "reply_thread_id": message.reply_thread_id,
        "topic_root": message.topic_root.message_id if message.topic_root is not None else None,
        "service": message.service,
    }


def message_from_json(data: JsonDict) -> ChatMessage:
    """The inverse of :func:`message_to_json`, without its links to other messages (the state
    resolves ``data["reply_to"]`` and ``data["topic_root"]`` once every message is back)."""
    return ChatMessage(
        chat=dict(data["chat"]),
        message_id=int(data["message_id"]),
        date=int(data["date"]),
        sender=dict(data["sender"]),
        from_bot=bool(data["from_bot"]),
        text=str(data["text"]),
        html=str(data["html"]),
        parse_mode=data.get("parse_mode"),
        entities=list(data.get("entities") or []),
        reply_markup=data.get("reply_markup"),
        edits=int(data.get("edits", 0)),
        edit_date=data.get("edit_date"),
        deleted=bool(data.get("deleted")),
        thread_id=data.get("thread_id"),
        reply_thread_id=data.get("reply_thread_id"),
        service=data.get("service"),
    )


def check_version(data: Any) -> JsonDict:
    """``data`` if it is a snapshot this code can read; ValueError otherwise."""
    if not isinstance(data, dict) or data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"not an emulator snapshot of version {SNAPSHOT_VERSION}")
    return data
