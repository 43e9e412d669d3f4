"""Callback data of inline buttons: compact, typed, valid across restarts, declared once.

Telegram allows 1–64 bytes. Every button names its game (and, for the hand, the deal), so a
button of a finished game or an old deal is recognised as stale instead of acting on the
wrong state. A button is a frozen dataclass deriving from ``Callback`` with a one-letter
``prefix``; its data is ``<prefix>:<field>:...`` in field order (ints, cards, ``y``/``n``
for booleans, text), packed and parsed generically — the prefix is written nowhere else:
the handler registry matches ``pattern(...)`` of the classes, the sandbox and the tests
``parse`` the data. A field's own rules (a verb among a few, an identifier) are checked in
``__post_init__``, so a button that breaks them can neither be made nor read. ``parse``
returns ``None`` for anything that is not ours (forged or mangled data), and the handlers
answer such presses politely.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from kozelbot.core.cards import Card

MAX_BYTES = 64
_ACTION = re.compile(r"[a-z_]{1,16}(:[0-9A-Za-z_]{1,16})?")
"""A move's notation as buttons carry it: a verb and at most one short argument."""
LOBBY_VERBS = ("join", "leave", "start")

BUTTONS: dict[str, type[Callback]] = {}
"""Every button class by its prefix (filled as the classes are declared)."""


class Callback:
    """A button's data. Subclasses are frozen dataclasses with a ``prefix``; ``rest`` lets
    the last (text) field hold colons (a move's notation)."""

    prefix: ClassVar[str]
    rest: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "prefix" not in cls.__dict__:
            return  # a kind of button (``HandButton`` …), not a button
        taken = BUTTONS.get(cls.prefix)
        if taken is not None and taken.__qualname__ != cls.__qualname__:  # (slots remake it)
            raise TypeError(f"button prefix {cls.prefix!r} is taken by {taken.__qualname__}")
        BUTTONS[cls.prefix] = cls

    def pack(self) -> str:
        """The data Telegram carries back when the button is pressed."""
        values = [_encode(getattr(self, f.name)) for f in dataclasses.fields(self)]  # type: ignore[arg-type]
        data = ":".join([self.prefix, *values])
        if not 1 <= len(data.encode()) <= MAX_BYTES:
            raise ValueError(f"callback data over {MAX_BYTES} bytes: {data!r}")
        return data

    @classmethod
    def unpack(cls, parts: list[str]) -> Self:
        """The button from its data's fields (``ValueError`` if they do not fit)."""
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        if cls.rest and len(parts) > len(fields):
            parts = [*parts[: len(fields) - 1], ":".join(parts[len(fields) - 1 :])]
        if len(parts) != len(fields):
            raise ValueError("wrong number of fields")
        return cls(*(_decode(f.type, part) for f, part in zip(fields, parts, strict=True)))


def _encode(value: object) -> str:
    if isinstance(value, bool):
        return "y" if value else "n"
    return str(value)


def _decode(kind: object, text: str) -> object:
    """A field's value from its text, by its declared type (annotations are strings)."""
    if kind == "int":
        if not re.fullmatch(r"-?[0-9]{1,19}", text):
            raise ValueError(text)
        return int(text)
    if kind == "bool":
        if text not in ("y", "n"):
            raise ValueError(text)
        return text == "y"
    if kind == "Card":
        return Card.parse(text)
    if kind == "str":
        return text
    raise TypeError(f"no button field of type {kind}")


def parse(data: str | None) -> Callback | None:
    """Read packed callback data; ``None`` when it is not a button of this bot."""
    if not data:
        return None
    prefix, *parts = data.split(":")
    kind = BUTTONS.get(prefix)
    if kind is None:
        return None
    try:
        return kind.unpack(parts)
    except ValueError:
        return None


def pattern(*kinds: type[Callback]) -> str:
    """The ``CallbackQueryHandler`` pattern that matches the data of these buttons."""
    return "^(?:" + "|".join(re.escape(kind.prefix) for kind in kinds) + "):"


# -- kinds of hand buttons: the families declare theirs -----------------------------------


class HandButton(Callback):
    """A button of a private hand message. Each names its game and deal (its first two
    fields, ``game_id`` and ``deal_no``), so a button of an old deal is stale. The families
    declare their own (``kozelbot/families/<family>/buttons.py``); the registry's
    ``hand_buttons`` lists them."""

    game_id: int
    deal_no: int


class MoveButton(HandButton):
    """A hand button that makes one move."""

    def move(self, parse_action: Callable[[str], object]) -> object:
        """The typed move (``ValueError`` if the family has no such move); ``parse_action`` is
        the family's reader of the move log's notation (``Rules.parse_action``)."""
        raise NotImplementedError


