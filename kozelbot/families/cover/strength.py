"""Card strength in the cover game: which card may cover which, compiled once per trump, and
which selected card covers which stack.

The plain-suit order is 6 7 8 9 J Q K 10 A (RULES.md §2): a card covers a lower one of its
own suit, and a trump covers any plain card. With the ``poshka`` option 6♠ covers anything and
nothing covers it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from functools import cache

from kozelbot.core.cards import DECK_36, Card, Rank, Suit

ORDER: tuple[Rank, ...] = (
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.TEN,
    Rank.ACE,
)
"""Plain-suit order, low to high (RULES.md §2): the ten sits between the king and the ace."""
RANK_OF = {rank: index for index, rank in enumerate(ORDER)}
POSHKA = Card.parse("6S")
"""Пошка: the six of spades, which the ``poshka`` option makes the highest card (seed 000)."""

Covers = Mapping[Card, frozenset[Card]]
"""For every card, the cards it may cover."""


def beats(card: Card, top: Card, trump: Suit, poshka: bool) -> bool:
    """Whether ``card`` may cover ``top`` (RULES.md §2; poshka beats anything and is never
    beaten)."""
    if poshka:
        if top is POSHKA:
            return False
        if card is POSHKA:
            return True
    if card.suit is top.suit:
        return RANK_OF[card.rank] > RANK_OF[top.rank]
    return card.suit is trump


@cache
def covers(trump: Suit, poshka: bool) -> Covers:
    """Every card's coverable cards under this trump: ``beats`` compiled once."""
    return {
        card: frozenset(top for top in DECK_36 if beats(card, top, trump, poshka))
        for card in DECK_36
    }


def assignment(
    cards: Sequence[Card], tops: Sequence[Card], table: Covers
) -> tuple[int, ...] | None:
    """Which stack each card covers (an index per card), or ``None`` if these cards cannot
    cover every stack once each. Of several ways, the first in lexicographic order of the
    indexes (the first ``itertools.permutations`` would find). The bot works it out, so
    people just select."""
    if len(cards) != len(tops):
        return None
    choices = [[i for i, top in enumerate(tops) if top in table[card]] for card in cards]
    if not all(choices):
        return None
    order: list[int] = []
    used: set[int] = set()

    def place(k: int) -> bool:
        if k == len(choices):
            return True
        for index in choices[k]:
            if index not in used:
                used.add(index)
                order.append(index)
                if place(k + 1):
                    return True
                order.pop()
                used.discard(index)
        return False

    return tuple(order) if place(0) else None


def cover_sets(
    hand: Sequence[Card], tops: Sequence[Card], table: Covers
) -> Iterator[tuple[Card, ...]]:
    """The sets of cards from ``hand`` (in its order) that cover every stack, one card each."""
    if len(hand) < len(tops):
        return
    useful = [card for card in hand if not table[card].isdisjoint(tops)]
    for combo in itertools.combinations(useful, len(tops)):
        if assignment(combo, tops, table) is not None:
            yield combo
