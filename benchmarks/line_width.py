"""How wide the bot's lines are on a 360-px phone, in pixels (issue #30 item 7).

Telegram Android gives a message's text the screen's width less 80 dp (less 132 dp beside
an avatar, in a group): ``MessageObject.getMaxMessageTextWidth``. It draws the text in
Roboto at 16 px (its default message size) and each emoji — the card suits among them — as
its own picture as wide as the font's ascent and descent, 19 px. Debian's
``fonts-roboto-unhinted`` provides the font (``.ci/run`` installs it; DejaVu Sans stands in
for what Roboto lacks, such as ``→``, as a browser's fallback would).

Prints each sample line's width in pixels against the private chat's row (280 px) and the
group's beside the avatar (228 px), and its width in letters as the renderer counts them
(``kozelbot.core.texts.visible``, an emoji, a suit or an arrow as two) against
``kozelbot.core.texts.LINE``. ``tests/test_phone_pixels.py`` and the whole-match transcripts
(``tests/transcripts.phone_problems``) measure the same in Chromium.

    /work/main/.venv/bin/python benchmarks/line_width.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import ImageFont

from kozelbot.core.texts import LINE, WIDE, visible

ROBOTO = Path("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf")
FALLBACK = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = 16
EMOJI_PX = 19
PRIVATE_PX = 360 - 80
GROUP_PX = 360 - 132
SAMPLES = (
    "Аня Т♦ · Вера В♥ · Глеб 8♠ · Борис 7♦",
    "Порядок хода: Борис → Аня → Вера → Глеб",
    "🏆 🤖 Бот 1 и 🤖 Бот 3 выиграли 14 : 6.",
    "Карт на руках: Аня: 6 · Борис: 6 · Вера: 6",
    "Прошлая взятка: Борис (Д♣ Д♠) +6",
    "Счёт: Аня+Вера: 12 — Борис+Глеб: 0",
    "На столе: 🤖 Бот 1 6♠ · 🤖 Бот 2 10♠",
    "На столе: 7♥→10♥→8♦→В♦→К♦",
    "Хвалёный козёл · Козлятня · сдача 1",
)


class Phone:
    """Roboto at 16 px, with DejaVu Sans for what Roboto lacks and 19 px per emoji."""

    def __init__(self) -> None:
        self.font = ImageFont.truetype(str(ROBOTO), SIZE)
        self.fallback = ImageFont.truetype(FALLBACK, SIZE)
        self.missing = self.font.getmask("\uffff").getbbox()

    def char(self, ch: str) -> float:
        lacks = ch.strip() and self.font.getmask(ch).getbbox() == self.missing
        return (self.fallback if lacks else self.font).getlength(ch)

    def width(self, line: str) -> float:
        """``line``'s width in pixels, on one row."""
        total, at = 0.0, 0
        for found in WIDE.finditer(line):
            total += sum(self.char(ch) for ch in line[at : found.start()])
            total += self.char(found.group()) if found.group() == "→" else EMOJI_PX
            at = found.end()
        return total + sum(self.char(ch) for ch in line[at:])


def main() -> None:
    """Print the figures."""
    if not ROBOTO.is_file():
        raise SystemExit(f"{ROBOTO} is missing: apt-get install -y fonts-roboto-unhinted")
    phone = Phone()
    print(
        f"{'px':>5}  {'letters':>7}  line   (private row {PRIVATE_PX} px, group {GROUP_PX} px,"
        f" LINE {LINE})"
    )
    for line in SAMPLES:
        px = phone.width(line)
        mark = "fits" if px <= PRIVATE_PX else "WRAPS"
        print(
            f"{px:5.0f}  {visible(line):7d}  {line}   ({mark}; group: "
            f"{'fits' if px <= GROUP_PX else 'wraps'})"
        )


if __name__ == "__main__":
    main()
