"""Small pieces of what players see, shared by every family: buttons, cards, names.

Nothing here touches Telegram: keyboards are rows of ``Button`` data that the handlers turn
into inline keyboards.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape, unescape

from kozelbot.core.cards import Card, Rank, Suit
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table, TableStatus


@dataclass(frozen=True, slots=True)
class Button:
    """An inline button: callback ``data``, a ``url``, or a Mini App to open (``web_app``, its
    address: private chats only)."""

    text: str
    data: str | None = None
    url: str | None = None
    web_app: str | None = None


Keyboard = tuple[tuple[Button, ...], ...]

SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
ROW_WIDTH = 5
NOT_NOW = "({card})"
"""A card that may not be played now, bracketed: «(К♥)» reads at a glance on a phone, where a
faint trailing «·» did not (issue #30 item 9); see ``is_not_now``."""
LINE = 33
"""How wide a line a phone shows in one row of a message, in letters (``visible``: an emoji,
a suit or an arrow counts two); table lines are packed or wrapped to stay within it where
they can (UX.md: "nothing wider than a phone").

Measured (issue #30 item 7, ``tests/phone_pixels.py``, ``benchmarks/line_width.py``):
Telegram Android gives a message's text the screen's width less 80 dp (``MessageObject.
getMaxMessageTextWidth``): 280 px on a 360-px phone, in Roboto at 16 px, an emoji (and a
suit) drawn as a 19-px picture. Laid out so in Chromium, every line of the whole-match
transcripts that counts 33 or less fits one row; at 34, lines such as «Прошлая взятка:
Борис (Д♣ Д♠) +6» did not. (A group message with the bot's avatar beside it gets 52 px
less on Android; the checks hold the 280 px the phone of issue #30 showed.)
"""
NBSP = "\u00a0"
"""A space the phone never wraps at: it keeps a score (``14 : 6``) in one piece."""


# -- small pieces ------------------------------------------------------------------------


def rank_label(rank: Rank, t: Translator) -> str:
    """``Д`` in Russian, ``Q`` in English; numbers stay numbers."""
    if rank is Rank.JACK:
        return t.p("rank", "J")
    if rank is Rank.QUEEN:
        return t.p("rank", "Q")
    if rank is Rank.KING:
        return t.p("rank", "K")
    if rank is Rank.ACE:
        return t.p("rank", "A")
    return rank.value


def card_label(card: Card, t: Translator) -> str:
    """A card for people: rank + suit symbol (``10♥``, ``Д♣``)."""
    return f"{rank_label(card.rank, t)}{card.suit.symbol}"


def is_not_now(label: str) -> bool:
    """Whether a card button's label says the card may not be played now (``NOT_NOW``)."""
    return label.startswith("(") and label.endswith(")")


def cards_label(cards: tuple[Card, ...] | list[Card], t: Translator) -> str:
    """Several cards, space-separated."""
    return " ".join(card_label(card, t) for card in cards)


def computer_name(seat: int, t: Translator) -> str:
    """The name of the computer at ``seat`` (``🤖 Бот 2``), plain text in one unbreakable
    piece: its spaces are ``NBSP``, so a phone never wraps it between ``🤖`` and ``Бот`` or
    ``Бот`` and its number (issue #30: «🤖 Бот» / «1» read as two things)."""
    return t("🤖 Bot {n}", n=seat + 1).replace(" ", NBSP)


def seat_name(table: Table, seat: int, t: Translator) -> str:
    """The HTML-escaped name of whoever holds ``seat``."""
    player = table.seats[seat]
    if player is None:
        return "—"
    if player.is_computer:
        return escape(computer_name(seat, t))
    return escape(player.name)


def mention(user_id: int, name: str) -> str:
    """A name that links to the user (HTML)."""
    return f'<a href="tg://user?id={user_id}">{escape(name)}</a>'


def pair_name(table: Table, side: int, t: Translator) -> str:
    """The two names of a side (seats 0+2 or 1+3); in a duel, the player's.

    **Decision** (issue #30 item 5): the names stay joined by a bare ``+`` (``Аня+Вера``,
    ``🤖 Бот 1+🤖 Бот 3``) to spare the phone's row; what kept a computer's number from
    reading as a figure is ``figure``'s colon after the pair, not spaces around the plus."""
    if len(table.seats) == 2:
        return seat_name(table, side, t)
    return f"{seat_name(table, side, t)}+{seat_name(table, side + 2, t)}"


def figure(name: str, value: object) -> str:
    """A name with its own figure, a colon between (``Аня: 6``, ``🤖 Бот 1+🤖 Бот 3: 2``).

    **Decision** (issue #30 item 5): a number never follows a name after a bare space, for
    a name may end in a number (``🤖 Бот 2 3`` reads as one); the colon tells people and
    programs where the name ends. A card after a name (``Аня 8♥``) keeps the space: its suit
    mark sets it apart."""
    return f"{name}: {value}"


def versus(a: object, b: object) -> str:
    """A score inside a sentence (``14 : 6``), its spaces ones the phone never wraps at, so
    a row never ends at ``14 :`` (issue #30 item 7)."""
    return f"{a}{NBSP}:{NBSP}{b}"


def common_option_label(key: str, value: object, t: Translator) -> str | None:
    """The words of an option every family's tables share (seating, move time, players), or
    ``None`` for a family's own option.

    **Decision** (issue #30 item 11): every option's words start with a capital (or a
    figure, «4 players», «6♣ …»), for each is an item of the lobby's line and a ⚙ button's
    label of its own: «Игроков: 4 · Колода 36 · Ход 60 с»."""
    if key == "seating":
        return t("Seats: random") if value == "random" else t("Seats: join order")
    if key == "move_time":
        return t("Move {s} s", s=value) if value else t("No move timer")
    if key == "players":
        return t("{n} players", n=value)
    if key == "computer":
        if value == "easy":
            return t("Computer: easy")
        return t("Computer: strong") if value == "strong" else t("Computer: normal")
    return None


def eyes(count: int, t: Translator) -> str:
    """``4 глаза`` / ``4 eyes``."""
    return t.n("{count} eye", "{count} eyes", count)


def taking_line(table: Table, winner: int, partner: int | None, t: Translator) -> str:
    """Who takes the trick so far, said to a seat on its turn: ``Пока берёт Вера — ваш
    партнёр.`` when it is the partner."""
    name = seat_name(table, winner, t)
    if winner == partner:
        return t("Taking it so far: {name}, your partner.", name=name)
    return t("Taking it so far: {name}.", name=name)


# -- phone-wide lines ----------------------------------------------------------------------


_TAG = re.compile(r"<[^>]*>")
WIDE = re.compile(
    "(?:[\U0001f004\U0001f0cf\U0001f100-\U0001faff]|[\u2300-\u23ff]|[\u2600-\u27bf]"
    "|[\u2b00-\u2bff]|[\u2194-\u2199\u21a9\u21aa])\ufe0f?|→"
)
"""What a phone draws about two letters wide: what Telegram draws as an emoji picture, a
line's height wide (19 px at 16-px text) — the emoji and the card suits ♣ ♠ ♥ ♦ — and the
arrow ``→``, which the text font lacks (``tests/phone_pixels.py``)."""


def visible(text: str) -> int:
    """How wide a line shows, in letters (HTML tags count as nothing, entities as what they
    show, an emoji, a suit or an arrow as two: ``WIDE``)."""
    shown = unescape(_TAG.sub("", text))
    return len(shown) + sum(2 - len(m.group()) for m in WIDE.finditer(shown))


def fit_line(label: str, value: str) -> list[str]:
    """``label value`` on one line if it fits a phone's row (``LINE``), else the label on
    a line of its own and the value under it."""
    line = f"{label} {value}"
    return [line] if visible(line) <= LINE else [label, value]


def break_after(line: str, sep: str) -> str:
    """``line`` as it is when it fits a phone's row (``LINE``), else broken after its first
    ``sep`` (a label's colon, a heading's dash, a clause's comma), so the phone never wraps
    it inside an item (``Козырь ♦:`` / ``последняя карта прошлой сдачи``)."""
    at = line.find(sep)
    if visible(line) <= LINE or at < 0:
        return line
    return line[: at + len(sep)].rstrip() + "\n" + line[at + len(sep) :].lstrip()


def pack_lines(parts: Sequence[str], sep: str = " · ") -> list[str]:
    """Short pieces joined by ``sep`` into as few phone-wide lines (``LINE``) as they fit,
    in order, never splitting a piece; a piece longer than a row keeps a line of its own."""
    lines: list[str] = []
    for part in parts:
        if lines and visible(lines[-1] + sep + part) <= LINE:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def fit(text: Callable[[str], str], parts: Sequence[str], sep: str = " · ") -> str:
    """``text`` of the ``parts`` joined by ``sep``: on one line when it fits a phone
    (``LINE``), else the parts start a line of their own and wrap between parts, as many
    to a line as fit (so a name never parts from its figure)."""
    one = text(sep.join(parts))
    if all(visible(line) <= LINE for line in one.splitlines()):
        return one
    wrapped = text("\n" + "\n".join(pack_lines(parts, sep)))
    return "\n".join(line.rstrip() for line in wrapped.splitlines() if line.strip())


def ended_line(table: Table, t: Translator) -> str | None:
    """How a match ended early, for its table: stopped, or ended by a tournament round's
    clock (issue #19: on its score, or level); ``None`` while it runs or once it finished."""
    if table.closed_reason == "round_time":
        if table.status is TableStatus.FINISHED:
            return "⏰ " + t("Time: the round's clock decided the match on its score.")
        return "⏰ " + t("Time: the round's clock ended the match level.")
    if table.closed_reason == "vote" and table.tournament is not None:
        if table.status is TableStatus.FINISHED:
            return "🗳 " + t("Everyone at the table agreed to stop: the score decided.")
        return "🗳 " + t("Everyone at the table agreed to stop: the score was level.")
    if table.status is TableStatus.STOPPED:
        return t("The game was stopped.")
    return None
