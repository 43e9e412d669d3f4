"""The standings and the cross table drawn as one PNG, to post in the tournament's group.

:mod:`.layout` decides where everything goes and fits every text; this module only paints a
layout with Pillow, in the vendored fonts (:mod:`.fonts`), and encodes it. The same standings
make the same bytes (with the same Pillow): nothing random, and Pillow writes no time or other
metadata into the PNG.
Colours do not carry meaning alone: every result cell also has its text, and the legend names
each colour.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from kozelbot.core.i18n import Translator
from kozelbot.core.tournament.board import Cross
from kozelbot.views.tournament.fonts import Font, font
from kozelbot.views.tournament.layout import layout
from kozelbot.views.tournament.placed import Column, Table, Text, heading_size

INK, MUTED, RULE = "#1f2328", "#57606a", "#d0d7de"
HEADER_FILL, STRIPE, BACKGROUND, GOLD = "#e8ecf1", "#f6f8fa", "#ffffff", "#d9a400"
COLORS: dict[str, tuple[str | None, str]] = {
    "plain": (None, INK),
    "win": ("#cfeed6", "#13622c"),
    "draw": ("#fbeec4", "#6e5200"),
    "loss": ("#f8d3d1", "#9b1c17"),
    "bye": ("#e1e5ea", MUTED),
    "playing": ("#d8e8ff", "#0b4ea2"),
    "self": ("#bfc5cc", INK),
}
"""Per cell style (``layout.STYLES``): the cell's fill (None: none) and its text colour."""


def _text(draw: ImageDraw.ImageDraw, item: Text) -> None:
    """Draw a line of text at its left edge and vertical middle."""
    face = font(item.size, bold=item.bold)
    color = MUTED if item.muted else INK
    draw.text((item.x, item.y), item.text, font=face, fill=color, anchor="lm")


def _table(draw: ImageDraw.ImageDraw, table: Table) -> None:
    """Draw a table: the header row, striped rows, coloured result cells, a rule under each."""
    left, right = table.columns[0].x, table.right
    head = font(heading_size(table.size), bold=True)
    middle = table.top + table.header_height // 2
    draw.rectangle(
        (left, table.top, right - 1, table.top + table.header_height - 1), fill=HEADER_FILL
    )
    for column in table.columns:
        _aligned(draw, column, column.heading, middle, head, MUTED)
    for row in range(table.rows):
        top = table.top + table.header_height + row * table.row_height
        bottom = top + table.row_height - 1
        if row % 2:
            draw.rectangle((left, top, right - 1, bottom), fill=STRIPE)
        for column in table.columns:
            fill, color = COLORS[column.styles[row]]
            if fill is not None:
                box = (column.x + 2, top + 3, column.x + column.width - 3, bottom - 3)
                draw.rounded_rectangle(box, radius=max(table.size // 4, 2), fill=fill)
            face = font(column.sizes[row], bold=column.bold)
            _aligned(draw, column, column.texts[row], top + table.row_height // 2, face, color)
        draw.line((left, bottom, right - 1, bottom), fill=RULE)


def _aligned(
    draw: ImageDraw.ImageDraw,
    column: Column,
    text: str,
    y: int,
    face: Font,
    color: str,
) -> None:
    """Draw a text in its column: names from the left, everything else centred."""
    if column.role == "name":
        draw.text((column.x + column.pad, y), text, font=face, fill=color, anchor="lm")
    else:
        draw.text((column.x + column.width // 2, y), text, font=face, fill=color, anchor="mm")


def _trophy(draw: ImageDraw.ImageDraw, left: int, top: int, size: int) -> None:
    """A cup: a bowl with two handles on a stem and a base (the 🏆 emoji is not in the font)."""

    def at(x: float, y: float) -> tuple[float, float]:
        return left + x * size, top + y * size

    line = max(size // 12, 2)
    draw.arc((*at(0.02, 0.12), *at(0.4, 0.5)), 90, 270, fill=GOLD, width=line)
    draw.arc((*at(0.6, 0.12), *at(0.98, 0.5)), 270, 90, fill=GOLD, width=line)
    draw.rectangle((*at(0.18, 0.06), *at(0.82, 0.3)), fill=GOLD)
    draw.pieslice((*at(0.18, -0.12), *at(0.82, 0.66)), 0, 180, fill=GOLD)
    draw.rectangle((*at(0.45, 0.6), *at(0.55, 0.8)), fill=GOLD)
    draw.rounded_rectangle((*at(0.26, 0.8), *at(0.74, 0.94)), radius=line, fill=GOLD)


def picture(
    title: str, cross: Cross, t: Translator, *, final: bool = False, champion: str | None = None
) -> bytes:
    """The standings and cross table as PNG bytes (see :func:`layout` for the arguments)."""
    placed = layout(title, cross, t, final=final, champion=champion)
    image = Image.new("RGB", (placed.width, placed.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _text(draw, placed.title)
    if placed.trophy is not None and placed.champion is not None:
        _trophy(draw, *placed.trophy)
        _text(draw, placed.champion)
    for caption in placed.captions:
        _text(draw, caption)
    _table(draw, placed.standings)
    for line in placed.key:
        _text(draw, line)
    for block in placed.crosses:
        _table(draw, block)
    for swatch in placed.legend:
        fill = COLORS[swatch.style][0] or BACKGROUND
        box = (swatch.x, swatch.y, swatch.x + swatch.size - 1, swatch.y + swatch.size - 1)
        draw.rounded_rectangle(box, radius=swatch.size // 5, fill=fill, outline=RULE)
        _text(draw, swatch.label)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
