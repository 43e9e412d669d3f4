"""The emulator's ``sendPhoto``, through a real PTB bot: the upload arrives as
``multipart/form-data``, the photo is kept with its caption (and can be opened by a test), and
Telegram's refusals come back as PTB's exceptions — caption over 1024 characters, a photo over
10 MB or of refused dimensions, something that is not a picture, an unknown ``file_id``, and
the same chat, topic and flood checks as ``sendMessage``.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import aiohttp
import pytest
from PIL import Image
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity
from telegram.error import BadRequest, Forbidden, RetryAfter

from botapi_emulator import BotApiEmulator, Limits
from botapi_emulator.photos import MAX_CAPTION_LENGTH, MAX_PHOTO_BYTES
from kozelbot.core.i18n import translator
from kozelbot.core.tournament.board import Cell, Cross, Row
from kozelbot.views.tournament.picture import picture
from tests.test_emulator import plain_bot

TOKEN = "123456:TEST"
KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("Таблица", callback_data="t:1")]])


@pytest.fixture
async def emu() -> AsyncIterator[BotApiEmulator]:
    async with BotApiEmulator(TOKEN, "kozel_test_bot") as emulator:
        yield emulator
    assert emulator.internal_errors == []


def png(width: int, height: int, color: str = "#cfeed6") -> bytes:
    """A plain PNG of the given size."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, format="PNG")
    return buffer.getvalue()


def standings_png() -> bytes:
    """The tournament picture of two players, as the bot will post it."""
    rows = (
        (Row(1, 1, "Аня", 2, 5, None, 1, 0), (Cell("win", "12:7"),)),
        (Row(2, 2, "Борис", 0, -5, None, 1, 0), (Cell("loss", "7:12"),)),
    )
    return picture("Турнир · тур 1 из 3", Cross(("1",), rows), translator("ru"))


