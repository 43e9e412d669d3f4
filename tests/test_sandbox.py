"""The sandbox (issue #9), in-process and through its page's HTTP API: the real bot against the
emulator, one group and four people, a game played from their chats, events, renames and
languages, the flood-limit switch, watch mode, refused input, and a restart that resumes the
game on the same table message."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image

from botapi_emulator import AnswerEvent, ChatMessage, EmulatorEvent, EmulatorState, MessageEvent
from botapi_emulator.methods import BotApiMethods
from kozelbot.config import Settings
from kozelbot.core.texts import NOT_NOW, is_not_now
from sandbox import Sandbox
from sandbox.bot import BOT_ID
from sandbox.bot import bot_settings as sandbox_bot_settings
from sandbox.server import chats_path
from sandbox.watch import choose_button

JsonDict = dict[str, Any]
PUBLISHED_TOKEN = "7000000001:KozelSandboxToken"
"""The token every sandbox had before issue #14 (item 16): anyone could read it."""


class Page:
    """What the page does: HTTP calls to one running sandbox, and its event stream."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session = session
        self.url = url
        self.events: list[JsonDict] = []
        self._reader: asyncio.Task[None] | None = None

    async def get(self, path: str) -> tuple[int, JsonDict]:
        async with self.session.get(self.url + path) as response:
            return response.status, await response.json()

    async def post(self, path: str, body: object) -> tuple[int, JsonDict]:
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        headers = {"Content-Type": "application/json"}
        async with self.session.post(self.url + path, data=data, headers=headers) as response:
            return response.status, await response.json()

    async def ok(self, path: str, body: object | None = None) -> JsonDict:
        """GET (without a body) or POST, expecting 200."""
        status, answer = await (self.get(path) if body is None else self.post(path, body))
        assert status == 200, answer
        return answer

    async def state(self) -> JsonDict:
        return await self.ok("/api/state")

    async def messages(self, chat: int) -> list[JsonDict]:
        return list((await self.ok(f"/api/messages?chat={chat}"))["messages"])

    def listen(self) -> None:
        """Collect the event stream in the background."""

        async def read() -> None:
            async with self.session.get(self.url + "/api/events") as response:
                assert response.headers["Content-Type"].startswith("text/event-stream")
                async for raw in response.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("data: "):
                        self.events.append(json.loads(line.removeprefix("data: ")))

        self._reader = asyncio.create_task(read())

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
                await self._reader


async def until(check: Callable[[], Any], timeout: float = 15.0, what: str = "") -> Any:
    """Poll an async ``check`` until it returns something truthy; return that."""
    deadline = time.monotonic() + timeout
    while True:
        found = await check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what or check}")
        await asyncio.sleep(0.05)


def start_sandbox(db: Path) -> Sandbox:
    """A sandbox on free ports with its own database (no .env, default settings)."""
    return Sandbox(Settings(_env_file=None), port=0, db_path=db)


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


@pytest.fixture
async def page(tmp_path: Path, session: aiohttp.ClientSession) -> AsyncIterator[Page]:
    """A running sandbox and a page on it."""
    sandbox = start_sandbox(tmp_path / "sandbox.db")
    await sandbox.start()
    opened = Page(session, sandbox.url)
    try:
        yield opened
    finally:
        await opened.close()
        await sandbox.stop()
    assert sandbox.emu.internal_errors == []


def hand_of(messages: list[JsonDict]) -> JsonDict | None:
    """A private chat's latest message with card buttons."""
    for message in reversed(messages):
        if any((b["data"] or "").startswith("c:") for row in message["buttons"] for b in row):
            return message
    return None


def cards(message: JsonDict) -> list[tuple[str, str]]:
    return [
        (b["text"], b["data"])
        for row in message["buttons"]
        for b in row
        if (b["data"] or "").startswith("c:")
    ]


async def seat_four(page: Page, newgame: str = "/newgame deck=32") -> JsonDict:
    """Person 1 opens a table in the group, the three others join: the cards are dealt."""
    state = await page.state()
    group = state["group"]["id"]
    people = [person["id"] for person in state["people"]]
    await page.ok("/api/send", {"person": people[0], "chat": group, "text": newgame})

    async def lobby() -> bool:
        return any(
            (b["data"] or "").startswith("l:")
            for m in await page.messages(group)
            for row in m["buttons"]
            for b in row
        )

    await until(lobby, what="the lobby")  # updates are handled concurrently: join after it
    for person in people[1:]:
        await page.ok("/api/send", {"person": person, "chat": group, "text": "/join"})

    async def dealt() -> bool:
        return all([hand_of(await page.messages(person)) for person in people])

    await until(dealt, what="a hand for each of the four")
    return state


