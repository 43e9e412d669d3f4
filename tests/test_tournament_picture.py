"""The standings picture (issue #19): a PNG Telegram accepts and a phone can read, whatever the
names, the number of entrants, the format and the language; every text inside its column.

Cross tables are built by hand (``board.Row``/``Cell``) as ``standings.py`` makes them: scores
from the competitor's side ("12:7"), the table number while a match is in play, "—" for a
no-show, nothing for a bye; in ``pairs`` one column per pair in number order (``Row.competitor``
is the pair's column) with the pair's own cell empty.
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import replace

import pytest
from PIL import Image

from kozelbot.core.i18n import Translator, translator
from kozelbot.core.tournament.board import Cell, Cross, Row
from kozelbot.views.tournament.fonts import ELLIPSIS, fit, font, printable, width
from kozelbot.views.tournament.layout import MARGIN, MAX_WIDTH, MIN_WIDTH, PHONE, layout
from kozelbot.views.tournament.picture import COLORS, picture
from kozelbot.views.tournament.placed import SMALLEST, Layout, Table, heading_size

TITLE = "Турнир · тур 2 из 3"
LONG_NAMES = (
    "Александра Константиновна Преображенская-Задунайская",
    "Ґанна Їжакевич-Євтушенко з Підгаєцького району, Тернопільщина",
    "Bartholomew Featherstonehaugh-Cholmondeley the Third of Wessex",
)
SHORT_NAMES = ("Аня", "Борис", "Вера", "Глеб", "Дмитро", "Єва", "Олег", "Іра", "Kate", "Ґеня")
OUTCOMES = ("win", "loss", "draw", "bye", "playing", "")
ENTRANTS = (4, 8, 16, 32)
FORMATS = ("rotating", "pairs")
LANGUAGES = ("ru", "uk", "en")


def person(index: int) -> str:
    """Every third entrant has a name of 50 or more letters; the rest are short and numbered."""
    if index % 3 == 1:
        return LONG_NAMES[index // 3 % len(LONG_NAMES)]
    return f"{SHORT_NAMES[index % len(SHORT_NAMES)]} {index + 1}"


def cell(outcome: str, row: int, column: int) -> Cell:
    """A cell as the standings make it: a score, a table in play, or nothing."""
    ours, theirs = (row * 5 + column * 3) % 12, 12
    text = {
        "win": f"{theirs}:{ours}",
        "loss": f"{ours}:{theirs}" if (row + column) % 7 else "—",
        "draw": "6:6",
        "playing": str(column % 8 + 1),
        "bye": "",
        "": "",
    }[outcome]
    return Cell(outcome, text)


def board(entrants: int, format: str = "rotating", *, rounds: int | None = None) -> Cross:
    """A cross table of ``entrants`` people (``rotating``: ``rounds`` rounds, 3 by default, 7
    for 32) or of their pairs (``pairs``: half as many competitors, one column per pair)."""
    pairs = format == "pairs"
    count = entrants // 2 if pairs else entrants
    columns = count if pairs else rounds or (7 if entrants >= 32 else 3)
    rows = []
    for place in range(count):
        competitor = (place * 3) % count if pairs else 1000 + place
        name = f"{person(2 * place)} & {person(2 * place + 1)}" if pairs else person(place)
        cells = tuple(
            Cell("", "")
            if pairs and column == competitor
            else cell(OUTCOMES[(place * 7 + column * 3) % len(OUTCOMES)], place, column)
            for column in range(columns)
        )
        row = Row(
            rank=place + 1,
            competitor=competitor,
            name=name,
            points=2 * (count - place),
            deal_diff=(count // 2 - place) * 37,
            buchholz=(count - place) * 3 if pairs else None,
            played=columns - 1,
            byes=1,
        )
        rows.append((row, cells))
    return Cross(tuple(str(number + 1) for number in range(columns)), tuple(rows))


class Wordy(Translator):
    """A translator whose every text is three times as long (a language with long words)."""

    def __call__(self, message: str, /, **values: object) -> str:
        return " ".join([super().__call__(message, **values)] * 3)

    def p(self, context: str, message: str, /) -> str:
        return " ".join([super().p(context, message)] * 3)


def assert_fits(table: Table, image_width: int) -> None:
    """Columns touch without overlapping, stay inside the margins, and no heading or text is
    wider than the room its column leaves it."""
    edge = MARGIN
    for column in table.columns:
        assert column.x == edge
        assert column.room > 0
        edge = column.x + column.width
        head = font(heading_size(table.size), bold=True)
        assert width(column.heading, head) <= column.room, column.heading
        assert len(column.texts) == len(column.styles) == len(column.sizes) == table.rows
        for text, size in zip(column.texts, column.sizes, strict=True):
            assert SMALLEST <= size <= table.size
            assert width(text, font(size, bold=column.bold)) <= column.room, text
    assert edge <= image_width - MARGIN


def assert_layout_fits(placed: Layout) -> None:
    assert_fits(placed.standings, placed.width)
    for block in placed.crosses:
        assert_fits(block, placed.width)
    inner = placed.width - 2 * MARGIN
    title_font = font(placed.title.size, bold=True)
    assert width(placed.title.text, title_font) <= inner
    for line in placed.key:
        assert width(line.text, font(line.size)) <= inner, line.text
    for swatch in placed.legend:
        label = swatch.label
        assert label.x + width(label.text, font(label.size)) <= placed.width - MARGIN
    assert placed.legend[-1].y + placed.legend[-1].size <= placed.height - MARGIN


# -- Telegram's limits and a phone's screen --------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("entrants", ENTRANTS)
def test_picture_is_a_png_within_telegram_photo_limits(
    entrants: int, format: str, language: str
) -> None:
    data = picture(TITLE, board(entrants, format), translator(language))
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    width_px, height_px = image.size
    assert MIN_WIDTH <= width_px <= MAX_WIDTH
    assert width_px + height_px <= 10_000
    assert max(width_px, height_px) / min(width_px, height_px) <= 20
    assert len(data) < 10 * 1024 * 1024


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("entrants", ENTRANTS)
def test_every_column_and_text_fits_its_place(entrants: int, format: str, language: str) -> None:
    placed = layout(TITLE, board(entrants, format), translator(language), final=True)
    assert_layout_fits(placed)
    assert placed.standings.rows == placed.cross.rows == len(board(entrants, format).rows)
    # a heading is whole: a column too narrow for its long heading takes its short one
    headings = [c.heading for table in (placed.standings, *placed.crosses) for c in table.columns]
    assert not any(heading.endswith(ELLIPSIS) for heading in headings), headings


@pytest.mark.parametrize("format", FORMATS)
def test_texts_fit_even_in_a_language_with_long_words(format: str) -> None:
    assert_layout_fits(layout(TITLE * 3, board(32, format), Wordy("uk"), final=True))


def test_long_names_are_cut_with_an_ellipsis_and_short_ones_kept_whole() -> None:
    cross = board(8)
    for table in (
        layout(TITLE, cross, translator("ru")).standings,
        layout(TITLE, cross, translator("ru")).cross,
    ):
        names = next(column for column in table.columns if column.role == "name").texts
        for (row, _), shown in zip(cross.rows, names, strict=True):
            if len(row.name) > 40:
                assert shown.endswith(ELLIPSIS)
                assert row.name.startswith(shown.removesuffix(ELLIPSIS))
            else:
                assert shown == row.name


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("entrants", ENTRANTS)
def test_every_text_is_12_css_px_or_more_in_a_360_px_chat(
    entrants: int, format: str, language: str
) -> None:
    """Issue #30 item 12: Telegram fits the photo to the chat's width (``PHONE``, 360 CSS px
    on a phone); every text's size times that scale is at least 12 px — the old 1280-px
    picture showed its 24-px text at ~7 px. A crowded cross table goes into blocks instead."""
    placed = layout(TITLE, board(entrants, format), translator(language), final=True)
    scale = PHONE / placed.width
    small = [(text, size * scale) for text, size in placed.texts() if size * scale < 12]
    assert small == []
    assert placed.height + placed.width <= 10_000


def test_a_crowded_cross_table_is_drawn_in_blocks_with_every_column_once() -> None:
    """16 pairs do not fit one phone-wide table: their columns go into blocks, each with
    the pairs' numbers and names, every column once and in order."""
    placed = layout(TITLE, board(32, "pairs"), translator("en"))
    assert len(placed.crosses) > 1
    headings = [c.heading for block in placed.crosses for c in block.columns[2:]]
    assert headings == [str(n) for n in range(1, 17)]
    for block in placed.crosses:
        assert [c.role for c in block.columns[:2]] == ["fixed", "name"]


