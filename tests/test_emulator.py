"""Tests of the Bot API emulator: its wire format, its rules and a real PTB bot running on it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    WebAppInfo,
)
from telegram.error import BadRequest, Forbidden, RetryAfter
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
)

from botapi_emulator import BotApiEmulator, FloodControl, HtmlParseError, Limits, parse_html
from botapi_emulator.hosts import is_local_host

TOKEN = "123456:TEST"
KEYBOARD = InlineKeyboardMarkup(
    [
        [
            InlineKeyboardButton("Сесть", callback_data="join"),
            InlineKeyboardButton("Уйти", callback_data="quit"),
        ]
    ]
)


@pytest.fixture
async def emu() -> AsyncIterator[BotApiEmulator]:
    async with BotApiEmulator(TOKEN, "kozel_test_bot") as emulator:
        yield emulator


@asynccontextmanager
async def plain_bot(
    emu: BotApiEmulator, rate_limiter: AIORateLimiter | None = None
) -> AsyncIterator[Bot]:
    """A PTB bot talking to the emulator, without polling."""
    bot = ExtBot(
        TOKEN, base_url=emu.base_url, base_file_url=emu.base_file_url, rate_limiter=rate_limiter
    )
    async with bot:
        yield bot


@asynccontextmanager
async def polling_app(
    emu: BotApiEmulator, *handlers: BaseHandler[Any, Any, Any]
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """A PTB Application with ``handlers``, polling the emulator."""
    app = ApplicationBuilder().token(TOKEN).base_url(emu.base_url)
    application = app.base_file_url(emu.base_file_url).build()
    for handler in handlers:
        application.add_handler(handler)
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        try:
            yield application
        finally:
            await application.updater.stop()
            await application.stop()


async def call(emu: BotApiEmulator, method: str, **fields: str) -> tuple[int, dict[str, Any]]:
    """POST form fields to the emulator as PTB does; returns (HTTP status, JSON body)."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{emu.base_url}{emu.token}/{method}", data=fields) as response,
    ):
        return response.status, await response.json()


# ------------------------------------------------------------------------------------ wire format


async def test_wrong_token_is_401_and_unknown_method_is_404(emu: BotApiEmulator) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{emu.api_root}/bot999:WRONG/getMe") as response:
            assert response.status == 401
            assert await response.json() == {
                "ok": False,
                "error_code": 401,
                "description": "Unauthorized",
            }
        async with session.post(f"{emu.base_url}{TOKEN}/sendSticker") as response:
            assert response.status == 404
            assert (await response.json())["description"] == "Not Found"


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.0.0.1:8080", True),
        ("localhost", True),
        ("LocalHost:80", True),
        ("[::1]", True),
        ("[::1]:8080", True),
        ("evil.example", False),
        ("evil.example:8080", False),
        ("127.0.0.1.evil.example", False),
        ("localhost.evil.example:80", False),
        ("[::1]evil.example", False),
        ("127.0.0.1:80:evil", False),
        ("127.0.0.1:http", False),
        ("::1", False),
        ("", False),
        (None, False),
    ],
)
def test_only_a_local_host_with_or_without_a_port_is_local(host: str | None, local: bool) -> None:
    assert is_local_host(host) is local