async def whose_turn(page: Page, people: list[int]) -> tuple[int, JsonDict]:
    """The person whose hand shows their turn, and that hand (a redeal offered on the way is
    answered "play on")."""

    async def find() -> tuple[int, JsonDict] | None:
        for person in people:
            hand = hand_of(await page.messages(person))
            if hand is None:
                continue
            datas = [b["data"] or "" for row in hand["buttons"] for b in row]
            play_on = [d for d in datas if d.startswith("r:") and d.endswith(":n")]
            if play_on:
                body = {"person": person, "chat": person, "message_id": hand["message_id"]}
                await page.ok("/api/press", {**body, "data": play_on[0]})
                return None
            if "👉" in hand["html"]:
                return person, hand
        return None

    found: tuple[int, JsonDict] = await until(find, what="someone's turn")
    return found


async def play_a_card(page: Page, people: list[int]) -> tuple[int, JsonDict]:
    """Whoever is to move plays their first legal card; the answer is no alert."""
    person, hand = await whose_turn(page, people)
    data = next(d for text, d in cards(hand) if not is_not_now(text))
    body = {"person": person, "chat": person, "message_id": hand["message_id"], "data": data}
    answer = (await page.ok("/api/press", body))["answer"]
    assert answer["alert"] is False, answer
    return person, hand


async def test_state_lists_the_group_the_four_people_and_their_chats(page: Page) -> None:
    state = await page.state()
    assert state["bot"] == {"username": "kozel_sandbox_bot", "name": "KozelBot"}
    assert state["group"]["title"] == "Козлятня"
    assert [p["name"] for p in state["people"]] == ["Аня", "Борис", "Вера", "Глеб"]
    assert {p["language"] for p in state["people"]} == {"ru"}
    group = state["group"]["id"]
    assert state["chats"][0] == {"id": group, "kind": "group", "title": "Козлятня", "person": None}
    assert [(c["kind"], c["person"]) for c in state["chats"][1:]] == [
        ("private", p["id"]) for p in state["people"]
    ]
    assert state["limits"] is True
    assert state["watch"] == {"running": False, "delay": 1.0}
    menus = state["commands"]
    assert {"", "en", "uk"} <= set(menus)
    group_commands = [c["command"] for c in menus[""]["group"]]
    private_commands = [c["command"] for c in menus[""]["private"]]
    assert "newgame" in group_commands and "play" in private_commands
    assert "newgame" not in private_commands
    for person in state["people"]:  # each has opened the private chat: /start, then the welcome

        async def welcomed(chat: int = person["id"]) -> bool:
            shown = await page.messages(chat)
            return [m["from"]["bot"] for m in shown[:2]] == [False, True]

        await until(welcomed, what="the welcome")
    first = (await page.messages(state["people"][0]["id"]))[:2]
    assert first[0]["html"] == "/start" and first[0]["from"]["name"] == "Аня"
    assert "<b>" in first[1]["html"] and first[1]["reply_to"] in (None, first[0]["message_id"])
    async with page.session.get(page.url + "/") as response:
        assert response.status == 200 and "text/html" in response.headers["Content-Type"]
    async with page.session.get(page.url + "/static/..%2Fapi.py") as response:
        assert response.status == 404


async def test_four_people_sit_down_and_play_from_their_hands(page: Page) -> None:
    await page.ok("/api/limits", {"on": False})
    page.listen()
    state = await seat_four(page)
    group = state["group"]["id"]
    people = [p["id"] for p in state["people"]]
    shown = await page.messages(group)
    assert shown[0]["html"].startswith("/newgame") and shown[0]["from"]["id"] == people[0]
    assert any(m["from"]["bot"] and "Аня" in m["html"] for m in shown)  # the lobby, then table
    mover, _ = await play_a_card(page, people)
    # A card of someone whose turn it is not: refused with an alert naming who moves.
    turn, _ = await whose_turn(page, [p for p in people if p != mover])
    other = next(p for p in people if p not in (mover, turn))
    other_hand = hand_of(await page.messages(other))
    assert other_hand is not None
    body = {
        "person": other,
        "chat": other,
        "message_id": other_hand["message_id"],
        "data": cards(other_hand)[0][1],
    }
    answer = (await page.ok("/api/press", body))["answer"]
    assert answer["alert"] is True and answer["text"]

    def seen(kind: str, check: Callable[[JsonDict], bool] = lambda _: True) -> bool:
        return any(e["type"] == kind and check(e) for e in page.events)

    async def streamed() -> bool:
        return seen("message", lambda e: e["message"]["chat_id"] == group) and seen(
            "message", lambda e: e["message"]["edited"]
        )

    await until(streamed, what="message events")
    assert seen("answer", lambda e: e["person"] == mover and e["alert"] is False)
    assert seen("answer", lambda e: e["person"] == other and e["alert"] is True)
    event = next(e for e in page.events if e["type"] == "message")
    assert set(event["message"]) == {
        "chat_id",
        "message_id",
        "from",
        "html",
        "photo",
        "date",
        "edited",
        "buttons",
        "reply_to",
    }


