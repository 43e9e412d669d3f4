"""Cards as bits: every card of the 36-card deck is an index 0..35, a hand is an int mask.

Index = suit × 9 + rank (suits ♣ ♠ ♥ ♦, ranks 6..A: ``DECK_36``'s order), so a 32-card deck
simply never sets the sixes' bits. The search representation (``position``) works on these
ints only; the functions here convert at its edges (constructors, answers for tests).
"""

from __future__ import annotations

from collections.abc import Iterable

from kozelbot.core.cards import DECK_36, Card

CARDS: tuple[Card, ...] = DECK_36
"""The card of each index."""
INDEX: dict[Card, int] = {card: index for index, card in enumerate(CARDS)}
"""The index of each card."""
BIT: tuple[int, ...] = tuple(1 << index for index in range(len(CARDS)))
"""The mask of each index alone."""
POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
"""Card points by index (RULES.md §0)."""


def mask_of(cards: Iterable[Card]) -> int:
    """The mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= BIT[INDEX[card]]
    return mask


def indices(mask: int) -> list[int]:
    """The indices set in ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask``, in index order."""
    return tuple(CARDS[index] for index in indices(mask))


def points_of(mask: int) -> int:
    """The card points of the cards in ``mask``."""
    return sum(POINTS[index] for index in indices(mask))
