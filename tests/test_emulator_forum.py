"""Tests of the emulator's forum topics and message threads, through a real PTB bot.

What Telegram sends was checked against the Bot API server's source (tdlib/telegram-bot-api,
``Client.cpp``): a message in a topic carries ``message_thread_id`` and ``is_topic_message`` and,
unless it replies to something else, the topic's creation message as ``reply_to_message``;
messages of the General topic carry neither; a reply in a supergroup that is not a forum
carries the reply chain's first message as ``message_thread_id``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import (
    ChatMemberAdministrator,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
)
from telegram.error import BadRequest
from telegram.ext import (
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from botapi_emulator import GENERAL_TOPIC_ID, BotApiEmulator, Group, Topic, User
from tests.test_emulator import call, plain_bot, polling_app

TOKEN = "123456:TEST"


@pytest.fixture
async def emu() -> AsyncIterator[BotApiEmulator]:
    async with BotApiEmulator(TOKEN, "kozel_test_bot") as emulator:
        yield emulator
    assert emulator.internal_errors == []


async def raw_updates(emu: BotApiEmulator) -> list[dict[str, Any]]:
    """Every queued update as JSON, confirming them."""
    _, body = await call(emu, "getUpdates")
    updates: list[dict[str, Any]] = body["result"]
    if updates:
        await call(emu, "getUpdates", offset=str(updates[-1]["update_id"] + 1))
    return updates


def forum(emu: BotApiEmulator, *, bot_is_admin: bool = False) -> tuple[Group, User, User]:
    """A forum with two members, Аня (its creator) and Боря."""
    anya = emu.add_user("Аня")
    borya = emu.add_user("Боря")
    group = emu.add_group(
        "Козлятня", members=[borya], creator=anya, bot_is_admin=bot_is_admin, forum=True
    )
    return group, anya, borya


# ------------------------------------------------------------------------------------ topics


async def test_forum_chat_says_is_forum(emu: BotApiEmulator) -> None:
    group, _, _ = forum(emu)
    plain = emu.add_group("Обычная")
    async with plain_bot(emu) as bot:
        assert (await bot.get_chat(group.id)).is_forum is True
        assert not (await bot.get_chat(plain.id)).is_forum
    assert group.to_json() == {
        "id": group.id,
        "type": "supergroup",
        "title": "Козлятня",
        "is_forum": True,
    }


async def test_person_creating_a_topic_posts_its_service_message(emu: BotApiEmulator) -> None:
    group, anya, _ = forum(emu)
    topic = emu.create_topic(group, anya, "Стол 1")
    assert topic.message_thread_id > GENERAL_TOPIC_ID
    (update,) = await raw_updates(emu)
    message = update["message"]
    assert message == {
        "message_id": topic.message_thread_id,
        "from": anya.to_json(),
        "chat": group.to_json(),
        "date": message["date"],
        "message_thread_id": topic.message_thread_id,
        "is_topic_message": True,
        "forum_topic_created": {"name": "Стол 1", "icon_color": 0x6FB9F0},
    }
    parsed = Message.de_json(message, None)
    assert parsed is not None and parsed.forum_topic_created is not None
    assert parsed.forum_topic_created.name == "Стол 1"
    assert emu.topic(group, "Стол 1") is topic
    assert emu.messages(group) == []  # a service message is not a bot message


async def test_command_in_a_topic_arrives_as_telegram_sends_it(emu: BotApiEmulator) -> None:
    group, anya, borya = forum(emu)
    topic = emu.create_topic(group, anya, "Стол 1")
    await raw_updates(emu)
    emu.send_text(borya, group, "/new@kozel_test_bot hvalenyi", thread=topic)
    (update,) = await raw_updates(emu)
    message = update["message"]
    assert message["message_thread_id"] == topic.message_thread_id
    assert message["is_topic_message"] is True
    assert message["entities"] == [{"type": "bot_command", "offset": 0, "length": 19}]
    root = message["reply_to_message"]
    assert root["message_id"] == topic.message_thread_id
    assert root["forum_topic_created"] == {"name": "Стол 1", "icon_color": 0x6FB9F0}
    assert root["from"] == anya.to_json()
    assert root["message_thread_id"] == topic.message_thread_id
    assert "reply_to_message" not in root


async def test_ptb_handler_answers_in_the_topic_it_was_asked_in(emu: BotApiEmulator) -> None:
    seen: list[tuple[int | None, bool | None]] = []

    async def new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.message is not None
        seen.append((update.message.message_thread_id, update.message.is_topic_message))
        await update.message.reply_text("Набор за стол", do_quote=False)

    group, anya, _ = forum(emu)
    first = emu.create_topic(group, anya, "Стол 1")
    second = emu.create_topic(group, anya, "Стол 2")
    async with polling_app(emu, CommandHandler("new", new)):
        emu.send_text(anya, group, "/new", thread=second)
        emu.send_text(anya, group, "/new")
        await emu.wait_for(lambda: len(emu.messages(group)) == 2)
        await emu.settle(quiet=0.1)
    assert seen == [(second.message_thread_id, True), (None, None)]
    in_second = emu.last_message(group, thread=second)
    assert in_second is not None and in_second.thread_id == second.message_thread_id
    assert emu.last_message(group, thread=first) is None
    in_general = emu.last_message(group, thread=GENERAL_TOPIC_ID)
    assert in_general is not None and in_general.thread_id is None


async def test_bot_sends_into_a_topic(emu: BotApiEmulator) -> None:
    group, anya, _ = forum(emu)
    topic = emu.create_topic(group, anya, "Стол 1")
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(group.id, "Ход Ани", message_thread_id=topic.id)
    assert sent.message_thread_id == topic.message_thread_id
    assert sent.is_topic_message is True
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.forum_topic_created is not None
    status, body = await call(
        emu, "sendMessage", chat_id=str(group.id), text="ещё", message_thread_id=str(topic.id)
    )
    assert status == 200
    result = body["result"]
    assert result["message_thread_id"] == topic.message_thread_id
    assert result["is_topic_message"] is True
    assert result["chat"]["is_forum"] is True
    assert result["reply_to_message"]["message_id"] == topic.message_thread_id
    stored = emu.message(group, sent.message_id)
    assert stored.thread_id == topic.message_thread_id


async def test_a_missing_topic_is_refused(emu: BotApiEmulator) -> None:
    group, anya, _ = forum(emu)
    gone = emu.create_topic(group, anya, "Старый стол")
    emu.delete_topic(gone, anya)
    plain = emu.add_group("Обычная")
    user = emu.add_user("Вася")
    await emu.start_private(user)
    async with plain_bot(emu) as bot:
        for chat_id, thread_id in (
            (group.id, 999),
            (group.id, GENERAL_TOPIC_ID),
            (group.id, gone.message_thread_id),
            (user.id, 5),
        ):
            with pytest.raises(BadRequest) as error:
                await bot.send_message(chat_id, "x", message_thread_id=thread_id)
            assert error.value.message.lower() == "message thread not found"
        # Outside forums the Bot API ignores message_thread_id.
        ignored = await bot.send_message(plain.id, "x", message_thread_id=999)
        assert ignored.message_thread_id is None and not ignored.is_topic_message
    status, body = await call(
        emu, "sendMessage", chat_id=str(group.id), text="x", message_thread_id="999"
    )
    assert (status, body["description"]) == (400, "Bad Request: message thread not found")


async def test_general_topic_messages_have_no_thread(emu: BotApiEmulator) -> None:
    group, anya, borya = forum(emu)
    emu.create_topic(group, anya, "Стол 1")
    await raw_updates(emu)
    first = emu.send_text(anya, group, "/new")
    emu.send_text(borya, group, "я тоже", reply_to=first.message_id)
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(group.id, "Набор")
        reply = await bot.send_message(
            group.id, "Ответ", reply_parameters=ReplyParameters(first.message_id)
        )
    command, answer = (update["message"] for update in await raw_updates(emu))
    for message in (command, answer, sent.to_dict(), reply.to_dict()):
        assert "message_thread_id" not in message
        assert "is_topic_message" not in message
    assert "reply_to_message" not in command
    assert answer["reply_to_message"]["message_id"] == first.message_id
    assert emu.messages(group, thread=GENERAL_TOPIC_ID) == emu.messages(group)


async def test_explicit_reply_inside_a_topic(emu: BotApiEmulator) -> None:
    group, anya, borya = forum(emu)
    topic = emu.create_topic(group, anya, "Стол 1")
    question = emu.send_text(anya, group, "кто играет?", thread=topic)
    # A client replying to a message of a topic writes in that topic.
    emu.send_text(borya, group, "я", reply_to=question.message_id)
    _, asked, answered = (update["message"] for update in await raw_updates(emu))
    assert asked["reply_to_message"]["message_id"] == topic.message_thread_id
    assert answered["message_thread_id"] == topic.message_thread_id
    assert answered["is_topic_message"] is True
    assert answered["reply_to_message"]["message_id"] == question.message_id
    assert answered["reply_to_message"]["from"] == anya.to_json()
    assert answered["reply_to_message"]["text"] == "кто играет?"
    assert "external_reply" not in answered
    async with plain_bot(emu) as bot:
        # A reply without message_thread_id goes to the replied message's topic.
        reply = await bot.send_message(
            group.id, "Садись", reply_parameters=ReplyParameters(question.message_id)
        )
    assert reply.message_thread_id == topic.message_thread_id
    assert reply.is_topic_message is True
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == question.message_id


async def test_reply_across_topics_is_an_external_reply(emu: BotApiEmulator) -> None:
    group, anya, _ = forum(emu)
    first = emu.create_topic(group, anya, "Стол 1")
    second = emu.create_topic(group, anya, "Стол 2")
    there = emu.send_text(anya, group, "там", thread=first)
    async with plain_bot(emu) as bot:
        reply = await bot.send_message(
            group.id,
            "здесь",
            message_thread_id=second.id,
            reply_parameters=ReplyParameters(there.message_id),
        )
    assert reply.message_thread_id == second.message_thread_id
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == second.message_thread_id  # the topic's root
    assert reply.external_reply is not None
    assert reply.external_reply.message_id == there.message_id
    assert emu.messages(group, thread=second)[0].message_id == reply.message_id


async def test_messages_can_be_filtered_by_topic(emu: BotApiEmulator) -> None:
    group, anya, _ = forum(emu)
    first = emu.create_topic(group, anya, "Стол 1")
    second = emu.create_topic(group, anya, "Стол 2")
    async with plain_bot(emu) as bot:
        for thread, text in ((first, "раз"), (second, "два"), (None, "общий"), (first, "три")):
            thread_id = thread.message_thread_id if thread is not None else None
            await bot.send_message(group.id, text, message_thread_id=thread_id)
    assert [m.text for m in emu.messages(group)] == ["раз", "два", "общий", "три"]
    assert [m.text for m in emu.messages(group, thread=first)] == ["раз", "три"]
    assert [m.text for m in emu.messages(group, thread=second.message_thread_id)] == ["два"]
    assert [m.text for m in emu.messages(group, thread=GENERAL_TOPIC_ID)] == ["общий"]
    last = emu.last_message(group, thread=second)
    assert last is not None and last.text == "два"
    assert emu.find_message(group, "раз", thread=second) is None
    found = emu.find_message(group, "раз", thread=first)
    assert found is not None and found.thread_id == first.message_thread_id
    texts = [m.text or next(iter(m.service or {})) for m in emu.all_messages(group, thread=first)]
    assert texts == ["forum_topic_created", "раз", "три"]


async def test_edits_and_button_presses_keep_the_topic(emu: BotApiEmulator) -> None:
    pressed: list[int | None] = []

    async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and isinstance(query.message, Message)
        pressed.append(query.message.message_thread_id)
        await query.answer()
        await query.edit_message_text("Аня за столом")

    group, anya, _ = forum(emu, bot_is_admin=True)
    topic = emu.create_topic(group, anya, "Стол 1")
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Сесть", callback_data="join")]])
    async with polling_app(emu, CallbackQueryHandler(join)) as app:
        lobby = await app.bot.send_message(
            group.id, "Набор", message_thread_id=topic.id, reply_markup=keyboard
        )
        await emu.press(anya, group, lobby.message_id)
        await emu.wait_for(lambda: emu.message(group, lobby.message_id).edits == 1)
        await emu.settle(quiet=0.1)
    assert pressed == [topic.message_thread_id]
    edited = emu.last_message(group, thread=topic)
    assert edited is not None and edited.text == "Аня за столом"
    assert edited.to_json()["message_thread_id"] == topic.message_thread_id
    async with plain_bot(emu) as bot:
        own = await bot.create_forum_topic(group.id, "Стол 2")
        with pytest.raises(BadRequest, match=r"(?i)message can't be edited"):
            await bot.edit_message_text("x", chat_id=group.id, message_id=own.message_thread_id)


# ------------------------------------------------------------------------------------ topic methods


async def test_bot_creates_topics_only_as_an_admin_of_a_forum(emu: BotApiEmulator) -> None:
    group, _, _ = forum(emu)
    plain = emu.add_group("Обычная", bot_is_admin=True)
    async with plain_bot(emu) as bot:
        with pytest.raises(BadRequest, match=r"(?i)not enough rights to create a topic"):
            await bot.create_forum_topic(group.id, "Стол 1")
        with pytest.raises(BadRequest, match=r"(?i)the chat is not a forum"):
            await bot.create_forum_topic(plain.id, "Стол 1")
        group.bot_is_admin = True
        member = await bot.get_chat_member(group.id, emu.bot_id)
        assert isinstance(member, ChatMemberAdministrator) and member.can_manage_topics
        created = await bot.create_forum_topic(group.id, "Стол 1", icon_color=0xFFD67E)
        assert created.name == "Стол 1"
        assert created.icon_color == 0xFFD67E
        sent = await bot.send_message(
            group.id, "Набор", message_thread_id=created.message_thread_id
        )
    topic = emu.topic(group, created.message_thread_id)
    assert isinstance(topic, Topic) and topic.creator_id == emu.bot_id
    root = emu.message(group, created.message_thread_id)
    assert root.from_bot and root.service == {
        "forum_topic_created": {"name": "Стол 1", "icon_color": 0xFFD67E}
    }
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.message_id == created.message_thread_id
    assert await raw_updates(emu) == []  # the bot gets no update for its own messages


async def test_closed_topics_and_deleted_topics(emu: BotApiEmulator) -> None:
    group, anya, borya = forum(emu)
    topic = emu.create_topic(group, borya, "Стол 1")
    kept = emu.send_text(borya, group, "привет", thread=topic)
    emu.close_topic(topic, anya)  # the group's creator may
    with pytest.raises(AssertionError, match="closed"):
        emu.send_text(emu.add_user("Вася"), group, "можно?", thread=topic)
    emu.send_text(borya, group, "мой стол", thread=topic)  # the topic's creator may write
    async with plain_bot(emu) as bot:
        with pytest.raises(BadRequest) as error:
            await bot.send_message(group.id, "x", message_thread_id=topic.id)
        assert error.value.message.lower() == "topic_closed"
        with pytest.raises(BadRequest, match=r"(?i)not enough rights to close or open the topic"):
            await bot.reopen_forum_topic(group.id, topic.id)
        group.bot_is_admin = True
        await bot.send_message(group.id, "админу можно", message_thread_id=topic.id)
        with pytest.raises(BadRequest) as error:
            await bot.close_forum_topic(group.id, topic.id)
        assert error.value.message.lower() == "topic_not_modified"
        assert await bot.reopen_forum_topic(group.id, topic.id)
        assert await bot.edit_forum_topic(group.id, topic.id, name="Стол №1")
        assert topic.name == "Стол №1" and not topic.closed
        assert await bot.delete_forum_topic(group.id, topic.id)
        assert topic.deleted and emu.message(group, kept.message_id).deleted
        assert emu.messages(group, thread=topic) == []
        with pytest.raises(BadRequest) as error:
            await bot.close_forum_topic(group.id, topic.id)
        assert error.value.message.lower() == "topic_id_invalid"
        with pytest.raises(BadRequest) as error:
            await bot.send_message(group.id, "x", message_thread_id=topic.id)
        assert error.value.message.lower() == "message thread not found"
    # People's service messages reach the bot; the bot's own (reopened, edited) do not.
    kinds = [
        next((key for key in update["message"] if key.startswith("forum_topic")), "text")
        for update in await raw_updates(emu)
    ]
    assert kinds == ["forum_topic_created", "text", "forum_topic_closed", "text"]
    services = [m for m in emu.all_messages(group, include_deleted=True) if m.service]
    assert [next(iter(m.service or {})) for m in services] == [
        "forum_topic_created",
        "forum_topic_closed",
        "forum_topic_reopened",
        "forum_topic_edited",
    ]
    assert services[-1].service == {"forum_topic_edited": {"name": "Стол №1"}}


# ------------------------------------------------------------------------------------ replies


async def test_reply_to_another_persons_message_carries_its_author(emu: BotApiEmulator) -> None:
    anya = emu.add_user("Аня")
    borya = emu.add_user("Боря")
    group = emu.add_group("Козлятня", members=[anya, borya])
    first = emu.send_text(anya, group, "кто играет?")
    second = emu.send_text(borya, group, "я", reply_to=first.message_id)
    emu.send_text(anya, group, "садись", reply_to=second.message_id)
    asked, answered, seated = (update["message"] for update in await raw_updates(emu))
    assert "reply_to_message" not in asked and "message_thread_id" not in asked
    assert answered["reply_to_message"]["from"] == anya.to_json()
    assert answered["reply_to_message"]["text"] == "кто играет?"
    assert "reply_to_message" not in answered["reply_to_message"]
    assert seated["reply_to_message"]["from"] == borya.to_json()
    # A reply chain in a supergroup is a thread: message_thread_id is its first message.
    assert answered["message_thread_id"] == seated["message_thread_id"] == first.message_id
    assert "is_topic_message" not in answered
    parsed = Message.de_json(seated, None)
    assert parsed is not None and parsed.reply_to_message is not None
    assert parsed.reply_to_message.from_user is not None
    assert parsed.reply_to_message.from_user.id == borya.id
    assert emu.messages(group, thread=GENERAL_TOPIC_ID) == emu.messages(group)