async def test_every_event_stream_gets_every_event(page: Page) -> None:
    second = Page(page.session, page.url)
    page.listen()
    second.listen()
    try:
        await asyncio.sleep(0.3)  # both streams are open
        state = await page.state()
        person = state["people"][1]["id"]
        await page.ok("/api/send", {"person": person, "chat": person, "text": "/help"})

        async def both() -> bool:
            return all(
                any(e["type"] == "message" and e["message"]["from"]["bot"] for e in p.events)
                for p in (page, second)
            )

        await until(both, what="the bot's answer on both streams")
    finally:
        await second.close()


async def test_a_rename_and_a_language_reach_the_bot(page: Page) -> None:
    page.listen()
    state = await page.state()
    person = state["people"][2]["id"]

    async def welcomed() -> bool:  # the sandbox's /start: its welcome is not the answer sought
        shown = await page.messages(person)
        return [m["from"]["bot"] for m in shown[:2]] == [False, True]

    await until(welcomed, what="the welcome")
    answer = await page.ok("/api/person", {"person": person, "name": "Варвара", "language": "en"})
    assert answer["person"] == {"id": person, "name": "Варвара", "language": "en"}
    state = await page.state()
    assert state["people"][2] == {"id": person, "name": "Варвара", "language": "en"}
    assert state["chats"][3]["title"] == "Варвара"

    async def announced() -> bool:
        return any(e["type"] == "state" for e in page.events)

    await until(announced, what="a state event")
    sent = await page.ok("/api/send", {"person": person, "chat": person, "text": "/help"})

    async def english_help() -> JsonDict | None:
        for message in await page.messages(person):
            if message["from"]["bot"] and message["message_id"] > sent["message_id"]:
                return message
        return None

    reply = await until(english_help, what="the answer to /help")
    assert "/play" in reply["html"] and "компьютер" not in reply["html"]
    mine = [m for m in await page.messages(person) if m["message_id"] == sent["message_id"]]
    assert mine[0]["from"]["name"] == "Варвара" and mine[0]["html"] == "/help"


async def test_a_deep_link_sends_start_with_its_payload(page: Page) -> None:
    state = await page.state()
    person = state["people"][3]["id"]
    sent = await page.ok("/api/start", {"person": person, "payload": "kozel"})
    shown = await page.messages(person)
    assert any(m["message_id"] == sent["message_id"] and m["html"] == "/start kozel" for m in shown)


async def test_flood_limits_switch_off_and_on_and_the_bot_still_answers(page: Page) -> None:
    sandbox_state = await page.state()
    person = sandbox_state["people"][0]["id"]
    assert (await page.ok("/api/limits", {"on": False})) == {"ok": True, "limits": False}
    assert (await page.state())["limits"] is False
    assert (await page.ok("/api/limits", {"on": True})) == {"ok": True, "limits": True}
    assert (await page.state())["limits"] is True
    sent = await page.ok("/api/send", {"person": person, "chat": person, "text": "/help"})

    async def answered() -> bool:
        return any(
            m["from"]["bot"] and m["message_id"] > sent["message_id"]
            for m in await page.messages(person)
        )

    await until(answered, what="an answer after the restarts")


