"""Issue #30 item 1–4: the Mini App's layout in a real browser (Debian's Chromium through
Playwright), at 360×640, 390×844 and 412×915, light and dark (the reader's
``prefers-color-scheme``, and Telegram's own theme colours handed to the page), for these
scenes: a hvalenyi trick half played (the reader to play), the same group's table watched
by someone not seated, the cover game mid-lead (a lead of three cards, one answer beat
them, the reader to answer) and a finished match's replay (the first deal, mid-trick); and
the tables of fewer seats the variants allow: two-player hvalenyi (``players=2``, the
reader answering a lead) and the cover game each for self at three and at two
(``mode=self players=3|2``, a lead with a beaten stack, the reader to answer).

Each scene fails on (the four first scenes' 390×844 light screenshots are README's,
``docs/webapp-*.png``):

- two text boxes that overlap (or a card on the table over a text box, a seat's box or an
  open hand's card);
- text cut off (wider than its box, or outside the screen or the felt), or a word broken
  across rows (a name under its card as «Алекса» / «ндра»);
- a card the reader may play showing less than 44 CSS px of its width (sampled with
  ``elementFromPoint``: what is under a finger, not the card's box);
- text with a contrast under 4.5 : 1 against what is behind it (the colours Chromium
  computed, semi-transparent layers blended down to the first opaque one; over a gradient,
  the worst of its colours);
- a card on the table whose corner (rank and suit) is hidden under another.

**Decision**: the payloads are the real ones — ``kozelbot.views.page.page`` of an engine state
played by the rules, ``kozelbot.views.frames.frames`` of a finished match's replay file — and
the page is the real static page; the browser gets them through Playwright's routing
rather than the bot's server, so that 18 layouts of three scenes take seconds and each
scene is exactly the position it names (the server's route and the live stream are
``tests/test_webapp_browser.py``'s). Text inside the card pictures is not held to the
contrast rule: a card is a picture, its red and black on white are the deck's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from kozelbot.core.i18n import translator
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.registry import new_state
from kozelbot.tools.simulate import options_of
from kozelbot.views.frames import frames
from kozelbot.views.page import page
from kozelbot.views.replay import export
from tests.matches import finished_match
from tests.test_sandbox_browser import CHROMIUM, _playwright
from tests.test_webapp_browser import _shot

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "handlers" / "webapp" / "static"
BASE = "http://kozel.test/webapp/"
VIEWPORTS = [(360, 640), (390, 844), (412, 915)]
WITH_TELEGRAM = {(360, 640): (False, True), (390, 844): (False, True), (412, 915): (True,)}
"""Whether the page has Telegram's script (and its theme colours) at each size. In Telegram
it always has, so every size is checked that way; a page without it (the sandbox, a browser
opening the link) is checked at the narrowest phone and at the screenshots' size, which
keeps the suite inside its time (a layout that holds at 360 and 390 px without the theme
and at 412 px with it has not been seen to break at 412 px without it)."""
NAMES = ["Аня", "Борис", "Вера", "Александра"]
"""The seats' names: one as long as a name commonly gets (a side seat's at 360 px)."""
FEWER = {2: ["Аня", "Александра"], 3: ["Аня", "Борис", "Александра"]}
"""The names at a table of two or three (the long one again at a seat of the felt)."""
TELEGRAM_THEMES = {
    # Telegram's own default themes (Android), as a client hands them to a Mini App.
    "light": {
        "bg_color": "#ffffff",
        "text_color": "#000000",
        "hint_color": "#999999",
        "button_color": "#2481cc",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#efeff3",
    },
    "dark": {
        "bg_color": "#17212b",
        "text_color": "#f5f5f5",
        "hint_color": "#708499",
        "button_color": "#5288c1",
        "button_text_color": "#ffffff",
        "secondary_bg_color": "#232e3c",
    },
}


def _table(variant: str, options: dict[str, Any]) -> Table:
    names = FEWER.get(int(options.get("players", 4)), NAMES)
    return Table(
        game_id=1,
        chat_id=-1,
        variant=variant,
        options=options,
        creator_id=1,
        seed=1,
        status=TableStatus.PLAYING,
        deadline=None,
        seats=[Player(user_id=i + 1, name=n) for i, n in enumerate(names)],
    )


def _played_to(variant: str, wanted: Any, players: int | None = None) -> dict[str, Any]:
    """The page of the first position (random legal play, fixed seeds) where ``wanted(view)``
    holds, as the seat to act sees it; ``players``: fewer than four (each for self)."""
    options = options_of(variant, [], players)
    for seed in range(200):
        rng = random.Random(seed)
        state = new_state(variant, options)
        while not state.over:
            if state.needs_chance:
                state.chance(random.Random(rng.getrandbits(32)))
                continue
            seat = state.to_act()[0]
            view = state.view_for(seat)
            if wanted(view):
                return page(_table(variant, options), state, seat, 0.0, translator("ru"))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"no position of {variant} as wanted")


def hvalenyi_mid_trick() -> dict[str, Any]:
    """Two cards on the table, a trick taken before, three cards or more to choose from."""
    return _played_to(
        "hvalenyi",
        lambda v: (
            len(v.trick) == 2
            and v.last_trick is not None
            and len(v.legal) >= 3
            and len(v.hand) >= 7
        ),
    )


def watching() -> dict[str, Any]:
    """The group's table as someone not seated watches it: no hand, the trick, the score."""
    seated = hvalenyi_mid_trick()
    options = options_of("hvalenyi", [], None)
    for seed in range(200):
        rng = random.Random(seed)
        state = new_state("hvalenyi", options)
        while not state.over:
            if state.needs_chance:
                state.chance(random.Random(rng.getrandbits(32)))
                continue
            view = state.view_for(None)
            if len(view.trick) == 3 and view.last_trick is not None:
                return page(_table("hvalenyi", options), state, None, 0.0, translator("ru"))
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return seated


