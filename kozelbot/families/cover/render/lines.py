"""The pieces every cover text is made of: lines wrapped to a phone's width, sides named with
their own figures, lists joined with "and", and the trump line.

Results name every side with its own figures; lists that would not fit a phone's line wrap
between their items (``fit``), so a name never parts from its figure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored
from kozelbot.core.seats import Seats
from kozelbot.core.table import Table
from kozelbot.core.texts import LINE, card_label, figure, fit, pair_name, seat_name, visible
from kozelbot.families.cover.view import View

FACE_DOWN = "🂠"


def table_seats(table: Table) -> Seats:
    """The seats of a cover table, from its options (pairs unless ``mode=self``)."""
    pairs = table.options.get("mode", "pairs") == "pairs"
    return Seats(int(table.options.get("players", 4)), pairs)


def side_names(table: Table, sides: int, pairs: bool, t: Translator) -> list[str]:
    """Every side's name: a pair's two names (``Аня+Вера``), or a player's."""
    if pairs:
        return [pair_name(table, s, t) for s in range(sides)]
    return [seat_name(table, s, t) for s in range(sides)]


def sides_of(view: View) -> list[int]:
    """Every side of the table, in play or not."""
    return list(range(view.rules.sides))


def chain(parts: Sequence[str]) -> str:
    """A header: parts joined by `` · ``, wrapped to the phone's width."""
    return fit(lambda joined: joined, parts)


def _versus(parts: Sequence[str]) -> str:
    """Two sides face each other (`` — ``); more players are listed (`` · ``)."""
    return " — " if len(parts) == 2 else " · "


def figures(
    label: Callable[[str], str], names: Sequence[str], values: Sequence[str], sides: Sequence[int]
) -> str:
    """A line of every listed side's name with its own figure (``Аня+Вера: 81 — Борис+Глеб:
    39``), under ``label``."""
    parts = [figure(names[s], values[s]) for s in sides]
    return fit(label, parts, _versus(parts))


def and_list(names: Sequence[str], t: Translator) -> str:
    """``Аня``, ``Аня и Борис``, ``Аня, Борис и Вера``."""
    if len(names) < 2:
        return "".join(names)
    return t("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def played(result: DealScored) -> list[int]:
    """The sides that played this game: not out, or put out by it (each for self, a player
    out before scores nothing; one put out by this game took loser points)."""
    out = set(result.details.get("out", ()))
    return [s for s in range(len(result.points)) if s not in out or result.award[s]]


def trump_line(view: View, t: Translator) -> str | None:
    """Once the last draw took the talon's bottom card: it is shown to all and its suit is
    trump from then on, this game and the next (RULES.md §2). The seed 000 cut card was shown
    from the start, so nothing changes. Too wide for a phone, the bottom card in brackets
    goes on a line of its own."""
    if view.bottom is None or view.rules.cut_opening:
        return None
    card = card_label(view.bottom, t)
    if view.trump is view.trump_start:
        line = t("Trump stays {suit} (bottom card {card})", suit=view.trump.symbol, card=card)
    else:
        line = t("Trump changed: {suit} (bottom card {card})", suit=view.trump.symbol, card=card)
    return line if visible(line) <= LINE else line.replace(" (", "\n(", 1)