async def test_watch_mode_plays_moves_and_stops_when_told(page: Page) -> None:
    await page.ok("/api/limits", {"on": False})
    page.listen()
    answer = await page.ok("/api/watch", {"on": True, "delay": 0.2, "newgame": "deck=32"})
    assert answer["watch"] == {"running": True, "delay": 0.2}

    async def moves() -> bool:
        return sum(1 for e in page.events if e["type"] == "answer" and not e["alert"]) >= 6

    await until(moves, timeout=30, what="six moves")
    assert (await page.ok("/api/watch", {"on": False}))["watch"]["running"] is False
    state = await page.state()
    assert state["watch"] == {"running": False, "delay": 0.2}
    group = await page.messages(state["group"]["id"])
    assert group[0]["html"] == "/newgame deck=32"
    assert sum(1 for m in group if m["html"] == "/join") == 3
    assert all(not e["alert"] for e in page.events if e["type"] == "answer")
    count = len(page.events)
    await asyncio.sleep(0.6)
    assert not any(e["type"] == "answer" for e in page.events[count:])


async def test_bad_input_is_refused_with_400_and_changes_nothing(page: Page) -> None:
    state = await page.state()
    group = state["group"]["id"]
    ann, boris = (p["id"] for p in state["people"][:2])
    bad: list[tuple[str, object]] = [
        ("/api/send", "{not json"),
        ("/api/send", "[1, 2]"),
        ("/api/send", {"chat": group, "text": "hi"}),
        ("/api/send", {"person": "1001", "chat": group, "text": "hi"}),
        ("/api/send", {"person": 999, "chat": group, "text": "hi"}),
        ("/api/send", {"person": ann, "chat": -5, "text": "hi"}),
        ("/api/send", {"person": ann, "chat": boris, "text": "hi"}),
        ("/api/send", {"person": ann, "chat": group, "text": "   "}),
        ("/api/send", {"person": ann, "chat": group, "text": "x" * 5000}),
        ("/api/press", {"person": ann, "chat": ann, "message_id": 999, "data": "c:1"}),
        ("/api/press", {"person": ann, "chat": ann, "message_id": 1, "data": "c:1"}),
        ("/api/press", {"person": ann, "chat": ann, "message_id": 2, "data": "nope"}),
        ("/api/press", {"person": ann, "chat": boris, "message_id": 2, "data": "x"}),
        ("/api/start", {"person": ann, "payload": "bad payload!"}),
        ("/api/start", {"person": ann, "payload": 5}),
        ("/api/person", {"person": ann}),
        ("/api/person", {"person": ann, "name": ""}),
        ("/api/person", {"person": ann, "name": "a\nb"}),
        ("/api/person", {"person": ann, "language": "de"}),
        ("/api/watch", {"delay": 1}),
        ("/api/watch", {"on": True, "delay": 0.1}),
        ("/api/watch", {"on": True, "delay": "fast"}),
        ("/api/watch", {"on": "yes"}),
        ("/api/limits", {}),
        ("/api/limits", {"on": 1}),
    ]
    for path, body in bad:
        status, answer = await page.post(path, body)
        assert status == 400, (path, body, answer)
        assert answer["ok"] is False and answer["error"], (path, body)
    async with page.session.post(page.url + "/api/send", data="{}") as response:
        assert response.status == 400  # not sent as JSON
    for path in ("/api/messages?chat=abc", "/api/messages?chat=5", "/api/messages"):
        status, answer = await page.get(path)
        assert status == 400 and answer["ok"] is False, path
    status, answer = await page.get("/api/nothing")
    assert status == 404 and answer["ok"] is False
    assert await page.state() == state  # nothing changed: same people, chats, switches
    assert [m["html"] for m in await page.messages(group)] == []


async def test_the_emulator_answers_only_a_local_host_and_only_this_runs_token(
    tmp_path: Path, session: aiohttp.ClientSession
) -> None:
    """DNS rebinding (issue #14, item 16): a web page whose name resolves to 127.0.0.1 sends
    its own name as ``Host``; the emulator refuses it as the page does, and the token is this
    run's, not a published one."""
    sandbox = start_sandbox(tmp_path / "sandbox.db")
    await sandbox.start()
    try:
        emu = sandbox.emu
        assert sandbox.bot is not None and sandbox.bot.application is not None
        assert sandbox.bot.application.bot.token == emu.token == sandbox.token
        assert sandbox.token != PUBLISHED_TOKEN and sandbox.token.startswith(f"{BOT_ID}:")
        people = [p["id"] for p in (await Page(session, sandbox.url).state())["people"]]
        sent = len(emu.messages(people[0]))
        evil = {"Host": "evil.example"}
        for host in ("evil.example", f"evil.example:{emu.port}"):
            for method, params in (
                ("getMe", {}),
                ("sendMessage", {"chat_id": people[0], "text": "🐐"}),
                ("setWebhook", {"url": "https://evil.example/hook"}),
            ):
                url = f"{emu.base_url}{sandbox.token}/{method}"
                async with session.post(url, json=params, headers={"Host": host}) as response:
                    assert response.status == 403, (host, method)
                    body = await response.json()
                    assert body["ok"] is False and body["error_code"] == 403
        assert emu.webhook is None and len(emu.messages(people[0])) == sent
        local = {"Host": f"127.0.0.1:{emu.port}"}
        async with session.post(f"{emu.base_url}{sandbox.token}/getMe", headers=local) as response:
            assert response.status == 200
            assert (await response.json())["result"]["id"] == BOT_ID
        async with session.post(f"{emu.base_url}{PUBLISHED_TOKEN}/getMe") as response:
            assert response.status == 401
            assert (await response.json())["ok"] is False
        async with session.get(sandbox.url + "/api/state", headers=evil) as response:
            assert response.status == 403  # the page refuses it too
        state = await Page(session, sandbox.url).state()
        assert sandbox.token not in json.dumps(state)
    finally:
        await sandbox.stop()
    assert sandbox.token not in chats_path(tmp_path / "sandbox.db").read_text(encoding="utf-8")


