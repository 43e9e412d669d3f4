"""A deal at its start rebuilt from one seat's view with a sampled deck, and played out — for
the strong player's steps taken before the hands are dealt (sixes' call, kryuk's face-down
hvalyonka card), which the search representation does not model: the engine draws and plays
the opening as at the table, then the deal is handed to the search's playout.

``decide_over_deals`` answers such a step: every choice tried on the same sampled states.
Nothing is read but the view: the score, eggs, trump, the first leader and the obligation are
the match's public facts; the deck's order is the sample's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kozelbot.core.cards import Card
from kozelbot.core.decisions import Budget, Decision
from kozelbot.core.tally import Tally
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.records import DealState
from kozelbot.families.follow.search.position import Position
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.strong.exact import leaf_value
from kozelbot.families.follow.strong.policy import orders_of, playout
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import PLAY, Action, Phase

MAX_SAMPLES = 400
"""Samples searched at most, however long the budget."""
STEPS = 64
"""Engine steps before the first card of trick play at most (a guard, never reached)."""


def deal_start(view: View, stock: list[Card], phase: Phase) -> MatchState:
    """The match at the start of the view's deal, nobody holding a card, the deck ``stock``
    (top first), waiting in ``phase`` (``call``, or ``blind`` once the first leader drew)."""
    assert view.first_leader is not None
    state = MatchState.of(view.rules)
    state.phase = phase
    state.score = list(view.score)
    state.eggs = view.multiplier - 1
    state.carry = view.carry
    state.deal_no = view.deal_no
    state.redeals = view.redeals
    first = view.first_leader
    state.current = DealState(
        deal_no=view.deal_no,
        hands=[[] for _ in range(view.players)],
        initial_hands=tuple(() for _ in range(view.players)),
        first_leader=first,
        leader=first,
        trump=view.trump_suit,
        obligation=view.obligation,
        stock=list(stock),
        deck=list(stock),
        dealer=state.seats.before(first),
        redeals=view.redeals,
        opening=view.opening,
    )
    return state


def by_the_rules(state: MatchState, until: tuple[int, ...] | None = None) -> bool:
    """Answer every step with the normal player's rules until trick play (or until the seats
    ``until`` are asked); whether that point was reached."""
    for _ in range(STEPS):
        asked = state.to_act()
        if state.phase is PLAY or not asked or asked == until:
            return state.phase is PLAY or (bool(asked) and asked == until)
        state.apply(asked[0], choose_action(state.view_for(asked[0])))
    return False


def played_out(state: MatchState, seat: int, rng: random.Random) -> float:
    """The deal from here, its steps answered by the rules and its cards played out by the
    search: its award to ``seat``'s side minus the other's (0 if it never reaches card play —
    a redeal, worth a fresh deal's nothing)."""
    if not by_the_rules(state):
        return 0.0
    pos = Position.of_state(state)
    playout(pos, orders_of(pos.facts), rng)
    return leaf_value(pos, state.side_of(seat))


def decide_over_deals(
    view: View,
    choices: Sequence[Action],
    deal: Callable[[random.Random], MatchState | None],
    rng: random.Random,
    budget_ms: float,
    reason: str,
) -> Decision | None:
    """The choice of the view's seat worth most to its side: each sampled state (``deal``)
    tried with every choice, the rest by the rules and the search's playout; ``None`` if
    ``deal`` finds no sample."""
    assert view.seat is not None
    tally = Tally(choices)
    budget = Budget(budget_ms)
    while tally.samples < MAX_SAMPLES and not budget.spent(tally.samples):
        start = deal(rng)
        if start is None:
            return None
        for choice in choices:
            tried = start.copy()
            tried.apply(view.seat, choice)
            tally.add(choice, played_out(tried, view.seat, rng))
        tally.close()
        if tally.settled(choices):
            break
    ranked = tally.ranked(choices)
    values = tuple((choice, tally.mean(choice)) for choice in ranked)
    return Decision(ranked[0], values, tally.samples, reason, {"value": values[0][1]})
