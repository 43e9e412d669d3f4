"""The phone's row measured in Chromium (``tests/phone_pixels.py``, issue #30 item 7): it
wraps the lines issue #30's 360-px phone wrapped where that phone did, keeps a computer's
name whole, and ``transcripts.phone_problems`` finds a list line the phone wraps."""

from __future__ import annotations

from kozelbot.core.i18n import translator
from kozelbot.core.texts import computer_name, fit
from tests import phone_pixels
from tests.transcripts import Shown, phone_problems

RU = translator("ru")
ROW = phone_pixels.ROW_PX


async def test_the_lines_issue_30_saw_wrapped_wrap_here_as_on_its_phone() -> None:
    """The three lines issue #30 item 7 quotes, as its phone broke them."""
    seen = {
        "Аня Т♦ · Вера В♥ · Глеб 8♠ · Борис 7♦": ["Аня Т♦ · Вера В♥ · Глеб 8♠ · Борис", "7♦"],
        "🏆 🤖 Бот 1 и 🤖 Бот 3 выиграли 14 : 6.": ["🏆 🤖 Бот 1 и 🤖 Бот 3 выиграли 14 :", "6."],
        "Порядок хода: Борис → Аня → Вера → Глеб": None,  # two rows (the phone: «→» / «Глеб»)
    }
    measured = await phone_pixels.rows((line, ROW) for line in seen)
    for line, rows in seen.items():
        found = measured[line, ROW]
        assert found == rows if rows else len(found) == 2, (line, found)


async def test_a_computer_s_name_is_never_broken_and_packed_lines_fit() -> None:
    """A row of computers' names wraps between names, never inside one; a table's line
    packed by ``texts.fit`` (an emoji or a suit counted two letters, ``texts.visible``) fits
    one row each — with every emoji and suit one letter, «🤖 Бот 1 10♠ · 🤖 Бот 2 10♦ · Аня
    9♦» was packed on one line and the phone wrapped it before «9♦»."""
    names = [computer_name(seat, RU) for seat in range(4)]
    crowded = " · ".join(f"{name} 10♠" for name in names)
    played = [f"{names[0]} 10♠", f"{names[1]} 10♦", "Аня 9♦", f"{names[3]} Т♣"]
    packed = fit(lambda s: f"На столе: {s}", played).splitlines()
    measured = await phone_pixels.rows([(crowded, ROW), *((line, ROW) for line in packed)])
    rows = measured[crowded, ROW]
    assert len(rows) > 1
    assert all(row.endswith(("10♠", "·")) for row in rows[:-1]), rows
    assert all(len(measured[line, ROW]) == 1 for line in packed), measured


async def test_phone_problems_finds_a_table_line_the_phone_wraps() -> None:
    table = "🐐 Сдача 2 · Хвалёный козёл\nНа столе: {}"
    wide = Shown(
        "Козлятня", 1, 0, True, table.format("Аня Т♦ · Вера В♥ · Глеб 8♠ · Борис 7♦"), (), False
    )
    fits = Shown("Козлятня", 2, 0, True, table.format("Аня Т♦ · Вера В♥"), (), False)
    prose = Shown(
        "Аня",
        3,
        0,
        True,
        "Садитесь кнопкой или /join, и создатель стола начнёт партию, когда соберутся все.",
        (),
        False,
    )
    found = await phone_problems([wide, fits, prose], "Козлятня", "phone-problems")
    assert len(found) == 1 and "wraps" in found[0] and "Борис" in found[0], found
