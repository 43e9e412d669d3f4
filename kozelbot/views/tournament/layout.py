"""Where everything of the tournament picture goes, each text shortened to fit its place.

Pure: the standings (``board.Cross``) and a translator in, a :class:`Layout` of positions,
sizes and fitted texts out; ``picture`` paints it and the tests check it. Top to bottom: the
title (the caller's, translated), a champion line at the end, the standings (rank, name, match
points, the deal-point difference, Buchholz in ``pairs``, matches played), the cross table (a
column per round or per pair, each result coloured by its outcome) and a legend of the colours.
Telegram fits a photo to the chat's width — about 360 CSS px on a phone — so the picture is
at most ``MAX_WIDTH`` (720) px wide and every text at least ``SMALLEST`` (24) px: 12 CSS px
on that phone (issue #30 item 12: a 1 280-px picture showed its 24-px text at ~7 px). It grows
downwards instead (32 entrants: about 4 000 px, inside Telegram's limits: width + height
≤ 10 000, sides' ratio ≤ 20, 10 MB). A key under the standings says what their figures are.

**Decision** (issue #30): a cross table whose columns do not fit at ``SMALLEST`` is drawn in
blocks, one under the other, each with as many of its columns as fit (each block repeats
the rank and the name), rather than shrinking its text below what a phone shows.

**Decision**: two tables one above the other, not one chess-style table with the totals after
the results: each keeps the full width for its own columns (16 pairs leave no room for five
more), and the standings, which most people look for, come first. Both list the competitors in
standings order; the cross table labels its rows with the rank (``rotating``) or the pair's
number (``pairs``: the board's columns are the pairs in number order, ``Row.competitor`` is a
pair's column, and a pair's own cell is greyed out). The format is read from the rows
(``Row.buchholz`` is set exactly in ``pairs``), so no parameter can disagree with the data.

**Decision**: when columns do not fit, the figures' columns take their short headings
first ("±" for "Deal points ±": the key under the standings explains them), then the name
column narrows (to ``NAME_MIN_EM`` letters), then the result cells lose their padding (down
to the widest score), then the
table's text shrinks a pixel at a time down to ``SMALLEST``; a note wider than its cell (a
table number, "bye") is drawn smaller than the scores. Only then are texts cut, always with
"…". A narrow table makes a narrower picture (down to ``MIN_WIDTH``), which Telegram scales up
more, so its letters show larger.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kozelbot.core.i18n import Translator
from kozelbot.core.tournament.board import Cell, Cross, Row
from kozelbot.views.tournament.fonts import fit, font, printable, width
from kozelbot.views.tournament.placed import (
    SMALLEST,
    Column,
    Layout,
    Role,
    Swatch,
    Table,
    Text,
    heading_size,
)

MAX_WIDTH = 720
"""Twice a 360-px phone chat: ``SMALLEST`` text shows at 12 CSS px there."""
MIN_WIDTH = 480
PHONE = 360
"""CSS px of a phone chat's width the picture is fitted to."""
MARGIN = 20
BODY = 26
"""Table text, in pixels, when everything fits (the headings are two pixels smaller)."""
TITLE, SECTION, CHAMPION, LEGEND = 34, 28, 30, 24
NAME_MAX_EM = 15
"""A name column is at most this many times the font size wide (about 30 letters)."""
NAME_MIN_EM = 7
CELL_MIN_EM = 2.6
"""Result cells are at least this many times the font size wide while there is room."""
MIN_PAD = 4

OUTCOMES = ("win", "draw", "loss", "bye", "playing")
SCORES = frozenset({"win", "draw", "loss"})
"""Cells showing a match's score: a cross table keeps them at its text size; a longer note
("стол 12", "bye") is drawn smaller where it does not fit."""
STYLES = (*OUTCOMES, "plain", "self")
"""What a cell of a table may look like: an outcome's colours, none (``plain``) or a pair's
own square in the cross table (``self``)."""


