"""One follow-suit match as a state machine: its phase table, chance step and JSON.

``MatchState`` is a ``match.Match`` (the fields and the small questions the steps ask) with
the table (``STEPS``) that sends each phase to its step; the chance step deals; ``dump`` and
``load`` are the JSON a match is saved as. The steps take a ``Match`` and never import this
module: imports run one way, state → steps → match.

Shape borrowed from OpenSpiel and pokerkit: ``to_act()`` says who may act, ``legal_actions``
lists what they may do, ``apply`` checks legality in one place (``verify``), changes the state
and returns frozen events; dealing is a chance step (``chance(shuffle)`` / ``deal(rng)``, or
``deal_hands`` / ``deal_stock`` for scripted deals). ``view_for(seat)`` is everything one seat
may know (``view``). The whole state round-trips through JSON (``dump`` /
``MatchState.load``, one ``TypeAdapter``; ``formats`` reads the older layouts).

The steps of a deal (``STEPS``), each switched on by the match's ``Rules`` (no subclass per
variant): ``dealing`` (the chance step) → ``call`` (sixes: the first leader calls plain or an
opening, ``call``) → ``blind`` (kryuk's hvalyonka, ``blind``; sixes' called openings draw and
play by themselves) → ``redeal`` (a weak hand asks for, or in sixes demands, a new deal,
``redeal``) → ``handoff`` (a hand with its last trumps passes them to the partner, who returns
as many, ``handoff``) → ``play`` (tricks, ``play``) → back to ``dealing`` after the deal is
scored (``scoring``), or ``over``. ``flow`` orders them.

Hidden steps (``hidden_turn``): the redeal offers, kryuk's whole hand-off (the decision and
the return) and sixes' decision whether to offer. Who is asked there depends on cards nobody
else may see, so every view but the asked seat's shows the step as ``waiting`` and names
nobody (the kryuk partner learns of a hand-off only when the trump reaches them), the hand
sizes do not move, and every card pressed, and every press of a seat not asked, is refused
with the same ``Waiting``. What timing still shows: a person deciding takes seconds, so the
group can see that the deal waits at its start (or, after an opening trick, before play goes
on) — never who waits or why. A strong computer asked waits about as long before it thinks
(``turns.pace_hidden``); the other levels decide at once, so their step never shows, and at a
table of one person and such computers a wait points at that person. Sixes' announced offer,
the answer and the passing of the cards are public (the group sees how many cards passed,
never which).

**Decision** (RULES.md §1.2 "the holder of A♦", and §1.3's lowest trump alike): when the first
leader of a deal is the holder of a card (the match's first deal of kryuk and sixes), it is
whoever holds that card when play begins, after any hand-off; the deal's ``first_leader``, its
``leader`` and the side on obligation follow, and so do the lead right's rotation and the
trump-lead rule, which read them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from kozelbot.core.cards import Card
from kozelbot.core.protocol import DealScored, GameError, Shuffle
from kozelbot.families.follow import blind, call, handoff, play, redeal
from kozelbot.families.follow.dealing import (
    acceptable,
    dealer_of,
    draw_blind,
    first_leader,
    opening_due,
    shuffle_deck,
    trump_of_deal,
)
from kozelbot.families.follow.flow import hands_complete
from kozelbot.families.follow.formats import upgrade
from kozelbot.families.follow.match import Match
from kozelbot.families.follow.records import DealState
from kozelbot.families.follow.step import IDLE, Step
from kozelbot.families.follow.trace import deal_trace
from kozelbot.families.follow.tricks import trick_winner
from kozelbot.families.follow.view import View, view_for
from kozelbot.families.follow.vocabulary import (
    BLIND,
    CALL,
    DEALING,
    HANDOFF,
    OVER,
    PLAY,
    REDEAL,
    WAITING,
    Action,
    Dealt,
    Event,
    Phase,
    WrongPhase,
)

STEPS: dict[Phase, Step] = {
    DEALING: IDLE,
    CALL: call.STEP,
    BLIND: blind.STEP,
    REDEAL: redeal.STEP,
    HANDOFF: handoff.STEP,
    PLAY: play.STEP,
    OVER: IDLE,
    WAITING: IDLE,  # views only: a state is never in it
}
"""Each phase's step: who acts, what is legal, why a move is refused, what it does."""


