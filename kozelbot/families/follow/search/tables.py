"""A deck's strength tables under one trump suit, compiled once into masks and int tuples.

``Rules.strengths`` (``rules.compile_strength``) says each card's strength and effective
suit; ``tables_for`` turns them into what the search representation looks up per card:
which cards follow a lead (``follow``), which cards beat the card now winning a trick
(``beaten_by``), the trumps, the plain aces. Compiled once per (rules, trump) and cached, so
every position of a deal shares them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kozelbot.core.cards import Rank, Suit
from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.search.bits import BIT, CARDS, INDEX, mask_of

SUITS: tuple[Suit, ...] = tuple(Suit)
TRUMP_SUIT = len(SUITS)
"""The effective suit of every trump (ladder cards and the trump suit alike)."""


@dataclass(frozen=True, slots=True)
class Tables:
    """One deck under one trump suit, by card index (cards outside the deck: 0 / -1)."""

    trump: Suit | None
    deck: int
    """The mask of the deck's cards."""
    strength: tuple[int, ...]
    """``Strength.strength`` by index."""
    suit: tuple[int, ...]
    """Effective suit by index: 0..3 for ♣ ♠ ♥ ♦, ``TRUMP_SUIT`` for a trump, -1 off deck."""
    follow: tuple[int, ...]
    """By the led card: the mask of the deck's cards of its effective suit (those that
    follow it; all trumps after a trump lead, RULES.md §1 trick rule 3)."""
    beaten_by: tuple[int, ...]
    """By the card now winning a trick (always of the led suit or a trump): the mask of the
    cards that would take the trick from it (RULES.md §1 trick rule 4)."""
    trumps: int
    plain: int
    """The deck's non-trumps."""
    plain_aces: int
    """The deck's aces that are not trumps (the ace-discard ban's cards)."""


def compile_tables(rules: Rules, trump: Suit | None) -> Tables:
    """Compile ``rules``' strength table under ``trump`` (``Rules.strength_for``)."""
    table = rules.strength_for(trump)
    size = len(CARDS)
    strength = [0] * size
    suit = [-1] * size
    for card in rules.cards:
        index = INDEX[card]
        strength[index] = table.strength[card]
        effective = table.suit_of[card]
        suit[index] = TRUMP_SUIT if effective is None else SUITS.index(effective)
    deck = mask_of(rules.cards)
    by_suit = [sum(BIT[i] for i in range(size) if suit[i] == s) for s in range(TRUMP_SUIT + 1)]
    follow = [by_suit[suit[i]] if suit[i] >= 0 else 0 for i in range(size)]
    beaten_by = [0] * size
    for best in range(size):
        if suit[best] < 0:
            continue
        for other in range(size):
            takes = suit[other] == TRUMP_SUIT or suit[other] == suit[best]
            if takes and strength[other] > strength[best]:
                beaten_by[best] |= BIT[other]
    trumps = by_suit[TRUMP_SUIT]
    aces = mask_of(c for c in rules.cards if c.rank is Rank.ACE)
    return Tables(
        trump=trump,
        deck=deck,
        strength=tuple(strength),
        suit=tuple(suit),
        follow=tuple(follow),
        beaten_by=tuple(beaten_by),
        trumps=trumps,
        plain=deck & ~trumps,
        plain_aces=aces & ~trumps,
    )


_CACHE: dict[tuple[Rules, Suit | None], Tables] = {}


def tables_for(rules: Rules, trump: Suit | None) -> Tables:
    """``compile_tables``, once per (rules, trump): equal ``Rules`` share their tables."""
    key = (rules, trump)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = compile_tables(rules, trump)
    return found