async def test_a_request_naming_another_host_is_refused_with_403(emu: BotApiEmulator) -> None:
    """DNS rebinding: a page whose name now resolves to 127.0.0.1 still sends its own name as
    ``Host``; the emulator refuses it before looking at the token, and runs nothing."""
    user = emu.add_user("Аня")
    await emu.start_private(user)
    sent = len(emu.messages(user.id))
    async with aiohttp.ClientSession() as session:
        for method, params in (
            ("getMe", {}),
            ("sendMessage", {"chat_id": user.id, "text": "hi"}),
            ("setWebhook", {"url": "https://evil.example/hook"}),
        ):
            for token in (TOKEN, "999:WRONG"):
                async with session.post(
                    f"{emu.base_url}{token}/{method}",
                    json=params,
                    headers={"Host": f"evil.example:{emu.port}"},
                ) as response:
                    assert response.status == 403
                    body = await response.json()
                    assert body["ok"] is False and body["error_code"] == 403
                    assert body["description"].startswith("Forbidden: ")
        for host in (f"127.0.0.1:{emu.port}", "localhost", f"[::1]:{emu.port}"):
            async with session.post(
                f"{emu.base_url}{TOKEN}/getMe", headers={"Host": host}
            ) as response:
                assert response.status == 200, host
                assert (await response.json())["ok"] is True
    assert emu.webhook is None
    assert len(emu.messages(user.id)) == sent
    assert emu.refused_hosts == {f"evil.example:{emu.port}"}
    assert [call.method for call in emu.history] == ["getMe"] * 3  # refused calls: not the bot's


async def test_local_only_off_answers_any_host() -> None:
    async with (
        BotApiEmulator(TOKEN, local_only=False) as emu,
        aiohttp.ClientSession() as session,
        session.post(f"{emu.base_url}{TOKEN}/getMe", headers={"Host": "evil.example"}) as response,
    ):
        assert response.status == 200


async def test_get_me_describes_the_bot_from_its_token(emu: BotApiEmulator) -> None:
    status, body = await call(emu, "getMe")
    assert status == 200
    assert body["result"]["id"] == 123456
    assert body["result"]["is_bot"] is True
    assert body["result"]["username"] == "kozel_test_bot"


async def test_string_fields_stay_strings_and_others_are_json_decoded(emu: BotApiEmulator) -> None:
    user = emu.add_user("Аня")
    await emu.start_private(user)
    status, body = await call(emu, "sendMessage", chat_id=str(user.id), text="12")
    assert status == 200
    assert body["result"]["text"] == "12"
    assert body["result"]["chat"] == {"id": user.id, "type": "private", "first_name": "Аня"}
    assert body["result"]["from"]["is_bot"] is True


async def test_json_body_is_accepted(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{emu.base_url}{TOKEN}/sendMessage", json={"chat_id": group.id, "text": "привет"}
        ) as response,
    ):
        assert response.status == 200
        assert (await response.json())["result"]["chat"]["title"] == "Козлятня"


async def test_errors_carry_status_code_and_description(emu: BotApiEmulator) -> None:
    status, body = await call(emu, "sendMessage", chat_id="-100777", text="x")
    assert status == 400
    assert body == {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}


# ------------------------------------------------------------------------------------ getUpdates


async def test_get_updates_offset_confirms_and_limit_caps(emu: BotApiEmulator) -> None:
    user = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[user])
    for text in ("a", "b", "c"):
        emu.send_text(user, group, text)
    _, body = await call(emu, "getUpdates")
    assert [update["update_id"] for update in body["result"]] == [1, 2, 3]
    _, body = await call(emu, "getUpdates", offset="2", limit="1")
    assert [update["message"]["text"] for update in body["result"]] == ["b"]
    _, body = await call(emu, "getUpdates")
    assert [update["update_id"] for update in body["result"]] == [2, 3]
    _, body = await call(emu, "getUpdates", offset="4")
    assert body["result"] == []
    assert not emu.has_updates


async def test_long_poll_returns_as_soon_as_an_update_arrives(emu: BotApiEmulator) -> None:
    user = emu.add_user("Аня")
    started = time.monotonic()
    poll = asyncio.create_task(call(emu, "getUpdates", timeout="5"))
    await asyncio.sleep(0.1)
    emu.send_text(user, user, "hi")
    _, body = await poll
    assert time.monotonic() - started < 1.0
    assert body["result"][0]["message"]["text"] == "hi"


async def test_long_poll_times_out_with_no_updates(emu: BotApiEmulator) -> None:
    started = time.monotonic()
    _, body = await call(emu, "getUpdates", timeout="0.3")
    assert body["result"] == []
    assert 0.25 < time.monotonic() - started < 1.5