async def test_a_restart_resumes_the_game_on_the_same_table_message(
    tmp_path: Path, session: aiohttp.ClientSession
) -> None:
    db = tmp_path / "sandbox.db"
    sandbox = start_sandbox(db)
    await sandbox.start()
    page = Page(session, sandbox.url)
    try:
        await page.ok("/api/limits", {"on": False})
        state = await seat_four(page)
        group = state["group"]["id"]
        people = [p["id"] for p in state["people"]]
        await play_a_card(page, people)
        await asyncio.sleep(0.5)  # the table shows the card
        table = [m for m in await page.messages(group) if m["from"]["bot"]][-1]
        assert table["edited"] and "Сдача 1" in table["html"]  # the deal's table, one card on
    finally:
        await sandbox.stop()
    saved = json.loads(chats_path(db).read_text(encoding="utf-8"))
    assert saved["sandbox"]["preferences"]["limits"] is False

    again = start_sandbox(db)
    await again.start()
    page = Page(session, again.url)
    try:
        assert again.token != sandbox.token  # a fresh token for each start, the same bot
        async with session.post(f"{again.emu.base_url}{sandbox.token}/getMe") as response:
            assert response.status == 401
        assert (await page.state())["people"] == state["people"]
        assert (await page.state())["limits"] is False
        before = next(
            m for m in await page.messages(group) if m["message_id"] == table["message_id"]
        )
        assert before["html"] == table["html"]
        await play_a_card(page, people)

        async def table_edited() -> bool:
            shown = await page.messages(group)
            now = next(m for m in shown if m["message_id"] == table["message_id"])
            return bool(now["html"] != table["html"] and now["edited"])

        await until(table_edited, what="the same table message edited")
        bot_messages = [m for m in await page.messages(group) if m["from"]["bot"]]
        assert bot_messages[-1]["message_id"] == table["message_id"]  # no new table was sent
    finally:
        await again.stop()


def test_the_emulator_snapshot_keeps_messages_ids_edits_buttons_and_counters() -> None:
    """What a restart must find again: people (names, languages, opened chats), the group,
    every message with its id, edit count, keyboard and reply, and the id counters."""
    emu = EmulatorState(token="5:T")
    ann = emu.add_user("Аня", language_code="uk")
    group = emu.add_group("Г", members=[ann], admins=[ann], creator=ann)
    events: list[EmulatorEvent] = []
    emu.subscribe(events.append)
    emu.start_private_nowait(ann)
    asked = emu.send_text(ann, group, "/newgame")
    keyboard = {"inline_keyboard": [[{"text": "Сесть", "callback_data": "l:1:join"}]]}
    methods = BotApiMethods(emu)
    sent = methods.send_message(
        {
            "chat_id": group.id,
            "text": "<b>Лобби</b>",
            "parse_mode": "HTML",
            "reply_markup": keyboard,
            "reply_to_message_id": asked.message_id,
        }
    )
    methods.edit_message_text(
        {
            "chat_id": group.id,
            "message_id": sent["message_id"],
            "text": "<b>Стол</b>",
            "parse_mode": "HTML",
            "reply_markup": keyboard,
        }
    )
    query = emu.press_nowait(ann, group, sent["message_id"], "l:1:join")
    methods.answer_callback_query({"callback_query_id": query, "text": "ok"})
    assert [(type(e).__name__, getattr(e, "kind", "")) for e in events] == [
        ("MessageEvent", "new"),
        ("MessageEvent", "new"),
        ("MessageEvent", "new"),
        ("MessageEvent", "edited"),
        ("AnswerEvent", ""),
    ]
    assert isinstance(events[-1], AnswerEvent) and events[-1].user is ann
    assert isinstance(events[3], MessageEvent) and events[3].message.html == "<b>Стол</b>"

    data = json.loads(json.dumps(emu.snapshot()))
    again = EmulatorState(token="5:T")
    again.restore(data)
    table = again.message(group.id, sent["message_id"])
    assert (table.html, table.text, table.parse_mode, table.edits) == (
        "<b>Стол</b>",
        "Стол",
        "HTML",
        1,
    )
    assert table.buttons == [[("Сесть", "l:1:join")]]
    assert table.reply_to is not None and table.reply_to.message_id == asked.message_id
    restored = again.users[ann.id]
    assert (restored.first_name, restored.language_code, restored.started) == ("Аня", "uk", True)
    assert again.groups[group.id].admins == {ann.id}
    assert again.new_message_id(group.id) == sent["message_id"] + 1
    assert again.add_user("Борис").id == ann.id + 1
    assert again.add_group("Ещё").id == group.id - 1
    with pytest.raises(ValueError):
        EmulatorState(token="6:T").restore(data)  # another bot's world


