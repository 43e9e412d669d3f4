"""The lead (RULES.md §2): the leader puts 1–6 cards of one suit face up, each a stack to be
beaten (with ``poshka``, 6♠ may join a lead of any suit). Before it, and until they act, others
may claim the lead (``claim``)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card, Suit
from kozelbot.families.cover import claim
from kozelbot.families.cover.board import Move
from kozelbot.families.cover.step import refuse
from kozelbot.families.cover.strength import POSHKA
from kozelbot.families.cover.turns import next_turn
from kozelbot.families.cover.vocabulary import (
    MAX_LEAD,
    Action,
    Claim,
    Event,
    IllegalMove,
    Lead,
    Phase,
)

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def to_act(state: CoverMatch) -> tuple[int, ...]:
    return (state.game.round.leader,)


def leads(state: CoverMatch, seat: int) -> list[tuple[Card, ...]]:
    """Every lead ``seat`` may make: 1–6 cards of one suit (poshka may join any)."""
    game = state.current
    if game is None or state.phase is not Phase.LEAD or game.round.leader != seat:
        return []
    hand = game.hands[seat]
    poshka = state.rules.poshka
    found: list[tuple[Card, ...]] = []
    for suit in Suit:
        cards = [c for c in hand if c.suit is suit and not (poshka and c is POSHKA)]
        extra = [POSHKA] if poshka and POSHKA in hand else []
        pool = cards + extra
        for size in range(1, min(MAX_LEAD, len(pool)) + 1):
            for combo in itertools.combinations(pool, size):
                if any(c is not POSHKA for c in combo) or combo == (POSHKA,):
                    found.append(combo)
    return list(dict.fromkeys(found))


def legal(state: CoverMatch, seat: int) -> list[Action]:
    actions: list[Action] = []
    actions += claim.offered(state, seat)
    if seat == state.game.round.leader:
        actions += [Lead(c) for c in leads(state, seat)]
    return actions


def verify(state: CoverMatch, seat: int, action: Action) -> None:
    if isinstance(action, Claim):
        claim.verify(state, seat, action)
    elif isinstance(action, Lead):
        if not 1 <= len(action.cards) <= MAX_LEAD:
            raise IllegalMove("lead 1 to 6 cards")
        poshka = state.rules.poshka
        if len({c.suit for c in action.cards if not (poshka and c is POSHKA)}) > 1:
            raise IllegalMove("one suit")
    else:
        refuse(state, seat, action)


def apply(state: CoverMatch, seat: int, action: Action) -> list[Event]:
    if isinstance(action, Claim):
        return claim.apply(state, seat, action)
    assert isinstance(action, Lead)
    game = state.game
    rnd = game.round
    for card in action.cards:
        game.hands[seat].remove(card)
    rnd.stacks = [[c] for c in action.cards]
    rnd.add(Move(seat, "lead", action.cards))
    rnd.last_beater = seat
    rnd.answered = []
    state.phase = Phase.ANSWER
    rnd.turn = seat
    return next_turn(state)