def cover_mid_lead() -> dict[str, Any]:
    """A lead of three cards that one answer beat, others' discards face down; the reader
    answers."""
    return _played_to(
        "cover",
        lambda v: (
            len(v.stacks) == 3
            and len(v.stacks[0]) == 2
            and v.discards > 0
            and str(v.phase.value) == "answer"
        ),
    )


def hvalenyi_two() -> dict[str, Any]:
    """Two-player hvalenyi (``players=2``): the other's card led, a trick taken before, the
    reader to answer from a hand of four or more."""
    return _played_to(
        "hvalenyi",
        lambda v: len(v.trick) == 1 and v.last_trick is not None and len(v.hand) >= 4,
        players=2,
    )


def cover_fewer(players: int) -> dict[str, Any]:
    """The cover game each for self at a table of ``players``: a lead of two cards or more,
    one of them beaten, the reader to answer."""
    return _played_to(
        "cover",
        lambda v: len(v.stacks) >= 2 and len(v.stacks[0]) == 2 and str(v.phase.value) == "answer",
        players=players,
    )


def a_replay() -> dict[str, Any]:
    return frames(export(*finished_match("hvalenyi", 6)), translator("ru"))


SCENES = {
    "hvalenyi": hvalenyi_mid_trick,
    "cover": cover_mid_lead,
    "replay": a_replay,
    "watching": watching,
    "hvalenyi-two": hvalenyi_two,
    "cover-three": lambda: cover_fewer(3),
    "cover-two": lambda: cover_fewer(2),
}
"""Scenes with fewer seats (issue #30 acceptance): the variants that allow them — hvalenyi
``players=2``, the cover game ``mode=self players=3`` and ``players=2``; no other preset
has a ``players`` option."""
SHOTS = {
    "hvalenyi": "webapp-phone.png",
    "cover": "webapp-cover.png",
    "replay": "webapp-replay.png",
    "watching": "webapp-watching.png",
}
"""README's screenshots: each scene at 390×844, light, outside Telegram."""

STREAM = """(() => {
  const payload = %s;
  const fetched = window.fetch.bind(window);
  window.fetch = (address, options) => {
    if (!String(address).includes("api/stream")) return fetched(address, options);
    const body = new ReadableStream({ start(controller) {
      controller.enqueue(new TextEncoder().encode(
        "event: table\\ndata: " + JSON.stringify(payload) + "\\n\\n"));
    } });
    return Promise.resolve(new Response(body, { status: 200 }));
  };
})();"""

MEASURE = (ROOT / "tests" / "layout.js").read_text(encoding="utf-8")


