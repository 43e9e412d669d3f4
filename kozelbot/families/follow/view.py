"""What one seat may know (OpenSpiel's information state): ``View`` and ``view_for``.

Hands, tables and the computer player see a match only through ``view_for(seat)`` (or the
public ``view_for(None)``): the seat's own hand, never another's; a card played face down as
``None``; in a hidden step (``Match.hidden_turn``: a redeal offer, kryuk's hand-off,
sixes' decision whether to offer one) the step as ``waiting``, naming nobody, with the hand
sizes as they were — so no text and no computer move can use what its seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card, Suit
from kozelbot.core.protocol import DealScored
from kozelbot.families.follow.play import trump_lead_sides
from kozelbot.families.follow.records import Handoff, HandoffNote, Trick
from kozelbot.families.follow.rules import Rules, Strength
from kozelbot.families.follow.vocabulary import (
    BLIND,
    DEALING,
    IN_DEAL,
    PLAY,
    REDEAL,
    WAITING,
    Action,
    Phase,
)

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or, with ``seat=None``, the public table) may know."""

    seat: int | None
    phase: Phase
    """The deal's step; ``waiting`` while it waits for a hidden step this seat is not asked in."""
    deal_no: int
    players: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    talon: int
    """Cards left in the talon (two players)."""
    to_act: tuple[int, ...]
    """Seats that may act now, as far as this seat may know (in a hidden step: itself, if
    asked; in kryuk's return also the giver knows who returns)."""
    legal: tuple[Card, ...]
    """Cards this seat may play now (empty when it is not its turn)."""
    actions: tuple[Action, ...]
    """What this seat may do now besides playing a card (answers, hand-off, return, call);
    the cards it may play are ``legal``."""
    can_redeal: bool
    hidden_turn: bool
    """The step now awaited is hidden (``Match.hidden_turn``): shown alike to all."""
    trick: tuple[tuple[int, Card | None], ...]
    """The trick on the table; ``None`` for a card face down that this seat may not see."""
    last_trick: Trick | None
    played: tuple[Card, ...]
    """Cards of this deal's completed tricks, in order."""
    first_leader: int | None
    obligation: int | None
    trump_suit: Suit | None
    seat_suits: tuple[Suit, ...] | None
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    score: tuple[int, int]
    multiplier: int
    carry: int
    """Eggs points (kryuk) or pairs (sixes) waiting for the next deal's winner."""
    redeals: int
    opening: str
    handoffs: tuple[Handoff, ...]
    """Hand-offs of this seat's own pair, cards and all."""
    handoff_notes: tuple[HandoffNote, ...]
    """What everyone may know of sixes' offered hand-offs (none in kryuk, where they are
    secret)."""
    returning: int | None
    """A seat that owes a card for a hand-off (shown to whoever may know of the hand-off)."""
    last_result: DealScored | None
    winner: int | None
    rules: Rules
    strength: Strength
    """Strengths and effective suits under this deal's trump suit."""
    trump_lead: tuple[int, ...] | None = None
    """Kryuk: the sides that may lead a trump while holding a plain card
    (``play.trump_lead_sides``); ``None`` where any pair may."""

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def partner(self) -> int | None:
        """The seat opposite, in pair games."""
        return None if self.seat is None else self.rules.seats.partner(self.seat)


def view_for(state: Match, seat: int | None) -> View:
    """What ``seat`` may see (its own hand, never another's); ``None`` = the group."""
    deal = state.current
    phase = state.phase
    in_deal = deal is not None and phase in IN_DEAL
    hand: tuple[Card, ...] = ()
    if deal is not None and seat is not None and phase is not DEALING:
        hand = tuple(deal.hands[seat])
    trick: tuple[tuple[int, Card | None], ...] = ()
    if deal is not None and phase is BLIND:
        trick = tuple((s, c if s == seat else None) for s, c in deal.trick)
    elif deal is not None:
        trick = tuple(deal.trick)
    handoffs: tuple[Handoff, ...] = ()
    notes: tuple[HandoffNote, ...] = ()
    if deal is not None and deal.handoffs:
        mine = seat is not None and state.seats.pairs
        handoffs = tuple(
            h for h in deal.handoffs if mine and seat is not None and seat in (h.giver, h.to)
        )
        if state.rules.handoff == "offered":
            notes = tuple(
                HandoffNote(h.giver, h.to, h.answer, len(h.cards), len(h.returned))
                for h in deal.handoffs
            )
    to_act = state.to_act()
    sizes = [len(h) for h in deal.hands] if deal is not None else []
    view_phase = phase
    hidden = state.hidden_turn
    if hidden:
        assert deal is not None
        active = deal.active_handoff
        pair = () if active is None else (active.giver, active.to)
        if seat not in pair:
            to_act = tuple(s for s in to_act if s == seat)
        if not to_act:
            view_phase = WAITING
        if active is not None and seat not in pair:
            # Kryuk: nothing shows that a trump changed hands until the return is made.
            sizes[active.giver] += len(active.cards) - len(active.returned)
            sizes[active.to] -= len(active.cards) - len(active.returned)
    returning = deal.returning if deal is not None else None
    if returning is not None and not notes and not any(h.to == returning for h in handoffs):
        returning = None
    actions: tuple[Action, ...] = ()
    if seat is not None and phase is not PLAY and phase is not BLIND:
        actions = tuple(state.legal_actions(seat))
    return View(
        seat=seat,
        phase=view_phase,
        deal_no=deal.deal_no if deal is not None else state.deal_no,
        players=state.players,
        hand=hand,
        hand_sizes=tuple(sizes),
        talon=len(deal.talon) if deal is not None else 0,
        to_act=to_act,
        legal=state.legal_cards(seat) if seat is not None else (),
        actions=actions,
        can_redeal=seat is not None and phase is REDEAL and seat in to_act,
        hidden_turn=hidden,
        trick=trick,
        last_trick=deal.tricks[-1] if deal is not None and deal.tricks else None,
        played=tuple([c for t in deal.tricks for _, c in t.cards]) if deal is not None else (),
        first_leader=deal.first_leader if deal is not None else None,
        obligation=deal.obligation if deal is not None else None,
        trump_suit=deal.trump if deal is not None else state.rules.trump_suit,
        seat_suits=tuple(state.seat_suits) if state.seat_suits is not None else None,
        points=(deal.points[0], deal.points[1]) if deal is not None else (0, 0),
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1]) if deal is not None else (0, 0),
        score=(state.score[0], state.score[1]),
        multiplier=state.multiplier,
        carry=state.carry,
        redeals=state.redeals,
        opening=deal.opening if deal is not None else "plain",
        handoffs=handoffs,
        handoff_notes=notes,
        returning=returning,
        last_result=state.last_result,
        winner=state.winner,
        rules=state.rules,
        strength=state.strength,
        trump_lead=trump_lead_sides(state) if in_deal else None,
    )
