"""The legal moves of a search position, as the same set the engine's ``legal_actions`` gives
for each seat (``lead``, ``answer``, ``rebeat``, ``level``, ``claim``): a lead of 1–6 cards of
one suit (6♠ joining any with ``poshka``); an answer that beats every stack, or discards
exactly the surplus face down, or passes when there is none; the re-beat or Відбій of a
classic round; levelling down to the smallest hand; a claim «У мене N» by a seat that has not
acted in the round and outbids the standing claim."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from kozelbot.families.cover.search.beats import BEATERS, beat_sets
from kozelbot.families.cover.search.cards import BITS9, CHUNK, POSHKA_BIT, SHIFT, bits, suit_subsets
from kozelbot.families.cover.search.moves import (
    BEAT,
    CLAIM,
    DISCARD,
    KIND_SHIFT,
    LEAD,
    LEVEL,
    OTBOY,
    PASS,
    SEAT_SHIFT,
)
from kozelbot.families.cover.search.phases import ANSWER
from kozelbot.families.cover.search.phases import LEAD as LEAD_PHASE
from kozelbot.families.cover.search.phases import LEVEL as LEVEL_PHASE
from kozelbot.families.cover.search.phases import REBEAT as REBEAT_PHASE

if TYPE_CHECKING:
    from kozelbot.families.cover.search.fields import Fields

SPADES = 1
"""The suit index of 6♠'s chunk (``cards.SUITS``)."""


def legal(pos: Fields, seat: int) -> list[int]:
    """What ``seat`` may do now: its turn's moves and a claim (offered out of turn)."""
    phase = pos.phase
    if phase == ANSWER:
        hand = pos.hands[seat]
        found = claim(pos, seat) if hand.bit_count() >= pos.claim_from else []
        if seat != pos.turn:
            return found
        base = seat << SEAT_SHIFT
        if not pos.discarded >> seat & 1:
            tops = pos.tops
            if tops & (tops - 1):
                found += beats(hand, tops, pos.trump, pos.poshka, base | BEAT << KIND_SHIFT)
            else:  # one stack: any card that covers it (``beats``, inline: the common case)
                pile = hand & BEATERS[pos.trump * 2 + pos.poshka][tops.bit_length() - 1]
                if pile:
                    beat = base | BEAT << KIND_SHIFT
                    found += [
                        beat | card
                        for card in (
                            BITS9[0][pile & CHUNK]
                            + BITS9[1][pile >> 9 & CHUNK]
                            + BITS9[2][pile >> 18 & CHUNK]
                            + BITS9[3][pile >> 27]
                        )
                    ]
        need = hand.bit_count() - pos.hands[pos.last_beater].bit_count()
        if need == 1:  # ``face_down``, inline: the common case
            discard = base | DISCARD << KIND_SHIFT
            found += [
                discard | card
                for card in (
                    BITS9[0][hand & CHUNK]
                    + BITS9[1][hand >> 9 & CHUNK]
                    + BITS9[2][hand >> 18 & CHUNK]
                    + BITS9[3][hand >> 27]
                )
            ]
        elif need > 0:
            found += face_down(hand, need, base | DISCARD << KIND_SHIFT)
        else:
            found.append(base | PASS << KIND_SHIFT)
        return found
    if phase == LEAD_PHASE:
        if seat == pos.leader:
            return leads(pos.hands[seat], seat, pos.poshka)
        return claim(pos, seat)
    if phase == REBEAT_PHASE:
        if seat != pos.turn:
            return []
        base = seat << SEAT_SHIFT
        found = beats(pos.hands[seat], pos.tops, pos.trump, pos.poshka, base | BEAT << KIND_SHIFT)
        found.append(base | OTBOY << KIND_SHIFT)
        return found
    if phase == LEVEL_PHASE and pos.level >> seat & 1:
        hands = pos.hands
        smallest = min(hands[s].bit_count() for s in pos.seats)
        hand = hands[seat]
        base = seat << SEAT_SHIFT | LEVEL << KIND_SHIFT
        return face_down(hand, hand.bit_count() - smallest, base)
    return []


