"""The cover game in play as a search represents it (issue #17): cards as bits, moves as
ints, one position made and taken back in place (``make`` / ``unmake``) instead of a copied
state per node — for a determinized search that samples the hidden cards (hands, the
talon's order, the face-down cards), then searches or plays out. The rules engine stays the
one authority for what the bot accepts: the legal moves are the same set as the engine's
``legal_actions`` (``tests/test_cover_search.py`` compares them), and ``moves.action`` turns
a move into the engine's action.

One job a module:
- ``cards``: the bit layout of cards and piles, and its tables;
- ``beats``: which cards of a hand beat the stacks (a matching, on bits);
- ``moves``: a move as one int (cards, kind, seat), to and from the engine's actions;
- ``phases``: what a position waits for, as ints;
- ``legal``: the legal moves of each step (lead, answer, re-beat or Відбій, levelling,
  claim);
- ``position``: ``Position``, its fields, ``make`` / ``unmake`` and the flow they play
  (next answer, the trick, levelling, the draw and the trump change, the end);
- ``public``: what a seat knows (``Public``) and the cards it does not see (``Hidden``);
- ``build``: positions from an engine state, or from public facts and hidden cards;
- ``outcome``: a finished position scored by ``scoring``'s rules (``GameResult``).

    pos = from_state(state)            # or from_public(public_facts(state, seat), sample)
    for move in pos.legal(seat):       # ints: cards | kind << 36 | seat << 39
        pos.make(move)
        ...                            # search on; pos.over, result(pos) at the end
        pos.unmake()
"""

from kozelbot.families.cover.search.build import from_public, from_state
from kozelbot.families.cover.search.moves import action, move_of
from kozelbot.families.cover.search.outcome import GameResult, result
from kozelbot.families.cover.search.phases import PHASES
from kozelbot.families.cover.search.position import Position
from kozelbot.families.cover.search.public import Hidden, Public, hidden_cards, public_facts

__all__ = [
    "PHASES",
    "GameResult",
    "Hidden",
    "Position",
    "Public",
    "action",
    "from_public",
    "from_state",
    "hidden_cards",
    "move_of",
    "public_facts",
    "result",
]
