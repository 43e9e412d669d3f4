"""Issue #9: the sandbox page in a real browser — headless Chromium (Debian's ``chromium``
package) driven by Playwright — against the real bot (``kozelbot sandbox`` in a subprocess).

The four people open a table in the group, take their seats (a lobby button and ``/join``),
and play cards from their private chats by pressing keyboard buttons; the group's table
message changes in place, an illegal card (or one pressed out of turn) answers with the alert
modal, and the page works in a phone-sized window. Screenshots go to ``$KOZEL_ARTIFACTS`` (or
``tests/artifacts/``); the desktop view of the table is written to ``docs/sandbox.png`` and
the group's table on a phone (390×844) to ``docs/sandbox-phone.png`` when missing or
``KOZEL_UPDATE_SCREENSHOT=1``.

Missing Chromium or Playwright fails the test with what to install; it never skips.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kozelbot.core.texts import is_not_now

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("KOZEL_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("KOZEL_ARTIFACTS") or ROOT / "tests" / "artifacts")
DOCS_SCREENSHOT = ROOT / "docs" / "sandbox.png"
DOCS_PHONE = ROOT / "docs" / "sandbox-phone.png"
URL_LINE = re.compile(r"KozelBot sandbox: (http://127\.0\.0\.1:\d+)")
START_SECONDS = 30.0
WAIT_MS = 15_000
YOUR_TURN = "👉"
HAND_PREFIXES = ("c:", "r:", "a:", "x:", "y:")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# The page's own view of a person's latest hand message (the one with card buttons), and
# whether it asks them to act: what a player looks at in their private chat.
HAND_JS = """
([person, prefixes, turnMark]) => {
  const ours = (b) => b.data && prefixes.some((p) => b.data.startsWith(p));
  const hands = window.kozelSandbox.messages(person)
    .filter((m) => m.from.bot && m.buttons.flat().some(ours));
  if (!hands.length) return null;
  const hand = hands.reduce((a, b) => (a.message_id > b.message_id ? a : b));
  const buttons = hand.buttons.flat();
  return {
    person, message_id: hand.message_id, html: hand.html, buttons,
    turn: hand.html.includes(turnMark) || buttons.some((b) => b.data && b.data.startsWith("r:")),
  };
}
"""


def _playwright() -> Any:
    """``sync_playwright``, or a failure saying what to install (never a skip)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(
            "Playwright is missing: install the test extras "
            "(.venv/bin/pip install -e '.[dev]'); the browser is Debian's, never "
            "`playwright install`",
            pytrace=False,
        )
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: apt-get install -y chromium "
            "(.ci/run does it), or point KOZEL_CHROMIUM at a Chromium binary",
            pytrace=False,
        )
    return sync_playwright