@dataclass(frozen=True, slots=True)
class _Spec:
    """A column before it is placed: heading candidates (longest first) and texts."""

    headings: tuple[str, ...]
    texts: tuple[str, ...]
    role: Role
    bold: bool = False
    styles: tuple[str, ...] = ()


def _signed(value: int) -> str:
    """A difference with its sign ("+12", "−3" with a true minus, "0")."""
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def _specs(cross: Cross, t: Translator) -> tuple[list[_Spec], list[_Spec], bool]:
    """The standings' and the cross table's columns, and whether the format is ``pairs``."""
    rows: list[Row] = [row for row, _ in cross.rows]
    pairs = any(row.buchholz is not None for row in rows)
    names = tuple(printable(row.name) for row in rows)
    who = t.p("column", "Pair") if pairs else t.p("column", "Player")
    rank = (t.p("column", "Rank"), "#")
    points = (t.p("column", "Points"), t.p("column", "pts"))
    standings = [
        _Spec(rank, tuple(str(row.rank) for row in rows), "fixed"),
        _Spec((who,), names, "name"),
        _Spec(points, tuple(str(row.points) for row in rows), "fixed", True),
        _Spec(
            (t.p("column", "Deal points ±"), "±"),
            tuple(_signed(row.deal_diff) for row in rows),
            "fixed",
        ),
    ]
    if pairs:
        texts = tuple("" if row.buchholz is None else str(row.buchholz) for row in rows)
        standings.append(_Spec((t.p("column", "Buchholz"), t.p("column", "B")), texts, "fixed"))
    played = tuple(str(row.played) for row in rows)
    standings.append(_Spec((t.p("column", "Played"), t.p("column", "Pl.")), played, "fixed"))
    own = [row.competitor if pairs else -1 for row in rows]  # each row's own column, greyed
    if pairs and all(0 <= column < len(cross.columns) for column in own):
        labels = tuple(cross.columns[column] for column in own)
        table = [_Spec((t.p("column", "No."), "#"), labels, "fixed"), _Spec((who,), names, "name")]
    else:
        own = [-1] * len(rows)
        labels = tuple(str(row.rank) for row in rows)
        table = [_Spec(rank, labels, "fixed"), _Spec((who,), names, "name")]
    for index, heading in enumerate(cross.columns):
        cells = [cells[index] if index < len(cells) else None for _, cells in cross.rows]
        texts = tuple("" if cell is None else _cell_text(cell, t) for cell in cells)
        styles = tuple(
            cell.outcome
            if cell is not None and cell.outcome in OUTCOMES
            else "self"
            if own[number] == index
            else "plain"
            for number, cell in enumerate(cells)
        )
        headings = (heading,) if pairs else (t("Round {n}", n=heading), heading)
        table.append(_Spec(headings, texts, "cell", styles=styles))
    return standings, table, pairs


def _cell_text(cell: Cell, t: Translator) -> str:
    """What a result cell says: its text, a bare table number as "table 2", "bye" for a bye."""
    if cell.outcome == "playing" and cell.text.isdigit():
        return t("table {n}", n=cell.text)
    return cell.text or (t.p("cross table cell", "bye") if cell.outcome == "bye" else "")


def _measure(spec: _Spec, size: int) -> tuple[int, int, int]:
    """A column's natural width, its least width and its natural padding at ``size``."""
    body, head = font(size, bold=spec.bold), font(heading_size(size), bold=True)
    text = max((width(text, body) for text in spec.texts), default=0)
    heads = [width(heading, head) for heading in spec.headings]
    pad = round(size * 0.45)
    if spec.role == "name":
        natural = min(max(text, heads[-1]), NAME_MAX_EM * size) + 2 * pad
        return natural, min(natural, NAME_MIN_EM * size), pad
    if spec.role == "cell":
        natural = max(text, heads[0], round(CELL_MIN_EM * size)) + 2 * pad
        scores = [
            width(text, body)
            for text, style in zip(spec.texts, spec.styles, strict=True)
            if style in SCORES
        ]
        return natural, max([*scores, heads[-1]]) + 2 * MIN_PAD, pad
    natural = max(text, heads[0]) + 2 * pad
    return natural, min(natural, max(text, min(heads[-1], 4 * size)) + 2 * MIN_PAD), pad


