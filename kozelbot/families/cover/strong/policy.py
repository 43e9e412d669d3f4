"""The strong cover player's playout policy on the search representation: the normal
player's rules (``ai``) on bits — lead many cheap plain cards of one suit, beat when the
table holds points or the beat is cheap (never a partner's lead), shed the cheapest cards,
claim a long suit, take the trick with Відбій, level with the cheapest — with a little
randomness so the playouts of one sample do not all repeat one line."""

from __future__ import annotations

import random

from kozelbot.families.cover.search.cards import CHUNK, POINTS9, SHIFT
from kozelbot.families.cover.search.moves import (
    BEAT,
    CLAIM,
    DISCARD,
    KIND_SHIFT,
    LEAD,
    LEVEL,
    OTBOY,
    PASS,
)
from kozelbot.families.cover.search.position import Position

WORTH_BEATING = 10
WANDER = 0.1
_KIND = 7 << KIND_SHIFT
_CARDS = (1 << 36) - 1


def points(pile: int) -> int:
    return (
        POINTS9[pile & CHUNK]
        + POINTS9[pile >> 9 & CHUNK]
        + POINTS9[pile >> 18 & CHUNK]
        + POINTS9[pile >> 27 & CHUNK]
    )


def cost(pile: int, trump: int) -> int:
    """How much giving ``pile`` up hurts: points first, then trumps, then rank (``ai``)."""
    total = points(pile) * 10 + (pile >> SHIFT[trump] & CHUNK).bit_count() * 60
    rank = 0
    while pile:
        low = pile & -pile
        rank += (low.bit_length() - 1) % 9
        pile ^= low
    return total + rank


def pick(pos: Position, seat: int, moves: list[int], rng: random.Random) -> int:
    """The rules' move for ``seat`` among ``moves`` (its legal moves, not empty)."""
    if len(moves) == 1:
        return moves[0]
    if rng.random() < WANDER:
        return rng.choice(moves)
    return rule_move(pos, seat, moves)


def rule_move(pos: Position, seat: int, moves: list[int]) -> int:
    """The rules' move for ``seat`` among ``moves``, without the playouts' wandering (what
    the normal player would do: ``likelihood`` reads the others' plays against it)."""
    trump = pos.trump
    kinds: dict[int, list[int]] = {}
    for move in moves:
        kinds.setdefault(move >> KIND_SHIFT & 7, []).append(move)
    if CLAIM in kinds and BEAT in kinds:
        return kinds[CLAIM][0]
    if LEAD in kinds:
        return max(kinds[LEAD], key=lambda m: _lead_score(m & _CARDS, trump))
    if LEVEL in kinds:
        return min(kinds[LEVEL], key=lambda m: cost(m & _CARDS, trump))
    if OTBOY in kinds:
        return kinds[OTBOY][0]
    beats = kinds.get(BEAT, [])
    discards = kinds.get(DISCARD, [])
    partner = (
        pos.last_beater >= 0
        and pos.last_beater != seat
        and (pos.side[pos.last_beater] == pos.side[seat])
    )
    if beats and not partner:
        cheapest = min(beats, key=lambda m: cost(m & _CARDS, trump))
        pile = cheapest & _CARDS
        if (
            points(pos.table) >= WORTH_BEATING
            or discards
            or (not points(pile) and not pile >> SHIFT[trump] & CHUNK)
        ):
            return cheapest
    if discards:
        return min(discards, key=lambda m: cost(m & _CARDS, trump))
    if PASS in kinds:
        return kinds[PASS][0]
    return moves[0]


def _lead_score(pile: int, trump: int) -> tuple[int, int, int]:
    plain = not pile >> SHIFT[trump] & CHUNK
    count = pile.bit_count()
    dear = 0
    rest = pile
    while rest:
        low = rest & -rest
        dear += POINTS9[1 << ((low.bit_length() - 1) % 9)] > 0
        rest ^= low
    return int(plain), (count - dear) - dear * 2, -cost(pile, trump)


def playout(pos: Position, rng: random.Random) -> int:
    """Play the game to its end by the rules; return the moves made (to unmake)."""
    made = 0
    while not pos.over:
        seat = pos.to_act()[0]
        pos.make(pick(pos, seat, pos.legal(seat), rng))
        made += 1
    return made
