"""How likely a sample of the hidden cards makes what the others did in the round standing
(issue #17): each sample is weighted by how many of the others' moves the normal player's
rules (``policy.rule_move``) would have made with the sample's hands — a sample in which a
player shed face down while holding a cheap beat, or did not claim a suit they hold, counts
less than one that explains their play.

The round is replayed from its lead: each seat's hand as it was then (its cards now, the
cards it put face up, and the sample's face-down cards of that seat). A face-up move the
rules would have made with other cards, or a move of another kind (beat, shed, pass, Відбій,
a claim not made), multiplies the weight by ``MISS``; a face-down shed agrees when the rules
would have shed too (which cards, nobody saw).

**Decision**: only the round standing is read — earlier rounds' hands were refilled from the
talon since, and the table keeps no order of their moves; during the levelling, or after a
claim took a round back, every sample counts the same.
"""

from __future__ import annotations

from kozelbot.families.cover.search import Hidden, Public, from_public
from kozelbot.families.cover.search.cards import mask_of
from kozelbot.families.cover.search.moves import DISCARD, KIND_NAMES, cards_of, kind_of, move
from kozelbot.families.cover.search.phases import LEAD
from kozelbot.families.cover.search.position import Position
from kozelbot.families.cover.strong.policy import rule_move
from kozelbot.families.cover.vocabulary import Phase

MISS = 0.4
"""A sample's weight is multiplied by this for each move the rules would not have made."""
KINDS = {name: kind for kind, name in enumerate(KIND_NAMES)}


class Likelihood:
    """The round's standing moves, read once per decision; ``weight(hidden)`` per sample."""

    def __init__(self, public: Public) -> None:
        self.public = public
        self.active = (
            public.phase is not Phase.LEVEL
            and public.claim is None
            and any(seat != public.seat for seat, *_ in public.standing)
        )

    def weight(self, hidden: Hidden) -> float:
        """The weight of a sample (1 when the round tells nothing)."""
        found = self.replay(hidden) if self.active else None
        return 1.0 if found is None else found

    def replay(self, hidden: Hidden) -> float | None:
        """The sample's weight, from the round replayed; ``None`` if the sample cannot have
        played the round as the table saw it."""
        pos = round_start(self.public, hidden)
        downs = [sorted(mask_of([card]) for card in cards) for cards in hidden.face_down]
        weight = 1.0
        for seat, name, shown, down in self.public.standing:
            if pos.to_act() != (seat,):
                return None
            kind = KINDS[name]
            if kind == DISCARD:
                pile = sum(downs[seat][:down])
                downs[seat] = downs[seat][down:]
            else:
                pile = mask_of(shown)
            made = move(kind, seat, pile)
            legal = pos.legal(seat)
            if seat != self.public.seat and len(legal) > 1:
                rule = rule_move(pos, seat, legal)
                if kind_of(rule) != kind or (kind != DISCARD and rule != made):
                    weight *= MISS
            if made not in legal and not (kind == DISCARD and _sheds(legal, down)):
                return None
            pos.make(made)
        return weight


def round_start(public: Public, hidden: Hidden) -> Position:
    """The sample's position at the round's lead: every card put out since back in its
    seat's hand, the round's registers as the engine starts them."""
    pos = from_public(public, hidden)
    for seat, _name, shown, _down in public.standing:
        pos.hands[seat] |= mask_of(shown)
    for seat, cards in enumerate(hidden.face_down):
        pos.hands[seat] |= mask_of(cards)
    pos.phase = LEAD
    pos.turn = -1
    pos.last_beater = pos.leader
    pos.tops = pos.table = pos.down = 0
    pos.answered = pos.discarded = pos.acted = pos.responded = 0
    pos.given = [0] * len(pos.given)
    return pos


def _sheds(legal: list[int], count: int) -> bool:
    """Whether shedding ``count`` cards face down is among ``legal``."""
    return any(kind_of(m) == DISCARD and cards_of(m).bit_count() == count for m in legal)
