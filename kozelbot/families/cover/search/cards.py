"""Cards as bits for the search: one bit a card, nine consecutive bits a suit (low to high in
the cover game's plain order, 6 7 8 9 J Q K 10 A), so a hand, a pile or the tops of the
stacks is one 36-bit int; and the tables worked out once that read such an int a suit (a
nine-bit *chunk*) at a time: its points, its cards, its sub-piles.

Bit ``9 * s + r``: suit ``s`` in ``Suit``'s order (♣ ♠ ♥ ♦), rank ``r`` in ``ORDER``'s.
"""

from __future__ import annotations

from collections.abc import Iterable

from kozelbot.core.cards import Card, Rank, Suit
from kozelbot.families.cover.strength import ORDER, POSHKA

SUITS: tuple[Suit, ...] = tuple(Suit)
"""Suits by their index in the bit layout."""
SUIT_INDEX: dict[Suit, int] = {suit: index for index, suit in enumerate(SUITS)}
SHIFT = (0, 9, 18, 27)
"""Where each suit's chunk starts."""
CHUNK = 0x1FF
"""Nine bits: one suit's cards."""
ALL = (1 << 36) - 1
"""Every card of the deck."""

BIT: dict[Card, int] = {
    Card(rank, suit): 1 << (SHIFT[s] + r)
    for s, suit in enumerate(SUITS)
    for r, rank in enumerate(ORDER)
}
"""Each card's bit."""
CARD: dict[int, Card] = {bit: card for card, bit in BIT.items()}
"""The card of each bit."""
CARDS_BY_INDEX: tuple[Card, ...] = tuple(CARD[1 << i] for i in range(36))
"""Cards by bit index, low to high (the order ``cards`` gives)."""

POSHKA_BIT = BIT[POSHKA]
"""6♠, which the ``poshka`` option makes the highest card."""
ACES = sum(BIT[Card(Rank.ACE, suit)] for suit in SUITS)
SIXES = sum(BIT[Card(Rank.SIX, suit)] for suit in SUITS)

_RANK_POINTS = tuple(rank.points for rank in ORDER)
POINTS9: tuple[int, ...] = tuple(
    sum(_RANK_POINTS[r] for r in range(9) if chunk >> r & 1) for chunk in range(512)
)
"""Card points of every chunk (points depend on the rank only)."""
BITS9: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(1 << (SHIFT[s] + r) for r in range(9) if chunk >> r & 1) for chunk in range(512))
    for s in range(4)
)
"""For each suit and chunk, the single-card bits of that chunk in place, low first."""


_SUBSETS: list[tuple[int, ...] | None] = [None] * 2048


def suit_subsets(suit: int, chunk: int) -> tuple[int, ...]:
    """The non-empty sub-piles of one suit's chunk, in place (the leads of that suit),
    worked out the first time they are asked for."""
    found = _SUBSETS[suit << 9 | chunk]
    if found is None:
        subs = []
        sub = chunk
        while sub:
            subs.append(sub << SHIFT[suit])
            sub = (sub - 1) & chunk
        found = _SUBSETS[suit << 9 | chunk] = tuple(subs)
    return found


def points(mask: int) -> int:
    """The card points of a pile."""
    return (
        POINTS9[mask & CHUNK]
        + POINTS9[mask >> 9 & CHUNK]
        + POINTS9[mask >> 18 & CHUNK]
        + POINTS9[mask >> 27]
    )


def bits(mask: int) -> tuple[int, ...]:
    """The single-card bits of a pile, low first."""
    return (
        BITS9[0][mask & CHUNK]
        + BITS9[1][mask >> 9 & CHUNK]
        + BITS9[2][mask >> 18 & CHUNK]
        + BITS9[3][mask >> 27]
    )


def longest(mask: int) -> int:
    """The most cards of one suit in a pile."""
    return max(
        (mask & CHUNK).bit_count(),
        (mask >> 9 & CHUNK).bit_count(),
        (mask >> 18 & CHUNK).bit_count(),
        (mask >> 27).bit_count(),
    )


def mask_of(cards: Iterable[Card]) -> int:
    """The pile of these cards."""
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


def cards(mask: int) -> tuple[Card, ...]:
    """The cards of a pile, in bit order (suit by suit, low to high)."""
    return tuple(CARD[bit] for bit in bits(mask))


def text(mask: int) -> str:
    """A pile in the cards' notation (``"7H AH"``), for messages and tests."""
    return " ".join(str(card) for card in cards(mask))
