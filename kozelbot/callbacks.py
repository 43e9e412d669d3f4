"""Callback data of inline buttons: compact, typed, and valid across restarts.

Telegram allows 1–64 bytes. Every button names its game (and, for the hand, the deal), so a
button of a finished game or an old deal is recognised as stale instead of acting on the
wrong state. The format is ``<prefix>:<field>:...``; ``parse`` returns ``None`` for anything
that is not ours (forged or mangled data), and the handlers answer such presses politely.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kozelbot.cards import Card

MAX_BYTES = 64
_ACTION = re.compile(r"[a-z_]{1,16}(:[0-9A-Za-z_]{1,16})?")
"""A move's notation as buttons carry it: a verb and at most one short argument."""


@dataclass(frozen=True, slots=True)
class PlayButton:
    """A card of a private hand."""

    game_id: int
    deal_no: int
    card: Card

    def pack(self) -> str:
        return _checked(f"c:{self.game_id}:{self.deal_no}:{self.card}")

    @property
    def action(self) -> str:
        """The move it stands for, in the move log's notation."""
        return f"play:{self.card}"


@dataclass(frozen=True, slots=True)
class RedealButton:
    """Answer to the redeal offer: ``redeal`` True asks for it, False keeps the hand."""

    game_id: int
    deal_no: int
    redeal: bool

    def pack(self) -> str:
        return _checked(f"r:{self.game_id}:{self.deal_no}:{'y' if self.redeal else 'n'}")

    @property
    def action(self) -> str:
        return "redeal" if self.redeal else "keep"


@dataclass(frozen=True, slots=True)
class ActButton:
    """Any other move of a hand (a hand-off, a call, a demand …): ``action`` is the move in
    the family's move-log notation, which the family parses and verifies like any press."""

    game_id: int
    deal_no: int
    action: str

    def pack(self) -> str:
        return _checked(f"a:{self.game_id}:{self.deal_no}:{self.action}")


@dataclass(frozen=True, slots=True)
class LobbyButton:
    """A lobby button: ``join``, ``leave`` or ``start`` (with computer players)."""

    game_id: int
    verb: str

    def pack(self) -> str:
        return _checked(f"l:{self.game_id}:{self.verb}")


@dataclass(frozen=True, slots=True)
class OptionButton:
    """A lobby settings button: the creator moves ``key`` to its next value."""

    game_id: int
    key: str

    def pack(self) -> str:
        return _checked(f"o:{self.game_id}:{self.key}")


@dataclass(frozen=True, slots=True)
class SelectButton:
    """A card of a hand that selects several cards (the cover game): pressing it toggles
    the card in the selection; nothing is played yet."""

    game_id: int
    deal_no: int
    card: Card

    def pack(self) -> str:
        return _checked(f"x:{self.game_id}:{self.deal_no}:{self.card}")


@dataclass(frozen=True, slots=True)
class ChosenButton:
    """A verb that acts with the selected cards: ``lead``, ``beat``, ``discard``, ``level``."""

    game_id: int
    deal_no: int
    verb: str

    def pack(self) -> str:
        return _checked(f"y:{self.game_id}:{self.deal_no}:{self.verb}")


@dataclass(frozen=True, slots=True)
class BackButton:
    """ "I'm here": a person away takes their seat back from the computer."""

    game_id: int

    def pack(self) -> str:
        return _checked(f"b:{self.game_id}")


@dataclass(frozen=True, slots=True)
class SettingsButton:
    """A button of a chat's /settings menu: ``key`` is ``variant``, ``language``,
    ``public``, ``close`` or one of the default variant's table options. The chat is the
    message's own, so a button copied elsewhere acts on nothing it does not belong to."""

    key: str

    def pack(self) -> str:
        return _checked(f"s:{self.key}")


@dataclass(frozen=True, slots=True)
class HistoryButton:
    """A /history button: the match ``game_id`` deal by deal, from ``page`` (0 = first);
    ``page`` -1 goes back to the list of matches."""

    game_id: int
    page: int

    def pack(self) -> str:
        return _checked(f"h:{self.game_id}:{self.page}")


@dataclass(frozen=True, slots=True)
class VoteButton:
    """Agree to stop the running match (the stop vote's button)."""

    game_id: int

    def pack(self) -> str:
        return _checked(f"v:{self.game_id}")


@dataclass(frozen=True, slots=True)
class SealButton:
    """Show a seal in full (the table shows its first digits): deal ``deal_no``'s, or with
    ``deal_no`` -1 the match's (and its players' seed, once started)."""

    game_id: int
    deal_no: int

    def pack(self) -> str:
        return _checked(f"f:{self.game_id}:{self.deal_no}")


CallbackData = (
    PlayButton | RedealButton | ActButton | SelectButton | ChosenButton | LobbyButton
    | OptionButton | BackButton | SettingsButton | HistoryButton | VoteButton | SealButton
)  # fmt: skip
CHOSEN_VERBS = ("lead", "beat", "discard", "level")
LOBBY_VERBS = ("join", "leave", "start")


def _checked(data: str) -> str:
    if not 1 <= len(data.encode()) <= MAX_BYTES:
        raise ValueError(f"callback data over {MAX_BYTES} bytes: {data!r}")
    return data


def parse(data: str | None) -> CallbackData | None:
    """Read packed callback data; ``None`` when it is not a button of this bot."""
    if not data:
        return None
    parts = data.split(":")
    try:
        if parts[0] == "c" and len(parts) == 4:
            return PlayButton(int(parts[1]), int(parts[2]), Card.parse(parts[3]))
        if parts[0] == "r" and len(parts) == 4 and parts[3] in ("y", "n"):
            return RedealButton(int(parts[1]), int(parts[2]), parts[3] == "y")
        if parts[0] == "a" and len(parts) >= 4 and _ACTION.fullmatch(":".join(parts[3:])):
            return ActButton(int(parts[1]), int(parts[2]), ":".join(parts[3:]))
        if parts[0] == "x" and len(parts) == 4:
            return SelectButton(int(parts[1]), int(parts[2]), Card.parse(parts[3]))
        if parts[0] == "y" and len(parts) == 4 and parts[3] in CHOSEN_VERBS:
            return ChosenButton(int(parts[1]), int(parts[2]), parts[3])
        if parts[0] == "l" and len(parts) == 3 and parts[2] in LOBBY_VERBS:
            return LobbyButton(int(parts[1]), parts[2])
        if parts[0] == "o" and len(parts) == 3 and parts[2].isidentifier():
            return OptionButton(int(parts[1]), parts[2])
        if parts[0] == "b" and len(parts) == 2:
            return BackButton(int(parts[1]))
        if parts[0] == "v" and len(parts) == 2:
            return VoteButton(int(parts[1]))
        if parts[0] == "s" and len(parts) == 2 and parts[1].isidentifier() and parts[1].isascii():
            return SettingsButton(parts[1])
        if parts[0] == "h" and len(parts) == 3 and int(parts[2]) >= -1:
            return HistoryButton(int(parts[1]), int(parts[2]))
        if parts[0] == "f" and len(parts) == 3 and int(parts[2]) >= -1:
            return SealButton(int(parts[1]), int(parts[2]))
    except ValueError:
        return None
    return None
