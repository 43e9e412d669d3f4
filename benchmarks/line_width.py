"""How many characters of the bot's lines fit one row of a 360-px phone (issue #30 item 7).

Telegram draws messages in the system font (Roboto on Android, SF on iOS) at 16 px. Debian
ships neither here, so DejaVu Sans stands in (it runs a little wider than Roboto, which errs
on the safe side). A message bubble on a 360-px screen leaves about 300 px for text: 360 less
the bubble's margins (≈ 12 px a side) and its padding (≈ 10 px a side), less the tail and the
avatar gap (≈ 16 px). Prints each sample line's width in pixels and how many of its first
characters fit the row, then the least of them — the width ``kozelbot.texts.LINE`` uses.

    /work/main/.venv/bin/python benchmarks/line_width.py
"""

from __future__ import annotations

from PIL import ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = 16
ROW_PX = 360 - 2 * (12 + 10) - 16
SAMPLES = (
    "Аня Т♦ · Вера В♥ · Глеб 8♠ · Борис 7♦ · Аня Д♠",
    "Порядок хода: Борис → Аня → Вера → Глеб → Аня",
    "🏆 Аня и Вера выиграли 14 : 6. Борис и Глеб — козлы",
    "Карт на руках: Аня: 6 · Борис: 6 · Вера: 6 · Глеб: 6",
    "Штрафные: Аня + Вера: 8 — Борис + Глеб: 4 — Аня",
    "Хвалёный козёл · Козлятня · сдача 1 · козырь ♣",
    "Очки открытых карт: Борис: 0 — Вера: 0 — Глеб: 0",
    "Сдача 1: 70 : 50 → +2 глаза (Аня + Вера), счёт",
)


def fitting(font: ImageFont.FreeTypeFont, line: str) -> int:
    """How many of ``line``'s first characters fit ``ROW_PX``."""
    n = 0
    while n < len(line) and font.getlength(line[: n + 1]) <= ROW_PX:
        n += 1
    return n


def main() -> None:
    """Print the figures."""
    font = ImageFont.truetype(FONT, SIZE)
    fits = []
    for line in SAMPLES:
        n = fitting(font, line)
        fits.append(n)
        print(f"{font.getlength(line):6.0f} px  {n:3d} fit  {line}")
    print(
        f"row {ROW_PX} px at {SIZE} px DejaVu Sans: {min(fits)}..{max(fits)} characters, "
        f"median {sorted(fits)[len(fits) // 2]}"
    )


if __name__ == "__main__":
    main()
