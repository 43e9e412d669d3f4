"""The strong player's face-down card in kryuk's hvalyonka (issue #17: card play by the same
evaluation): the card whose deal is worth most to the seat's side, over sampled decks.

When the seat plays, it holds only the pairs it drew; the players before it drew theirs and
played a card face down, and the rest of the deck is still to come. A sample is a deck that
deals what the seat knows (``start``): each earlier player's draw as large as the table saw
it (its cards now and the one it played) and drawn as the rules deal — pairs of trumps, then
a pair with a plain card (``draw``) — the seat's own cards as it drew them, then the rest in
random order. The engine replays the hvalyonka from the first pair with it (the earlier
players play their face-down card by the normal player's rules), and every legal card of the
seat is tried on the same sample: the later players draw and play, the hands are dealt, the
hand-off step is answered by the rules, and the deal is played out by the search.

**Decision**: the earlier players' face-down cards are the normal player's (its cheapest card
— what the table would throw blind), the only model of them a sample has.
"""

from __future__ import annotations

import random

from kozelbot.core.cards import Card
from kozelbot.core.decisions import Decision
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.dealing import draw_blind
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.strong.start import by_the_rules, deal_start, decide_over_deals
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import BLIND, PLAYS

TRIES = 20
"""Decks tried for one sample before the search gives up (the earlier draws cannot be
dealt: the rules' choice answers)."""


def blind_deck(view: View, rng: random.Random) -> list[Card] | None:
    """A deck (top first) that deals the hvalyonka as the seat saw it, or ``None``."""
    assert view.seat is not None and view.first_leader is not None
    table = view.strength
    mine = set(view.hand)
    pool = [card for card in view.rules.cards if card not in mine]
    rng.shuffle(pool)
    trumps = [card for card in pool if table.is_trump(card)]
    plains = [card for card in pool if not table.is_trump(card)]
    deck: list[Card] = []
    for seat in view.rules.seats.clockwise(view.first_leader):
        if seat == view.seat:
            break
        drawn = view.hand_sizes[seat] + 1
        if drawn % 2 or len(trumps) < drawn - 2 or not plains:
            return None
        deck += [trumps.pop() for _ in range(drawn - 2)]
        last = [plains.pop()]
        rest = trumps + plains
        other = rest[rng.randrange(len(rest))]
        (trumps if table.is_trump(other) else plains).remove(other)
        last.append(other)
        rng.shuffle(last)
        deck += last
    rest = trumps + plains
    rng.shuffle(rest)
    return deck + list(view.hand) + rest


def blind_state(view: View, rng: random.Random) -> MatchState | None:
    """The sampled hvalyonka at the seat's face-down card, or ``None`` if no deck fit."""
    assert view.seat is not None
    for _ in range(TRIES):
        deck = blind_deck(view, rng)
        if deck is None:
            continue
        state = deal_start(view, deck, BLIND)
        assert view.first_leader is not None
        draw_blind(state, view.first_leader)
        if not by_the_rules(state, (view.seat,)):
            continue
        deal = state.current
        if deal is not None and set(deal.hands[view.seat]) == set(view.hand):
            return state
    return None


def decide_blind(view: View, rng: random.Random, budget_ms: float) -> Decision:
    """The face-down card worth most to the seat's side over sampled decks (the rules' card
    when no deck deals what the seat saw)."""
    moves = [PLAYS[card] for card in view.legal]
    decision = decide_over_deals(
        view, moves, lambda rng: blind_state(view, rng), rng, budget_ms, "blind"
    )
    return decision or Decision(choose_action(view), reason="rule")
