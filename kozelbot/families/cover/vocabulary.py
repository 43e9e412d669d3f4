"""The cover game's words: its phases, the moves a seat makes (with their notation and its
parser), the events a move produces, and the errors a refused move raises.

A *game* is one deal to the end of the talon; a *round* is a lead and its answers. The phases
of a round: ``lead`` → ``answer`` → ``rebeat`` (classic only) → ``level``; the draw that
follows is automatic (RULES.md §2).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from kozelbot.core.cards import DECK_36, Card, Suit
from kozelbot.core.protocol import DealScored, GameError, InTrick, MatchOver, TrickEnd

MAX_LEAD = 6
"""The most cards one lead may hold (RULES.md §2: 1 to 6 cards of one suit)."""
CARD_NAMES: dict[Card, str] = {card: str(card) for card in DECK_36}
"""Every card's notation, worked out once (moves and traces write many)."""
CARD_POINTS: dict[str, int] = {name: card.points for card, name in CARD_NAMES.items()}
"""Every card's points by its notation (the traces' rounds name their cards)."""


def card_names(cards: Iterable[Card]) -> list[str]:
    """The cards' notations (``["10H", "6S"]``)."""
    return [CARD_NAMES[card] for card in cards]


class Phase(StrEnum):
    """What the match waits for: a deal (the chance step), a round's step, or nothing."""

    DEALING = "dealing"
    LEAD = "lead"
    ANSWER = "answer"
    REBEAT = "rebeat"
    LEVEL = "level"
    OVER = "over"


class Outcome(StrEnum):
    """How a game ended: scored as usual, eggs (60 : 60), or four aces or sixes in a hand."""

    NORMAL = "normal"
    EGGS = "eggs"
    ACES = "aces"
    SIXES = "sixes"


# --- actions -------------------------------------------------------------------------


def _cards_text(cards: tuple[Card, ...]) -> str:
    return ",".join(card_names(cards))


@dataclass(frozen=True, slots=True)
class Lead:
    """Lead 1–6 cards of one suit (with poshka, 6♠ may join any suit)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"lead:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Beat:
    """Cover every stack with one higher card each; which card goes where is worked out."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"beat:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put exactly the surplus over the last beater's hand face down."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"discard:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Level:
    """Levelling: add cards face down to the trick just taken."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"level:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Не б'ю ("I don't beat"): answer without beating (only with no surplus to shed)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Otboy:
    """Відбій (ru «Отбой», "beaten off"): the last beater ends the round (classic)."""

    def __str__(self) -> str:
        return "otboy"


@dataclass(frozen=True, slots=True)
class Claim:
    """У мене N ("I have N"): claim the lead with N cards of one suit (the suit stays
    hidden)."""

    count: int

    def __str__(self) -> str:
        return f"claim:{self.count}"


Action = Lead | Beat | Discard | Level | Pass | Otboy | Claim
CARD_MOVES: dict[str, type[Lead | Beat | Discard | Level]] = {
    "lead": Lead,
    "beat": Beat,
    "discard": Discard,
    "level": Level,
}
"""The moves made of selected cards, by their verb (the notation's and the buttons')."""


def parse_action(text: str) -> Action:
    """Read an action back from its ``str`` (the move log's notation)."""
    if text == "pass":
        return Pass()
    if text == "otboy":
        return Otboy()
    verb, _, arg = text.partition(":")
    if verb == "claim" and arg.isdigit() and len(arg) == 1:
        return Claim(int(arg))
    if verb in CARD_MOVES and arg:
        cards = tuple(Card.parse(part) for part in arg.split(","))
        if len(set(cards)) == len(cards) <= MAX_LEAD:
            return CARD_MOVES[verb](cards)
    raise ValueError(f"not an action: {text!r}")


# --- events ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameDealt:
    """A game was dealt: its number, who leads first, and the trump."""

    game_no: int
    first_leader: int
    trump: Suit


@dataclass(frozen=True, slots=True)
class Acted(InTrick):
    """A seat's move in a round (a discard or levelling shows only its count to others)."""

    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class RoundTaken(TrickEnd):
    """The trick went to ``taker``; ``points`` counts every card of it, face-down ones too,
    so it is not for the table (``view.open_points`` is)."""

    taker: int
    points: int


@dataclass(frozen=True, slots=True)
class TrumpChanged:
    """The talon's bottom card was drawn and shown: its suit is trump from now on."""

    card: Card


# --- errors ----------------------------------------------------------------------------


class NotYourTurn(GameError):
    """A move from a seat whose turn it is not; ``to_act`` names whose it is."""

    code = "not_your_turn"

    def __init__(self, to_act: tuple[int, ...]) -> None:
        super().__init__(f"not your turn; to act: {to_act}")
        self.to_act = to_act


class IllegalMove(GameError):
    """A move the rules refuse: ``reason`` names why (the texts translate it), ``count`` is
    the number of cards it asks for, where it asks for some."""

    code = "illegal"

    def __init__(self, reason: str, count: int = 0) -> None:
        super().__init__(f"{reason} {count}" if count else reason)
        self.reason = reason
        self.count = count


Event = GameDealt | Acted | RoundTaken | TrumpChanged | DealScored | MatchOver
"""Everything a cover game's moves and deals report."""
