"""Cards: suits, ranks, card points and decks, shared by every variant.

Cards are written as rank + suit letter (``6C``, ``10H``, ``QS``, ``AD``); that is the
notation of the rules contract, the traces and the callback data.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Any, ClassVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema


class Suit(StrEnum):
    """The four suits, by the letter the rules contract uses."""

    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♠ ♥ ♦."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}


class Rank(StrEnum):
    """Ranks from six to ace, by the symbol the rules contract uses."""

    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def points(self) -> int:
        """Card points: A 11, 10 10, K 4, Q 3, J 2, others 0 (RULES.md §0)."""
        return _RANK_POINTS.get(self, 0)


_RANK_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}


class Card:
    """One playing card; immutable, and one object per card (so identity is equality).

    ``Card(Rank.TEN, Suit.HEARTS) is Card.parse("10H")``: interning makes hashing and
    comparison as cheap as for ints, which the engine's hot paths rely on.
    """

    __slots__ = ("_notation", "points", "rank", "suit")
    _interned: ClassVar[dict[tuple[Rank, Suit], Card]] = {}

    rank: Rank
    suit: Suit
    points: int
    """The card's points (RULES.md §0)."""
    _notation: str

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        card = cls._interned.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", Rank(rank))
            object.__setattr__(card, "suit", Suit(suit))
            object.__setattr__(card, "points", Rank(rank).points)
            object.__setattr__(card, "_notation", f"{Rank(rank).value}{Suit(suit).value}")
            cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return Card, (self.rank, self.suit)

    def __str__(self) -> str:
        return self._notation  # worked out once: move logs, dumps and traces write many

    def __repr__(self) -> str:
        return f"Card({self})"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """Cards in pydantic models and ``TypeAdapter``s are their notation (``"10H"``)."""
        return core_schema.no_info_plain_validator_function(
            _validate_card,
            serialization=core_schema.plain_serializer_function_ser_schema(str),
        )

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``"10H"``-style notation; raise ``ValueError`` on anything else."""
        return _parse(text.strip().upper())


@cache
def _parse(text: str) -> Card:
    if len(text) < 2:
        raise ValueError(f"not a card: {text!r}")
    try:
        return Card(Rank(text[:-1]), Suit(text[-1]))
    except ValueError:
        raise ValueError(f"not a card: {text!r}") from None


def _validate_card(value: Any) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise ValueError(f"not a card: {value!r}")


def parse_cards(text: str) -> list[Card]:
    """Parse a space-separated list of cards (``"6C QC 10D"``)."""
    return [Card.parse(part) for part in text.split()]


def hand_points(cards: list[Card] | tuple[Card, ...]) -> int:
    """The card points of a hand or pile."""
    return sum(card.points for card in cards)


DECK_36: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
DECK_32: tuple[Card, ...] = tuple(card for card in DECK_36 if card.rank is not Rank.SIX)
DECKS: dict[int, tuple[Card, ...]] = {36: DECK_36, 32: DECK_32}
