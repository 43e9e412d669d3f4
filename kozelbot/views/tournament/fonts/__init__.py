"""The fonts the tournament picture draws with, shipped inside the package, and text measured
with them.

``DejaVuSansCondensed.ttf`` and ``DejaVuSansCondensed-Bold.ttf`` are DejaVu Sans Condensed
2.37 as Debian's ``fonts-dejavu-core`` installs them, unmodified; ``LICENSE`` beside them is
their licence (Bitstream Vera and Arev terms; DejaVu's own changes are public domain). They
cover Latin, Cyrillic with the Ukrainian і ї є ґ, and the few symbols the picture uses
(``·``, ``…``, ``−``).

**Decision**: fonts are vendored, not looked up on the system: nothing is downloaded at run
time, and a CI machine or a slim container may have no fonts at all; the same files also make
the picture look the same everywhere. The Condensed cut is about 10 % narrower than DejaVu Sans at
the same height, which leaves room for longer names and for 16 columns of results on a picture
that a phone shows 1280 px wide.

**Decision**: Pillow's basic layout engine, not Raqm: the scripts we draw need no shaping,
and the basic engine is built into every Pillow wheel, so widths (and so the layout) do not
depend on which optional libraries a machine has.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

REGULAR = "DejaVuSansCondensed.ttf"
BOLD = "DejaVuSansCondensed-Bold.ttf"
ELLIPSIS = "…"
_MISSING = "\U0010fffd"
"""A private-use code point no font here has: it draws the "missing glyph" box."""


@cache
def _data(name: str) -> bytes:
    """The bytes of a vendored font file (read once; works from a wheel or a zip too)."""
    return (resources.files(__package__ or __name__) / name).read_bytes()


@cache
def font(size: int, *, bold: bool = False) -> Font:
    """DejaVu Sans Condensed (bold with ``bold``) at ``size`` pixels."""
    data = _data(BOLD if bold else REGULAR)
    return ImageFont.truetype(io.BytesIO(data), size, layout_engine=ImageFont.Layout.BASIC)


def width(text: str, face: Font) -> int:
    """How many pixels ``text`` advances in ``face`` (rounded up)."""
    return -int(-face.getlength(text) // 1)


@cache
def _has_glyph(char: str) -> bool:
    """Whether the regular font draws ``char`` (the bold cut covers the same alphabets)."""
    face = font(24)
    mask = face.getmask(char)
    missing = face.getmask(_MISSING)
    return not (mask.size == missing.size and bytes(mask) == bytes(missing))


def printable(text: str) -> str:
    """``text`` without the characters the fonts lack (emoji, CJK, …), whose boxes would only
    clutter a name, and with runs of spaces made one; the text itself if nothing is left."""
    kept = "".join(char for char in text if char.isspace() or _has_glyph(char))
    cleaned = " ".join(kept.split())
    return cleaned or text.strip()


def fit(text: str, face: Font, room: int) -> str:
    """``text`` if it fits in ``room`` pixels, else its longest start that fits with "…"
    after it (only "…", or nothing, when even one letter does not fit)."""
    if width(text, face) <= room:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if width(text[:middle].rstrip() + ELLIPSIS, face) <= room:
            low = middle
        else:
            high = middle - 1
    if low == 0:
        return ELLIPSIS if width(ELLIPSIS, face) <= room else ""
    return text[:low].rstrip() + ELLIPSIS
