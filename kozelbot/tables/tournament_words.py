"""What ``/tournament``'s words set, and why a tournament operation is refused.

``parse_words`` reads ``/tournament [VARIANT] [KEY=VALUE …]`` into the tournament document's
fields (its own keys and the variant's table options, checked by the preset);
``TournamentError`` names what the person is told when an operation changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kozelbot.core.options import OptionError
from kozelbot.core.tournament.model import Format
from kozelbot.families.registry import TABLE_PRESETS, new_state, seats_of
from kozelbot.tables import seating

if TYPE_CHECKING:
    from kozelbot.core.tournament.model import Tournament

ROUNDS = range(1, 16)
ROUND_TIME = range(5, 241)
"""Minutes a round may last."""
START_IN = range(1, 24 * 60 + 1)
"""``start=MIN``: minutes from the announcement to the automatic start."""


class TournamentError(Exception):
    """A tournament operation refused for a reason the user should be told; nothing changed.

    Codes: ``running`` (the group has a live tournament), ``option`` (a bad ``KEY=VALUE``:
    ``word``), ``variant`` (not a game of two pairs at four seats), ``registered``,
    ``not_registered``, ``not_registration``, ``too_few``, ``full``, ``partner`` (the named
    partner is oneself, or already in a pair), ``no_invite`` (nobody asked this person to
    be their partner), ``no_tournament``."""

    def __init__(self, code: str, tournament: Tournament | None = None, word: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.tournament = tournament
        self.word = word


def parse_words(words: Sequence[str], default_variant: str) -> dict[str, Any]:
    """``/tournament [VARIANT] [KEY=VALUE …]`` as the document's fields: the tournament's
    own keys (``format``, ``rounds``, ``round_time``, ``computer_fill``, ``start``) and the
    variant's table options (validated by its preset). ``TournamentError`` names a bad word."""
    rest = list(words)
    variant = rest.pop(0) if rest and rest[0] in TABLE_PRESETS else default_variant
    fields: dict[str, Any] = {"variant": variant}
    table_words = []
    for word in rest:
        key, _, value = word.partition("=")
        try:
            if key == "format":
                fields["format"] = Format(value)
            elif key in ("rounds", "round_time", "start"):
                number, allowed = (
                    int(value),
                    {"rounds": ROUNDS, "round_time": ROUND_TIME, "start": START_IN}[key],
                )
                if number not in allowed:
                    raise ValueError(word)
                fields[key] = number
            elif key == "computer_fill":
                fields[key] = {"true": True, "false": False, "yes": True, "no": False}[value]
            else:
                table_words.append(word)
        except (ValueError, KeyError):
            raise TournamentError("option", word=word) from None
    try:
        fields["options"] = seating.lobby_options(variant, table_words, None)
    except OptionError as bad:
        raise TournamentError("option", word=f"{bad.key}={bad.value}") from None
    if not _two_pairs(variant, fields["options"]):
        raise TournamentError("variant", word=variant)
    return fields


def _two_pairs(variant: str, options: Mapping[str, Any]) -> bool:
    """Whether the variant is played by two pairs at four seats (0+2 against 1+3)."""
    if seats_of(variant, options) != 4:
        return False
    state = new_state(variant, options)
    sides = [state.side_of(seat) for seat in range(4)]
    return sides[0] == sides[2] and sides[1] == sides[3] and sides[0] != sides[1]