@dataclass(eq=True)
class MatchState(Match):
    """A follow-suit match as a state machine (``Match``'s fields, saved under this name):
    the phase table answers who acts and what is legal, ``apply`` changes the state, the
    chance step deals, ``dump``/``load`` are its JSON (one pydantic ``TypeAdapter``)."""

    # -- who acts, what is legal: the step of the phase ----------------------------------

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now; empty while dealing (a chance step) and after the match."""
        return STEPS[self.phase].to_act(self)

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` may play now (RULES.md §1 trick rules 2–3); empty if not its turn."""
        return STEPS[self.phase].cards(self, seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        return STEPS[self.phase].legal(self, seat)

    def verify(self, seat: int, action: Action) -> None:
        """Raise the ``GameError`` that explains why ``action`` is illegal; pass if legal."""
        STEPS[self.phase].verify(self, seat, action)

    def can_apply(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is legal for ``seat`` now."""
        try:
            self.verify(seat, action)
        except GameError:
            return False
        return True

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and return what happened; raise ``GameError`` otherwise."""
        step = STEPS[self.phase]
        step.verify(self, seat, action)
        return step.apply(self, seat, action)

    def handoff_cards(self, seat: int) -> tuple[Card, ...]:
        """Trumps ``seat`` may hand off in this step (``handoff.handoff_cards``)."""
        return handoff.handoff_cards(self, seat)

    def return_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards the partner may return for a hand-off (``handoff.return_cards``)."""
        return handoff.return_cards(self, seat)

    def trump_lead_sides(self) -> tuple[int, ...] | None:
        """Kryuk's trump-lead right in the current deal (``play.trump_lead_sides``)."""
        return play.trump_lead_sides(self)

    def trick_winner(self, cards: tuple[tuple[int, Card], ...] | list[tuple[int, Card]]) -> int:
        """The seat taking a trick under this deal's trump suit."""
        return trick_winner(cards, self.strength)

    def view_for(self, seat: int | None) -> View:
        """What ``seat`` may see (its own hand, never another's); ``None`` = the group."""
        return view_for(self, seat)

    # -- chance step -------------------------------------------------------------------

    def seed_context(self) -> str:
        """The deal's context in its seed text (``kozelbot.core.fairplay``): ``deck``, ``players``,
        ``open`` (``plain``, ``hvalyonka`` or ``call``) and, for a hvalyonka, ``first`` (the
        praised seat, who draws first)."""
        opening = opening_due(self)
        words = f"deck={self.rules.deck},players={self.players},open={opening}"
        if opening == "hvalyonka":
            words += f",first={first_leader(self, None)}"
        return words

    def chance(self, shuffle: Shuffle | random.Random) -> list[Event]:
        """The chance step: ``deal`` with the shuffle's RNG, keeping its seed text (a redeal
        adds one to the deal's ``seeds``)."""
        if isinstance(shuffle, random.Random):
            shuffle = Shuffle(shuffle)
        if shuffle.seed is None:
            self.seeds = []
        else:
            self.seeds = [*self.seeds, shuffle.seed] if self.redeals else [shuffle.seed]
        return self.deal(shuffle.rng)

    def deal(self, rng: random.Random) -> list[Event]:
        """Shuffle with ``rng`` and deal (the chance step): every card to four players, a
        hand each and a talon for two, or a stock for an opening. Kryuk re-shuffles until no
        hand holds four queens without 7♣ or five plain cards of a suit (RULES.md §1.2)."""
        opening = opening_due(self)
        first = first_leader(self, None) if opening == "hvalyonka" else 0
        cards, hands = shuffle_deck(self.rules, opening, first, rng)
        if opening != "plain":
            return self.deal_stock(cards)
        return self.deal_hands(hands, talon=cards[self.rules.hand_size * self.players :])

    def _acceptable(self, hands: list[list[Card]]) -> bool:
        """Kryuk's dealing constraints (``dealing.acceptable``)."""
        return acceptable(self.rules, hands)

    def deal_stock(self, cards: list[Card]) -> list[Event]:
        """Start a deal with an opening from this stock (top first; scripted tests call it)."""
        if self.phase is not DEALING:
            raise WrongPhase(self.phase)
        deck = self.rules.cards
        if len(cards) != len(deck) or set(cards) != set(deck):
            raise ValueError("the stock must hold exactly the deck")
        self.shuffles += 1
        self._new_requests()
        first = first_leader(self, None)
        self.current = DealState(
            deal_no=self.deal_no,
            hands=[[] for _ in range(self.players)],
            initial_hands=tuple(() for _ in range(self.players)),
            first_leader=first,
            leader=first,
            trump=self.rules.trump_suit,
            obligation=self.side_of(first),
            stock=list(cards),
            deck=list(cards),
            dealer=dealer_of(self, first),
            redeals=self.redeals,
        )
        events: list[Event] = [Dealt(self.deal_no, first, self.redeals, ())]
        if opening_due(self) == "hvalyonka":
            self.current.opening = "hvalyonka"
            draw_blind(self, first)
            self.phase = BLIND
        else:
            self.phase = CALL
        return events

    def deal_hands(self, hands: list[list[Card]], talon: list[Card] | None = None) -> list[Event]:
        """Deal these exact hands (scripted deals in tests; ``deal`` calls it too)."""
        if self.phase is not DEALING:
            raise WrongPhase(self.phase)
        talon = list(talon or [])
        dealt = [card for hand in hands for card in hand] + talon
        if len(dealt) != len(self.rules.cards) or set(dealt) != set(self.rules.cards):
            raise ValueError("the hands and the talon must hold exactly the deck")
        self.shuffles += 1
        self._new_requests()
        first = first_leader(self, hands)
        trump = trump_of_deal(self, hands)
        self.current = DealState(
            deal_no=self.deal_no,
            hands=[list(hand) for hand in hands],
            initial_hands=tuple(tuple(hand) for hand in hands),
            first_leader=first,
            leader=first,
            trump=trump,
            obligation=self.side_of(first) if self.seats.pairs else None,
            talon=talon,
            deck=dealt,
            dealer=dealer_of(self, first),
            redeals=self.redeals,
        )
        royal = hands_complete(self)
        return [
            Dealt(self.deal_no, first, self.redeals, tuple(self.current.redeal_pending)),
            *royal,
        ]

    def _new_requests(self) -> None:
        """A deal's first shuffle forgets the previous deal's redeal requests."""
        if not self.redeals:
            self.redeal_requests = []

    # -- persistence -------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return _ADAPTER.dump_python(self, mode="json")  # type: ignore[no-any-return]

    @classmethod
    def load(cls, data: Any) -> MatchState:
        """Rebuild a state saved by ``dump`` (or in an older layout, ``formats.upgrade``)."""
        return _ADAPTER.validate_python(upgrade(data))

    def deal_trace(self, result: DealScored, *, match: int, players: list[str]) -> dict[str, Any]:
        """The trace of the deal just scored (``trace.deal_trace``)."""
        return deal_trace(self, result, match=match, players=players)


_ADAPTER: TypeAdapter[MatchState] = TypeAdapter(MatchState)


def new_state(variant: str, options: Mapping[str, Any]) -> MatchState:
    """A new match of the family's preset ``variant`` with these options."""
    return MatchState(variant, dict(options))


def move_time(state: MatchState, options: Mapping[str, Any]) -> int:
    """Seconds for the awaited move at a table with these options (``MatchState.move_time``)."""
    return state.move_time(int(options.get("move_time", 0)))