async def test_stop_while_ptb_long_polls_is_prompt() -> None:
    emu = BotApiEmulator(TOKEN)
    await emu.start()
    app = ApplicationBuilder().token(TOKEN).base_url(emu.base_url).build()
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=30)
        await emu.wait_for(lambda: bool(emu.calls("deleteWebhook")))
        await asyncio.sleep(0.1)  # let the long poll arrive and wait
        started = time.monotonic()
        await emu.stop()
        assert time.monotonic() - started < 2.5
        await app.updater.stop()
        await app.stop()


async def test_stop_answers_a_pending_long_poll() -> None:
    emu = BotApiEmulator(TOKEN)
    await emu.start()
    poll = asyncio.create_task(call(emu, "getUpdates", timeout="30"))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await emu.stop()
    _, body = await asyncio.wait_for(poll, 3)
    assert body["result"] == []
    assert time.monotonic() - started < 2.5


async def test_command_message_carries_a_bot_command_entity(emu: BotApiEmulator) -> None:
    user = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[user])
    emu.send_text(user, group, "/new@kozel_test_bot hvalenyi")
    emu.send_text(user, group, "не команда")
    _, body = await call(emu, "getUpdates")
    first, second = (update["message"] for update in body["result"])
    assert first["entities"] == [{"type": "bot_command", "offset": 0, "length": 19}]
    assert first["chat"]["type"] == "supergroup"
    assert "entities" not in second


async def test_blocking_sends_my_chat_member_update(emu: BotApiEmulator) -> None:
    user = emu.add_user("Аня")
    await emu.start_private(user)
    emu.block(user)
    _, body = await call(emu, "getUpdates")
    update = Update.de_json(body["result"][-1], None)
    assert update.my_chat_member is not None
    assert update.my_chat_member.new_chat_member.status == "kicked"
    assert update.my_chat_member.chat.id == user.id
    await emu.start_private(user)  # pressing Restart unblocks
    assert not user.blocked


# ------------------------------------------------------------------------------------ PTB bot


async def test_commands_reach_handlers_in_groups_and_private_chats(emu: BotApiEmulator) -> None:
    seen: list[tuple[int, list[str]]] = []

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        seen.append((update.effective_chat.id, list(context.args or [])))

    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    async with polling_app(emu, CommandHandler(["new", "start"], record)):
        emu.send_text(anya, group, "/new")
        emu.send_text(anya, group, "/new@kozel_test_bot kryuk")
        emu.send_text(anya, group, "/new@other_bot")
        await emu.start_private(anya, payload="join_42")
        await emu.open_deep_link(anya, "https://t.me/kozel_test_bot?start=seat_7")
        await emu.wait_for(lambda: len(seen) == 4)
        await emu.settle(quiet=0.1)
    assert seen == [
        (group.id, []),
        (group.id, ["kryuk"]),
        (anya.id, ["join_42"]),
        (anya.id, ["seat_7"]),
    ]
    assert anya.started