def _fit_widths(specs: Sequence[_Spec], size: int, budget: int, *, force: bool) -> list[int] | None:
    """Column widths at ``size`` that add up to at most ``budget``, shrinking the figures'
    columns (to their short headings), then the name, then the cells (all one width) to
    their least widths; None if that is
    not enough, unless ``force`` (then cells and names get narrower still, texts will be cut).
    """
    measured = [_measure(spec, size) for spec in specs]
    widths = [natural for natural, _, _ in measured]
    cells = [i for i, spec in enumerate(specs) if spec.role == "cell"]
    if cells:
        common = max(widths[i] for i in cells)
        for i in cells:
            widths[i] = common
    over = sum(widths) - budget
    for role in ("fixed", "name", "cell"):
        chosen = [i for i, spec in enumerate(specs) if spec.role == role]
        if over <= 0 or not chosen:
            continue
        if role == "cell":
            least = max(measured[i][1] for i in chosen)
            narrower = max(least, widths[chosen[0]] - -(-over // len(chosen)))
            over -= (widths[chosen[0]] - narrower) * len(chosen)
            for i in chosen:
                widths[i] = narrower
            continue
        for i in sorted(chosen, key=lambda i: -widths[i]):  # the widest give first
            cut = min(over, widths[i] - measured[i][1])
            widths[i] -= cut
            over -= cut
    if over > 0 and force:
        others = sum(w for i, w in enumerate(widths) if i not in cells)
        if cells:
            narrow = max(2 * MIN_PAD + 1, (budget - others) // len(cells))
            for i in cells:
                widths[i] = narrow
        over = sum(widths) - budget
        for i, spec in enumerate(specs):
            if spec.role == "name" and over > 0:
                cut = max(min(over, widths[i] - (2 * MIN_PAD + 1)), 0)
                widths[i] -= cut
                over -= cut
    return widths if over <= 0 or force else None


def _choose(specs: Sequence[_Spec], budget: int) -> tuple[int, list[int]]:
    """The largest text size (``BODY`` down to ``SMALLEST``) at which the columns fit, and
    their widths."""
    for size in range(BODY, SMALLEST - 1, -1):
        widths = _fit_widths(specs, size, budget, force=size == SMALLEST)
        if widths is not None:
            return size, widths
    raise AssertionError("unreachable: the smallest size always fits")  # pragma: no cover


def _spread(specs: Sequence[_Spec], widths: list[int], size: int, target: int) -> list[int]:
    """Widths widened to add up to ``target``: the name column up to its natural width, the
    rest evenly over every column."""
    widths = list(widths)
    extra = target - sum(widths)
    for i, spec in enumerate(specs):
        if spec.role == "name" and extra > 0:
            grow = min(extra, max(_measure(spec, size)[0] - widths[i], 0))
            widths[i] += grow
            extra -= grow
    if extra > 0 and widths:
        share, rest = divmod(extra, len(widths))
        widths = [w + share + (1 if i < rest else 0) for i, w in enumerate(widths)]
    return widths


def _place(specs: Sequence[_Spec], widths: list[int], size: int, top: int) -> Table:
    """The table with its columns at their x and every text fitted to its column."""
    columns: list[Column] = []
    x = MARGIN
    head = font(heading_size(size), bold=True)
    for spec, column_width in zip(specs, widths, strict=True):
        body = font(size, bold=spec.bold)
        natural_pad = _measure(spec, size)[2]
        texts = max((width(text, body) for text in spec.texts), default=0)
        shortest = width(spec.headings[-1], head)  # the padding leaves the short heading room
        content = min(max(texts, shortest), column_width)
        pad = max(MIN_PAD, min(natural_pad, (column_width - content) // 2))
        room = column_width - 2 * pad
        heading = next((h for h in spec.headings if width(h, head) <= room), spec.headings[-1])
        sizes = tuple(
            _size_for(text, size, room, spec.bold) if spec.role == "cell" else size
            for text in spec.texts
        )
        columns.append(
            Column(
                x=x,
                width=column_width,
                pad=pad,
                heading=fit(heading, head, room),
                role=spec.role,
                bold=spec.bold,
                texts=tuple(
                    fit(text, font(shown, bold=spec.bold), room)
                    for text, shown in zip(spec.texts, sizes, strict=True)
                ),
                styles=spec.styles or ("plain",) * len(spec.texts),
                sizes=sizes,
            )
        )
        x += column_width
    rows = len(specs[0].texts) if specs else 0
    return Table(top=top, size=size, columns=tuple(columns), rows=rows)


def _size_for(text: str, size: int, room: int, bold: bool) -> int:
    """The largest size from ``size`` down to ``SMALLEST`` at which ``text`` fits ``room``
    (``SMALLEST`` if none: the text is then cut)."""
    for shown in range(size, SMALLEST, -1):
        if width(text, font(shown, bold=bold)) <= room:
            return shown
    return SMALLEST


def layout(
    title: str, cross: Cross, t: Translator, *, final: bool = False, champion: str | None = None
) -> Layout:
    """Where everything of the picture goes (see the module's docstring for what it shows).

    ``champion`` names the winner on the champion line, shown only when ``final``; without it
    a sole first-ranked competitor is named (a shared first place names nobody).
    """
    standings_specs, cross_specs, pairs = _specs(cross, t)
    budget = MAX_WIDTH - 2 * MARGIN
    standings_size, standings_widths = _choose(standings_specs, budget)
    blocks = _blocks(cross_specs, budget)
    chosen = [_choose(block, budget) for block in blocks]
    if final and champion is None:
        first = [row for row, _ in cross.rows if row.rank == 1]
        champion = first[0].name if len(first) == 1 else None
    champion_text = t("Champion: {name}", name=printable(champion)) if final and champion else None
    title_font, champion_font = font(TITLE, bold=True), font(CHAMPION, bold=True)
    wanted = max(
        sum(standings_widths),
        *(sum(widths) for _size, widths in chosen),
        width(title, title_font),
        width(champion_text, champion_font) + CHAMPION * 2 if champion_text else 0,
    )
    image_width = min(max(wanted + 2 * MARGIN, MIN_WIDTH), MAX_WIDTH)
    inner = image_width - 2 * MARGIN

    y = MARGIN
    title_line = Text(MARGIN, y + TITLE * 3 // 4, fit(title, title_font, inner), TITLE, True)
    y += round(TITLE * 1.5)
    trophy: tuple[int, int, int] | None = None
    champion_line: Text | None = None
    if champion_text is not None:
        cup = round(CHAMPION * 1.4)
        trophy = (MARGIN, y + 4, cup)
        room = inner - cup - CHAMPION // 2
        text = fit(champion_text, champion_font, room)
        champion_line = Text(MARGIN + cup + CHAMPION // 2, y + 4 + cup // 2, text, CHAMPION, True)
        y += cup + 12
    y += 12
    first_caption = t("Standings")
    second_caption = t("Results against each pair") if pairs else t("Results by round")
    section_font = font(SECTION, bold=True)
    captions: list[Text] = []
    tables: list[Table] = []
    key: tuple[Text, ...] = ()
    parts: list[tuple[str | None, list[_Spec], int, list[int]]] = [
        (first_caption, standings_specs, standings_size, standings_widths)
    ]
    for n, (block, (size, widths)) in enumerate(zip(blocks, chosen, strict=True)):
        parts.append((second_caption if not n else None, block, size, widths))
    for caption, specs, size, widths in parts:
        if caption is not None:
            shown = fit(caption, section_font, inner)
            captions.append(Text(MARGIN, y + SECTION * 3 // 4, shown, SECTION, True, True))
            y += round(SECTION * 1.6)
        table = _place(specs, _spread(specs, widths, size, inner), size, y)
        tables.append(table)
        y = table.bottom + 20
        if len(tables) == 1:  # under the standings: what their figures are
            key, y = _key(key_lines(pairs, t), y, inner)
            y += 16
    legend, y = _legend(cross, t, y, inner)
    return Layout(
        width=image_width,
        height=y + MARGIN,
        title=title_line,
        trophy=trophy,
        champion=champion_line,
        captions=(captions[0], captions[1]),
        standings=tables[0],
        crosses=tuple(tables[1:]),
        key=key,
        legend=legend,
    )


def key_lines(pairs: bool, t: Translator) -> list[str]:
    """What the standings' figures are (the standings message says the same)."""
    lines = [t("pts: match points (win 2, draw 1)"), t("±: card points taken minus given")]
    if pairs:
        lines.append(t("B: Buchholz, opponents' points"))
    return lines


def _key(lines: list[str], top: int, inner: int) -> tuple[tuple[Text, ...], int]:
    """The key's lines, each wrapped between words to the picture's width, and the y below."""
    face = font(LEGEND)
    step = round(LEGEND * 1.35)
    placed: list[Text] = []
    y = top
    for line in lines:
        row = ""
        rows: list[str] = []
        for word in line.split(" "):
            if rows and width(f"{rows[-1]} {word}", face) <= inner:
                rows[-1] += f" {word}"
            else:
                rows.append(word)
        for row in rows:
            placed.append(Text(MARGIN, y + step // 2, fit(row, face, inner), LEGEND, False, True))
            y += step
    return tuple(placed), y


def _blocks(specs: list[_Spec], budget: int) -> list[list[_Spec]]:
    """The cross table as blocks of result columns that fit ``budget`` at ``SMALLEST``
    (each with the row labels and names); one block when all fit (the module's
    **Decision**)."""
    heads = [spec for spec in specs if spec.role != "cell"]
    cells = [spec for spec in specs if spec.role == "cell"]
    if _fit_widths(specs, SMALLEST, budget, force=False) is not None:
        return [specs]
    # blocks whose notes ("table 2", "bye") stay whole: every cell at its natural width,
    # the names at their least; else any that fit
    fixed = sum(_measure(spec, SMALLEST)[0 if spec.role == "fixed" else 1] for spec in heads)
    cell = max((_measure(spec, SMALLEST)[0] for spec in cells), default=0)
    whole = max(1, (budget - fixed) // cell) if cell else len(cells)
    for count in range(min(whole, len(cells)), 0, -1):
        shares = -(-len(cells) // count)  # blocks needed
        size = -(-len(cells) // shares)  # columns per block, as even as may be
        chunks = [cells[i : i + size] for i in range(0, len(cells), size)]
        if all(
            _fit_widths([*heads, *chunk], SMALLEST, budget, force=False) is not None
            for chunk in chunks
        ):
            return [[*heads, *chunk] for chunk in chunks]
    return [[*heads, one] for one in cells] or [heads]


def _legend(cross: Cross, t: Translator, top: int, inner: int) -> tuple[tuple[Swatch, ...], int]:
    """The colour samples of the outcomes the cross table shows, flowing over lines, and the
    y below them."""
    labels = {
        "win": t.p("outcome", "win"),
        "draw": t.p("outcome", "draw"),
        "loss": t.p("outcome", "loss"),
        "bye": t.p("outcome", "bye"),
        "playing": t.p("outcome", "playing now"),
    }
    shown = {cell.outcome for _, cells in cross.rows for cell in cells}
    label_font = font(LEGEND)
    line = round(LEGEND * 1.7)
    swatches: list[Swatch] = []
    x, y = MARGIN, top
    for outcome in OUTCOMES:
        if outcome not in shown:
            continue
        label = fit(labels[outcome], label_font, inner - LEGEND * 2)
        entry = LEGEND * 2 + width(label, label_font)
        if x > MARGIN and x + entry > MARGIN + inner:
            x, y = MARGIN, y + line
        text = Text(x + LEGEND * 3 // 2, y + line // 2, label, LEGEND, False, True)
        swatches.append(Swatch(x, y + (line - LEGEND) // 2, LEGEND, outcome, text))
        x += entry + LEGEND * 2
    return tuple(swatches), (y + line if swatches else top)
