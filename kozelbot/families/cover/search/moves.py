"""A move of the search as one int: the cards (a 36-bit pile; a claim's N), the kind of move
above them, and the seat that makes it above that — so a list of moves is a list of ints and
a move needs no object. ``action`` and ``move_of`` convert to and from the engine's actions
(``vocabulary``), which stay the one authority for what the bot accepts.

    move = cards | kind << 36 | seat << 39
"""

from __future__ import annotations

from kozelbot.families.cover.search.cards import ALL, cards, mask_of
from kozelbot.families.cover.vocabulary import (
    Action,
    Beat,
    Claim,
    Discard,
    Lead,
    Level,
    Otboy,
    Pass,
)

LEAD, BEAT, DISCARD, PASS, OTBOY, LEVEL, CLAIM = range(7)
"""The kinds of move: a lead, a beat (an answer or a re-beat), a face-down discard, a pass
(не б'ю), Відбій, levelling, and a claim («У мене N»)."""
KIND_SHIFT = 36
SEAT_SHIFT = 39
KIND_NAMES = ("lead", "beat", "discard", "pass", "otboy", "level", "claim")


def move(kind: int, seat: int, cards: int = 0) -> int:
    """The move of ``seat`` of this kind with these cards (a pile; a claim: its N)."""
    return cards | kind << KIND_SHIFT | seat << SEAT_SHIFT


def kind_of(move: int) -> int:
    """The move's kind (``LEAD`` … ``CLAIM``)."""
    return move >> KIND_SHIFT & 7


def seat_of(move: int) -> int:
    """The seat making the move."""
    return move >> SEAT_SHIFT


def cards_of(move: int) -> int:
    """The move's cards as a pile (a claim: its N)."""
    return move & ALL


def action(move: int) -> Action:
    """The engine's action for a move (its cards in bit order: the engine places a beat's
    cards on the stacks itself)."""
    kind = kind_of(move)
    pile = cards_of(move)
    if kind == LEAD:
        return Lead(cards(pile))
    if kind == BEAT:
        return Beat(cards(pile))
    if kind == DISCARD:
        return Discard(cards(pile))
    if kind == LEVEL:
        return Level(cards(pile))
    if kind == PASS:
        return Pass()
    if kind == OTBOY:
        return Otboy()
    return Claim(pile)


_KINDS: dict[type[Action], int] = {
    Lead: LEAD,
    Beat: BEAT,
    Discard: DISCARD,
    Level: LEVEL,
    Pass: PASS,
    Otboy: OTBOY,
    Claim: CLAIM,
}


def move_of(seat: int, action: Action) -> int:
    """The move of ``seat`` making the engine's ``action``."""
    kind = _KINDS[type(action)]
    if isinstance(action, Claim):
        return move(kind, seat, action.count)
    if isinstance(action, Pass | Otboy):
        return move(kind, seat)
    return move(kind, seat, mask_of(action.cards))


def describe(move: int) -> str:
    """A move in words for messages and tests (``"seat 1 beat:7H,AH"``)."""
    return f"seat {seat_of(move)} {action(move)}"