class ToggleButton(HandButton):
    """A card of a hand whose moves take several cards: pressing it toggles the card in the
    selection; nothing is played yet."""

    card: Card


class VerbButton(HandButton):
    """A verb that acts with the selected cards (the family makes the move of them)."""

    verb: str


# -- the buttons -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActButton(MoveButton):
    """Any move of a hand a family has no button of its own for (a hand-off, a call, a
    pass …): ``action`` is the move in the family's move-log notation, which the family
    parses and verifies like any press."""

    prefix = "a"
    rest = True
    game_id: int
    deal_no: int
    action: str

    def __post_init__(self) -> None:
        if not _ACTION.fullmatch(self.action):
            raise ValueError(self.action)

    def move(self, parse_action: Callable[[str], object]) -> object:
        return parse_action(self.action)


@dataclass(frozen=True, slots=True)
class LobbyButton(Callback):
    """A lobby button: ``join``, ``leave`` or ``start`` (with computer players)."""

    prefix = "l"
    game_id: int
    verb: str

    def __post_init__(self) -> None:
        if self.verb not in LOBBY_VERBS:
            raise ValueError(self.verb)


@dataclass(frozen=True, slots=True)
class OptionButton(Callback):
    """A lobby settings button: the creator moves ``key`` to its next value."""

    prefix = "o"
    game_id: int
    key: str

    def __post_init__(self) -> None:
        if not self.key.isidentifier():
            raise ValueError(self.key)


@dataclass(frozen=True, slots=True)
class BackButton(Callback):
    """ "I'm here": a person away takes their seat back from the computer."""

    prefix = "b"
    game_id: int


@dataclass(frozen=True, slots=True)
class SettingsButton(Callback):
    """A button of a chat's /settings menu: ``key`` is ``variant``, ``language``,
    ``public``, ``close`` or one of the default variant's table options. The chat is the
    message's own, so a button copied elsewhere acts on nothing it does not belong to."""

    prefix = "s"
    key: str

    def __post_init__(self) -> None:
        if not (self.key.isidentifier() and self.key.isascii()):
            raise ValueError(self.key)


@dataclass(frozen=True, slots=True)
class HistoryButton(Callback):
    """A /history button: the match ``game_id`` deal by deal, from ``page`` (0 = first);
    ``page`` -1 goes back to the list of matches."""

    prefix = "h"
    game_id: int
    page: int

    def __post_init__(self) -> None:
        if self.page < -1:
            raise ValueError(self.page)


@dataclass(frozen=True, slots=True)
class VoteButton(Callback):
    """Agree to stop the running match (the stop vote's button)."""

    prefix = "v"
    game_id: int


@dataclass(frozen=True, slots=True)
class SealButton(Callback):
    """Show a seal in full (the table shows its first digits): deal ``deal_no``'s, or with
    ``deal_no`` -1 the match's (and its players' seed, once started)."""

    prefix = "f"
    game_id: int
    deal_no: int

    def __post_init__(self) -> None:
        if self.deal_no < -1:
            raise ValueError(self.deal_no)


@dataclass(frozen=True, slots=True)
class HintButton(Callback):
    """💡 in a match against the computer: the strong level's move for the presser's turn
    (the hand of deal ``deal_no``)."""

    prefix = "k"
    game_id: int
    deal_no: int

    def __post_init__(self) -> None:
        if self.deal_no < 0:
            raise ValueError(self.deal_no)


@dataclass(frozen=True, slots=True)
class AnalysisButton(Callback):
    """🔍 under a scored deal: the presser's plays in deal ``deal_no`` against the strong
    level's choices, sent privately."""

    prefix = "z"
    game_id: int
    deal_no: int

    def __post_init__(self) -> None:
        if self.deal_no < 0:
            raise ValueError(self.deal_no)


TOURNAMENT_VERBS = ("join", "leave", "start", "confirm")


@dataclass(frozen=True, slots=True)
class SeatButton(Callback):
    """The one button of a tournament table's private invitation (issue #30 item 12): the
    presser takes the seat the draw kept for them at ``game_id``."""

    prefix = "j"
    game_id: int


@dataclass(frozen=True, slots=True)
class TournamentButton(Callback):
    """A tournament's registration button (issue #19): ``join``, ``leave``, ``start`` (the
    creator or an admin) or ``confirm`` (the partner named by someone who joined)."""

    prefix = "t"
    tournament_id: int
    verb: str

    def __post_init__(self) -> None:
        if self.verb not in TOURNAMENT_VERBS:
            raise ValueError(self.verb)
