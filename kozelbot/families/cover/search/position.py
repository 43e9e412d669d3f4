"""A cover game in play as a search sees it (RULES.md §2): plain ints and a move stack, so
that a search makes a move and takes it back (``make`` / ``unmake``) instead of copying a
state for every node.

``make`` plays a move and the flow that follows it (``flow``) as the engine's steps do; each
``make`` pushes one record (the round's registers before it, and, when a round ended or a
claim took the cards back, the rest of what changed), which ``unmake`` pops. Built by
``build``; its fields are ``fields``'.
"""

from __future__ import annotations

from kozelbot.families.cover.search import legal as rules_of_moves
from kozelbot.families.cover.search.cards import ALL
from kozelbot.families.cover.search.flow import Flow
from kozelbot.families.cover.search.moves import (
    BEAT,
    DISCARD,
    KIND_SHIFT,
    LEAD,
    LEVEL,
    OTBOY,
    PASS,
    SEAT_SHIFT,
    action,
)
from kozelbot.families.cover.search.outcome import GameResult, result
from kozelbot.families.cover.search.phases import ANSWER, REBEAT
from kozelbot.families.cover.search.phases import LEAD as LEAD_PHASE
from kozelbot.families.cover.search.phases import LEVEL as LEVEL_PHASE
from kozelbot.families.cover.vocabulary import Action


class Position(Flow):
    """One cover game in play, for a search (``build`` makes one from an engine state, or
    from a seat's public facts and sampled hidden cards)."""

    __slots__ = ()

    def to_act(self) -> tuple[int, ...]:
        """Whose turn it is (during the levelling, everyone still to level, clockwise from
        the taker); a claim may come from elsewhere (``claims``)."""
        phase = self.phase
        if phase == LEAD_PHASE:
            return (self.leader,)
        if phase in (ANSWER, REBEAT):
            return (self.turn,)
        if phase == LEVEL_PHASE:
            level = self.level
            return tuple(s for s in self.clockwise[self.taker] if level >> s & 1)
        return ()

    legal = rules_of_moves.legal
    """``legal(seat)``: what ``seat`` may do now, claims included: the set of the engine's
    ``legal_actions(seat)``, as moves (``moves``)."""

    def moves(self) -> list[int]:
        """The moves of the seats to act (``to_act``): a claim by another seat is in
        ``claims``."""
        found: list[int] = []
        for seat in self.to_act():
            found += rules_of_moves.legal(self, seat)
        return found

    def claims(self) -> list[int]:
        """Every claim «У мене N» open now, whoever may make it."""
        return rules_of_moves.claims(self)

    def action(self, move: int) -> Action:
        """The engine's action for a move."""
        return action(move)

    def make(self, move: int) -> None:
        """Play a legal move (unchecked: ``legal`` gives them) and what follows it."""
        # the registers (``_registers``), written out: this is the hot path
        saved = (
            self.phase,
            self.leader,
            self.last_beater,
            self.turn,
            self.tops,
            self.table,
            self.down,
            self.answered,
            self.discarded,
            self.acted,
            self.responded,
            self.level,
            self.trick,
        )
        self._saved = None
        kind = move >> KIND_SHIFT & 7
        seat = move >> SEAT_SHIFT
        cards = move & ALL
        bit = 1 << seat
        if kind == DISCARD:
            self.hands[seat] ^= cards
            self.given[seat] |= cards
            self.down |= cards
            self.discarded |= bit
            self.acted |= bit
            self.responded |= bit
            self.answered |= bit
            self._next_turn()
        elif kind == BEAT:
            self.hands[seat] ^= cards
            self.given[seat] |= cards
            self.table |= cards
            self.tops = cards
            self.acted |= bit
            self.responded |= bit
            self.last_beater = self.turn = seat
            self.answered = 0
            self.phase = ANSWER
            self._next_turn()
        elif kind == LEAD:
            self.hands[seat] ^= cards
            self.given[seat] |= cards
            self.table = self.tops = cards
            self.acted |= bit
            self.last_beater = self.turn = seat
            self.answered = 0
            self.phase = ANSWER
            self._next_turn()
        elif kind == PASS:
            self.acted |= bit
            self.responded |= bit
            self.answered |= bit
            self._next_turn()
        elif kind == LEVEL:
            self.hands[seat] ^= cards
            self.trick |= cards
            self.level &= ~bit
            if not self.level:
                self._draw_and_continue()
        elif kind == OTBOY:
            self.acted |= bit
            self.responded |= bit
            self._end_round()
        else:
            self._claim(seat, cards)
        self._undo.append((move, saved, self._saved))

    def unmake(self) -> None:
        """Take back the last move made, and everything that followed it."""
        move, saved, more = self._undo.pop()
        if more is not None:
            (
                self.first_leader,
                self.claim_seat,
                self.claim_count,
                self.taker,
                self.last_taker,
                self.tpos,
                self.trump,
                self.bottom_shown,
                self.over,
                self.four,
                self.drawn,
                hands,
                given,
                points,
                tricks,
            ) = more
            self.hands[:] = hands
            self.given[:] = given
            self.points[:] = points
            self.tricks[:] = tricks
        kind = move >> KIND_SHIFT & 7
        if kind <= DISCARD:  # a lead, a beat or a discard: its cards go back
            seat = move >> SEAT_SHIFT
            self.hands[seat] ^= move & ALL
            self.given[seat] ^= move & ALL
        elif kind == LEVEL:
            self.hands[move >> SEAT_SHIFT] ^= move & ALL
        (
            self.phase,
            self.leader,
            self.last_beater,
            self.turn,
            self.tops,
            self.table,
            self.down,
            self.answered,
            self.discarded,
            self.acted,
            self.responded,
            self.level,
            self.trick,
        ) = saved

    @property
    def depth(self) -> int:
        """How many moves ``unmake`` can take back."""
        return len(self._undo)

    def result(self) -> GameResult:
        """How the finished game ended, scored as the engine scores it (``outcome``)."""
        return result(self)