def test_the_autopilot_presses_only_a_card_without_the_mark() -> None:
    def hand(*buttons: tuple[str, str]) -> ChatMessage:
        keyboard = [[{"text": text, "callback_data": data} for text, data in buttons]]
        return ChatMessage(
            chat={"id": 1, "type": "private"},
            message_id=1,
            date=0,
            sender={},
            from_bot=True,
            text="👉 Ваш ход",
            html="👉 Ваш ход",
            reply_markup={"inline_keyboard": keyboard},
        )

    ten, seven = NOT_NOW.format(card="10♥"), NOT_NOW.format(card="7♠")
    legal = hand((ten, "c:1:0:10H"), ("Д♣", "c:1:0:QC"), (seven, "c:1:0:7S"))
    assert {choose_button(legal, random.Random(seed)) for seed in range(20)} == {"c:1:0:QC"}
    redeal = hand(("Пересдать", "r:1:0:y"), ("Играть", "r:1:0:n"))
    assert choose_button(redeal, random.Random(1)) == "r:1:0:n"
    assert choose_button(hand((seven, "c:1:0:7S")), random.Random(1)) is None


async def test_a_photo_the_bot_sends_is_shown_by_the_page(
    tmp_path: Path, session: aiohttp.ClientSession
) -> None:
    """A tournament's standings picture: the page's message names its image, and the image
    is served as the bot sent it (an unknown one is a 404)."""
    sandbox = start_sandbox(tmp_path / "sandbox.db")
    await sandbox.start()
    try:
        opened = Page(session, sandbox.url)
        group = (await opened.state())["chats"][0]["id"]
        image = io.BytesIO()
        Image.new("RGB", (320, 200), "#cfeed6").save(image, format="PNG")
        form = aiohttp.FormData()
        form.add_field("chat_id", str(group))
        form.add_field("caption", "Турнир · тур 1 из 3")
        form.add_field("photo", image.getvalue(), filename="t.png", content_type="image/png")
        url = f"{sandbox.emu.base_url}{sandbox.emu.token}/sendPhoto"
        async with session.post(url, data=form) as response:
            assert response.status == 200
        [shown] = [m for m in await opened.messages(group) if m.get("photo")]
        assert shown["html"] == "Турнир · тур 1 из 3"
        async with session.get(sandbox.url + shown["photo"]) as response:
            assert response.status == 200 and response.content_type == "image/png"
            assert await response.read() == image.getvalue()
        async with session.get(sandbox.url + "/api/photo?id=nothing") as response:
            assert response.status == 404
        await opened.close()
    finally:
        await sandbox.stop()


def test_the_sandbox_keeps_its_own_file_even_with_a_database_url_set() -> None:
    """Issue #32: ``KOZEL_DATABASE_URL`` names the real bot's PostgreSQL; a sandbox started
    beside it never writes its emulated games there."""
    real = Settings.model_validate(
        {"database_url": "postgresql://kozel:secret@127.0.0.1:5432/kozel", "db_path": "kozel.db"}
    )
    sandboxed = sandbox_bot_settings(real, "http://127.0.0.1:1", "1:x", "sand.db", limits=True)
    assert sandboxed.database_url is None and sandboxed.database == "sand.db"
