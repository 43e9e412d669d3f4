"""The strong player's call of a sixes deal (issue #17: each special step by the same
evaluation): a plain deal or one of the openings, whichever the deal it starts is worth most
to the caller's side.

At the call nobody holds a card: the whole deck is the stock, unseen by everyone, so a sample
is a shuffled deck and the match's public facts (score, eggs, trump, the first leader) — the
view's, nothing else (``start``). Every call meets the same stocks: the engine draws and
plays the opening's trick from the stock as it would at the table, the steps that follow
(the hand-off offer) are answered by the normal player's rules, and the deal is played out
from its first card with the search's playout, as in card play. A call's value is the
deal's award to the caller's side minus the other side's; the search stops once the best is
clear (``kozelbot.tally``).
"""

from __future__ import annotations

import random

from kozelbot.decisions import Budget, Decision
from kozelbot.follow.strong.start import deal_start, played_out
from kozelbot.follow.view import View
from kozelbot.follow.vocabulary import CALL, CallOpening
from kozelbot.tally import Tally

MAX_SAMPLES = 400


def decide_call(view: View, rng: random.Random, budget_ms: float) -> Decision:
    """The call worth most to the caller's side over sampled decks."""
    assert view.seat is not None
    calls = [action for action in view.actions if isinstance(action, CallOpening)]
    tally = Tally(calls)
    budget = Budget(budget_ms)
    deck = list(view.rules.cards)
    while tally.samples < MAX_SAMPLES and not budget.spent(tally.samples):
        rng.shuffle(deck)
        start = deal_start(view, deck, CALL)
        for call in calls:
            tried = start.copy()
            tried.apply(view.seat, call)
            tally.add(call, played_out(tried, view.seat, rng))
        tally.close()
        if tally.settled(calls):
            break
    ranked = tally.ranked(calls)
    values = tuple((call, tally.mean(call)) for call in ranked)
    return Decision(ranked[0], values, tally.samples, "call", {"value": values[0][1]})
