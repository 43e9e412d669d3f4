"""The records of a match's current deal: hands, tricks, hand-offs, draws, redeal requests.

Plain data that the steps change and ``MatchState.dump`` writes out field by field (so
renaming a field breaks saved games).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kozelbot.core.cards import Card, Suit


@dataclass(slots=True)
class Trick:
    """A completed trick: who led, the cards in play order, who took it, its points."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    points: int
    blind: bool = False
    """Played face down (an opening trick)."""


@dataclass(frozen=True, slots=True)
class Refill:
    """Hands dealt again from the talon before trick ``before_trick`` (two players)."""

    before_trick: int
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Handoff:
    """A last-trump hand-off (``handoff``): ``cards`` (trumps, face down) from ``giver`` to ``to``,
    and ``returned``, one by one, in exchange. Sixes first offers it aloud: ``answer`` is the
    partner's (``agree`` «давай», ``decline`` «не надо»), ``None`` while awaited — and always
    in kryuk, where nobody is asked before the trump passes."""

    giver: int
    to: int
    cards: tuple[Card, ...] = ()
    returned: tuple[Card, ...] = ()
    answer: str | None = None

    @property
    def step(self) -> str:
        """``answer`` (the partner answers the offer), ``give`` (agreed: the giver passes the
        trumps), ``return`` (the partner owes cards), ``done`` or ``declined``."""
        if self.answer == "decline":
            return "declined"
        if self.cards:
            return "return" if len(self.returned) < len(self.cards) else "done"
        return "answer" if self.answer is None else "give"

    @property
    def active(self) -> bool:
        """Whether the hand-off still waits for someone."""
        return self.step in ("answer", "give", "return")


@dataclass(frozen=True, slots=True)
class HandoffNote:
    """What everyone may know of an offered hand-off (sixes): who offered whom, the answer,
    and how many cards passed each way — never which."""

    giver: int
    to: int
    answer: str | None
    given: int
    returned: int


@dataclass(frozen=True, slots=True)
class Draw:
    """The cards one seat drew in an opening (a hvalyonka's pairs, an opening's batches), in
    the order they came."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RedealRequest:
    """A redeal asked for (or demanded) in the current deal: the seat and its hand's points."""

    seat: int
    points: int


@dataclass(slots=True)
class DealState:
    """One deal in progress (or just scored)."""

    deal_no: int
    hands: list[list[Card]]
    initial_hands: tuple[tuple[Card, ...], ...]
    """Every card each seat received in this deal (for an opening, once the hands are full)."""
    first_leader: int
    leader: int
    trump: Suit | None = None
    """This deal's trump suit (fixed, the J♣ holder's seat suit, or the last card's)."""
    obligation: int | None = None
    """The side on obligation (на обязе): the side of the first leader."""
    talon: list[Card] = field(default_factory=list)
    """Two players: the face-down rest of the deck, dealt when both hands are empty."""
    refills: list[Refill] = field(default_factory=list)
    """Two players: the hands dealt from the talon, and before which trick."""
    stock: list[Card] = field(default_factory=list)
    """The undealt deck during an opening (top first); never shown."""
    opening: str = "plain"
    """``plain``, ``hvalyonka``, ``shtany``, ``double_shtany`` or ``mirror``."""
    deck: list[Card] = field(default_factory=list)
    """The shuffled deck, top first, that the chance step dealt from (scripted
    ``deal_hands``: the hands one after another, then the talon); empty in a deal begun
    before it was kept."""
    dealer: int | None = None
    """Two players: the dealer. Four players (RULES.md names no dealer): the seat before
    the first leader as dealt, whom sixes' refused redeal counts as the dealing pair."""
    draws: list[Draw] = field(default_factory=list)
    """An opening's drawn cards, seat by seat in dealing order."""
    redeals: int = 0
    redeal_pending: list[int] = field(default_factory=list)
    handoff_pending: list[int] = field(default_factory=list)
    """Seats still to be asked about a hand-off, in play order."""
    handoffs: list[Handoff] = field(default_factory=list)
    trick: list[tuple[int, Card]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    outcome: str | None = None

    def copy(self) -> DealState:
        """An equal, independent deal: every list copied (the hands one level deeper), the
        frozen records and the completed tricks (never changed) shared."""
        return replace(
            self,
            hands=[list(hand) for hand in self.hands],
            talon=list(self.talon),
            refills=list(self.refills),
            stock=list(self.stock),
            deck=list(self.deck),
            draws=list(self.draws),
            redeal_pending=list(self.redeal_pending),
            handoff_pending=list(self.handoff_pending),
            handoffs=list(self.handoffs),
            trick=list(self.trick),
            tricks=list(self.tricks),
            points=list(self.points),
            tricks_won=list(self.tricks_won),
        )

    @property
    def active_handoff(self) -> Handoff | None:
        """The hand-off that still waits for an answer, the trumps or the returns."""
        last = self.handoffs[-1] if self.handoffs else None
        return last if last is not None and last.active else None

    @property
    def returning(self) -> int | None:
        """The partner who owes a card for a hand-off, if any."""
        active = self.active_handoff
        return active.to if active is not None and active.step == "return" else None