async def test_press_reaches_handler_and_returns_its_answer(emu: BotApiEmulator) -> None:
    async def lobby(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await update.effective_chat.send_message(
            "<b>Набор</b> за стол", parse_mode="HTML", reply_markup=KEYBOARD
        )

    async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        assert isinstance(query.message, Message)  # the full current message, keyboard included
        await query.answer(f"{query.from_user.first_name} за столом", show_alert=True)
        await query.edit_message_text(
            f"Набор: {query.from_user.first_name}", reply_markup=query.message.reply_markup
        )

    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    async with polling_app(emu, CommandHandler("new", lobby), CallbackQueryHandler(join)):
        emu.send_text(anya, group, "/new")
        await emu.wait_for(lambda: emu.find_message(group, "Набор") is not None)
        lobby_message = emu.find_message(group, "Набор")
        assert lobby_message is not None
        assert lobby_message.text == "Набор за стол"
        assert lobby_message.html == "<b>Набор</b> за стол"
        assert lobby_message.buttons == [[("Сесть", "join"), ("Уйти", "quit")]]
        answer = await emu.press(anya, group, lobby_message.message_id, text="Сесть")
        assert answer.text == "Аня за столом"
        assert answer.show_alert
        await emu.wait_for(lambda: lobby_message.edits == 1)
    assert lobby_message.text == "Набор: Аня"
    assert lobby_message.versions == ["Набор за стол"]
    assert lobby_message.button_texts == ["Сесть", "Уйти"]
    assert emu.flood_errors == []


async def test_press_times_out_when_the_bot_never_answers(emu: BotApiEmulator) -> None:
    async def ignore(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        return None

    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(group.id, "Лобби", reply_markup=KEYBOARD)
    async with polling_app(emu, CallbackQueryHandler(ignore)):
        with pytest.raises(TimeoutError, match="callback query"):
            await emu.press(anya, group, sent.message_id, "quit", timeout=0.5)


async def test_press_on_a_missing_button_is_an_assertion_error(emu: BotApiEmulator) -> None:
    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(group.id, "Лобби", reply_markup=KEYBOARD)
    with pytest.raises(AssertionError, match="no single callback button"):
        emu.press_nowait(anya, group, sent.message_id, "nope")


async def test_user_who_never_started_the_bot_is_forbidden(emu: BotApiEmulator) -> None:
    gleb = emu.add_user("Глеб")
    async with plain_bot(emu) as bot:
        with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
            await bot.send_message(gleb.id, "Ваши карты")
        await emu.start_private(gleb)
        await bot.send_message(gleb.id, "Ваши карты")
        emu.block(gleb)
        with pytest.raises(Forbidden, match="bot was blocked by the user"):
            await bot.send_message(gleb.id, "Ваши карты")
        emu.unblock(gleb)
        await bot.send_message(gleb.id, "Снова здесь")
    assert [message.text for message in emu.messages(gleb)] == ["Ваши карты", "Снова здесь"]


async def test_identical_edit_is_not_modified(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(group.id, "<b>Стол</b>", parse_mode="HTML")
        with pytest.raises(BadRequest) as caught:
            await bot.edit_message_text("<b>Стол</b>", group.id, sent.message_id, parse_mode="HTML")
        assert "message is not modified" in caught.value.message.lower()
        # Same plain text but different formatting is a modification.
        await bot.edit_message_text("Стол", group.id, sent.message_id)
        await bot.edit_message_reply_markup(group.id, sent.message_id, reply_markup=KEYBOARD)
        with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
            await bot.edit_message_reply_markup(group.id, sent.message_id, reply_markup=KEYBOARD)
        # Editing the text without reply_markup removes the keyboard, as on Telegram.
        await bot.edit_message_text("Стол 2", group.id, sent.message_id)
    message = emu.message(group, sent.message_id)
    assert message.edits == 3
    assert message.buttons == []


async def test_editing_or_deleting_a_missing_message_fails(emu: BotApiEmulator) -> None:
    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    from_user = emu.send_text(anya, group, "привет")
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(group.id, "Сдача 1")
        assert await bot.delete_message(group.id, sent.message_id)
        assert emu.messages(group) == []
        with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
            await bot.edit_message_text("Сдача 2", group.id, sent.message_id)
        with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
            await bot.edit_message_text("чужое", group.id, from_user.message_id)
        with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
            await bot.delete_message(group.id, sent.message_id)


async def test_callback_data_over_64_bytes_is_button_data_invalid(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        fits = InlineKeyboardMarkup([[InlineKeyboardButton("ok", callback_data="я" * 32)]])
        await bot.send_message(group.id, "64 bytes", reply_markup=fits)
        too_long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="x" * 65)]])
        with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
            await bot.send_message(group.id, "65 bytes", reply_markup=too_long)
        cyrillic = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="я" * 33)]])
        with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
            await bot.send_message(group.id, "66 bytes", reply_markup=cyrillic)
        nine = InlineKeyboardMarkup(
            [[InlineKeyboardButton(str(i), callback_data=str(i)) for i in range(9)]]
        )
        with pytest.raises(BadRequest, match=r"(?i)too many buttons"):
            await bot.send_message(group.id, "9 in a row", reply_markup=nine)


