"""Issue #18 end to end, the Mini App's server side: the real bot against the emulator with
``KOZEL_WEBAPP_URL`` set. A seated person's page gets their own view, live over Server-Sent
Events; a card tapped in the page is played through the same service call as a button
(the group's table shows it, the other pages hear of it); a double tap, a card out of turn,
an illegal card, someone not seated and every kind of unproven initData are refused and
change nothing; every answer carries the Content-Security-Policy."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest

from botapi_emulator import BotApiEmulator, ChatMessage
from botapi_emulator.models import User
from handlers.pacing import PAGE_PACE
from handlers.webapp.auth import sign
from kozelbot.core.cards import Card
from kozelbot.core.i18n import translator
from kozelbot.views.general import card_label
from tests.e2e import TOKEN, BotRunner, Players, bot_settings, seat_four, shows_turn
from tests.matches import finished_match, store_finished
from tests.test_e2e_stats import ask, english_group, store_match


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
async def webapp_bot(emu: BotApiEmulator, db_path: Path) -> AsyncIterator[tuple[BotRunner, str]]:
    port = free_port()
    runner = BotRunner(
        bot_settings(
            emu,
            db_path,
            webapp_url="https://kozel.example/app/",
            webapp_port=port,
            webapp_name="table",
        )
    )
    await runner.start()
    try:
        yield runner, f"http://127.0.0.1:{port}/webapp/api"
    finally:
        await runner.stop()


def init_for(user: User, *, token: str = TOKEN, age: float = 5.0) -> str:
    fields = {
        "user": json.dumps(
            {"id": user.id, "first_name": user.first_name, "language_code": "ru"},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
        "auth_date": str(int(time.time() - age)),
        "chat_type": "private",
    }
    return urlencode({**fields, "hash": sign(fields, token)})


class Page:
    """One person's open page: its stream of payloads."""

    def __init__(self, session: aiohttp.ClientSession, base: str, user: User, game_id: int):
        self.session, self.base, self.user, self.game_id = session, base, user, game_id
        self.payloads: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None
        self.response: aiohttp.ClientResponse | None = None
        self.closed = False

    async def open(self) -> None:
        headers = {"X-Telegram-Init-Data": init_for(self.user)}
        response = await self.session.get(
            f"{self.base}/stream?game={self.game_id}", headers=headers
        )
        assert response.status == 200
        assert "Content-Security-Policy" in response.headers
        self.response = response
        self.task = asyncio.create_task(self._read(response))
        await self.wait(lambda p: True)

    async def _read(self, response: aiohttp.ClientResponse) -> None:
        event = None
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "table":
                self.payloads.append(json.loads(line[6:]))

    async def wait(self, test: Any, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.payloads and test(self.payloads[-1]):
                return self.payloads[-1]
            await asyncio.sleep(0.02)
        raise AssertionError(f"no such payload for {self.user.first_name}")

    def close(self) -> None:
        """The person closes the page: the stream's connection goes."""
        self.closed = True
        if self.task is not None:
            self.task.cancel()
        if self.response is not None:
            self.response.close()


async def post_move(
    session: aiohttp.ClientSession, base: str, init: str, game_id: int, deal: int, action: str
) -> tuple[int, dict[str, Any]]:
    body = {"init": init, "game": game_id, "deal": deal, "action": action}
    async with session.post(f"{base}/move", json=body) as response:
        assert "Content-Security-Policy" in response.headers
        return response.status, await response.json()


async def play_from_page(
    emu: BotApiEmulator,
    session: aiohttp.ClientSession,
    base: str,
    pages: dict[int, Page],
    game_id: int,
) -> None:
    """Whoever's open page offers moves plays the first of them."""

    def offered() -> Page | None:
        return next(
            (p for p in pages.values() if not p.closed and p.payloads and p.payloads[-1]["legal"]),
            None,
        )

    await emu.wait_for(lambda: offered() is not None)
    page = offered()
    assert page is not None
    mine = page.payloads[-1]
    status, _ = await post_move(
        session, base, init_for(page.user), game_id, mine["deal"], mine["legal"][0]
    )
    assert status == 200
    await page.wait(lambda p: p["legal"] != mine["legal"] or p["view"] != mine["view"])


async def to_move(players: Players) -> tuple[User, ChatMessage]:
    """Who is to move once the match waits for someone, and their hand message."""
    await players.next_turn()
    found = players.whose_turn()
    assert found is not None
    return found


def _game_id(runner: BotRunner, chat_id: int) -> int:
    assert runner.app is not None
    tables = [t for t in runner.app.bot_data.service.tables.live.values() if t.chat_id == chat_id]
    return int(tables[0].game_id)


def _version(runner: BotRunner, game_id: int) -> int:
    assert runner.app is not None
    table = runner.app.bot_data.service.snapshot(game_id)
    assert table is not None
    return table.version


async def test_a_card_tapped_in_the_page_is_played_and_seen_everywhere(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    runner, base = webapp_bot
    players: Players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    mover, _ = await to_move(players)
    other = next(u for u in players.users if u.id != mover.id)
    async with aiohttp.ClientSession() as session:
        mine, theirs = (Page(session, base, u, game_id) for u in (mover, other))
        await mine.open()
        await theirs.open()
        first = mine.payloads[-1]
        seat = first["seat"]
        assert seat is not None and first["legal"] and first["view"]["hand"]
        assert all(a.startswith("play:") for a in first["legal"])
        # The other page shows the other seat's own hand, and no card of the mover's.
        assert not set(theirs.payloads[-1]["view"]["hand"]) & set(first["view"]["hand"])

        deal = first["deal"]
        card = first["legal"][0]
        hand = first["view"]["hand"]
        wrong = [f"play:{c}" for c in hand if f"play:{c}" not in first["legal"]]
        if wrong:  # a card the rules forbid now: refused, with the legal ones
            status, body = await post_move(session, base, init_for(mover), game_id, deal, wrong[0])
            assert status == 409 and body["error"] == "refused" and body["legal"] == first["legal"]
        before = _version(runner, game_id)
        # Out of turn: refused, nothing changes.
        status, body = await post_move(session, base, init_for(other), game_id, deal, "play:6S")
        assert status == 409 and _version(runner, game_id) == before

        status, body = await post_move(session, base, init_for(mover), game_id, deal, card)
        assert status == 200 and body["ok"] is True
        assert _version(runner, game_id) == before + 1
        played = card.split(":", 1)[1]
        await theirs.wait(lambda p: any(c == played for _, c in p["view"]["trick"]))
        await mine.wait(lambda p: played not in p["view"]["hand"])
        # A double tap: the same card again is refused and changes nothing.
        status, body = await post_move(session, base, init_for(mover), game_id, deal, card)
        assert status == 409 and body["text"]
        await runner.drain()
        assert _version(runner, game_id) >= before + 1
        for page in (mine, theirs):
            page.close()
    # The group's table message shows the card played from the page.
    label = card_label(Card.parse(played), translator("ru"))
    await emu.wait_for(lambda: label in players.group_text())


async def test_unproven_init_data_and_strangers_change_nothing(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    runner, base = webapp_bot
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    mover, _ = await to_move(players)
    stranger = emu.add_user(first_name="Чужой")
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{base}/state?game={game_id}", headers={"X-Telegram-Init-Data": init_for(mover)}
        ) as response:
            assert response.status == 200
            state = await response.json()
        legal, deal = state["legal"], state["deal"]
        before = _version(runner, game_id)
        good = init_for(mover)
        bad = {
            "forged": init_for(mover, token="654321:OTHER"),
            "altered": good.replace(str(mover.id), str(mover.id + 1)),
            "stale": init_for(mover, age=7200),
            "unsigned": good.split("&hash=")[0],
            "empty": "",
        }
        for name, init in bad.items():
            status, body = await post_move(session, base, init, game_id, deal, legal[0])
            assert status == 401, name
            async with session.get(
                f"{base}/state?game={game_id}", headers={"X-Telegram-Init-Data": init}
            ) as response:
                assert response.status == 401 and "Content-Security-Policy" in response.headers
            async with session.get(
                f"{base}/stream?game={game_id}", headers={"X-Telegram-Init-Data": init}
            ) as response:
                assert response.status == 401
        status, body = await post_move(session, base, init_for(stranger), game_id, deal, legal[0])
        assert status == 403 and body["error"] == "not_seated"
        status, body = await post_move(session, base, good, game_id, deal + 5, legal[0])
        assert status == 409 and body["error"] == "stale"
        for junk in (
            {"init": good},
            {"init": good, "game": game_id, "deal": deal, "action": "fly:away"},
        ):
            async with session.post(f"{base}/move", json=junk) as response:
                assert response.status == 400
        async with session.post(f"{base}/move", data=b"not json") as response:
            assert response.status == 400
        assert _version(runner, game_id) == before
        # Someone of the group who is not seated watches the table: no hand, no moves; a
        # stranger to the group sees nothing of it.
        async with session.get(
            f"{base}/state?game={game_id}", headers={"X-Telegram-Init-Data": init_for(stranger)}
        ) as response:
            assert response.status == 403 and (await response.json())["error"] == "not_member"
        member = emu.add_user(first_name="Своя")
        emu.add_member(players.group, member)
        async with session.get(
            f"{base}/state?game={game_id}", headers={"X-Telegram-Init-Data": init_for(member)}
        ) as response:
            watched = await response.json()
        assert watched["seat"] is None and watched["view"]["hand"] == [] and watched["legal"] == []
        async with session.get(
            f"{base}/state?game=999999", headers={"X-Telegram-Init-Data": good}
        ) as response:
            assert response.status == 404


async def test_without_a_webapp_url_nothing_is_served(emu: BotApiEmulator, db_path: Path) -> None:
    """``KOZEL_WEBAPP_URL`` unset (the default): no Mini App server, nothing changes."""
    port = free_port()
    runner = BotRunner(bot_settings(emu, db_path, webapp_port=port))
    await runner.start()
    try:
        assert runner.app is not None and runner.app.bot_data.webapp is None
        with pytest.raises(aiohttp.ClientConnectionError):
            async with aiohttp.ClientSession() as session:
                await session.get(f"http://127.0.0.1:{port}/webapp/api/state")
    finally:
        await runner.stop()


async def test_the_hand_and_the_table_carry_the_mini_app_s_buttons(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """Each seated person's private hand opens their table in the Mini App (a ``web_app``
    button, private chats only); the group's table message links to the app's direct link
    for anyone in the group."""
    runner, _ = webapp_bot
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    await runner.drain()
    for user in players.users:
        hand = players.hand_message(user)
        assert hand is not None
        markup = hand.reply_markup or {}
        web_apps = [
            b["web_app"]["url"] for row in markup["inline_keyboard"] for b in row if "web_app" in b
        ]
        assert web_apps == [f"https://kozel.example/app/?game={game_id}"]
    link = f"https://t.me/kozel_test_bot/table?startapp=g{game_id}"

    def group_buttons() -> list[dict[str, Any]]:
        markups = [m.reply_markup or {} for m in emu.messages(players.group.id)]
        return [b for markup in markups for row in markup.get("inline_keyboard", []) for b in row]

    await emu.wait_for(lambda: any(b.get("url") == link for b in group_buttons()))
    assert not any("web_app" in b for b in group_buttons())


async def test_a_hand_open_in_the_page_is_not_edited_per_card_and_catches_up(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """While a seated person has their table open in the Mini App, their private hand message
    is not edited for each card (the page shows it); when the page closes, it catches up."""
    runner, base = webapp_bot
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    mover, hand = await to_move(players)
    async with aiohttp.ClientSession() as session:
        page = Page(session, base, mover, game_id)
        await page.open()
        payload = page.payloads[-1]
        card = payload["legal"][0]
        status, _ = await post_move(session, base, init_for(mover), game_id, payload["deal"], card)
        assert status == 200
        others = [u for u in players.users if u.id != mover.id]
        await emu.wait_for(
            lambda: any(shows_turn(m) for m in map(players.hand_message, others) if m is not None)
        )
        await runner.drain()
        edits = emu.message(mover.id, hand.message_id).edits
        assert edits == hand.edits, "the hand was edited while its page was open"
        page.close()
        played = card.split(":", 1)[1]
        await emu.wait_for(lambda: emu.message(mover.id, hand.message_id).edits > edits)
        await runner.drain()
        buttons = [d for row in emu.message(mover.id, hand.message_id).buttons for _, d in row]
        assert not any(d.endswith(f":{played}") for d in buttons if d.startswith("c:"))


async def test_a_finished_match_replays_and_a_live_one_does_not(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """``/webapp/api/replay``: a finished match frame by frame, for the group; a live one
    409, an unknown one 404, unproven initData 401, someone not of the group 403."""
    runner, base = webapp_bot
    assert runner.app is not None
    players = await seat_four(emu)
    live_id = _game_id(runner, players.group.id)
    games = runner.app.bot_data.storage.games
    viewer = players.users[0]
    club = emu.add_group(title="Клуб", members=[viewer])  # where the match was played
    game_id = await store_finished(games, "hvalenyi", 6, chat_id=club.id)
    moves = finished_match("hvalenyi", 6)[2]
    stranger = emu.add_user(first_name="Чужой")
    async with aiohttp.ClientSession() as session:

        async def get(game: int, init: str) -> tuple[int, Any]:
            async with session.get(
                f"{base}/replay?game={game}", headers={"X-Telegram-Init-Data": init}
            ) as response:
                assert "Content-Security-Policy" in response.headers
                return response.status, await response.json()

        status, replay = await get(game_id, init_for(viewer))
        assert status == 200 and len(replay["frames"]) == len(moves)
        assert replay["frames"][-1]["action"] == moves[-1].action
        assert sum(len(hand) for hand in replay["frames"][0]["hands"]) == 35  # one card played
        assert (await get(live_id, init_for(viewer)))[0] == 409
        assert (await get(999_999, init_for(viewer)))[0] == 404
        assert (await get(game_id, init_for(viewer, token="1:OTHER")))[0] == 401
        assert (await get(game_id, init_for(stranger)))[0] == 403  # not of the group


async def test_history_offers_a_finished_match_s_replay(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """A /history match page carries the 🃏 replay: the Mini App's direct link."""
    runner, _ = webapp_bot
    assert runner.app is not None
    group, users = await english_group(emu)
    game_id = await store_match(runner.app.bot_data.storage, group.id, users, 0, deals=2)
    listing = await ask(emu, users[1], group, "/history")
    answer = await emu.press(users[1], group.id, listing.message_id, f"h:{game_id}:0")
    assert not answer.show_alert, answer.text
    link = f"https://t.me/kozel_test_bot/table?startapp=r{game_id}"
    await emu.wait_for(
        lambda: any(
            data == link
            for row in emu.message(group.id, listing.message_id).buttons
            for _, data in row
        )
    )


async def test_a_table_everyone_follows_in_the_page_is_edited_less_often(
    emu: BotApiEmulator, db_path: Path
) -> None:
    """With every seated person in the Mini App, a card no longer edits the group's table at
    once: it catches up ``PAGE_PACE`` group intervals later (the pages show each card). With
    someone outside the page, a card edits it at once, as always."""
    port = free_port()
    runner = BotRunner(
        bot_settings(
            emu,
            db_path,
            webapp_url="https://kozel.example/app/",
            webapp_port=port,
            group_period=20.0,
        )
    )
    await runner.start()
    base = f"http://127.0.0.1:{port}/webapp/api"
    try:
        players = await seat_four(emu)
        game_id = _game_id(runner, players.group.id)
        interval = runner.settings.group_interval
        async with aiohttp.ClientSession() as session:
            pages = {u.id: Page(session, base, u, game_id) for u in players.users}
            for page in pages.values():
                await page.open()

            def table_edits() -> int:
                tables = [
                    m for m in emu.messages(players.group.id) if m.from_bot and "Сдача 1" in m.text
                ]
                return tables[-1].edits if tables else -1

            async def edit_delay() -> float:
                """Seconds from a card played in the page to the group table's edit."""
                await asyncio.sleep(interval + 0.5)  # the table's lane is idle again
                before = table_edits()
                started = time.monotonic()
                await play_from_page(emu, session, base, pages, game_id)
                await emu.wait_for(lambda: table_edits() > before, timeout=interval * 6)
                return time.monotonic() - started

            pace = interval * PAGE_PACE
            assert await edit_delay() >= pace - 0.05, "edited at once though all are in the page"
            waiting = [u for u in players.users if not pages[u.id].payloads[-1]["legal"]]
            pages[waiting[0].id].close()
            assert await edit_delay() < pace - 0.5, "one person is out of the page: at once"
            for page in pages.values():
                page.close()
    finally:
        await runner.stop()


async def test_a_new_deal_s_hand_waits_while_the_page_is_open(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """A new deal sends nobody in the page a new private hand (the page shows the new deal);
    whoever closes the page then gets the new deal's hand, with its cards as buttons."""
    runner, base = webapp_bot
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    await players.next_turn()
    async with aiohttp.ClientSession() as session:
        pages = {u.id: Page(session, base, u, game_id) for u in players.users}
        for page in pages.values():
            await page.open()
        firsts = {u.id: players.hand_message(u) for u in players.users}
        first_ids = {uid: m.message_id for uid, m in firsts.items() if m is not None}
        assert len(first_ids) == 4
        first = pages[players.users[0].id].payloads[-1]["deal"]
        while all(p.payloads[-1]["deal"] == first for p in pages.values()):
            await play_from_page(emu, session, base, pages, game_id)
        for page in pages.values():
            await page.wait(lambda p: p["deal"] == first + 1 and bool(p["view"]["hand"]))
        await runner.drain()
        for user in players.users:
            latest = players.hand_message(user)
            assert latest is not None and latest.message_id == first_ids[user.id], (
                f"{user.first_name} got a new hand while in the page"
            )
        leaver = players.users[0]
        pages[leaver.id].close()
        await emu.wait_for(
            lambda: (
                (m := players.hand_message(leaver)) is not None
                and m.message_id != first_ids[leaver.id]
            )
        )
        fresh = players.hand_message(leaver)
        assert fresh is not None
        cards = {d.rsplit(":", 1)[1] for row in fresh.buttons for _, d in row if d.startswith("c:")}
        assert cards and cards <= set(pages[leaver.id].payloads[-1]["view"]["hand"])
        for user in players.users[1:]:
            latest = players.hand_message(user)
            assert latest is not None and latest.message_id == first_ids[user.id]
        for page in pages.values():
            page.close()