_SUIT_MOVES: dict[int, tuple[int, ...]] = {}
"""The leads of one suit's cards, worked out the first time: by ``base | flag | suit << 9 |
chunk`` (``base``: the kind and seat; ``flag``: 6♠ joins them), the leads of that chunk."""
_LEADS_WITH_POSHKA = 1 << 11


def _suit_moves(key: int) -> tuple[int, ...]:
    base = key & ~0xFFF
    suit = key >> 9 & 3
    chunk = key & CHUNK
    if key & _LEADS_WITH_POSHKA:
        found = tuple(base | POSHKA_BIT | cards for cards in suit_subsets(suit, chunk))
    else:
        found = tuple(base | cards for cards in suit_subsets(suit, chunk))
    _SUIT_MOVES[key] = found
    return found


def leads(hand: int, seat: int, poshka: bool) -> list[int]:
    """Every lead of ``seat`` holding ``hand``: the non-empty sets of one suit's cards (with
    ``poshka``, 6♠ alone or joining any suit)."""
    base = seat << SEAT_SHIFT | LEAD << KIND_SHIFT
    found: list[int] = []
    with_poshka = poshka and hand & POSHKA_BIT
    for suit, shift in enumerate(SHIFT):
        chunk = hand >> shift & CHUNK
        if chunk:
            key = base | suit << 9 | chunk
            found += _SUIT_MOVES.get(key) or _suit_moves(key)
            if with_poshka and suit != SPADES:
                key |= _LEADS_WITH_POSHKA
                found += _SUIT_MOVES.get(key) or _suit_moves(key)
    return found


def beats(hand: int, tops: int, trump: int, poshka: bool, base: int) -> list[int]:
    """Every beat of ``hand`` on ``tops`` (``base``: the kind and seat): one stack is
    beaten by any one card of the pile that covers it."""
    if tops & (tops - 1):
        return [base | cards for cards in beat_sets(hand, tops, trump, poshka)]
    return singles(hand & BEATERS[trump * 2 + poshka][tops.bit_length() - 1], base)


def singles(pile: int, base: int) -> list[int]:
    """A move of each card of ``pile`` alone (``base``: the kind and seat)."""
    return [base | card for card in bits(pile)]


def face_down(hand: int, count: int, base: int) -> list[int]:
    """Every choice of ``count`` cards of ``hand`` (a discard, or levelling), each added to
    ``base`` (the move's kind and seat)."""
    if count == 1:
        return singles(hand, base)
    return [sum(chosen, base) for chosen in combinations(bits(hand), count)]


def claim(pos: Fields, seat: int) -> list[int]:
    """The claim ``seat`` may make now, if any: 4+ cards of a suit, in play, not the leader,
    no move standing in this round, and more cards than the standing claim (as many: nearer
    clockwise to the round's first leader). Asked only during a lead or an answer."""
    if seat == pos.leader or not pos.in_play >> seat & 1 or pos.acted >> seat & 1:
        return []
    hand = pos.hands[seat]
    count = max(
        (hand & CHUNK).bit_count(),
        (hand >> 9 & CHUNK).bit_count(),
        (hand >> 18 & CHUNK).bit_count(),
        (hand >> 27).bit_count(),
    )  # ``longest``
    if count < pos.claim_from:
        return []
    best = pos.claim_seat
    if best >= 0 and count <= pos.claim_count:
        if count < pos.claim_count:
            return []
        start = pos.first_leader
        players = pos.players
        if (seat - start) % players >= (best - start) % players:
            return []
    return [seat << SEAT_SHIFT | CLAIM << KIND_SHIFT | count]


def claims(pos: Fields) -> list[int]:
    """Every claim open now, from any seat (a claim interrupts the round out of turn)."""
    if pos.phase != LEAD_PHASE and pos.phase != ANSWER:
        return []
    found: list[int] = []
    for seat in pos.seats:
        found += claim(pos, seat)
    return found