async def test_web_app_buttons_only_in_private_chats_and_over_https(emu: BotApiEmulator) -> None:
    """As Telegram: a ``web_app`` button in a group is ``BUTTON_TYPE_INVALID`` (sent or edited
    in), one without an https address ``BUTTON_URL_INVALID``; in a private chat it is kept."""
    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    await emu.start_private(anya)
    app = WebAppInfo("https://k.example/")
    opens = InlineKeyboardMarkup([[InlineKeyboardButton("🃏", web_app=app)]])
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(anya.id, "рука", reply_markup=opens)
        assert emu.messages(anya.id)[-1].reply_markup == {
            "inline_keyboard": [[{"text": "🃏", "web_app": {"url": "https://k.example/"}}]]
        }
        assert sent.reply_markup is not None
        with pytest.raises(BadRequest, match=r"(?i)BUTTON_TYPE_INVALID"):
            await bot.send_message(group.id, "стол", reply_markup=opens)
        table = await bot.send_message(group.id, "стол")
        with pytest.raises(BadRequest, match=r"(?i)BUTTON_TYPE_INVALID"):
            await bot.edit_message_text("стол 2", group.id, table.message_id, reply_markup=opens)
        insecure = WebAppInfo("http://k/")
        plain = InlineKeyboardMarkup([[InlineKeyboardButton("🃏", web_app=insecure)]])
        with pytest.raises(BadRequest, match=r"(?i)BUTTON_URL_INVALID"):
            await bot.send_message(anya.id, "рука", reply_markup=plain)


