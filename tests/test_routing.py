"""Issue #32: which place an update belongs to (``handlers.routing``): the worker holding that
place handles it, so every update that can touch a game goes to the game's place."""

from __future__ import annotations

from typing import Any

from telegram import Update

from handlers.routing import NOWHERE, place_of
from kozelbot.core import callbacks

GROUP, TOPIC, ANNA, BORIS = -1001, 77, 501, 502


class Lookup:
    """``place_of``'s two questions, answered from dicts."""

    def __init__(self) -> None:
        self.games = {9: f"{GROUP}/{TOPIC}", 10: str(GROUP)}
        self.seats = {ANNA: str(GROUP)}

    async def game_place(self, game_id: int) -> str | None:
        return self.games.get(game_id)

    async def seat_place(self, user_id: int) -> str | None:
        return self.seats.get(user_id)


def _user(user_id: int) -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": "X"}


def _chat(chat_id: int) -> dict[str, Any]:
    kind = "private" if chat_id > 0 else "supergroup"
    return {"id": chat_id, "type": kind, **({"title": "G"} if chat_id < 0 else {})}


def _message(chat_id: int, sender: int, text: str, topic: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {
        "message_id": 5,
        "date": 0,
        "chat": _chat(chat_id),
        "from": _user(sender),
        "text": text,
    }
    if topic is not None:
        message.update(message_thread_id=topic, is_topic_message=True)
    return message


async def _place(payload: dict[str, Any]) -> str:
    update = Update.de_json({"update_id": 1, **payload}, None)  # type: ignore[arg-type]
    assert update is not None
    return await place_of(update, Lookup())  # type: ignore[arg-type]


def _press(chat_id: int, data: str, topic: int | None = None) -> dict[str, Any]:
    return {
        "callback_query": {
            "id": "q",
            "from": _user(BORIS),
            "chat_instance": "c",
            "data": data,
            "message": _message(chat_id, 1, "table", topic),
        }
    }


async def test_a_group_message_belongs_to_its_group_or_topic() -> None:
    assert await _place({"message": _message(GROUP, ANNA, "/newgame")}) == str(GROUP)
    topic = await _place({"message": _message(GROUP, ANNA, "/newgame", TOPIC)})
    assert topic == f"{GROUP}/{TOPIC}"


async def test_a_hand_pressed_in_private_belongs_to_the_place_of_its_game() -> None:
    card = callbacks.ActButton(game_id=9, deal_no=1, action="play:AS").pack()
    assert await _place(_press(BORIS, card)) == f"{GROUP}/{TOPIC}"


async def test_a_button_naming_no_game_belongs_to_the_chat_it_is_under() -> None:
    assert await _place(_press(GROUP, "settings:x", TOPIC)) == f"{GROUP}/{TOPIC}"
    unknown_game = callbacks.ActButton(game_id=404, deal_no=1, action="play:AS").pack()
    assert await _place(_press(BORIS, unknown_game)) == str(BORIS)
    assert await _place(_press(BORIS, "forged:::")) == str(BORIS)


async def test_a_private_message_goes_to_the_game_it_names_or_its_sender_sits_at() -> None:
    link = await _place({"message": _message(BORIS, BORIS, "/start join-10-abc")})
    assert link == str(GROUP)
    hand = await _place({"message": _message(BORIS, BORIS, "/start hand-9")})
    assert hand == f"{GROUP}/{TOPIC}"
    assert await _place({"message": _message(ANNA, ANNA, "/hand")}) == str(GROUP)  # seated
    assert await _place({"message": _message(BORIS, BORIS, "/stats")}) == str(BORIS)
    assert await _place({"message": _message(BORIS, BORIS, "/start join-404-x")}) == str(BORIS)


async def test_a_member_change_belongs_to_its_chat_and_nothing_to_nowhere() -> None:
    member = {
        "chat": _chat(GROUP),
        "from": _user(ANNA),
        "date": 0,
        "old_chat_member": {"status": "left", "user": _user(1)},
        "new_chat_member": {"status": "member", "user": _user(1)},
    }
    assert await _place({"my_chat_member": member}) == str(GROUP)
    assert await _place({}) == NOWHERE
