"""The ``strong`` level of the follow-suit games (issue #17): determinized search.

Per decision it samples the hidden hands consistently with what the seat has seen
(``sampling``), weights each sample by how well it explains the others' plays under the
normal player's rules (``likelihood``), and scores each legal card over the samples: with
few cards left, exactly by alpha-beta (``exact``); before that, by playing the deal out
with the normal player's rules (``policy``). The card with the best weighted mean wins; the
value is the deal's award to the seat's side minus the other side's (eyes, with the
variant's thresholds, catch, Lyusya and eggs as ``scoring.settle`` gives them), not raw
card points. Every sample gives every card
the same hidden hands (common random numbers), so the comparison is fair even with few; the
search stops early once the best card is clear (``kozelbot.core.tally``).

A redeal offer, the decision to hand off the last trump, sixes' call and kryuk's face-down
hvalyonka card are answered by the same evaluation (``redeal``: the hand's expected award
against a fresh deal's; ``handoff``: the deal's worth with the trump passed or kept;
``call`` and ``blind``: the deal each choice starts, over sampled decks the engine deals).
"""

from __future__ import annotations

import random

from kozelbot.core.decisions import Budget, Decision
from kozelbot.core.tally import Tally
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.search.bits import CARDS, INDEX
from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.search.position import Position
from kozelbot.families.follow.strong.blind import decide_blind
from kozelbot.families.follow.strong.call import decide_call
from kozelbot.families.follow.strong.exact import exact_from, exact_value, leaf_value
from kozelbot.families.follow.strong.handoff import decide_handoff, handoff_choices
from kozelbot.families.follow.strong.likelihood import Likelihood
from kozelbot.families.follow.strong.policy import orders_of, playout
from kozelbot.families.follow.strong.reasons import reason_for
from kozelbot.families.follow.strong.redeal import decide_redeal
from kozelbot.families.follow.strong.sampling import Unknown
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import BLIND, CALL, HANDOFF, PLAY, PLAYS, REDEAL

MAX_SAMPLES = 400
"""Samples searched at most, however long the budget."""


def searches(view: View) -> bool:
    """The seat has cards to choose between in trick play or face down, a redeal offer to
    answer or a sixes deal to call (the steps the search decides)."""
    if view.phase in (REDEAL, CALL):
        return bool(view.actions)
    if view.phase is HANDOFF:
        return bool(handoff_choices(view))
    if view.phase is BLIND:
        return len(view.legal) > 1
    return (
        view.phase is PLAY
        and len(view.legal) > 1
        and all(card is not None for _, card in view.trick)
    )


def decide(view: View, rng: random.Random, budget_ms: float) -> Decision:
    """The strong player's move for ``view``'s seat (its own view: nothing hidden is read)."""
    if view.phase is REDEAL and view.actions:
        return decide_redeal(view, rng, budget_ms)
    if view.phase is HANDOFF:
        return decide_handoff(view, rng, budget_ms)
    if view.phase is CALL and view.actions:
        return decide_call(view, rng, budget_ms)
    if view.phase is BLIND and len(view.legal) > 1:
        return decide_blind(view, rng, budget_ms)
    legal = view.legal if view.phase is PLAY else ()
    if view.phase is not PLAY or any(card is None for _, card in view.trick):
        return Decision(choose_action(view), reason="rule")
    if len(legal) == 1:
        return Decision(PLAYS[legal[0]], ((PLAYS[legal[0]], 0.0),), reason="only")
    facts = DealFacts.of_view(view)
    unknown = Unknown.of_view(view, facts)
    orders = orders_of(facts)
    assert view.seat is not None
    side = view.rules.side_of(view.seat)
    moves = [INDEX[card] for card in legal]
    tally = Tally(moves)
    likelihood = Likelihood(view, facts, orders)
    budget = Budget(budget_ms)
    size = view.rules.hand_size
    while tally.samples < MAX_SAMPLES and not budget.spent(tally.samples):
        hands, talon = unknown.sample(rng)
        halves = (_mask(talon[:size]), _mask(talon[size:]))
        pos = Position(facts, hands, halves)
        exact = exact_from(pos)
        for move in moves:
            pos.make(move)
            if exact:
                tally.add(move, exact_value(pos, side, orders, -1e9, 1e9))
            else:
                made = playout(pos, orders, rng)
                tally.add(move, leaf_value(pos, side))
                for _ in range(made):
                    pos.unmake()
            pos.unmake()
        tally.close(likelihood.weight(hands))
        if tally.settled(moves):
            break
    ranked = sorted(moves, key=lambda m: (-tally.mean(m), m))
    values = tuple((PLAYS[CARDS[m]], tally.mean(m)) for m in ranked)
    best = CARDS[ranked[0]]
    reason, fields = reason_for(view, best)
    return Decision(PLAYS[best], values, tally.samples, reason, fields)


def _mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask
