"""The Bot API methods the emulator implements, on top of :class:`~.state.EmulatorState`.

Each method takes the decoded request parameters and returns the ``result`` value, or raises
:class:`~.errors.ApiError`. ``getUpdates`` waits for updates and so lives in the server; every
other method is synchronous. Requests that change a chat (sends, edits, deletions) pass the flood
limits first; ``answerCallbackQuery`` and reads do not count.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from . import errors
from .entities import FormattedText, HtmlParseError, parse_html
from .errors import ApiError, bad_request
from .keyboards import parse_reply_markup
from .models import (
    GENERAL_TOPIC_ID,
    TOPIC_ICON_COLORS,
    AnswerEvent,
    CallbackAnswer,
    ChatMessage,
    FloodError,
    Group,
    JsonDict,
    MessageEvent,
    Photo,
    Topic,
    Webhook,
)
from .photos import CAPTION_TOO_LONG, MAX_CAPTION_LENGTH, dimensions, photo_source
from .state import EmulatorState

MAX_TEXT_LENGTH = 4096
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_COMMANDS = 100
MAX_TOPIC_NAME_LENGTH = 128

#: Parameters PTB sends as raw strings; every other value arrives JSON-encoded.
STRING_FIELDS = frozenset(
    {
        "text",
        "parse_mode",
        "callback_query_id",
        "inline_message_id",
        "url",
        "language_code",
        "action",
        "caption",
        "photo",
        "title",
        "description",
        "short_description",
        "name",
        "emoji",
        "custom_title",
        "business_connection_id",
        "message_effect_id",
        "secret_token",
        "icon_custom_emoji_id",
    }
)

_COMMAND_RE = re.compile(r"[a-z0-9_]{1,32}")
_SECRET_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,256}")

Method = Callable[[JsonDict], Any]


def decode_params(raw: Mapping[str, Any]) -> JsonDict:
    """Decode request fields: JSON-decode every non-string field that is valid JSON."""
    params: JsonDict = {}
    for key, value in raw.items():
        if isinstance(value, str) and key not in STRING_FIELDS:
            with contextlib.suppress(ValueError):
                value = json.loads(value)
        params[key] = value
    return params


def _int(params: JsonDict, name: str) -> int:
    value = params.get(name)
    if value is None or value == "":
        raise bad_request(f"{name} is empty" if name == "chat_id" else f"{name} is required")
    if isinstance(value, bool):
        raise bad_request(f'field "{name}" must be of type Integer')
    try:
        return int(value)
    except (TypeError, ValueError) as error:
        raise bad_request(f'field "{name}" must be of type Integer') from error


def _optional_int(params: JsonDict, name: str, default: int) -> int:
    return default if params.get(name) in (None, "") else _int(params, name)


def _thread_param(params: JsonDict) -> int:
    """``message_thread_id`` as the Bot API server reads it: absent, garbage or negative is 0."""
    value = params.get("message_thread_id")
    if isinstance(value, bool):
        return 0
    try:
        return max(int(value), 0) if value not in (None, "") else 0
    except (TypeError, ValueError):
        return 0


def _string(params: JsonDict, name: str) -> str:
    """A string parameter ("" if absent); numbers PTB JSON-encoded come back as text."""
    value = params.get(name)
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _bool(params: JsonDict, name: str) -> bool:
    value = params.get(name)
    if isinstance(value, str):
        return value.lower() in ("true", "1")
    return bool(value)


class BotApiMethods:
    """Bot API method implementations; :meth:`table` maps lower-case names to them."""

    def __init__(self, state: EmulatorState) -> None:
        self.state = state

    def table(self) -> dict[str, Method]:
        """Method name (lower case, as Telegram method names are case-insensitive) -> handler."""
        methods: dict[str, Method] = {
            "getMe": self.get_me,
            "logOut": self.true,
            "close": self.true,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "sendMessage": self.send_message,
            "sendPhoto": self.send_photo,
            "editMessageText": self.edit_message_text,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message,
            "answerCallbackQuery": self.answer_callback_query,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": self.get_my_commands,
            "deleteMyCommands": self.delete_my_commands,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "sendChatAction": self.send_chat_action,
            "createForumTopic": self.create_forum_topic,
            "editForumTopic": self.edit_forum_topic,
            "closeForumTopic": self.close_forum_topic,
            "reopenForumTopic": self.reopen_forum_topic,
            "deleteForumTopic": self.delete_forum_topic,
        }
        return {name.lower(): method for name, method in methods.items()}

    # ----------------------------------------------------------------- helpers

    def _chat_id(self, params: JsonDict) -> int:
        value = params.get("chat_id")
        if isinstance(value, str) and value.startswith("@"):
            raise bad_request("chat not found")  # no public usernames in the emulator
        return _int(params, "chat_id")

    def _known_chat(self, params: JsonDict) -> int:
        """A chat the bot can see (a group it is in, or a private chat that was opened)."""
        chat_id = self._chat_id(params)
        state = self.state
        if chat_id < 0:
            if chat_id not in state.groups:
                raise ApiError(400, errors.CHAT_NOT_FOUND)
        elif chat_id not in state.users or not state.users[chat_id].started:
            raise ApiError(400, errors.CHAT_NOT_FOUND)
        return chat_id

    def _target(self, params: JsonDict) -> int:
        """A chat the bot may write to; 400 if unknown, 403 if the bot may not write there."""
        chat_id = self._chat_id(params)
        state = self.state
        if chat_id < 0:
            group = state.groups.get(chat_id)
            if group is None:
                raise ApiError(400, errors.CHAT_NOT_FOUND)
            if group.migrated_to is not None:
                raise ApiError(400, errors.MIGRATED, {"migrate_to_chat_id": group.migrated_to})
            if not group.bot_member:
                raise ApiError(403, errors.KICKED)
            return chat_id
        user = state.users.get(chat_id)
        if user is None:
            raise ApiError(400, errors.CHAT_NOT_FOUND)
        if not user.started:
            raise ApiError(403, errors.CANT_INITIATE)
        if user.blocked:
            raise ApiError(403, errors.BLOCKED)
        return chat_id

    def _throttle(self, method: str, chat_id: int) -> None:
        state = self.state
        wait = state.flood.retry_after(chat_id, state.is_group(chat_id))
        if wait > 0:
            error = errors.too_many_requests(wait)
            retry_after = int((error.parameters or {})["retry_after"])
            state.record_flood(FloodError(method, chat_id, retry_after, state.clock()))
            raise error

    def _count(self, chat_id: int) -> None:
        self.state.flood.record(chat_id, self.state.is_group(chat_id))

    def _lookup_user(self, user_id: int) -> JsonDict | None:
        user = self.state.users.get(user_id)
        return user.to_json() if user is not None else None

    def _format(
        self, params: JsonDict, *, caption: bool = False
    ) -> tuple[str, FormattedText, str | None]:
        """``(text as sent, parsed text, parse mode)``, the mode ``"HTML"`` or None; 400 for
        empty, too long or unparsable text. With ``caption`` it reads a media caption
        (``caption``, ``caption_entities``), which may be absent or empty."""
        raw = params.get("caption" if caption else "text")
        if raw is None:
            if caption:
                return "", FormattedText("", []), None
            raise ApiError(400, errors.TEXT_EMPTY)
        source = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)
        parse_mode = str(params.get("parse_mode") or "")
        if not parse_mode:
            entities = params.get("caption_entities" if caption else "entities") or []
            if not isinstance(entities, list):
                raise bad_request("can't parse entities JSON object")
            formatted = FormattedText(source, [dict(entity) for entity in entities])
        elif parse_mode.lower() == "html":
            try:
                formatted = parse_html(source, self._lookup_user)
            except HtmlParseError as error:
                raise bad_request(f"can't parse entities: {error}") from error
        else:
            raise bad_request(f"unsupported parse_mode {parse_mode!r} (the emulator knows HTML)")
        if caption and len(formatted.text) > MAX_CAPTION_LENGTH:
            raise ApiError(400, CAPTION_TOO_LONG)
        if caption and not formatted.text.strip():
            return "", FormattedText("", []), None
        if caption:
            return source, formatted, "HTML" if parse_mode else None
        if not formatted.text.strip():
            raise ApiError(400, errors.TEXT_EMPTY)
        if len(formatted.text) > MAX_TEXT_LENGTH:
            raise ApiError(400, errors.TEXT_TOO_LONG)
        return source, formatted, "HTML" if parse_mode else None

    def _reply_target(self, chat_id: int, params: JsonDict) -> ChatMessage | None:
        reply = params.get("reply_parameters")
        if isinstance(reply, dict):
            message_id = reply.get("message_id")
            allow_missing = bool(reply.get("allow_sending_without_reply"))
            reply_chat = reply.get("chat_id", chat_id)
        else:
            message_id = params.get("reply_to_message_id")
            allow_missing = _bool(params, "allow_sending_without_reply")
            reply_chat = chat_id
        if message_id is None:
            return None
        try:
            target = self.state.lookup(int(reply_chat), int(message_id))
        except (TypeError, ValueError):
            target = None
        if target is None or target.deleted:
            if allow_missing:
                return None
            raise ApiError(400, errors.MESSAGE_TO_REPLY_NOT_FOUND)
        return target

    def _editable(self, params: JsonDict) -> ChatMessage:
        if params.get("inline_message_id"):
            raise bad_request("inline messages are not supported by the emulator")
        chat_id = self._target(params)
        message = self.state.lookup(chat_id, _int(params, "message_id"))
        if message is None or message.deleted or not message.from_bot:
            raise ApiError(400, errors.MESSAGE_TO_EDIT_NOT_FOUND)
        if message.is_service:
            raise ApiError(400, errors.CANT_EDIT)
        return message

    # ----------------------------------------------------------------- forum topics

    def _send_topic(self, chat_id: int, params: JsonDict) -> Topic | None:
        """The topic ``message_thread_id`` names, checked as the Bot API server does.

        Absent, 0 or negative: none. In a forum it must be a live topic (the General topic, 1,
        is refused too: leave the parameter out to write there); in a supergroup or group that
        is not a forum it is ignored; in a private chat it is refused (topics in private chats
        of bots are not modelled).
        """
        thread_id = _thread_param(params)
        if thread_id == 0:
            return None
        if chat_id > 0:
            raise ApiError(400, errors.THREAD_NOT_FOUND)
        group = self.state.groups[chat_id]
        if not group.is_forum or group.type != "supergroup":
            return None
        topic = group.topic(thread_id)
        if thread_id == GENERAL_TOPIC_ID or topic is None:
            raise ApiError(400, errors.THREAD_NOT_FOUND)
        return topic

    def _check_open(self, chat_id: int, thread_id: int | None) -> None:
        """400 ``TOPIC_CLOSED`` for a message into a closed topic the bot may not write in
        (it may if it is an admin or created the topic)."""
        group = self.state.groups.get(chat_id)
        topic = group.topic(thread_id) if group is not None and thread_id is not None else None
        if topic is not None and topic.closed and not self._manages(group, topic):
            raise ApiError(400, errors.TOPIC_CLOSED)

    def _manages(self, group: Group | None, topic: Topic) -> bool:
        """Whether the bot may manage ``topic``: it is an admin or the topic's creator."""
        return group is not None and (group.bot_is_admin or topic.creator_id == self.state.bot_id)

    def _forum(self, params: JsonDict) -> Group:
        """The forum a topic method names; 400 if the chat is not a forum."""
        chat_id = self._target(params)
        group = self.state.groups.get(chat_id)
        if group is None or not group.is_forum or group.type != "supergroup":
            raise ApiError(400, errors.NOT_A_FORUM)
        return group

    def _managed_topic(self, params: JsonDict, rights_error: str) -> tuple[Group, Topic]:
        """The forum and live topic a topic method names, checked in Telegram's order: an
        invalid id, missing rights on a known topic, then an unknown or deleted topic."""
        group = self._forum(params)
        thread_id = _thread_param(params)
        if thread_id <= 0:
            raise ApiError(400, errors.INVALID_TOPIC_ID)
        topic = group.topic(thread_id)
        if topic is not None and not self._manages(group, topic):
            raise bad_request(rights_error)
        if topic is None:
            raise ApiError(400, errors.TOPIC_ID_INVALID)
        return group, topic

    def create_forum_topic(self, params: JsonDict) -> JsonDict:
        """``createForumTopic``: the bot (an admin) opens a topic; returns the ``ForumTopic``.

        The bot's own ``forum_topic_created`` message is stored but not sent to it as an update.
        An ``icon_color`` left out or 0 becomes the first allowed colour (0x6FB9F0); other
        colours are taken as given (Telegram's answer to one outside its list is not modelled).
        """
        group = self._forum(params)
        if not group.bot_is_admin:
            raise bad_request("not enough rights to create a topic")
        name = _string(params, "name").strip()[:MAX_TOPIC_NAME_LENGTH]
        if not name:
            raise bad_request("name must be non-empty")
        icon_color = _optional_int(params, "icon_color", 0)
        if not 0 <= icon_color <= 0xFFFFFF:
            raise bad_request("invalid icon color specified")
        emoji = _string(params, "icon_custom_emoji_id") or None
        topic = self.state.create_topic(
            group,
            None,
            name,
            icon_color=icon_color or TOPIC_ICON_COLORS[0],
            icon_custom_emoji_id=emoji,
        )
        return topic.to_json()

    def edit_forum_topic(self, params: JsonDict) -> bool:
        """``editForumTopic``: a new name and/or custom emoji icon (``""`` removes it)."""
        group, topic = self._managed_topic(params, "not enough rights to edit the topic")
        edit_name = bool(_string(params, "name"))
        name = _string(params, "name").strip()[:MAX_TOPIC_NAME_LENGTH]
        if edit_name and not name:
            raise bad_request("name must be non-empty")
        edit_emoji = "icon_custom_emoji_id" in params
        emoji = _string(params, "icon_custom_emoji_id") or None
        if not edit_name and not edit_emoji:
            return True
        edited: JsonDict = {}
        if edit_name and name != topic.name:
            edited["name"] = name
        if edit_emoji and emoji != topic.icon_custom_emoji_id:
            edited["icon_custom_emoji_id"] = emoji or ""
        if not edited:
            raise ApiError(400, errors.TOPIC_NOT_MODIFIED)
        topic.name = edited.get("name", topic.name)
        if "icon_custom_emoji_id" in edited:
            topic.icon_custom_emoji_id = emoji
        self.state.post_service(group, topic, None, {"forum_topic_edited": edited})
        return True

    def close_forum_topic(self, params: JsonDict) -> bool:
        """``closeForumTopic``: only admins and the creator may write in it any more."""
        return self._toggle_topic(params, closed=True)

    def reopen_forum_topic(self, params: JsonDict) -> bool:
        """``reopenForumTopic``."""
        return self._toggle_topic(params, closed=False)

    def _toggle_topic(self, params: JsonDict, *, closed: bool) -> bool:
        group, topic = self._managed_topic(params, "not enough rights to close or open the topic")
        if topic.closed == closed:
            raise ApiError(400, errors.TOPIC_NOT_MODIFIED)
        topic.closed = closed
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        self.state.post_service(group, topic, None, {kind: {}})
        return True

    def delete_forum_topic(self, params: JsonDict) -> bool:
        """``deleteForumTopic``: the topic and all its messages are gone (no update)."""
        _, topic = self._managed_topic(params, "not enough rights to delete the topic")
        self.state.delete_topic(topic)
        return True

    # ----------------------------------------------------------------- methods

    def true(self, params: JsonDict) -> bool:
        """Methods with nothing to do here (``logOut``, ``close``)."""
        return True

    def get_me(self, params: JsonDict) -> JsonDict:
        """``getMe``: the bot user."""
        return {
            **self.state.bot_json(),
            "can_join_groups": self.state.can_join_groups,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def set_webhook(self, params: JsonDict) -> bool:
        """``setWebhook``: from now on updates are POSTed to ``url`` (an empty url deletes it).

        Plain ``http`` URLs on any port are accepted (Telegram wants ``https`` on 443, 80, 88
        or 8443) so that a local receiver can be used.
        """
        url = str(params.get("url") or "")
        drop = _bool(params, "drop_pending_updates")
        if not url:
            self.state.set_webhook(None, drop_pending_updates=drop)
            return True
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret in (None, ""):
            secret = None
        elif not isinstance(secret, str) or not _SECRET_TOKEN_RE.fullmatch(secret):
            raise bad_request("secret token contains unallowed characters")
        allowed = params.get("allowed_updates")
        if isinstance(allowed, str):
            allowed = [allowed]
        if allowed is not None and not (
            isinstance(allowed, list) and all(isinstance(kind, str) for kind in allowed)
        ):
            raise bad_request("can't parse allowed updates")
        max_connections = min(max(_optional_int(params, "max_connections", 40), 1), 100)
        webhook = Webhook(url, secret, max_connections, tuple(allowed or ()))
        self.state.set_webhook(webhook, drop_pending_updates=drop)
        return True

    def delete_webhook(self, params: JsonDict) -> bool:
        """``deleteWebhook``: back to ``getUpdates``; optionally drop the queued updates."""
        self.state.set_webhook(None, drop_pending_updates=_bool(params, "drop_pending_updates"))
        return True

    def get_webhook_info(self, params: JsonDict) -> JsonDict:
        """``getWebhookInfo``: the webhook's url (empty if none) and the updates waiting."""
        state = self.state
        webhook = state.webhook
        info: JsonDict = {
            "url": webhook.url if webhook is not None else "",
            "has_custom_certificate": False,
            "pending_update_count": state.undelivered_updates,
        }
        if webhook is not None:
            info["max_connections"] = webhook.max_connections
            if webhook.allowed_updates:
                info["allowed_updates"] = list(webhook.allowed_updates)
            if state.webhook_last_error is not None:
                info["last_error_date"], info["last_error_message"] = state.webhook_last_error
        return info

    def send_message(self, params: JsonDict) -> JsonDict:
        """``sendMessage``: a new bot message in a chat, in a forum topic with
        ``message_thread_id`` (see :meth:`_send_topic`).

        A reply sent without ``message_thread_id`` goes to the replied message's topic; one
        with ``message_thread_id`` to a message of another topic lands in the named topic as an
        ``external_reply``, as the Bot API server allows.
        """
        chat_id = self._target(params)
        return self._post("sendMessage", chat_id, params, self._format(params))

    def send_photo(self, params: JsonDict) -> JsonDict:
        """``sendPhoto``: a photo with an optional caption (at most ``MAX_CAPTION_LENGTH``
        characters once parsed), placed as :meth:`send_message` places a message.

        The photo is an upload (``multipart/form-data``) or the ``file_id`` of a photo sent
        before (see :mod:`.photos` for what is refused). The message keeps the upload's bytes
        (``ChatMessage.photo``), and its caption as its text.
        """
        chat_id = self._target(params)
        source = photo_source(params, self.state.photos)
        photo = source if isinstance(source, Photo) else (source.data, *dimensions(source))
        return self._post("sendPhoto", chat_id, params, self._format(params, caption=True), photo)

    def _post(
        self,
        method: str,
        chat_id: int,
        params: JsonDict,
        text: tuple[str, FormattedText, str | None],
        photo: Photo | tuple[bytes, int, int] | None = None,
    ) -> JsonDict:
        """Post a new bot message, ``text`` as :meth:`_format` read it, after the checks of
        keyboard, topic, reply and flood limits; ``photo`` is a photo sent before or an
        upload's ``(bytes, width, height)``, kept as a new photo only once every check passed.
        """
        state = self.state
        source, formatted, parse_mode = text
        markup = parse_reply_markup(params.get("reply_markup"), private=self._private(chat_id))
        topic = self._send_topic(chat_id, params)
        reply_to = self._reply_target(chat_id, params)
        threads = state.thread_fields(chat_id, topic, reply_to)
        self._check_open(chat_id, threads.get("thread_id"))
        self._throttle(method, chat_id)
        message = state.store(
            ChatMessage(
                chat=state.chat_json(chat_id),
                message_id=state.new_message_id(chat_id),
                date=int(time.time()),
                sender=state.bot_json(),
                from_bot=True,
                text=formatted.text,
                html=source,
                parse_mode=parse_mode,
                entities=formatted.entities,
                reply_markup=markup,
                reply_to=reply_to,
                photo=state.add_photo(*photo) if isinstance(photo, tuple) else photo,
                **threads,
            )
        )
        self._count(chat_id)
        return message.to_json()

    def edit_message_text(self, params: JsonDict) -> JsonDict:
        """``editMessageText``; without ``reply_markup`` the inline keyboard is removed. A
        photo has no text to edit (its caption is ``editMessageCaption``'s, not emulated)."""
        message = self._editable(params)
        if message.photo is not None:
            raise bad_request("there is no text in the message to edit")
        source, formatted, parse_mode = self._format(params)
        markup = parse_reply_markup(
            params.get("reply_markup"), inline_only=True, private=self._private(message.chat_id)
        )
        if (
            formatted.text == message.text
            and formatted.entities == message.entities
            and markup == message.reply_markup
        ):
            raise ApiError(400, errors.NOT_MODIFIED)
        self._throttle("editMessageText", message.chat_id)
        message.versions.append(message.text)
        message.shown.append((message.text, message.reply_markup))
        message.text = formatted.text
        message.html = source
        message.parse_mode = parse_mode
        message.entities = formatted.entities
        message.reply_markup = markup
        self._edited(message)
        return message.to_json()

    def edit_message_reply_markup(self, params: JsonDict) -> JsonDict:
        """``editMessageReplyMarkup``; without ``reply_markup`` the keyboard is removed."""
        message = self._editable(params)
        markup = parse_reply_markup(
            params.get("reply_markup"), inline_only=True, private=self._private(message.chat_id)
        )
        if markup == message.reply_markup:
            raise ApiError(400, errors.NOT_MODIFIED)
        self._throttle("editMessageReplyMarkup", message.chat_id)
        message.shown.append((message.text, message.reply_markup))
        message.reply_markup = markup
        self._edited(message)
        return message.to_json()

    def _private(self, chat_id: int) -> bool:
        """Whether ``chat_id`` is a person's private chat with the bot."""
        return not self.state.is_group(chat_id)

    def _edited(self, message: ChatMessage) -> None:
        message.edits += 1
        message.edit_date = int(time.time())
        self._count(message.chat_id)
        self.state.notify(MessageEvent(message, "edited"))

    def delete_message(self, params: JsonDict) -> bool:
        """``deleteMessage``: the bot's own messages, or anyone's in a group it administers."""
        state = self.state
        chat_id = self._target(params)
        message = state.lookup(chat_id, _int(params, "message_id"))
        if message is None or message.deleted:
            raise ApiError(400, errors.MESSAGE_TO_DELETE_NOT_FOUND)
        if not message.from_bot and chat_id < 0 and not state.groups[chat_id].bot_is_admin:
            raise bad_request("message can't be deleted")
        self._throttle("deleteMessage", chat_id)
        message.deleted = True
        self._count(chat_id)
        self.state.notify(MessageEvent(message, "deleted"))
        return True

    def answer_callback_query(self, params: JsonDict) -> bool:
        """``answerCallbackQuery``: each query may be answered once."""
        query_id = str(params.get("callback_query_id") or "")
        query = self.state.queries.get(query_id)
        if query is None or query.answer is not None:
            raise ApiError(400, errors.QUERY_TOO_OLD)
        text = params.get("text")
        if text is not None and not isinstance(text, str):
            text = str(text)
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request("MESSAGE_TOO_LONG")
        cache_time = params.get("cache_time")
        query.answer = CallbackAnswer(
            query_id=query_id,
            text=text,
            show_alert=_bool(params, "show_alert"),
            url=params.get("url"),
            cache_time=int(cache_time) if cache_time is not None else None,
        )
        self.state.notify(AnswerEvent(query.user, query.message, query.data, query.answer))
        return True

    @staticmethod
    def _commands_key(params: JsonDict) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        if isinstance(scope, str):
            scope = {"type": scope}
        return json.dumps(scope, sort_keys=True), str(params.get("language_code") or "")

    def set_my_commands(self, params: JsonDict) -> bool:
        """``setMyCommands``: stored per scope and language."""
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
            raise bad_request("commands must be a list of at most 100 BotCommand")
        for command in commands:
            if not isinstance(command, dict) or not _COMMAND_RE.fullmatch(
                str(command.get("command", ""))
            ):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.state.commands[self._commands_key(params)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def get_my_commands(self, params: JsonDict) -> list[JsonDict]:
        """``getMyCommands`` for exactly the given scope and language."""
        return list(self.state.commands.get(self._commands_key(params), []))

    def delete_my_commands(self, params: JsonDict) -> bool:
        """``deleteMyCommands`` for the given scope and language."""
        self.state.commands.pop(self._commands_key(params), None)
        return True

    def get_chat(self, params: JsonDict) -> JsonDict:
        """``getChat``: a minimal ``ChatFullInfo``."""
        chat_id = self._known_chat(params)
        return {
            **self.state.chat_json(chat_id),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def get_chat_member(self, params: JsonDict) -> JsonDict:
        """``getChatMember``: creator, administrator, member or left."""
        state = self.state
        chat_id = self._known_chat(params)
        user_id = _int(params, "user_id")
        if user_id == state.bot_id:
            is_admin = chat_id < 0 and state.groups[chat_id].bot_is_admin
            user_json = state.bot_json()
            if is_admin:
                return _administrator(user_json, state.groups[chat_id].type == "supergroup")
            return _member("member", user_json)
        user = state.users.get(user_id)
        if user is None:
            raise ApiError(400, errors.USER_NOT_FOUND)
        if chat_id > 0:
            return _member("member" if user_id == chat_id else "left", user.to_json())
        group = state.groups[chat_id]
        if user_id == group.creator_id:
            return {**_member("creator", user.to_json()), "is_anonymous": False}
        if user_id in group.admins:
            return _administrator(user.to_json(), group.type == "supergroup")
        return _member("member" if user_id in group.members else "left", user.to_json())

    def send_chat_action(self, params: JsonDict) -> bool:
        """``sendChatAction``: accepted, not counted against flood limits."""
        self._target(params)
        if not params.get("action"):
            raise bad_request("action is empty")
        return True


def _member(status: str, user: JsonDict) -> JsonDict:
    return {"status": status, "user": user}


def _administrator(user: JsonDict, supergroup: bool = True) -> JsonDict:
    rights = (
        "can_manage_chat",
        "can_delete_messages",
        "can_manage_video_chats",
        "can_restrict_members",
        "can_invite_users",
        "can_pin_messages",
    )
    data: JsonDict = {
        **_member("administrator", user),
        "can_be_edited": False,
        "is_anonymous": False,
        "can_promote_members": False,
        "can_change_info": False,
        "can_post_stories": False,
        "can_edit_stories": False,
        "can_delete_stories": False,
    }
    data.update(dict.fromkeys(rights, True))
    if supergroup:
        data["can_manage_topics"] = True
    return data
