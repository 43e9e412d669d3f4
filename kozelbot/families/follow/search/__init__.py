"""The search representation of a follow-suit deal in trick play (issue #17).

For a searching computer player (determinized search: sample the hidden hands, then search
the remaining tricks or play them out): a deal held in ints and masks, made and unmade card
by card without copying, answering legality, tricks and the end of the deal as the engine
does. The engine stays the one authority for what the bot accepts.

    bits       cards as indices 0..35 and hands as int masks; conversions at the edges
    tables     a deck's strength tables under one trump suit, compiled once into masks
    facts      DealFacts: a deal's public facts at a card-play position (of a state, a view)
    position   Position: hands as masks, make / unmake, legal cards, tricks, the deal's end
    ending     an ended deal scored by the engine's ``scoring.settle``
    playout    random playouts: a shuffled first deal played to its end with random cards

A searching player, per decision and per sample of the hidden hands (and, with two players,
of the talon in dealing order)::

    facts = DealFacts.of_view(view)              # once per decision
    position = Position.of_hands(facts, hands, talon)
    for card in indices(position.legal()):       # bits.indices: the set bits
        done = position.make(card)               # 0, or TRICK (| OVER | REFILL)
        ...                                      # position.leader, .points, .last_trick()
        position.unmake()
    # at a leaf: position.over, .outcome, .outcome_side, .points, .award(), .settlement()
"""

from __future__ import annotations

from kozelbot.families.follow.search.facts import DealFacts
from kozelbot.families.follow.search.position import OVER, REFILL, TRICK, Position

__all__ = ["OVER", "REFILL", "TRICK", "DealFacts", "Position"]
