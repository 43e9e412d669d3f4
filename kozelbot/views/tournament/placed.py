"""The tournament picture's parts once placed: texts, columns, tables and the legend, with
their positions and fitted texts — plain data that ``layout`` computes and ``picture`` paints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SMALLEST = 24
"""The smallest text the picture has: 12 CSS px once a phone fits it to a 360-px chat
(``layout.MAX_WIDTH`` is twice that)."""

Role = Literal["fixed", "name", "cell"]
"""A column's part: names (left-aligned, the first to narrow), results (one width for all) or
anything else (centred)."""


def heading_size(size: int) -> int:
    """The header row's text size for a table whose body text is ``size``."""
    return max(size - 2, SMALLEST)


@dataclass(frozen=True, slots=True)
class Text:
    """A line of text: its left edge and vertical middle, fitted to its room."""

    x: int
    y: int
    text: str
    size: int
    bold: bool = False
    muted: bool = False
    """Drawn in grey (captions, the legend)."""


@dataclass(frozen=True, slots=True)
class Column:
    """A placed column of a table, with its heading and its texts already fitted."""

    x: int
    width: int
    pad: int
    """Pixels kept free at each side of its texts."""
    heading: str
    role: Role
    bold: bool
    texts: tuple[str, ...]
    """One per row, each at most ``room`` pixels wide in the table's font."""
    styles: tuple[str, ...]
    """One per row: a key of ``STYLES``."""
    sizes: tuple[int, ...]
    """One per row: the text's size (the table's, or smaller for a long note in a cell)."""

    @property
    def room(self) -> int:
        """The width its texts may take."""
        return self.width - 2 * self.pad


@dataclass(frozen=True, slots=True)
class Table:
    """A placed table: a header row, then one row per competitor."""

    top: int
    size: int
    """The body text's size; headings are ``heading_size(size)``."""
    columns: tuple[Column, ...]
    rows: int

    @property
    def header_height(self) -> int:
        """The header row's height."""
        return round(self.size * 1.8)

    @property
    def row_height(self) -> int:
        """Each competitor's row's height."""
        return round(self.size * 1.7)

    @property
    def bottom(self) -> int:
        """The y just below the table."""
        return self.top + self.header_height + self.rows * self.row_height

    @property
    def right(self) -> int:
        """The x just right of the last column."""
        return self.columns[-1].x + self.columns[-1].width


@dataclass(frozen=True, slots=True)
class Swatch:
    """A legend entry: a colour sample (a square of ``size``) and its label."""

    x: int
    y: int
    size: int
    style: str
    label: Text


@dataclass(frozen=True, slots=True)
class Layout:
    """Everything the picture shows, placed."""

    width: int
    height: int
    title: Text
    trophy: tuple[int, int, int] | None
    """The champion's cup: left, top and size of its square; None before the end."""
    champion: Text | None
    captions: tuple[Text, Text]
    """Over the standings and over the cross table."""
    standings: Table
    crosses: tuple[Table, ...]
    """The cross table: one block, or several one under the other when its columns do
    not fit the width at ``SMALLEST``."""
    key: tuple[Text, ...]
    """Under the standings: what their figures are."""
    legend: tuple[Swatch, ...]

    @property
    def cross(self) -> Table:
        """The cross table's first (usually only) block."""
        return self.crosses[0]

    def texts(self) -> list[tuple[str, int]]:
        """Every text drawn, with its size: titles, table headings and cells, key, legend."""
        found = [(self.title.text, self.title.size), *((c.text, c.size) for c in self.captions)]
        if self.champion is not None:
            found.append((self.champion.text, self.champion.size))
        for table in (self.standings, *self.crosses):
            for column in table.columns:
                found.append((column.heading, heading_size(table.size)))
                found += [
                    (text, size)
                    for text, size in zip(column.texts, column.sizes, strict=True)
                    if text
                ]
        found += [(line.text, line.size) for line in self.key]
        found += [(swatch.label.text, swatch.label.size) for swatch in self.legend]
        return found
