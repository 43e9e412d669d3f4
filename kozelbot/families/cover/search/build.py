"""Search positions built from an engine state (``from_state``: everything, for a search that
may see it all and for the tests), or from one seat's public facts and the hidden cards a
determinized search sampled (``from_public``), which must account for every card."""

from __future__ import annotations

from collections.abc import Iterable

from kozelbot.families.cover.search.cards import ALL, BIT, SUIT_INDEX, mask_of, points
from kozelbot.families.cover.search.phases import LEVEL, PHASES
from kozelbot.families.cover.search.position import Position
from kozelbot.families.cover.search.public import Hidden, Public
from kozelbot.families.cover.state import CoverState


def _seats(seats: Iterable[int]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def from_state(state: CoverState) -> Position:
    """The position of the game in play in ``state`` (``ValueError`` if none is)."""
    game = state.current
    if game is None or state.phase not in PHASES:
        raise ValueError("no game in play")
    rnd = game.round
    pos = Position(state.rules, tuple(state.out))
    pos.score = tuple(state.score)
    pos.eggs = state.eggs
    pos.hands = [mask_of(hand) for hand in game.hands]
    pos.set_talon(tuple(BIT[card] for card in game.talon))
    pos.trump = SUIT_INDEX[game.trump]
    pos.bottom_shown = game.bottom_shown
    pos.points = list(game.points)
    pos.tricks = list(game.tricks_won)
    pos.last_taker = game.last_taker
    pos.phase = PHASES[state.phase]
    pos.leader = rnd.leader
    pos.first_leader = rnd.first_leader
    pos.last_beater = rnd.last_beater
    pos.turn = rnd.turn
    pos.taker = rnd.taker
    on_table = mask_of(card for stack in rnd.stacks for card in stack)
    if pos.phase == LEVEL:
        pos.trick = on_table | mask_of(rnd.discards)
    else:
        pos.tops = mask_of(stack[-1] for stack in rnd.stacks)
        pos.table = on_table
        pos.down = mask_of(rnd.discards)
        for move in rnd.moves:
            pos.given[move.seat] |= mask_of(move.cards)
    pos.answered = _seats(rnd.answered)
    pos.discarded = _seats(rnd.discarded)
    pos.acted = _seats(move.seat for move in rnd.moves)
    pos.responded = _seats(move.seat for move in rnd.moves if move.kind != "lead")
    if rnd.claims:
        pos.claim_seat, pos.claim_count = rnd.claims[-1]
    pos.level = _seats(rnd.level_pending)
    return pos


def from_public(public: Public, hidden: Hidden) -> Position:
    """The position of the game ``public`` describes, with the hidden cards placed as
    ``hidden`` says (``ValueError`` unless they fit the public facts and, with them, make up
    the deck exactly once)."""
    rules = public.rules
    players = rules.players
    if (
        len(hidden.hands) != players
        or len(hidden.face_down) != players
        or len(hidden.taken) != rules.sides
    ):
        raise ValueError("hidden cards for the wrong number of seats or sides")
    if frozenset(hidden.hands[public.seat]) != public.hand:
        raise ValueError("the seat's own hand differs")
    if tuple(len(hand) for hand in hidden.hands) != public.hand_sizes:
        raise ValueError("hand sizes differ")
    if len(hidden.talon) != public.talon:
        raise ValueError("talon size differs")
    if public.bottom is not None and hidden.talon and hidden.talon[-1] != public.bottom:
        raise ValueError("the shown bottom card is not at the bottom of the talon")
    if tuple(len(cards) for cards in hidden.face_down) != public.face_down:
        raise ValueError("face-down counts differ")
    if tuple(len(cards) for cards in hidden.taken) != public.face_down_taken:
        raise ValueError("face-down counts of the tricks taken differ")
    piles = [
        *hidden.hands,
        hidden.talon,
        *hidden.face_down,
        *hidden.taken,
        public.table,
        public.seen,
    ]
    whole = 0
    count = 0
    for pile in piles:
        whole |= mask_of(pile)
        count += len(pile)
    if whole != ALL or count != 36:
        raise ValueError("the cards do not make up the deck exactly once")

    pos = Position(rules, public.out)
    pos.score = public.score
    pos.eggs = public.eggs
    pos.hands = [mask_of(hand) for hand in hidden.hands]
    pos.set_talon(tuple(BIT[card] for card in hidden.talon))
    pos.trump = SUIT_INDEX[public.trump]
    pos.bottom_shown = public.bottom is not None
    pos.points = [
        shown + points(mask_of(cards))
        for shown, cards in zip(public.open_points, hidden.taken, strict=True)
    ]
    pos.tricks = list(public.tricks_won)
    pos.last_taker = public.last_taker
    pos.phase = PHASES[public.phase]
    pos.leader = public.leader
    pos.first_leader = public.first_leader
    pos.last_beater = public.last_beater
    pos.turn = public.turn
    pos.taker = public.taker
    face_down = [mask_of(cards) for cards in hidden.face_down]
    if pos.phase == LEVEL:
        pos.trick = mask_of(public.table) | _union(face_down)
    else:
        pos.tops = mask_of(public.tops)
        pos.table = mask_of(public.table)
        pos.down = _union(face_down)
        pos.given = [
            mask_of(shown) | down for shown, down in zip(public.shown, face_down, strict=True)
        ]
    pos.answered = _seats(public.answered)
    pos.discarded = _seats(public.discarded)
    pos.acted = _seats(public.acted)
    pos.responded = _seats(public.responded)
    if public.claim is not None:
        pos.claim_seat, pos.claim_count = public.claim
    pos.level = _seats(public.level_pending)
    return pos


def _union(piles: Iterable[int]) -> int:
    mask = 0
    for pile in piles:
        mask |= pile
    return mask
