"""The strong player's call of a sixes deal (issue #17: each special step by the same
evaluation): a plain deal or one of the openings, whichever the deal it starts is worth most
to the caller's side.

At the call nobody holds a card: the whole deck is the stock, unseen by everyone, so a sample
is a shuffled deck and the match's public facts (score, eggs, trump, the first leader) — the
view's, nothing else. Every call meets the same stocks: the engine draws and plays the
opening's trick from the stock as it would at the table, the steps that follow (the hand-off
offer) are answered by the normal player's rules, and the deal is played out from its first
card with the search's playout, as in card play. A call's value is the deal's award to the
caller's side minus the other side's; the search stops once the best is clear
(``kozelbot.tally``).
"""

from __future__ import annotations

import random

from kozelbot.cards import Card
from kozelbot.decisions import Budget, Decision
from kozelbot.follow.ai import choose_action
from kozelbot.follow.records import DealState
from kozelbot.follow.search.position import Position
from kozelbot.follow.state import MatchState
from kozelbot.follow.strong.exact import leaf_value
from kozelbot.follow.strong.policy import orders_of, playout
from kozelbot.follow.view import View
from kozelbot.follow.vocabulary import CALL, PLAY, CallOpening
from kozelbot.tally import Tally

MAX_SAMPLES = 400
STEPS = 64
"""Engine steps between the call and the first trick at most (a guard, never reached)."""


def call_state(view: View, stock: list[Card]) -> MatchState:
    """The match at the caller's call with this stock: the view's public facts and nothing
    else (nobody holds a card yet)."""
    assert view.first_leader is not None
    rules = view.rules
    state = MatchState.of(rules)
    state.phase = CALL
    state.score = list(view.score)
    state.eggs = view.multiplier - 1
    state.carry = view.carry
    state.deal_no = view.deal_no
    state.redeals = view.redeals
    first = view.first_leader
    state.current = DealState(
        deal_no=view.deal_no, hands=[[] for _ in range(view.players)],
        initial_hands=tuple(() for _ in range(view.players)), first_leader=first,
        leader=first, trump=view.trump_suit, obligation=view.obligation, stock=list(stock),
        deck=list(stock), dealer=state.seats.before(first), redeals=view.redeals,
    )  # fmt: skip
    return state


def worth(state: MatchState, seat: int, call: CallOpening, rng: random.Random) -> float:
    """The deal ``call`` starts, played out: its award to ``seat``'s side minus the other's
    (0 if it never reaches card play)."""
    state.apply(seat, call)
    for _ in range(STEPS):
        if state.phase is PLAY or not state.to_act():
            break
        asked = state.to_act()[0]
        state.apply(asked, choose_action(state.view_for(asked)))
    if state.phase is not PLAY:
        return 0.0
    pos = Position.of_state(state)
    playout(pos, orders_of(pos.facts.tables), rng)
    return leaf_value(pos, state.side_of(seat))


def decide_call(view: View, rng: random.Random, budget_ms: float) -> Decision:
    """The call worth most to the caller's side over sampled decks."""
    assert view.seat is not None
    calls = [action for action in view.actions if isinstance(action, CallOpening)]
    tally = Tally(calls)
    budget = Budget(budget_ms)
    deck = list(view.rules.cards)
    while tally.samples < MAX_SAMPLES and not budget.spent(tally.samples):
        rng.shuffle(deck)
        start = call_state(view, deck)
        for call in calls:
            tally.add(call, worth(start.copy(), view.seat, call, rng))
        tally.close()
        if tally.settled(calls):
            break
    ranked = tally.ranked(calls)
    values = tuple((call, tally.mean(call)) for call in ranked)
    return Decision(ranked[0], values, tally.samples, "call", {"value": values[0][1]})