def test_a_key_under_the_standings_says_what_the_figures_are() -> None:
    """Issue #30 item 11: points, the deal-point difference and (in pairs) Buchholz are
    explained under the standings, above the cross table."""
    placed = layout(TITLE, board(8, "pairs"), translator("en"))
    key = " ".join(line.text for line in placed.key)
    assert "pts: match points" in key and "±: card points" in key and "Buchholz" in key
    assert placed.standings.bottom < placed.key[0].y < placed.cross.top
    rotating = " ".join(line.text for line in layout(TITLE, board(8), translator("en")).key)
    assert "Buchholz" not in rotating


def test_a_narrow_table_makes_a_narrow_picture() -> None:
    """Telegram fits a photo to the screen's width: fewer columns, larger letters."""
    ru = translator("ru")
    short = Row(
        rank=1, competitor=1, name="Аня", points=2, deal_diff=5, buchholz=None, played=1, byes=0
    )
    narrow = Cross(("1",), ((short, (Cell("win", "12:3"),)),))
    assert layout("Тур 1", narrow, ru).width < layout(TITLE, board(32, "pairs"), ru).width


def test_height_grows_with_the_entrants() -> None:
    ru = translator("ru")
    heights = [layout(TITLE, board(entrants), ru).height for entrants in ENTRANTS]
    assert heights == sorted(heights)
    assert heights[-1] > 2 * heights[1]


# -- what it shows ---------------------------------------------------------------------------


