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
clear (``kozelbot.core.tally``).
"""

from __future__ import annotations

import random

from kozelbot.core.decisions import Decision
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.strong.start import deal_start, decide_over_deals
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import CALL, CallOpening


def decide_call(view: View, rng: random.Random, budget_ms: float) -> Decision:
    """The call worth most to the caller's side over sampled decks."""
    calls = [action for action in view.actions if isinstance(action, CallOpening)]
    deck = list(view.rules.cards)

    def deal(rng: random.Random) -> MatchState:
        rng.shuffle(deck)
        return deal_start(view, deck, CALL)

    decision = decide_over_deals(view, calls, deal, rng, budget_ms, "call")
    assert decision is not None  # every deck deals a call
    return decision
