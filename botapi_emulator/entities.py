"""Message text formatting: the HTML parse mode, UTF-16 offsets and bot-command entities.

Telegram turns ``parse_mode="HTML"`` text into plain text plus a list of entities whose offsets
and lengths are counted in UTF-16 code units. :func:`parse_html` does the same and is deliberately
strict: a tag Telegram does not know, a badly nested or unclosed tag, or an unescaped ``<``,
``>`` or ``&`` is an error, reported like Telegram's "can't parse entities" errors. Being
stricter than Telegram (which lets a stray ``>`` through) catches unescaped user input early.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY_RE = re.compile(r"&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));")
_TAG_NAME_RE = re.compile(r"[a-zA-Z][a-zA-Z0-9-]*")
_ATTR_NAME_RE = re.compile(r"[a-zA-Z_][a-zA-Z0-9_-]*")
_UNQUOTED_VALUE_RE = re.compile(r"[^\s>\"'=<`]+")
_USER_LINK_RE = re.compile(r"tg://user\?id=([0-9]+)$")

_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "a": "text_link",
    "tg-emoji": "custom_emoji",
}

#: Resolves a user id from a ``tg://user?id=`` link to a User JSON object, or None if unknown.
UserLookup = Callable[[int], "dict[str, Any] | None"]


class HtmlParseError(ValueError):
    """The HTML text cannot be parsed.

    The message is what Telegram puts after ``"Bad Request: can't parse entities: "``.
    """


@dataclass(frozen=True)
class FormattedText:
    """Plain text with its entities, as Telegram stores a message text."""

    text: str
    entities: list[dict[str, Any]] = field(default_factory=list)


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _OpenTag:
    name: str
    attrs: dict[str, str]
    offset: int
    language: str | None = None


class _HtmlParser:
    """A single-use parser; see :func:`parse_html`."""

    def __init__(self, source: str, lookup_user: UserLookup | None) -> None:
        self.source = source
        self.lookup_user = lookup_user
        self.pos = 0
        self.out: list[str] = []
        self.offset = 0  # UTF-16 offset of the end of the plain text produced so far
        self.stack: list[_OpenTag] = []
        self.entities: list[dict[str, Any]] = []

    def fail(self, message: str, at: int | None = None, detail: str = "") -> HtmlParseError:
        if at is not None:
            message = f"{message} at byte offset {len(self.source[:at].encode('utf-8'))}"
        return HtmlParseError(message + detail)

    def emit(self, text: str) -> None:
        self.out.append(text)
        self.offset += utf16_len(text)

    def run(self) -> FormattedText:
        source = self.source
        while self.pos < len(source):
            char = source[self.pos]
            if char == "<":
                if source.startswith("</", self.pos):
                    self.end_tag()
                else:
                    self.start_tag()
            elif char == "&":
                self.emit(self.entity())
            elif char == ">":
                raise self.fail('Unescaped ">", use "&gt;"', self.pos)
            else:
                end = self.pos
                while end < len(source) and source[end] not in "<>&":
                    end += 1
                self.emit(source[self.pos : end])
                self.pos = end
        if self.stack:
            name = self.stack[-1].name
            raise self.fail(f'Can\'t find end tag corresponding to start tag "{name}"')
        self.entities.sort(key=lambda entity: (entity["offset"], -entity["length"]))
        return FormattedText("".join(self.out), self.entities)

    def entity(self) -> str:
        match = _ENTITY_RE.match(self.source, self.pos)
        if match is None:
            raise self.fail('Unescaped "&" or unknown character entity, use "&amp;"', self.pos)
        decimal, hexadecimal, name = match.groups()
        if name is not None:
            if name not in _NAMED_ENTITIES:
                raise self.fail(f'Unsupported character entity "&{name};"', self.pos)
            value = _NAMED_ENTITIES[name]
        else:
            code = int(decimal) if decimal is not None else int(hexadecimal, 16)
            if not 0 < code <= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise self.fail("Invalid numeric character entity", self.pos)
            value = chr(code)
        self.pos = match.end()
        return value

    def start_tag(self) -> None:
        source = self.source
        begin = self.pos
        name_match = _TAG_NAME_RE.match(source, begin + 1)
        if name_match is None:
            raise self.fail('Unescaped "<" or empty start tag, use "&lt;"', begin)
        name = name_match.group().lower()
        if name not in _SIMPLE_TAGS:
            raise self.fail(f'Unsupported start tag "{name}"', begin)
        self.pos = name_match.end()
        attrs: dict[str, str] = {}
        while True:
            while self.pos < len(source) and source[self.pos].isspace():
                self.pos += 1
            if self.pos >= len(source):
                raise self.fail("Unclosed start tag", begin)
            if source[self.pos] == ">":
                self.pos += 1
                break
            attr_match = _ATTR_NAME_RE.match(source, self.pos)
            if attr_match is None:
                raise self.fail(f'Empty attribute name in the tag "{name}"', begin)
            attr = attr_match.group().lower()
            self.pos = attr_match.end()
            value = ""
            if source.startswith("=", self.pos):
                self.pos += 1
                value = self.attribute_value(name, begin)
            attrs[attr] = value
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise self.fail('Tag "span" must have class "tg-spoiler"', begin)
        if name == "tg-emoji" and not attrs.get("emoji-id", "").isdigit():
            raise self.fail('Tag "tg-emoji" must have a numeric attribute "emoji-id"', begin)
        self.stack.append(_OpenTag(name, attrs, self.offset))

    def attribute_value(self, tag: str, begin: int) -> str:
        source = self.source
        if self.pos >= len(source):
            raise self.fail("Unclosed start tag", begin)
        quote = source[self.pos]
        if quote in "\"'":
            end = source.find(quote, self.pos + 1)
            if end < 0:
                raise self.fail(f'Unclosed attribute value in the tag "{tag}"', begin)
            raw = source[self.pos + 1 : end]
            self.pos = end + 1
        else:
            match = _UNQUOTED_VALUE_RE.match(source, self.pos)
            if match is None:
                raise self.fail(f'Expected attribute value in the tag "{tag}"', begin)
            raw = match.group()
            self.pos = match.end()
        return self.unescape_attribute(raw, begin)

    def unescape_attribute(self, raw: str, begin: int) -> str:
        def replace(match: re.Match[str]) -> str:
            decimal, hexadecimal, name = match.groups()
            if name is not None:
                if name not in _NAMED_ENTITIES:
                    raise self.fail(f'Unsupported character entity "&{name};"', begin)
                return _NAMED_ENTITIES[name]
            return chr(int(decimal) if decimal is not None else int(hexadecimal, 16))

        value = _ENTITY_RE.sub(replace, raw)
        if "&" in _ENTITY_RE.sub("", raw):
            raise self.fail('Unescaped "&" in an attribute value', begin)
        return value

    def end_tag(self) -> None:
        source = self.source
        begin = self.pos
        close = source.find(">", begin + 2)
        if close < 0:
            raise self.fail("Unclosed end tag", begin)
        name = source[begin + 2 : close].strip().lower()
        if not self.stack:
            raise self.fail("Unexpected end tag", begin)
        top = self.stack[-1]
        if name != top.name:
            detail = f', expected "</{top.name}>", found "</{name}>"'
            raise self.fail("Unmatched end tag", begin, detail)
        self.pos = close + 1
        self.stack.pop()
        self.close(top)

    def close(self, tag: _OpenTag) -> None:
        parent = self.stack[-1] if self.stack else None
        if tag.name == "code" and parent is not None and parent.name == "pre":
            # <pre><code class="language-x"> is one pre entity with a language.
            css = tag.attrs.get("class", "")
            if css.startswith("language-"):
                parent.language = css.removeprefix("language-")
            return
        length = self.offset - tag.offset
        if length <= 0:
            return
        entity: dict[str, Any] = {
            "type": _SIMPLE_TAGS[tag.name],
            "offset": tag.offset,
            "length": length,
        }
        if tag.name == "a":
            href = tag.attrs.get("href")
            if not href:
                return
            user = self.mentioned_user(href)
            if user is not None:
                entity["type"] = "text_mention"
                entity["user"] = user
            else:
                entity["url"] = href
        elif tag.name == "pre" and tag.language:
            entity["language"] = tag.language
        elif tag.name == "blockquote" and "expandable" in tag.attrs:
            entity["type"] = "expandable_blockquote"
        elif tag.name == "tg-emoji":
            entity["custom_emoji_id"] = tag.attrs["emoji-id"]
        self.entities.append(entity)

    def mentioned_user(self, href: str) -> dict[str, Any] | None:
        match = _USER_LINK_RE.match(href)
        if match is None or self.lookup_user is None:
            return None
        return self.lookup_user(int(match.group(1)))


def parse_html(source: str, lookup_user: UserLookup | None = None) -> FormattedText:
    """Parse Telegram-flavoured HTML into plain text and entities.

    ``lookup_user`` turns ``<a href="tg://user?id=N">`` into a ``text_mention`` entity carrying
    the user (as Telegram does for users the bot knows); otherwise such links stay ``text_link``.
    Raises :class:`HtmlParseError` with a message such as
    ``Unsupported start tag "br" at byte offset 3``.
    """
    return _HtmlParser(source, lookup_user).run()


def command_entities(text: str) -> list[dict[str, Any]]:
    """The ``bot_command`` entity Telegram adds to a text starting with ``/command[@bot]``."""
    match = re.match(r"/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,64})?", text)
    if match is None:
        return []
    return [{"type": "bot_command", "offset": 0, "length": utf16_len(match.group())}]
