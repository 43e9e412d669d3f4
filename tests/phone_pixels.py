"""How a 360-px phone wraps the bot's lines, measured in a browser (issue #30 item 7).

The character count of ``tests/transcripts.py`` (``PHONE_ROW``) guesses what fits a row;
this measures it: Debian's Chromium (through Playwright, never a download) lays each line
of a message out in a box as wide as the text of a Telegram message on a 360-px phone, in
Telegram's font at its size, and reports the rows each line took (which words went where).

What a phone gives a message's text (Telegram Android, ``MessageObject.getMaxMessageTextWidth``:
the screen's width less 132 dp for a message drawn with its sender's avatar, 80 dp without):

- ``GROUP_PX`` = 360 − 132 = 228 px in a group (the bot's messages carry its avatar);
- ``PRIVATE_PX`` = 360 − 80 = 280 px in a private chat.

The font is Roboto (Android's system font, which Telegram Android uses for messages) at
16 px, Telegram's default message size; Debian's ``fonts-roboto-unhinted`` provides it
(``.ci/run`` installs it) and the page loads it by ``@font-face`` from its installed path.
Telegram draws emoji as its own pictures about a line's height wide: ``EMOJI_PX`` (20 px)
each, whatever glyph (or none) this machine has for them. **Decision**: the card suits
(♣ ♠ ♥ ♦) count as emoji too — Telegram adds the emoji selector to them — which is the
wider, safe side.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

SCREEN_PX = 360
GROUP_PX = SCREEN_PX - 132
"""A group message's text width on a 360-px Android phone (the avatar shown): not held yet,
see ``ROW_PX``."""
PRIVATE_PX = SCREEN_PX - 80
"""A private message's text width on a 360-px Android phone (no avatar)."""
ROW_PX = PRIVATE_PX
"""The row the checks hold every chat to. **Decision**: 280 px, the private chat's, for the
group too: it is what the phone of issue #30 showed (its three wrapped lines wrap at 280 px
here as they did there, ``tests/test_phone_pixels.py``); Telegram Android's group bubble
with the avatar (``GROUP_PX``, 228 px, about 27 letters) would need every group table
redrawn narrower — left to decide (``/work/notes/accept.md``)."""
FONT_PX = 16
EMOJI_PX = 19
ROBOTO = Path("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf")
"""Debian's ``fonts-roboto-unhinted``."""
EMOJI = re.compile(
    "(?:[\U0001f004\U0001f0cf\U0001f100-\U0001faff]|[\u2300-\u23ff]|[\u2600-\u27bf]|[\u2b00-\u2bff]"
    "|[\u2194-\u2199\u21a9\u21aa])\ufe0f?"
)
"""What Telegram draws as an emoji picture: the emoji blocks (not ``→``, an arrow of text)."""

PAGE = """<!doctype html><meta charset="utf-8"><style>
@font-face { font-family: "Phone"; src: url("file://%(font)s"); }
body { margin: 0; font: %(size)spx/1.25 "Phone"; }
.bubble > div { white-space: pre-wrap; overflow-wrap: normal; word-break: normal; }
.e { font-family: "Phone", "DejaVu Sans"; }
</style><body>%(bubbles)s</body>"""

MEASURE = """async () => {
  await document.fonts.ready;
  const loaded = [...document.fonts].filter((f) => f.family === '"Phone"' || f.family === "Phone");
  if (!loaded.length || loaded.some((f) => f.status !== "loaded")) return { font: false };
  /* Each emoji as wide as Telegram's picture: the glyph's width topped up by letter-spacing. */
  for (const e of document.querySelectorAll(".e")) {
    const w = e.getBoundingClientRect().width;
    e.style.letterSpacing = (%(emoji)s - w) / [...e.textContent].length + "px";
  }
  const rows = [];
  for (const line of document.querySelectorAll(".bubble > div")) {
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let text = "";
    let top = null;
    const found = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const chars = [...node.textContent];
      let at = 0;
      for (const ch of chars) {
        range.setStart(node, at);
        range.setEnd(node, at + ch.length);
        at += ch.length;
        const rects = [...range.getClientRects()];
        const box = rects.find((r) => r.width > 0) || range.getBoundingClientRect();
        if (top !== null && box.top > top + %(size)s / 2 && ch.trim()) {
          found.push(text);
          text = "";
        }
        if (ch.trim() || text) top = top === null || box.top > top + %(size)s / 2 ? box.top : top;
        text += ch;
      }
    }
    found.push(text);
    rows.push(found);
  }
  return { font: true, rows };
}"""


def _html(line: str) -> str:
    """A line for the page: escaped, each emoji in a span of its own."""
    out: list[str] = []
    at = 0
    for match in EMOJI.finditer(line):
        out.append(escape(line[at : match.start()]))
        out.append(f'<span class="e">{escape(match.group())}</span>')
        at = match.end()
    out.append(escape(line[at:]))
    return "".join(out) or "&#8203;"


def page(lines: Sequence[tuple[str, int]]) -> str:
    """The page of ``lines``: each (line, width in px) in a bubble of its width."""
    bubbles = "".join(
        f'<div class="bubble" style="width:{width}px"><div>{_html(line)}</div></div>'
        for line, width in lines
    )
    return PAGE % {"font": ROBOTO, "size": FONT_PX, "bubbles": bubbles}


async def rows(lines: Iterable[tuple[str, int]]) -> dict[tuple[str, int], list[str]]:
    """How a phone wraps each (line, width): its rows, as the browser laid them out."""
    from playwright.async_api import async_playwright

    from tests.test_sandbox_browser import CHROMIUM, _playwright

    _playwright()
    if not ROBOTO.is_file():
        raise AssertionError(
            f"Roboto is missing at {ROBOTO}: apt-get install -y fonts-roboto-unhinted "
            "(.ci/run does it)"
        )
    wanted = list(dict.fromkeys(lines))
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--allow-file-access-from-files"]
        )
        try:
            window = await browser.new_page(viewport={"width": SCREEN_PX, "height": 640})
            found: dict[str, Any] = {}
            for start in range(0, len(wanted), 2000):
                chunk = wanted[start : start + 2000]
                with tempfile.NamedTemporaryFile(
                    "w", suffix=".html", delete=False, encoding="utf-8"
                ) as file:
                    file.write(page(chunk))
                path = Path(file.name)
                try:
                    await window.goto(path.as_uri())
                    measured = await window.evaluate(MEASURE % {"emoji": EMOJI_PX, "size": FONT_PX})
                finally:
                    path.unlink()
                if not measured["font"]:
                    raise AssertionError(f"Chromium did not load {ROBOTO}")
                found.update(zip(chunk, measured["rows"], strict=True))
        finally:
            await browser.close()
    return {key: [row.rstrip() for row in value] for key, value in found.items()}


def dump(measured: dict[tuple[str, int], list[str]]) -> str:
    """The measured rows, one line of JSON per line (for reading after a run)."""
    return "\n".join(
        json.dumps({"px": width, "line": line, "rows": found}, ensure_ascii=False)
        for (line, width), found in measured.items()
    )
