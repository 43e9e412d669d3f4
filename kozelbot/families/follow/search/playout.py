"""Random playouts through the search representation: a shuffled deal played to its end.

``random_playout`` plays uniformly random legal cards with ``Position.make`` until the deal
ends (what a rollout of a searching player does from a sampled position). ``playouts``
gives ``benchmarks/playout.py`` (through ``FAMILY.search_playout``) one whole deal per call,
dealt and played out. ``Dealer`` deals a
shuffled deck straight into masks as the match's first deal of a preset (a plain deal, as
the engine deals it: the holder of ``Rules.first_lead_card`` leads, with two players the
non-dealer seat 1, and the talon follows the hands) — the benchmark's deals; kryuk's
re-shuffle until its dealing constraints hold is the chance step's, not done here.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.search.bits import BIT, INDEX
from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.search.position import OVER, Position


def random_playout(position: Position, rng: random.Random) -> int:
    """Play uniformly random legal cards until the deal ends; return the cards played."""
    uniform = rng.random
    make = position.make
    legal = position.legal
    played = 0
    while True:
        cards = legal()
        skip = int(uniform() * cards.bit_count())
        while skip:
            cards &= cards - 1
            skip -= 1
        played += 1
        if make((cards & -cards).bit_length() - 1) & OVER:
            return played


def first_deal_facts(rules: Rules, leader: int) -> DealFacts:
    """The public facts of a match's first deal as play begins, ``leader`` to lead: the
    preset's first trump suit, nobody's trump-lead right (kryuk's first deal), 0:0."""
    side = rules.side_of(leader)
    return DealFacts(
        rules=rules,
        trump=rules.trump_suit,
        leader=leader,
        obligation=side if rules.seats.pairs else None,
        trump_lead=() if rules.lead_ban else None,
    )


class Dealer:
    """Deals shuffled decks of ``rules`` into first-deal positions without any card object:
    the deck's card masks shuffled and summed into hands (and a talon)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.deck = [BIT[INDEX[card]] for card in rules.cards]
        self.size = rules.hand_size
        lead = rules.first_lead_card
        self.lead_bit = BIT[INDEX[lead]] if lead is not None else 0
        self.facts = tuple(first_deal_facts(rules, seat) for seat in range(rules.players))
        self.non_dealer = rules.seats.after(0)

    def deal(self, rng: random.Random) -> Position:
        """A shuffled first deal, ready for its first lead."""
        deck = self.deck
        rng.shuffle(deck)
        size = self.size
        if self.rules.players == 2:
            hands = [sum(deck[:size]), sum(deck[size : 2 * size])]
            talon = (sum(deck[2 * size : 3 * size]), sum(deck[3 * size :]))
            return Position(self.facts[self.non_dealer], hands, talon)
        hands = [sum(deck[seat * size : (seat + 1) * size]) for seat in range(self.rules.players)]
        lead = self.lead_bit
        leader = 0
        while not hands[leader] & lead:
            leader += 1
        return Position(self.facts[leader], hands)


def playouts(rules: Rules) -> Callable[[random.Random], int]:
    """A function that deals a shuffled first deal of ``rules`` (``Dealer``) and plays it
    to its end with random legal cards (``random_playout``) at each call; it returns the
    cards played."""
    dealer = Dealer(rules)

    def playout(rng: random.Random) -> int:
        return random_playout(dealer.deal(rng), rng)

    return playout