@pytest.fixture
def sandbox_url(tmp_path: Path) -> Iterator[str]:
    """``kozelbot sandbox`` on a free port, with a fresh database, in a subprocess."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    out, err = tmp_path / "sandbox.out", tmp_path / "sandbox.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        # cwd: the temporary directory, so that no .env of the checkout configures it.
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kozelbot",
                "sandbox",
                "--port",
                "0",
                "--db",
                str(tmp_path / "sandbox.db"),
            ],
            cwd=tmp_path,
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            found = URL_LINE.search(out.read_text(errors="replace"))
            if found:
                break
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    f"the sandbox did not start (exit code {process.poll()}):\n"
                    + err.read_text(errors="replace")[-3000:],
                    pytrace=False,
                )
            time.sleep(0.1)
        yield found.group(1)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(err, ARTIFACTS / "sandbox.log")
        chats = tmp_path / "sandbox.db.chats.json"
        if chats.exists():
            shutil.copyfile(chats, ARTIFACTS / "sandbox.chats.json")


class Page:
    """The sandbox page, used the way a person would: tabs, the composer, buttons."""

    def __init__(self, page: Any, expect: Any, people: list[int]) -> None:
        self.page = page
        self.expect = expect
        self.people = people

    def tab(self, key: str) -> None:
        self.page.click(f'[data-tab="{key}"]')
        self.expect(self.page.locator(f'[data-tab="{key}"]')).to_have_attribute(
            "aria-selected", "true"
        )

    def act_as(self, person: int) -> None:
        self.tab("group")
        self.page.select_option("#acting-as", str(person))

    def type(self, text: str) -> None:
        box = self.page.locator("#composer input")
        box.fill(text)
        box.press("Enter")
        self.expect(box).to_have_value("")

    def message(self, message_id: int) -> Any:
        return self.page.locator(f'#messages .message[data-message-id="{message_id}"]')

    def chat(self, chat_id: int) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self.page.evaluate(
            "(id) => window.kozelSandbox.messages(id)", chat_id
        )
        return sorted(result, key=lambda m: m["message_id"])

    def hand(self, person: int) -> dict[str, Any] | None:
        hand: dict[str, Any] | None = self.page.evaluate(
            HAND_JS, [person, list(HAND_PREFIXES), YOUR_TURN]
        )
        return hand

    def whose_turn(self) -> dict[str, Any] | None:
        for person in self.people:
            hand = self.hand(person)
            if hand is not None and hand["turn"]:
                return hand
        return None

    def table(self, group: int, lobby_id: int) -> int:
        """The group's table message: the bot's latest there after the lobby."""
        return int(
            self.wait(
                lambda: next(
                    (
                        m["message_id"]
                        for m in reversed(self.chat(group))
                        if m["from"]["bot"] and m["message_id"] > lobby_id
                    ),
                    None,
                ),
                "the table message",
            )
        )

    def wait(self, predicate: Any, what: str, timeout: float = WAIT_MS / 1000) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            self.page.wait_for_timeout(50)

    def shot(self, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path


def choose(hand: dict[str, Any]) -> str:
    """The button a player presses on their turn: play on after a redeal offer, a plain call,
    keep a card offered for a hand-off, the first card they may return, else a legal card."""
    buttons = [(str(b["text"]), str(b["data"])) for b in hand["buttons"] if b.get("data")]
    for prefix, suffix in (("r:", ":n"), ("a:", ":call:plain"), ("a:", ":keep")):
        for _, data in buttons:
            if data.startswith(prefix) and data.endswith(suffix):
                return data
    for text, data in buttons:
        if data.startswith("a:") and ":return:" in data and not is_not_now(text):
            return data
    return next(d for t, d in buttons if d.startswith("c:") and not is_not_now(t))


def test_play_in_the_browser(sandbox_url: str) -> None:
    sync_playwright = _playwright()
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
            tab = context.new_page()
            tab.on("pageerror", lambda error: errors.append(str(error)))
            tab.goto(sandbox_url)
            tab.wait_for_function("window.kozelSandbox && window.kozelSandbox.state().ready")
            expect(tab.locator("#status")).to_have_class(re.compile(r"\bonline\b"))
            state = tab.evaluate("window.kozelSandbox.state()")
            people = [person["id"] for person in state["people"]]
            names = {person["id"]: person["name"] for person in state["people"]}
            group = next(chat["id"] for chat in state["chats"] if chat["kind"] == "group")
            assert len(people) == 4, state
            for person in people:
                expect(tab.locator(f'[data-tab="private-{person}"]')).to_be_visible()
            page = Page(tab, expect, people)

            # The emulator's strict flood limits would spread the bot's edits over minutes.
            tab.uncheck("#limits")
            page.wait(
                lambda: not tab.request.get(f"{sandbox_url}/api/state").json()["limits"],
                "the flood limits to go off",
            )

            # Person 1 opens a table; the command menu offers /newgame as they type.
            page.act_as(people[0])
            tab.locator("#composer input").fill("/new")
            tab.locator("#composer input").dispatch_event("input")
            expect(tab.locator('#command-menu li[data-command="newgame"]')).to_be_visible()
            page.type("/newgame seating=ordered")
            lobby = page.wait(
                lambda: next(
                    (m for m in reversed(page.chat(group)) if m["from"]["bot"] and m["buttons"]),
                    None,
                ),
                "the lobby",
            )
            lobby_id = lobby["message_id"]
            expect(page.message(lobby_id)).to_contain_text(names[people[0]])

            # Person 2 presses the lobby's seat button (its first), 3 and 4 type /join.
            page.act_as(people[1])
            page.message(lobby_id).locator("button.kb[data-data]").first.click()
            expect(page.message(lobby_id)).to_contain_text(names[people[1]])
            expect(page.message(lobby_id)).to_have_attribute("data-edited", "true")
            for person in people[2:]:
                page.act_as(person)
                page.type("/join")
                if person != people[-1]:
                    expect(page.message(lobby_id)).to_contain_text(names[person])

            # The cards are dealt: everyone's private chat gets a hand with card buttons.
            page.wait(lambda: all(page.hand(p) for p in people), "four hands", timeout=20)

            def picture() -> Path:
                """The group's table with the player to act beside it (the README's picture)."""
                turn = page.wait(page.whose_turn, "someone's turn")
                page.act_as(turn["person"])
                dock = f'#dock [data-dock-message-id="{turn["message_id"]}"]'
                expect(tab.locator(dock)).to_be_visible()
                tab.locator("#messages .message").last.scroll_into_view_if_needed()
                tab.evaluate("document.getElementById('toast').hidden = true")
                return page.shot("desktop-group")

            desktop: Path | None = None
            alerted = False
            in_place = 0  # moves after which the table message showed new text, same id
            moves = 0
            while moves < 6 or not alerted:
                assert moves < 24, "no illegal card to press and nobody out of turn"
                hand = page.wait(page.whose_turn, "someone's turn")
                person, hand_id = hand["person"], hand["message_id"]
                page.tab("group")
                table_id = page.table(group, lobby_id)
                before = page.message(table_id).locator(".text").inner_text()
                marked = [
                    b["data"]
                    for b in hand["buttons"]
                    if (b.get("data") or "").startswith("c:") and is_not_now(b["text"])
                ]
                if not alerted and (marked or moves >= 8):
                    if marked:  # a card this player may not play now
                        page.tab(f"private-{person}")
                        page.message(hand_id).locator(f'button.kb[data-data="{marked[0]}"]').click()
                    else:  # someone else presses a card out of turn
                        other = next(p for p in people if p != person)
                        other_hand = page.hand(other)
                        assert other_hand is not None
                        page.tab(f"private-{other}")
                        data = next(
                            b["data"]
                            for b in other_hand["buttons"]
                            if (b.get("data") or "").startswith("c:")
                        )
                        page.message(other_hand["message_id"]).locator(
                            f'button.kb[data-data="{data}"]'
                        ).click()
                    expect(tab.locator("#alert")).to_be_visible()
                    expect(tab.locator("#alert-text")).not_to_be_empty()
                    page.shot("desktop-alert")
                    tab.click("#alert-ok")
                    expect(tab.locator("#alert")).to_be_hidden()
                    alerted = True
                data = choose(hand)
                if moves == 2:
                    # Wide window: the acting person's hand sits beside the group; play from it.
                    page.act_as(person)
                    dock = tab.locator(f'#dock .dock-message[data-dock-message-id="{hand_id}"]')
                    expect(dock).to_be_visible()
                    page.shot("desktop-dock")
                    dock.locator(f'button.kb[data-data="{data}"]').click()
                else:
                    page.tab(f"private-{person}")
                    expect(page.message(hand_id).locator("button.kb").first).to_be_visible()
                    if moves == 1:
                        page.shot("desktop-hand")
                    page.message(hand_id).locator(f'button.kb[data-data="{data}"]').click()
                page.wait(lambda h=hand: page.whose_turn() != h, "the turn to move on")
                # The group's table message changes in place (same message, new text) unless
                # the deal ended and the next one has a table message of its own.
                page.tab("group")
                if data.startswith("c:"):
                    text = page.message(table_id).locator(".text")
                    page.wait(
                        lambda t=text, b=before, i=table_id: (
                            t.inner_text() != b or page.table(group, lobby_id) != i
                        ),
                        "the table to change",
                    )
                    if text.inner_text() != before:
                        expect(page.message(table_id)).to_have_count(1)
                        expect(page.message(table_id)).to_have_attribute("data-edited", "true")
                        in_place += 1
                        if desktop is None and moves >= 4:  # cards on the table, mid-deal
                            desktop = picture()
                moves += 1
            assert in_place >= 3, f"the table message changed in place after {in_place} moves"

            if desktop is None:
                desktop = picture()
            if os.environ.get("KOZEL_UPDATE_SCREENSHOT") == "1" or not DOCS_SCREENSHOT.exists():
                DOCS_SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(desktop, DOCS_SCREENSHOT)

            # A phone: tabs scroll sideways, buttons stay inside the screen, input at the bottom.
            phone_context = browser.new_context(
                viewport=PHONE,
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                locale="ru-RU",
            )
            phone = phone_context.new_page()
            phone.on("pageerror", lambda error: errors.append(str(error)))
            phone.goto(f"{sandbox_url}/#group")
            phone.wait_for_function("window.kozelSandbox && window.kozelSandbox.state().ready")
            mobile = Page(phone, expect, people)
            expect(mobile.message(table_id)).to_be_visible()
            layout = phone.evaluate("""() => {
                const tabs = document.querySelector('#tabs');
                const composer = document.querySelector('#composer').getBoundingClientRect();
                return {tabs: tabs.scrollWidth - tabs.clientWidth,
                        overflowY: getComputedStyle(tabs).overflowX,
                        page: document.documentElement.scrollWidth - window.innerWidth,
                        bottom: window.innerHeight - composer.bottom};
            }""")
            assert layout["tabs"] > 0 and layout["overflowY"] == "auto", layout
            assert layout["page"] <= 0, layout
            assert abs(layout["bottom"]) <= 1, layout
            phone_group = mobile.shot("phone-group")
            if os.environ.get("KOZEL_UPDATE_SCREENSHOT") == "1" or not DOCS_PHONE.exists():
                shutil.copyfile(phone_group, DOCS_PHONE)
            hand = next(h for h in (mobile.hand(p) for p in people) if h)
            mobile.tab(f"private-{hand['person']}")
            keys = mobile.message(hand["message_id"]).locator("button.kb")
            expect(keys.first).to_be_visible()
            boxes = [keys.nth(i).bounding_box() for i in range(keys.count())]
            right = max(box["x"] + box["width"] for box in boxes if box)
            assert right <= PHONE["width"], f"a keyboard button ends at x={right}"
            mobile.shot("phone-hand")
            phone_context.close()
            context.close()
        finally:
            browser.close()
    assert not errors, errors
