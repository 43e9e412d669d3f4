"""Issue #18 item 7: the Mini App inside the sandbox, in headless Chromium. A person starts
a match against the computer in their private chat, presses 🃏 under their hand, and the
Mini App opens in a phone frame beside the chat — initData signed by the sandbox's own bot
token as Telegram signs it — shows their hand as card pictures, and plays the legal card
they tap: the frame's trick shows it.

Missing Chromium or Playwright fails the test with what to install; it never skips.
"""

from __future__ import annotations

from tests.test_sandbox_browser import (  # noqa: F401  (sandbox_url is a fixture)
    ARTIFACTS,
    CHROMIUM,
    DESKTOP,
    WAIT_MS,
    Page,
    _playwright,
    sandbox_url,
)

WEB_APP_JS = """
(person) => window.kozelSandbox.messages(person)
  .filter((m) => m.from.bot && m.buttons.flat().some((b) => b.web_app))
  .map((m) => m.message_id)
"""


def test_the_mini_app_opens_from_a_hand_in_the_sandbox(sandbox_url: str) -> None:  # noqa: F811
    sync_playwright = _playwright()
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            context = browser.new_context(viewport=DESKTOP, locale="ru-RU")
            context.route("https://telegram.org/**", lambda route: route.abort())
            tab = context.new_page()
            tab.on("pageerror", lambda error: errors.append(str(error)))
            tab.goto(sandbox_url)
            tab.wait_for_function("window.kozelSandbox && window.kozelSandbox.state().ready")
            state = tab.evaluate("window.kozelSandbox.state()")
            person = state["people"][0]["id"]
            page = Page(tab, expect, [person])
            page.act_as(person)
            page.tab(f"private-{person}")
            page.type("/play")
            hand_id = page.wait(
                lambda: (tab.evaluate(WEB_APP_JS, person) or [None])[-1],
                "a hand with the 🃏 button",
            )
            page.message(hand_id).locator("button.kb", has_text="🃏").click()
            frame = tab.frame_locator("#miniapp iframe")
            legal = frame.locator("#hand svg.card.legal")

            def ready() -> bool:
                # A weak hand is first offered a redeal (the deal is random): play on in the
                # Mini App, as a person would.
                keep = frame.locator('#actions button.move[data-action="keep"]')
                if keep.count():
                    keep.first.click()
                return bool(legal.count())

            try:
                page.wait(ready, "a legal card in the Mini App", timeout=2 * WAIT_MS / 1000)
                expect(legal.first).to_be_visible()
            except AssertionError:
                page.shot("webapp-sandbox-failed")
                raise
            card = legal.first.get_attribute("data-card")
            assert card
            page.shot("webapp-sandbox")
            legal.first.click()
            expect(
                frame.locator(
                    f'#trick svg[data-card="{card}"], #last svg[data-card="{card}"]'
                ).first
            ).to_be_visible()
            assert not errors, errors
        finally:
            browser.close()
