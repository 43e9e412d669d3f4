"""Issue #18 in a real browser: the Mini App's page in headless Chromium (Debian's package,
driven by Playwright) against the real bot and the emulator. A seated person sees their hand
as card pictures with the legal cards raised, taps one — the page's trick and the group's
table message both show it; a card out of turn is refused in the page; someone not seated
watches the table with no hand. Screenshots (phone and desktop) go to ``$KOZEL_ARTIFACTS``
(or ``tests/artifacts/``) and, when missing or ``KOZEL_UPDATE_SCREENSHOT=1``, to ``docs/``.

Missing Chromium or Playwright fails the test with what to install; it never skips.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from botapi_emulator import BotApiEmulator
from botapi_emulator.models import User
from kozelbot.core.cards import Card
from kozelbot.core.i18n import translator
from kozelbot.views.general import card_label
from tests.e2e import BotRunner, bot_settings, seat_four
from tests.matches import finished_match, store_finished
from tests.test_e2e_webapp import free_port, init_for, to_move
from tests.test_sandbox_browser import ARTIFACTS, CHROMIUM, DESKTOP, PHONE, _playwright

ROOT = Path(__file__).resolve().parent.parent
WAIT_MS = 15_000


def _async_playwright() -> Any:
    _playwright()  # fails with what to install when Playwright or Chromium is missing
    from playwright.async_api import async_playwright

    return async_playwright


@pytest.fixture
async def webapp_bot(emu: BotApiEmulator, db_path: Path) -> AsyncIterator[tuple[BotRunner, str]]:
    port = free_port()
    runner = BotRunner(
        bot_settings(emu, db_path, webapp_url="https://kozel.example/app", webapp_port=port)
    )
    await runner.start()
    try:
        yield runner, f"http://127.0.0.1:{port}/webapp/"
    finally:
        await runner.stop()


async def open_page(browser: Any, viewport: dict[str, int], address: str, person: User) -> Any:
    """The Mini App at ``address`` as Telegram opens it for ``person`` (signed initData after
    ``#``). Offline here: Telegram's own script is not to be had, and the page works without."""
    page = await browser.new_page(viewport=viewport)
    await page.route("https://telegram.org/**", lambda route: route.abort())
    await page.goto(
        f"{address}#tgWebAppData={quote(init_for(person))}", wait_until="domcontentloaded"
    )
    return page


def _shot(name: str, data: bytes, *, docs_too: bool = True) -> None:
    """A screenshot to the artifacts, and to ``docs/`` when asked (or missing there)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / name).write_bytes(data)
    docs = ROOT / "docs" / name
    if docs_too and (not docs.exists() or os.environ.get("KOZEL_UPDATE_SCREENSHOT") == "1"):
        docs.parent.mkdir(exist_ok=True)
        shutil.copyfile(ARTIFACTS / name, docs)


async def test_the_mini_app_plays_a_card_in_a_browser(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    runner, url = webapp_bot
    players = await seat_four(emu)
    assert runner.app is not None
    game_id = next(
        t.game_id
        for t in runner.app.bot_data.service.tables.live.values()
        if t.chat_id == players.group.id
    )
    mover, _ = await to_move(players)
    stranger = emu.add_user(first_name="Зритель")
    emu.add_member(players.group, stranger)  # of the group, not seated: watches
    async with _async_playwright()() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            phone = await open_page(browser, PHONE, f"{url}?game={game_id}", mover)
            legal = phone.locator("#hand svg.card.legal")
            await legal.first.wait_for(timeout=WAIT_MS)
            hand = players.hand_message(mover)
            assert hand is not None
            cards = [d for row in hand.buttons for _, d in row if d.startswith("c:")]
            assert await phone.locator("#hand svg.card").count() == len(cards)
            assert "Ваш ход" in await phone.locator("#status").inner_text()
            _shot("webapp-live-phone.png", await phone.screenshot(), docs_too=False)

            card = await legal.first.get_attribute("data-card")
            assert card is not None
            await legal.first.click()
            await phone.locator(f'#trick svg[data-card="{card}"]').wait_for(timeout=WAIT_MS)
            label = card_label(Card.parse(card), translator("ru"))
            await emu.wait_for(lambda: label in players.group_text())

            # Not their turn any more: a tapped card is refused in the page, nothing moves.
            await phone.locator("#hand svg.card.legal").first.wait_for(
                state="detached", timeout=WAIT_MS
            )
            before = runner.app.bot_data.service.snapshot(game_id).version  # type: ignore[union-attr]
            await phone.locator("#hand svg.card").first.click(position={"x": 8, "y": 30})
            await phone.locator("#status.refused").wait_for(timeout=WAIT_MS)
            assert runner.app.bot_data.service.snapshot(game_id).version == before  # type: ignore[union-attr]

            desktop = await open_page(browser, DESKTOP, f"{url}?game={game_id}", stranger)
            await desktop.locator(f'#trick svg[data-card="{card}"]').wait_for(timeout=WAIT_MS)
            assert await desktop.locator("#hand svg.card").count() == 0
            assert "Вы смотрите" in await desktop.locator("#status").inner_text()
            _shot("webapp-desktop.png", await desktop.screenshot())
            csp = (await desktop.request.get(url)).headers["content-security-policy"]
            assert "default-src 'self'" in csp
        finally:
            await browser.close()


async def test_a_finished_match_replays_in_the_page(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """The replay opens at the match's last move with every hand shown; ◀ steps back, |◀
    jumps to the deal before, and each deal's `kozelbot verify` line is behind a copy
    button."""
    runner, url = webapp_bot
    assert runner.app is not None
    viewer = emu.add_user(first_name="Зритель", language_code="ru")
    group = emu.add_group(title="Козлятня", members=[viewer])
    game_id = await store_finished(
        runner.app.bot_data.storage.games, "hvalenyi", 6, chat_id=group.id
    )
    _table, deals, moves = finished_match("hvalenyi", 6)
    total = len(moves)
    async with _async_playwright()() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = await open_page(browser, PHONE, f"{url}?replay={game_id}", viewer)
            counter = page.locator("#bar .deal")
            await counter.wait_for(timeout=WAIT_MS)
            assert f"{total}/{total}" in await counter.inner_text()
            assert await page.locator(".seat.open").count() == 4
            verify = await page.locator("button.copy").get_attribute("data-verify")
            assert verify is not None and verify.startswith("kozelbot verify ")
            _shot("webapp-live-replay.png", await page.screenshot(), docs_too=False)
            await page.locator("button.control[data-step='-1']").click()
            assert f"{total - 1}/{total}" in await counter.inner_text()
            last_deal = deals[-1].deal_no
            await page.locator("button.control[data-step='-deal']").click()
            assert f"#{last_deal} " in await counter.inner_text()  # the deal before the last
        finally:
            await browser.close()


async def test_the_cover_game_s_cards_are_picked_then_led_in_the_page(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """The cover game (several cards a move): the leader picks cards in the page, the move
    they make appears as its button once the picked cards are exactly its cards, and the
    press leads them — the page's table shows them."""
    runner, url = webapp_bot
    players = await seat_four(emu, options="cover seating=ordered")
    assert runner.app is not None
    game_id = next(
        t.game_id
        for t in runner.app.bot_data.service.tables.live.values()
        if t.chat_id == players.group.id
    )
    leader, _ = await to_move(players)
    async with _async_playwright()() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = await open_page(browser, PHONE, f"{url}?game={game_id}", leader)
            await page.locator("#hand svg.card.legal").first.wait_for(timeout=WAIT_MS)
            assert await page.locator("button.move").count() == 0  # nothing picked yet
            card = await page.locator("#hand svg.card.legal").first.get_attribute("data-card")
            await page.locator(f'#hand svg[data-card="{card}"]').click()
            lead = page.locator("button.move[data-action^='lead:']")
            await lead.first.wait_for(timeout=WAIT_MS)
            assert await lead.get_attribute("data-action") == f"lead:{card}"
            await lead.click()
            await page.locator(f'#trick svg[data-card="{card}"]').wait_for(timeout=WAIT_MS)
            _shot("webapp-live-cover.png", await page.screenshot(), docs_too=False)
        finally:
            await browser.close()


def telegram_stub(init: str) -> str:
    """Telegram's own script as a client serves it, reduced to what the page reads."""
    webapp = {"initData": init, "initDataUnsafe": {}, "themeParams": {}}
    return (
        f"window.Telegram = {{WebApp: Object.assign({json.dumps(webapp)}, "
        "{ready() {}, expand() {}, onEvent() {}, close() {}})};"
    )


async def test_the_page_prefers_telegram_s_init_data_over_the_address_s(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    """A crafted link carrying someone else's initData after "#" does not make a page opened
    in Telegram act as them: Telegram's own ``initData`` names who reads. The stream sends
    it in a header, never in its address."""
    runner, url = webapp_bot
    players = await seat_four(emu)
    assert runner.app is not None
    game_id = next(
        t.game_id
        for t in runner.app.bot_data.service.tables.live.values()
        if t.chat_id == players.group.id
    )
    mover, _ = await to_move(players)
    other = next(u for u in players.users if u.id != mover.id)
    async with _async_playwright()() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = await browser.new_page(viewport=PHONE)
            stub = telegram_stub(init_for(mover))

            async def telegram_script(route: Any) -> None:
                await route.fulfill(body=stub, content_type="text/javascript")

            await page.route("https://telegram.org/**", telegram_script)
            addresses: list[str] = []
            page.on("request", lambda request: addresses.append(request.url))
            crafted = f"{url}?game={game_id}#tgWebAppData={quote(init_for(other))}"
            await page.goto(crafted, wait_until="domcontentloaded")
            await page.locator("#hand svg.card.legal").first.wait_for(timeout=WAIT_MS)
            assert "Ваш ход" in await page.locator("#status").inner_text()
            streams = [a for a in addresses if "/api/stream" in a]
            assert streams and not any("init" in a or "hash" in a for a in streams)
        finally:
            await browser.close()