async def test_photo_with_caption_and_keyboard_is_kept_in_the_group(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    data = standings_png()
    async with plain_bot(emu) as bot:
        sent = await bot.send_photo(
            group.id,
            photo=data,
            caption="<b>Турнир</b> · тур 1 из 3",
            parse_mode="HTML",
            reply_markup=KEYBOARD,
        )
    width, height = Image.open(io.BytesIO(data)).size
    assert sent.text is None
    assert sent.caption == "Турнир · тур 1 из 3"
    assert sent.caption_entities == (MessageEntity("bold", 0, 6),)
    assert sent.reply_markup == KEYBOARD
    (size,) = sent.photo
    assert (size.width, size.height, size.file_size) == (width, height, len(data))
    assert size.file_id and size.file_unique_id
    stored = emu.last_message(group)
    assert stored is not None and stored.photo is not None
    assert stored.message_id == sent.message_id
    assert stored.photo.data == data
    assert stored.photo.file_id == size.file_id
    assert Image.open(io.BytesIO(stored.photo.data)).size == (width, height)
    assert stored.caption == stored.text == "Турнир · тур 1 из 3"
    assert stored.button_texts == ["Таблица"]
    assert emu.find_message(group, "тур 1 из 3") is stored
    assert [call.method for call in emu.calls("sendPhoto")] == ["sendPhoto"]


async def test_photo_goes_into_the_forum_topic_named(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня", forum=True)
    topic = emu.create_topic(group, None, "Турнир")
    async with plain_bot(emu) as bot:
        sent = await bot.send_photo(group.id, png(800, 600), message_thread_id=topic.id)
        general = await bot.send_photo(group.id, sent.photo[-1].file_id, caption="общий")
        with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
            await bot.send_photo(group.id, png(800, 600), message_thread_id=999)
    assert sent.message_thread_id == topic.id and sent.is_topic_message
    assert sent.caption is None
    assert [m.message_id for m in emu.messages(group, thread=topic)] == [sent.message_id]
    assert general.message_thread_id is None
    stored = emu.message(group, general.message_id)
    assert stored.thread_id is None and stored.caption == "общий"


async def test_a_photo_sent_before_is_sent_again_by_its_file_id(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    anya = emu.add_user("Аня")
    await emu.start_private(anya)
    data = png(640, 480)
    async with plain_bot(emu) as bot:
        first = await bot.send_photo(group.id, data)
        again = await bot.send_photo(anya.id, first.photo[0].file_id, caption="вам")
        with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
            await bot.send_photo(group.id, "AgACAgEmu99999999")
        with pytest.raises(BadRequest, match=r"(?i)failed to get http url content"):
            await bot.send_photo(group.id, "https://example.org/table.png")
    assert again.photo[0].file_id == first.photo[0].file_id
    stored = emu.last_message(anya)
    assert stored is not None and stored.photo is not None and stored.photo.data == data
    assert len(emu.photos) == 1


async def test_caption_over_1024_characters_after_parsing_is_refused(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        with pytest.raises(BadRequest, match=r"(?i)message caption is too long"):
            await bot.send_photo(group.id, png(100, 100), caption="я" * (MAX_CAPTION_LENGTH + 1))
        # Tags do not count: 1024 letters in bold pass.
        bold = f"<b>{'я' * MAX_CAPTION_LENGTH}</b>"
        sent = await bot.send_photo(group.id, png(100, 100), caption=bold, parse_mode="HTML")
        with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
            await bot.send_photo(group.id, png(100, 100), caption="<b>", parse_mode="HTML")
    assert sent.caption is not None and len(sent.caption) == MAX_CAPTION_LENGTH
    assert [m.message_id for m in emu.messages(group)] == [sent.message_id]


async def test_unknown_chat_is_refused_as_for_send_message(emu: BotApiEmulator) -> None:
    stranger = emu.add_user("Глеб")
    async with plain_bot(emu) as bot:
        for chat_id in (-1009999999999, 424242):
            with pytest.raises(BadRequest) as photo_error:
                await bot.send_photo(chat_id, png(100, 100))
            with pytest.raises(BadRequest) as text_error:
                await bot.send_message(chat_id, "x")
            assert photo_error.value.message == text_error.value.message
            assert "chat not found" in photo_error.value.message.lower()
        with pytest.raises(Forbidden, match=r"(?i)can.t initiate conversation"):
            await bot.send_photo(stranger.id, png(100, 100))
    assert emu.photos == {}


async def test_what_is_not_a_photo_telegram_accepts_is_refused(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        with pytest.raises(BadRequest, match=r"(?i)image_process_failed"):
            await bot.send_photo(group.id, b"not a picture at all")
        with pytest.raises(BadRequest, match=r"(?i)photo_invalid_dimensions"):
            await bot.send_photo(group.id, png(10, 210))  # sides 1 : 21
        with pytest.raises(BadRequest, match=r"(?i)too big for a photo"):
            await bot.send_photo(group.id, png(10, 10) + bytes(MAX_PHOTO_BYTES))
        accepted = await bot.send_photo(group.id, png(10, 200))  # 1 : 20 is allowed
    assert accepted.photo[0].height == 200
    assert len(emu.messages(group)) == 1


async def test_photos_count_against_the_flood_limits_of_messages() -> None:
    limits = Limits(group_per_window=2, group_window=60.0)
    async with BotApiEmulator(TOKEN, limits=limits) as emu, plain_bot(emu) as bot:
        group = emu.add_group("Козлятня")
        await bot.send_message(group.id, "стол")
        await bot.send_photo(group.id, png(100, 100))
        with pytest.raises(RetryAfter):
            await bot.send_photo(group.id, png(100, 100))
        assert [(e.method, e.chat_id) for e in emu.flood_errors] == [("sendPhoto", group.id)]
        assert len(emu.photos) == 1  # the refused upload was not kept
    assert emu.internal_errors == []


async def test_a_photo_has_no_text_to_edit_but_its_keyboard_can_change(emu: BotApiEmulator) -> None:
    group = emu.add_group("Козлятня")
    async with plain_bot(emu) as bot:
        sent = await bot.send_photo(group.id, png(100, 100), reply_markup=KEYBOARD)
        with pytest.raises(BadRequest, match=r"(?i)no text in the message to edit"):
            await bot.edit_message_text("текст", group.id, sent.message_id)
        await bot.edit_message_reply_markup(group.id, sent.message_id)
    stored = emu.message(group, sent.message_id)
    assert stored.reply_markup is None and stored.photo is not None


async def test_upload_arrives_as_multipart_and_the_answer_is_a_photo_message(
    emu: BotApiEmulator,
) -> None:
    """The wire format without PTB: a file part named ``photo`` (or ``attach://``), the
    answer's ``photo`` array of ``PhotoSize`` and its ``caption``, no ``text``."""
    group = emu.add_group("Козлятня")
    data = png(300, 200)
    form = aiohttp.FormData()
    form.add_field("chat_id", str(group.id))
    form.add_field("caption", "12")
    form.add_field("photo", "attach://picture")
    form.add_field("picture", data, filename="table.png", content_type="image/png")
    url = f"{emu.base_url}{emu.token}/sendPhoto"
    async with aiohttp.ClientSession() as session, session.post(url, data=form) as response:
        body = await response.json()
    assert response.status == 200, body
    result = body["result"]
    assert "text" not in result
    assert result["caption"] == "12"
    assert result["photo"] == [
        {
            "file_id": result["photo"][0]["file_id"],
            "file_unique_id": result["photo"][0]["file_unique_id"],
            "width": 300,
            "height": 200,
            "file_size": len(data),
        }
    ]
    call = emu.calls("sendPhoto")[0]
    assert "bytes" in str(call) and len(str(call)) < 400  # the log shows no raw bytes