async def test_text_must_be_non_empty_and_at_most_4096_characters(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        await bot.send_message(group.id, "<b>" + "я" * 4096 + "</b>", parse_mode="HTML")
        with pytest.raises(BadRequest, match=r"(?i)message is too long"):
            await bot.send_message(group.id, "я" * 4097)
        with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
            await bot.send_message(group.id, "<b> </b>", parse_mode="HTML")


async def test_bad_html_cannot_be_parsed(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        for text in ("<b>Аня", "Аня & Борис", "<br>", "<b><i>x</b></i>", "a < b"):
            with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
                await bot.send_message(group.id, text, parse_mode="HTML")
    assert emu.messages(group) == []


async def test_answering_a_query_twice_or_too_long_fails(emu: BotApiEmulator) -> None:
    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    async with plain_bot(emu) as bot:
        sent = await bot.send_message(group.id, "Лобби", reply_markup=KEYBOARD)
        query_id = emu.press_nowait(anya, group, sent.message_id, "join")
        with pytest.raises(BadRequest):
            await bot.answer_callback_query(query_id, "я" * 201)
        await bot.answer_callback_query(query_id, "Готово")
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_callback_query(query_id)
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await bot.answer_callback_query("nonexistent")
    answer = await emu.wait_answer(query_id)
    assert answer.text == "Готово"
    assert not answer.show_alert


async def test_chat_and_member_lookups_parse_in_ptb(emu: BotApiEmulator) -> None:
    boss, admin, member, stranger = (emu.add_user(name) for name in ("Б", "А", "М", "С"))
    group = emu.add_group("Козлятня", members=[member], admins=[admin], creator=boss)
    async with plain_bot(emu) as bot:
        chat = await bot.get_chat(group.id)
        assert chat.title == "Козлятня"
        assert isinstance(await bot.get_chat_member(group.id, boss.id), ChatMemberOwner)
        assert isinstance(await bot.get_chat_member(group.id, admin.id), ChatMemberAdministrator)
        assert isinstance(await bot.get_chat_member(group.id, member.id), ChatMemberMember)
        assert isinstance(await bot.get_chat_member(group.id, stranger.id), ChatMemberLeft)
        with pytest.raises(BadRequest, match=r"(?i)chat not found"):
            await bot.get_chat(stranger.id)
        await bot.send_chat_action(group.id, "typing")


async def test_commands_are_stored_per_scope_and_language(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        await bot.set_my_commands([BotCommand("new", "Новая игра")], language_code="ru")
        scope = BotCommandScopeChat(group.id)
        await bot.set_my_commands([BotCommand("top", "Leaders")], scope=scope)
        assert [c.command for c in await bot.get_my_commands(language_code="ru")] == ["new"]
        assert [c.command for c in await bot.get_my_commands(scope=scope)] == ["top"]
        assert await bot.get_my_commands() == ()
        await bot.delete_my_commands(scope=scope)
        assert await bot.get_my_commands(scope=scope) == ()


# ------------------------------------------------------------------------------------ flood limits


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_sends_edits_and_deletions_share_the_group_limit() -> None:
    limits = Limits(group_per_window=5, group_window=60.0)
    async with BotApiEmulator(TOKEN, limits=limits) as emu, plain_bot(emu) as bot:
        group = emu.add_group("Козлятня")
        first = await bot.send_message(group.id, "стол", reply_markup=KEYBOARD)
        second = await bot.send_message(group.id, "итог")
        await bot.edit_message_text("стол 2", group.id, first.message_id, reply_markup=KEYBOARD)
        await bot.edit_message_reply_markup(group.id, first.message_id)
        await bot.delete_message(group.id, second.message_id)
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(group.id, "лишнее")
        assert "retry in" in str(caught.value).lower()
        assert [(e.method, e.chat_id) for e in emu.flood_errors] == [("sendMessage", group.id)]
        assert emu.flood_errors[0].retry_after >= 1
        # Other chats and callback answers are not limited by this group's budget.
        other = emu.add_group("Другая")
        sent = await bot.send_message(other.id, "лобби", reply_markup=KEYBOARD)
        anya = emu.add_user("Аня")
        query_id = emu.press_nowait(anya, other, sent.message_id, text="Сесть")
        await bot.answer_callback_query(query_id)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_private_chat_allows_a_short_burst_only(emu: BotApiEmulator) -> None:
    anya = emu.add_user("Аня")
    await emu.start_private(anya)
    async with plain_bot(emu) as bot:
        for number in range(3):
            await bot.send_message(anya.id, f"карта {number}")
        with pytest.raises(RetryAfter):
            await bot.send_message(anya.id, "ещё")


async def test_aio_rate_limiter_with_matching_limits_never_meets_a_429() -> None:
    limits = Limits(group_per_window=10, group_window=1.0, global_per_second=30)
    limiter = AIORateLimiter(group_max_rate=10, group_time_period=1.0, max_retries=3)
    async with (
        BotApiEmulator(TOKEN, limits=limits) as emu,
        plain_bot(emu, rate_limiter=limiter) as bot,
    ):
        group = emu.add_group("Козлятня")
        # Concurrent sends arrive in a burst, the worst case for arrival jitter.
        await asyncio.gather(*(bot.send_message(group.id, f"ход {n}") for n in range(15)))
        sent = await bot.send_message(group.id, "счёт 0")
        for number in range(1, 10):
            await bot.edit_message_text(f"счёт {number}", group.id, sent.message_id)
    assert emu.flood_errors == []
    assert len(emu.messages(group)) == 16


def test_limits_bucket_refills_steadily() -> None:
    now = [0.0]
    flood = FloodControl(Limits(group_per_window=2, group_window=10.0, tolerance=0), lambda: now[0])
    for _ in range(2):
        assert flood.retry_after(-1, True) == 0
        flood.record(-1, True)
    assert flood.retry_after(-1, True) == pytest.approx(5.0)
    assert flood.retry_after(-2, True) == 0  # other chats are independent
    now[0] = 5.0
    assert flood.retry_after(-1, True) == 0


def test_limits_sliding_window_waits_for_the_oldest_request() -> None:
    now = [0.0]
    limits = Limits(group_per_window=2, group_window=10.0, algorithm="window", tolerance=0)
    flood = FloodControl(limits, lambda: now[0])
    flood.record(-1, True)
    now[0] = 4.0
    flood.record(-1, True)
    now[0] = 6.0
    assert flood.retry_after(-1, True) == pytest.approx(4.0)
    now[0] = 10.0
    assert flood.retry_after(-1, True) == 0


def test_limits_can_be_disabled() -> None:
    flood = FloodControl(Limits.unlimited(), time.monotonic)
    for _ in range(1000):
        flood.record(-1, True)
    assert flood.retry_after(-1, True) == 0


# ------------------------------------------------------------------------------------ HTML


def test_html_becomes_plain_text_with_utf16_entities() -> None:
    parsed = parse_html('🐐 <b>Аня</b> &amp; <a href="https://t.me">Борис</a> &lt;3')
    assert parsed.text == "🐐 Аня & Борис <3"
    assert parsed.entities == [
        {"type": "bold", "offset": 3, "length": 3},
        {"type": "text_link", "offset": 9, "length": 5, "url": "https://t.me"},
    ]


def test_html_user_links_become_mentions_of_known_users() -> None:
    user = {"id": 1001, "is_bot": False, "first_name": "Аня"}
    parsed = parse_html(
        '<a href="tg://user?id=1001">Аня</a>', lambda uid: user if uid == 1001 else None
    )
    assert parsed.entities == [{"type": "text_mention", "offset": 0, "length": 3, "user": user}]


def test_html_pre_with_language_and_spoilers() -> None:
    parsed = parse_html(
        '<pre><code class="language-python">x</code></pre><span class="tg-spoiler">s</span>'
    )
    assert parsed.entities == [
        {"type": "pre", "offset": 0, "length": 1, "language": "python"},
        {"type": "spoiler", "offset": 1, "length": 1},
    ]


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
        ("<b>Тон</i>", "Unmatched end tag at byte offset 9"),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<br>", 'Unsupported start tag "br" at byte offset 0'),
        ("Тон & Ко", "Unescaped"),
        ("a > b", "Unescaped"),
        ("&nbsp;", "Unsupported character entity"),
        ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler"'),
    ],
)
def test_html_errors_are_reported(source: str, error: str) -> None:
    with pytest.raises(HtmlParseError) as caught:
        parse_html(source)
    assert error in str(caught.value)


# ------------------------------------------------------------------------------------ waiting


async def test_wait_for_timeout_names_recent_calls(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        await bot.send_message(group.id, "ход Веры")
    with pytest.raises(TimeoutError, match="ход Веры"):
        await emu.wait_for(lambda: False, timeout=0.2, what="a miracle")


async def test_settle_waits_for_the_bot_to_go_quiet(emu: BotApiEmulator) -> None:
    replies: list[str] = []

    async def slow(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        for number in range(3):
            await asyncio.sleep(0.05)
            await update.effective_chat.send_message(f"шаг {number}")
            replies.append(str(number))

    anya = emu.add_user("Аня")
    group = emu.add_group("Козлятня", members=[anya])
    async with polling_app(emu, CommandHandler("go", slow)):
        emu.send_text(anya, group, "/go")
        await emu.settle(quiet=0.2, timeout=5)
        assert [message.text for message in emu.messages(group)] == ["шаг 0", "шаг 1", "шаг 2"]
    assert emu.history[0].method == "getMe"
    assert [call.method for call in emu.calls("sendMessage")] == ["sendMessage"] * 3
