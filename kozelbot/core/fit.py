"""Texts cut to Telegram's limits: a message's 4,096 characters, a button answer's 200.

Telegram refuses a longer text outright (``MESSAGE_TOO_LONG``), so a press would go
unanswered or a table unsent: every message and every callback answer passes through here
(``handlers.presenter`` and ``handlers.press`` do it, for every language). Lengths are
counted in UTF-16 code units, as Telegram counts entity offsets — never fewer than the
characters, so the cut is safe whichever way Telegram counts. A message is HTML: its limit
applies to the text as shown (tags and entities do not count), and a cut closes the tags it
leaves open, so the result still parses.
"""

from __future__ import annotations

import html
import re

MESSAGE_LIMIT = 4096
ANSWER_LIMIT = 200
ELLIPSIS = "…"

_TOKEN = re.compile(r"(<[^>]*>)|(&#?[0-9A-Za-z]+;)|([^<&]+|[<&])")
_TAG = re.compile(r"<\s*(/)?\s*([A-Za-z][A-Za-z0-9-]*)")


def units(text: str) -> int:
    """The length of a text in UTF-16 code units (an emoji counts two)."""
    return len(text.encode("utf-16-le")) // 2


def _cut(text: str, budget: int) -> str:
    """The longest start of ``text`` within ``budget`` UTF-16 units."""
    taken = 0
    for index, char in enumerate(text):
        taken += 2 if ord(char) > 0xFFFF else 1
        if taken > budget:
            return text[:index]
    return text


def fit_plain(text: str, limit: int = ANSWER_LIMIT) -> str:
    """A plain text (a callback answer) cut to ``limit`` units, ending in "…" if cut."""
    if units(text) <= limit:
        return text
    return _cut(text, limit - units(ELLIPSIS)).rstrip() + ELLIPSIS


def fit_html(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """An HTML message whose shown text fits ``limit`` units: cut at a whole character or
    entity, "…" added, and every tag left open closed again."""
    shown = units(html.unescape(re.sub(r"<[^>]*>", "", text)))
    if shown <= limit:
        return text
    budget = limit - units(ELLIPSIS)
    out: list[str] = []
    open_tags: list[str] = []
    for tag, entity, plain in _TOKEN.findall(text):
        if tag:
            found = _TAG.match(tag)
            if found is not None:
                closing, name = found.group(1), found.group(2).lower()
                if closing and name in open_tags:
                    del open_tags[len(open_tags) - 1 - open_tags[::-1].index(name)]
                elif not closing and not tag.endswith("/>"):
                    open_tags.append(name)
            out.append(tag)
            continue
        piece = entity or plain
        size = units(html.unescape(piece))
        if size <= budget:
            out.append(piece)
            budget -= size
            continue
        if plain:
            out.append(_cut(plain, budget))
        break
    return "".join(out).rstrip() + ELLIPSIS + "".join(f"</{name}>" for name in reversed(open_tags))
