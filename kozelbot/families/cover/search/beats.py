"""Which cards of a hand beat the stacks, on bits (``strength``'s rule, RULES.md §2): a beat
covers every top with one card each, a higher one of its suit, a trump on a plain card or a
higher trump on a trump; with ``poshka`` 6♠ covers anything and nothing covers it.

The rule is a matching of cards to tops, and its shape makes it cheap: a plain card covers
only lower cards of its own suit, so the plain cards of a beat are matched inside their suit
and the tops they leave over go to trumps, any trump being as good as another on a plain top;
the trumps must match the trump tops higher card to lower, and 6♠ (poshka) covers whatever is
left. Inside one suit, "higher covers lower" is a matching on nine ranks, worked out once for
every pair of disjoint chunks (``MATCH``).
"""

from __future__ import annotations

from kozelbot.families.cover.search.cards import (
    BIT,
    CARDS_BY_INDEX,
    CHUNK,
    POSHKA_BIT,
    SHIFT,
    SUITS,
)
from kozelbot.families.cover.strength import covers


def _matched(cards: int, tops: int) -> int:
    """The most tops of one suit that these cards of the suit cover, one each (the lowest
    free top for each card, low to high, is a largest matching)."""
    free = matched = 0
    for rank in range(9):
        if cards >> rank & 1 and free:
            matched += 1
            free -= 1
        if tops >> rank & 1:
            free += 1
    return matched


def _match_table() -> bytes:
    table = bytearray(1 << 18)
    for tops in range(512):
        rest = ~tops & CHUNK
        cards = rest
        while True:
            table[cards << 9 | tops] = _matched(cards, tops)
            if not cards:
                break
            cards = (cards - 1) & rest
    return bytes(table)


MATCH = _match_table()
"""``MATCH[cards << 9 | tops]``: the most tops of one suit (a chunk) that the suit's
``cards`` (a disjoint chunk) cover, one card each."""
PLAIN_SHIFTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(shift for suit, shift in enumerate(SHIFT) if suit != trump) for trump in range(4)
)
"""For each trump, where the plain suits' chunks start."""

BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(BIT[card] for card, tops in covers(SUITS[trump], bool(poshka)).items() if top in tops)
        for top in CARDS_BY_INDEX
    )
    for trump in range(4)
    for poshka in range(2)
)
"""``BEATERS[trump * 2 + poshka][i]``: the cards that cover card ``i`` (``strength.covers``
as piles): a single stack is beaten by any one of them."""

_plain_cache: dict[int, tuple[tuple[int, int], ...]] = {}
_trump_cache: dict[int, tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]] = {}


def _plain(key: int) -> tuple[tuple[int, int], ...]:
    """The ways a plain suit's cards may take part in a beat of its tops (``key``: the
    suit's shift, its cards in hand and its tops, ``shift << 18 | hand << 9 | tops``): each
    set of them that covers as many tops, in place, with the tops it leaves to the trumps."""
    shift, hand, tops = key >> 18, key >> 9 & CHUNK, key & CHUNK
    count = tops.bit_count()
    ways = []
    sub = hand
    while True:
        size = sub.bit_count()
        if MATCH[sub << 9 | tops] == size:
            ways.append((sub << shift, count - size))
        if not sub:
            break
        sub = (sub - 1) & hand
    found = _plain_cache[key] = tuple(ways)
    return found


def _trumps(key: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The trumps' part of a beat (``key`` as for ``_plain``), by how many trumps it holds
    (0–9): the sets that cover every trump top, and those that leave one for 6♠ (in
    place)."""
    shift, hand, tops = key >> 18, key >> 9 & CHUNK, key & CHUNK
    count = tops.bit_count()
    whole: list[list[int]] = [[] for _ in range(10)]
    one_short: list[list[int]] = [[] for _ in range(10)]
    sub = hand
    while True:
        size = sub.bit_count()
        short = count - MATCH[sub << 9 | tops]
        if short == 0:
            whole[size].append(sub << shift)
        if short <= 1:
            one_short[size].append(sub << shift)
        if not sub:
            break
        sub = (sub - 1) & hand
    found = _trump_cache[key] = (tuple(map(tuple, whole)), tuple(map(tuple, one_short)))
    return found


def has_beat(hand: int, tops: int, trump: int, poshka: bool) -> bool:
    """Whether some cards of ``hand`` cover every one of ``tops`` (a largest matching covers
    them all: plain cards inside their suit first, then trumps, then 6♠)."""
    if not tops & (tops - 1):  # one stack
        return hand & BEATERS[trump * 2 + poshka][tops.bit_length() - 1] != 0
    wild = 0
    if poshka:
        if tops & POSHKA_BIT:
            return False
        if hand & POSHKA_BIT:
            wild = 1
            hand ^= POSHKA_BIT
    if hand.bit_count() + wild < tops.bit_count():
        return False
    left = 0
    for shift in PLAIN_SHIFTS[trump]:
        top = tops >> shift & CHUNK
        if top:
            left += top.bit_count() - MATCH[(hand >> shift & CHUNK) << 9 | top]
    shift = SHIFT[trump]
    top = tops >> shift & CHUNK
    own = hand >> shift & CHUNK
    matched = MATCH[own << 9 | top]
    spare = own.bit_count() - matched
    short = top.bit_count() - matched + (left - spare if left > spare else 0)
    return short <= wild


def beat_sets(hand: int, tops: int, trump: int, poshka: bool) -> list[int]:
    """Every set of cards of ``hand`` that covers all ``tops``, one card each."""
    wild = 0
    if poshka:
        if tops & POSHKA_BIT:
            return []
        if hand & POSHKA_BIT:
            wild = POSHKA_BIT
            hand ^= POSHKA_BIT
    if hand.bit_count() + (wild != 0) < tops.bit_count():
        return []
    combos: tuple[tuple[int, int], ...] | list[tuple[int, int]] | None = None
    for shift in PLAIN_SHIFTS[trump]:
        top = tops >> shift & CHUNK
        if top:
            key = shift << 18 | (hand >> shift & CHUNK) << 9 | top
            ways = _plain_cache.get(key) or _plain(key)
            combos = (
                ways
                if combos is None
                else [(mask | way, left + rest) for mask, left in combos for way, rest in ways]
            )
    shift = SHIFT[trump]
    top = tops >> shift & CHUNK
    key = shift << 18 | (hand >> shift & CHUNK) << 9 | top
    whole, one_short = _trump_cache.get(key) or _trumps(key)
    count = top.bit_count()
    if combos is None:  # trump tops only
        if wild and count:
            return [*whole[count], *(way | wild for way in one_short[count - 1])]
        return list(whole[count])
    found: list[int] = []
    for mask, left in combos:
        need = count + left
        if mask:
            found += [mask | way for way in whole[need]]
        else:
            found += whole[need]
        if wild and need:
            found += [mask | way | wild for way in one_short[need - 1]]
    return found