def test_rotating_columns_are_rounds_and_rows_are_labelled_by_rank() -> None:
    placed = layout(TITLE, board(8), translator("en"))
    headings = [column.heading for column in placed.cross.columns]
    assert headings[2:] == ["Round 1", "Round 2", "Round 3"]
    assert len(placed.crosses) == 1
    assert placed.cross.columns[0].texts == tuple(str(rank) for rank in range(1, 9))
    standings = [column.heading for column in placed.standings.columns]
    assert "Buchholz" not in standings
    assert standings[:2] == ["Rank", "Player"]


def test_pairs_rows_carry_their_number_and_their_own_cell_is_greyed() -> None:
    cross = board(16, "pairs")
    placed = layout(TITLE, cross, translator("en"))
    labels = placed.cross.columns[0].texts
    cells = [column for block in placed.crosses for column in block.columns[2:]]
    for index, (row, _) in enumerate(cross.rows):
        assert labels[index] == str(row.competitor + 1)
        assert cells[row.competitor].styles[index] == "self"
        assert [c.styles[index] for c in cells].count("self") == 1
    assert [column.heading for column in placed.standings.columns][4] in ("Buchholz", "B")


def test_deal_point_differences_are_signed() -> None:
    placed = layout(TITLE, board(8), translator("ru"))
    diffs = placed.standings.columns[3].texts
    assert diffs[0].startswith("+")
    assert diffs[4] == "0"
    assert diffs[-1].startswith("−")


def test_a_bye_says_so_and_the_legend_names_the_colours_shown() -> None:
    en = translator("en")
    placed = layout(TITLE, board(8), en)
    texts = {
        text: style
        for block in placed.crosses
        for column in block.columns[2:]
        for text, style in zip(column.texts, column.styles, strict=True)
    }
    assert texts["bye"] == "bye"
    assert [swatch.style for swatch in placed.legend] == ["win", "draw", "loss", "bye", "playing"]
    only_wins = Cross(("1",), ((board(4).rows[0][0], (Cell("win", "12:3"),)),))
    assert [swatch.style for swatch in layout(TITLE, only_wins, en).legend] == ["win"]


def test_result_cells_are_filled_with_their_outcome_colour() -> None:
    cross = board(8)
    t = translator("ru")
    placed = layout(TITLE, cross, t)
    image = Image.open(io.BytesIO(picture(TITLE, cross, t))).convert("RGB")
    for table in placed.crosses:
        for column in table.columns[2:]:
            for row, style in enumerate(column.styles):
                fill = COLORS[style][0]
                if fill is None:
                    continue
                top = table.top + table.header_height + row * table.row_height
                pixel = image.getpixel((column.x + 3, top + table.row_height // 2))
                assert pixel == Image.new("RGB", (1, 1), fill).getpixel((0, 0))


def test_the_final_picture_names_the_champion() -> None:
    t = translator("en")
    cross = board(8)
    assert layout(TITLE, cross, t).champion is None
    named = layout(TITLE, cross, t, final=True, champion="Аня & Борис")
    assert named.champion is not None and named.trophy is not None
    assert named.champion.text == "Champion: Аня & Борис"
    sole = layout(TITLE, cross, t, final=True)
    assert sole.champion is not None and sole.champion.text == f"Champion: {person(0)}"
    (first, cells), (second, more) = cross.rows[:2]
    shared = Cross(cross.columns, ((first, cells), (replace(second, rank=1), more)))
    assert layout(TITLE, shared, t, final=True).champion is None


def test_the_same_standings_make_the_same_bytes_without_metadata() -> None:
    cross = board(8, "pairs")
    t = translator("uk")
    first = picture(TITLE, cross, t, final=True)
    assert picture(TITLE, cross, t, final=True) == first
    assert {name for name, _ in png_chunks(first)} == {b"IHDR", b"IDAT", b"IEND"}


def test_an_empty_board_still_draws() -> None:
    image = Image.open(io.BytesIO(picture(TITLE, Cross((), ()), translator("ru"))))
    assert image.size[0] >= MIN_WIDTH


# -- the fonts -------------------------------------------------------------------------------


def test_names_lose_the_characters_the_font_lacks() -> None:
    assert printable("Зоя 🐐  Козлова") == "Зоя Козлова"
    assert printable("Ґанна Їжак, Євген, Іван") == "Ґанна Їжак, Євген, Іван"
    assert printable("🐐🐐") == "🐐🐐"  # nothing left: the name as it is, boxes and all


def test_fit_cuts_to_the_room_with_an_ellipsis() -> None:
    face = font(24)
    name = LONG_NAMES[1]
    room = width(name, face) // 2
    cut = fit(name, face, room)
    assert cut.endswith(ELLIPSIS) and width(cut, face) <= room
    assert name.startswith(cut.removesuffix(ELLIPSIS))
    assert fit(name, face, width(name, face)) == name
    assert fit(name, face, 1) == ""


def test_fonts_cover_ukrainian_letters_and_the_symbols_drawn() -> None:
    assert printable("іїєґІЇЄҐ’ · … −") == "іїєґІЇЄҐ’ · … −"


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG as (type, data), their checksums verified."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc
        chunks.append((kind, body))
        offset += 12 + length
    return chunks