async def open_scene(
    browser: Any, scene: str, size: tuple[int, int], scheme: str, telegram: bool
) -> Any:
    """The page of ``scene`` in a new window; Telegram's script (with its theme) or none."""
    payload = SCENES[scene]()
    context = await browser.new_context(
        viewport={"width": size[0], "height": size[1]}, color_scheme=scheme, device_scale_factor=1
    )
    window = await context.new_page()

    async def serve(route: Any) -> None:
        path = route.request.url.split("?")[0][len(BASE) :]
        if path in ("", "index.html"):
            await route.fulfill(path=STATIC / "index.html")
        elif path.startswith("static/"):
            await route.fulfill(path=STATIC / path[len("static/") :])
        elif path == "api/replay":
            await route.fulfill(
                body=json.dumps(payload, ensure_ascii=False), content_type="application/json"
            )
        else:
            await route.fulfill(status=404, body="{}")

    async def telegram_script(route: Any) -> None:
        if not telegram:
            await route.abort()
            return
        webapp = {
            "initData": "user=1",
            "initDataUnsafe": {},
            "themeParams": TELEGRAM_THEMES[scheme],
            "colorScheme": scheme,
        }
        await route.fulfill(
            content_type="text/javascript",
            body=(
                f"window.Telegram = {{WebApp: Object.assign({json.dumps(webapp)}, "
                "{ready() {}, expand() {}, onEvent() {}, close() {}})};"
            ),
        )

    # The stream stays open, as the server's does: one "table" event, then nothing.
    await window.add_init_script(STREAM % json.dumps(payload, ensure_ascii=False))
    await window.route(f"{BASE}**", serve)
    await window.route("https://telegram.org/**", telegram_script)
    query = "?replay=1" if scene == "replay" else "?game=1"
    await window.goto(f"{BASE}{query}#tgWebAppData=user%3D1", wait_until="domcontentloaded")
    ready = {"replay": ".seat.open", "watching": "#trick svg.card"}.get(scene, "#hand svg.card")
    await window.locator(ready).first.wait_for(timeout=10_000)
    if scene == "replay":  # the first deal, a trick half played: the hands still full
        while "#1 " not in await window.locator("#bar .deal").inner_text():
            await window.locator("button.control[data-step='-deal']").click()
        for _ in range(6):
            await window.locator("button.control[data-step='1']").click()
    await window.wait_for_timeout(300)  # transitions of the raised cards
    return window


def _problems(found: dict[str, list[str]]) -> list[str]:
    return [f"{kind}: {item}" for kind, items in found.items() for item in items]


@pytest.mark.parametrize("scene", list(SCENES))
async def test_the_page_s_layout_holds_on_phones(scene: str) -> None:
    _playwright()
    from playwright.async_api import async_playwright

    failures: list[str] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            for size in VIEWPORTS:
                for scheme in ("light", "dark"):
                    for telegram in WITH_TELEGRAM[size]:
                        window = await open_scene(browser, scene, size, scheme, telegram)
                        found = await window.evaluate(MEASURE)
                        where = f"{scene} {size[0]}×{size[1]} {scheme}" + (
                            " telegram" if telegram else ""
                        )
                        failures += [f"{where}: {p}" for p in _problems(found)]
                        if (
                            size == (390, 844)
                            and scheme == "light"
                            and not telegram
                            and scene in SHOTS
                        ):
                            _shot(SHOTS[scene], await window.screenshot())
                        await window.context.close()
        finally:
            await browser.close()
    assert not failures, "\n".join(failures[:400]) + f"\n({len(failures)} in all)"


async def test_the_cover_game_says_whether_the_picked_cards_make_a_move() -> None:
    """Issue #30 item 1: while picking, the status says how many more cards a move needs,
    then the move's verb; a button with the chat's verb («Скинуть») appears; a pick that no
    move has is said to be one. The layout holds with cards raised."""
    _playwright()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            window = await open_scene(browser, "cover", (360, 640), "light", False)
            moves = await window.evaluate("current.moves")
            discard = next(m for m in moves if m["kind"] == "discard")
            status = window.locator("#status")
            for count, card in enumerate(discard["cards"], start=1):
                await window.locator(f'#hand svg[data-card="{card}"]').click(
                    position={"x": 10, "y": 30}
                )
                if count < len(discard["cards"]):
                    left = len(discard["cards"]) - count
                    assert f"Выберите ещё: {left}" in await status.inner_text()
            assert "Скинуть" in await status.inner_text()
            assert "good" in (await status.get_attribute("class") or "")
            button = window.locator(f"button.move[data-action='{discard['action']}']")
            assert await button.inner_text() == "Скинуть"
            found = await window.evaluate(MEASURE)
            assert not _problems(found), _problems(found)
            # A card of no move with these: the status says so.
            others = [c for m in moves for c in m["cards"] if c not in discard["cards"]]
            if others:
                await window.locator(f'#hand svg[data-card="{others[0]}"]').click(
                    position={"x": 10, "y": 30}
                )
                picked = {*discard["cards"], others[0]}
                if not any(picked <= set(m["cards"]) for m in moves):
                    assert "bad" in (await status.get_attribute("class") or "")
        finally:
            await browser.close()
