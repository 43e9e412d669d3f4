"""The follow-suit engine (RULES.md §1): one match as a state machine with explicit phases.

Shape borrowed from OpenSpiel and pokerkit: ``to_act()`` says who may act, ``legal_actions``
lists what they may do, ``apply`` checks legality in one place (``verify``), changes the state
and returns frozen events; dealing is a chance step (``deal(rng)`` or ``deal_hands(hands)``
for scripted deals). ``view_for(seat)`` is everything one seat may know. The whole state
round-trips through JSON (``dump`` / ``MatchState.load``, one pydantic ``TypeAdapter``).

Phases: ``dealing`` (waiting for the chance step) → ``redeal`` (players whose hand holds
fewer than 14 points may ask for a redeal, Russian пересдача) → ``play`` (tricks) → back to
``dealing`` after the deal is scored, or ``over`` when a pair reaches the target.

**Decision** (the redeal phase, RULES.md §1.1 "before the first card"): every eligible seat
answers "redeal" or "keep" at the same time; the first "redeal" reshuffles at once, and play
starts when every eligible seat has kept. So nobody loses the right because someone else moved
first, and a deal with no weak hand starts straight away.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from pydantic import TypeAdapter

from kozelbot.cards import Card, Rank, Suit, hand_points
from kozelbot.follow.presets import PRESETS
from kozelbot.follow.rules import Rules, Strength
from kozelbot.game import DealScored, GameError, MatchOver
from kozelbot.game import shuffle_rng as shuffle_rng


class Phase(StrEnum):
    """Where a match stands."""

    DEALING = "dealing"
    REDEAL = "redeal"
    PLAY = "play"
    OVER = "over"


DEALING, REDEAL, PLAY, OVER = Phase.DEALING, Phase.REDEAL, Phase.PLAY, Phase.OVER
"""Module constants: reading ``Phase.PLAY`` goes through the enum's descriptor on every
access (slow on the engine's hot path)."""


class Outcome(StrEnum):
    """How a deal ended (RULES.md §1.1)."""

    NORMAL = "normal"
    EGGS = "eggs"
    """Яйца: 60:60, no eyes, the next deal's eyes multiplied."""
    CATCH = "catch"
    """Шамок ловит шамку: 6♣ and an opponent's Q♣ in one trick end the deal."""
    LYUSYA = "lyusya"
    """Люся: one pair took every trick."""


# --- actions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card from the hand."""

    card: Card

    def __str__(self) -> str:
        return f"play:{self.card}"


@dataclass(frozen=True, slots=True)
class AskRedeal:
    """Ask for the deal to be shuffled and dealt again (hand under the redeal limit)."""

    def __str__(self) -> str:
        return "redeal"


@dataclass(frozen=True, slots=True)
class KeepHand:
    """Decline the redeal one may ask for."""

    def __str__(self) -> str:
        return "keep"


Action = PlayCard | AskRedeal | KeepHand


def parse_action(text: str) -> Action:
    """Read an action back from its ``str`` (the move log's notation)."""
    if text == "redeal":
        return AskRedeal()
    if text == "keep":
        return KeepHand()
    if text.startswith("play:"):
        return PlayCard(Card.parse(text[5:]))
    raise ValueError(f"not an action: {text!r}")


# --- events ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal was dealt; ``redeals`` counts the redeals before it in the same deal."""

    deal_no: int
    first_leader: int
    redeals: int
    redeal_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RedealAsked:
    """A seat asked for a redeal; the cards go back to the deck."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandKept:
    """A seat declined its redeal."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card went on the table."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """A complete trick went to ``winner``."""

    trick_no: int
    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class Caught:
    """The catch: ``catcher`` (holding 6♣) caught the opponent ``caught`` (holding Q♣)."""

    catcher: int
    caught: int


Event = Dealt | RedealAsked | HandKept | CardPlayed | TrickTaken | Caught | DealScored | MatchOver


# --- errors ----------------------------------------------------------------------------


class WrongPhase(GameError):
    """The action does not fit the current phase (e.g. a card during the redeal)."""

    code = "wrong_phase"

    def __init__(self, phase: Phase) -> None:
        super().__init__(f"not possible in phase {phase}")
        self.phase = phase


class NotYourTurn(GameError):
    """Another seat is to act."""

    code = "not_your_turn"

    def __init__(self, to_act: tuple[int, ...]) -> None:
        super().__init__(f"not your turn; to act: {to_act}")
        self.to_act = to_act


class CardNotInHand(GameError):
    """The card is not (or no longer) in the seat's hand."""

    code = "card_not_in_hand"

    def __init__(self, card: Card) -> None:
        super().__init__(f"{card} is not in the hand")
        self.card = card


class MustFollow(GameError):
    """The card breaks the follow rule (RULES.md §1 trick rule 3)."""

    code = "must_follow"

    def __init__(self, card: Card, led: Suit | None, legal: tuple[Card, ...]) -> None:
        what = "trump" if led is None else f"suit {led}"
        super().__init__(f"{card}: must follow {what} with one of {' '.join(map(str, legal))}")
        self.card = card
        self.led = led
        """The led suit, ``None`` when a trump was led."""
        self.legal = legal


class RedealNotAllowed(GameError):
    """The seat may not ask for (or decline) a redeal now."""

    code = "redeal_not_allowed"


# --- state -----------------------------------------------------------------------------


@dataclass(slots=True)
class Trick:
    """A completed trick: who led, the cards in play order, who took it, its points."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class Refill:
    """Hands dealt again from the talon before trick ``before_trick`` (two players)."""

    before_trick: int
    hands: tuple[tuple[Card, ...], ...]


@dataclass(slots=True)
class DealState:
    """One deal in progress (or just scored)."""

    deal_no: int
    hands: list[list[Card]]
    initial_hands: tuple[tuple[Card, ...], ...]
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
    redeals: int = 0
    redeal_pending: list[int] = field(default_factory=list)
    trick: list[tuple[int, Card]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or, with ``seat=None``, the public table) may know."""

    seat: int | None
    phase: Phase
    deal_no: int
    players: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    talon: int
    """Cards left in the talon (two players)."""
    to_act: tuple[int, ...]
    legal: tuple[Card, ...]
    """Cards this seat may play now (empty when it is not its turn)."""
    can_redeal: bool
    trick: tuple[tuple[int, Card], ...]
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
    redeals: int
    last_result: DealScored | None
    winner: int | None
    rules: Rules
    strength: Strength
    """Strengths and effective suits under this deal's trump suit."""

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def partner(self) -> int | None:
        """The seat opposite, in pair games."""
        if self.seat is None or self.players != 4:
            return None
        return (self.seat + 2) % 4


def side_of(seat: int) -> int:
    """Partners sit opposite: side 0 is seats 0+2, side 1 is seats 1+3 (two players: the seat)."""
    return seat % 2


def trick_winner(
    cards: tuple[tuple[int, Card], ...] | list[tuple[int, Card]], table: Strength
) -> int:
    """The seat taking a trick: highest trump, else highest card of the led suit (RULES.md §1
    trick rule 4). The one authority: the engine and the computer player both ask it."""
    strength, suit_of = table.strength, table.suit_of
    led = suit_of[cards[0][1]]
    best_seat, best_card = cards[0]
    for seat, card in cards[1:]:
        suit = suit_of[card]
        if suit is not led and suit is not None:
            continue  # a discard never wins
        if strength[card] > strength[best_card]:
            best_seat, best_card = seat, card
    return best_seat


SEAT_SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
"""Belka: suits go to the seats clockwise from the first J♣ holder in this order."""
JACK_OF_CLUBS = Card.parse("JC")


@dataclass(eq=True)
class MatchState:
    """A whole match of a follow-suit preset: score, eggs, and the current deal.

    A dataclass whose fields are the whole state: ``dump``/``load`` are one pydantic
    ``TypeAdapter``, and ``==`` compares everything (the round-trip property test uses it).
    The rules are derived from ``variant`` and ``options``."""

    variant: str
    options: dict[str, Any]
    phase: Phase = Phase.DEALING
    score: list[int] = field(default_factory=lambda: [0, 0])
    eggs: int = 0
    """Eggs deals in a row just before the current one."""
    deal_no: int = 0
    """The number of the deal being played, or of the next one while dealing."""
    shuffles: int = 0
    """Shuffles so far in the match (the bot derives each shuffle's RNG from it)."""
    redeals: int = 0
    """Redeals asked for in the current deal so far."""
    current: DealState | None = None
    last_result: DealScored | None = None
    winner: int | None = None
    seat_suits: list[Suit] | None = None
    """Belka: the suit each seat owns for the match (assigned in the first deal)."""
    dealer: int = 0
    """Two players: who deals (the other leads first); it alternates every deal."""
    last_card: Card | None = None
    """Two players: the last card played in the previous deal (it names the trump suit)."""

    def __post_init__(self) -> None:
        self.options = PRESETS[self.variant].options_from(self.options).model_dump()
        self._seats = self.rules.players

    @cached_property
    def rules(self) -> Rules:
        chosen = PRESETS[self.variant]
        return chosen.build(chosen.options_from(self.options))  # type: ignore[no-any-return]

    # -- the protocol's small questions --------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is OVER

    @property
    def players(self) -> int:
        return self._seats

    @property
    def needs_chance(self) -> bool:
        return self.phase is DEALING

    @property
    def deal_shown(self) -> int | None:
        return None if self.current is None else self.current.deal_no

    @property
    def deals_scored(self) -> int:
        return self.deal_no

    def accepts(self, deal_no: int) -> bool:
        return (
            self.phase in (REDEAL, PLAY)
            and self.current is not None
            and self.current.deal_no == deal_no
        )

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def multiplier(self) -> int:
        """The eggs multiplier of the current deal: k eggs in a row → ×(k+1) (RULES.md §1.1)."""
        return 1 if self.rules.eggs_carry else self.eggs + 1

    @property
    def strength(self) -> Strength:
        """Strengths under the current deal's trump suit."""
        trump = self.current.trump if self.current is not None else self.rules.trump_suit
        return self.rules.strengths[trump]

    def move_time(self, base: int) -> int:
        """Seconds for the awaited move: the table's move time, plus the preset's bonus for
        a deal's first move (0 stays 0: no timer)."""
        deal = self.current
        if base and deal is not None and not deal.tricks and not deal.trick:
            return base + self.rules.first_move_bonus
        return base

    # -- who acts, what is legal ---------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now; empty while dealing (a chance step) and after the match."""
        deal = self.current
        if deal is None:
            return ()
        if self.phase is REDEAL:
            return tuple(deal.redeal_pending)
        if self.phase is PLAY:
            return ((deal.leader + len(deal.trick)) % self.players,)
        return ()

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` may play now (RULES.md §1 trick rules 2–3); empty if not its turn."""
        deal = self.current
        if self.phase is not PLAY or deal is None:
            return ()
        if (deal.leader + len(deal.trick)) % self._seats != seat:
            return ()
        hand = deal.hands[seat]
        if not deal.trick:
            return tuple(hand)
        suit_of = self.rules.strengths[deal.trump].suit_of
        led = suit_of[deal.trick[0][1]]
        following = tuple(card for card in hand if suit_of[card] is led)
        if following:
            return following
        if self.rules.ace_discard_ban:
            return self._without_banned_aces(hand, suit_of)
        return tuple(hand)

    def _without_banned_aces(
        self, hand: list[Card], suit_of: Mapping[Card, Suit | None]
    ) -> tuple[Card, ...]:
        """RULES.md §1.3/§1.4 ace-discard ban: with no card of the led suit, a plain ace of a
        suit not yet led in this deal may not be discarded (unless nothing else is left)."""
        deal = self.current
        assert deal is not None
        led = {suit_of[t.cards[0][1]] for t in deal.tricks} | {suit_of[deal.trick[0][1]]}
        allowed = tuple(
            c for c in hand if not (c.rank is Rank.ACE and suit_of[c] is not None
                                    and suit_of[c] not in led)
        )  # fmt: skip
        return allowed or tuple(hand)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        if self.phase is REDEAL:
            return [AskRedeal(), KeepHand()] if seat in self.to_act() else []
        return [PlayCard(card) for card in self.legal_cards(seat)]

    def verify(self, seat: int, action: Action) -> None:
        """Raise the ``GameError`` that explains why ``action`` is illegal; pass if legal."""
        if type(action) is not PlayCard:
            if self.phase is not REDEAL:
                raise RedealNotAllowed("no redeal now")
            if seat not in self.to_act():
                raise RedealNotAllowed("this hand may not ask for a redeal")
            return
        if self.phase is not PLAY:
            raise WrongPhase(self.phase)
        deal = self.current
        assert deal is not None
        if (deal.leader + len(deal.trick)) % self._seats != seat:
            raise NotYourTurn(self.to_act())
        if action.card not in deal.hands[seat]:
            raise CardNotInHand(action.card)
        if not deal.trick:
            return
        legal = self.legal_cards(seat)
        if action.card not in legal:
            led = self.strength.suit_of[deal.trick[0][1]]
            raise MustFollow(action.card, led, legal)

    def can_apply(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is legal for ``seat`` now."""
        try:
            self.verify(seat, action)
        except GameError:
            return False
        return True

    # -- chance step -------------------------------------------------------------------

    def chance(self, rng: random.Random) -> list[Event]:
        """The chance step (the protocol's name for ``deal``)."""
        return self.deal(rng)

    def deal(self, rng: random.Random) -> list[Event]:
        """Shuffle with ``rng`` and deal (the chance step): every card to four players, or
        a hand each and a talon for two."""
        cards = list(self.rules.cards)
        rng.shuffle(cards)
        size = self.rules.hand_size
        hands = [cards[i * size : (i + 1) * size] for i in range(self.players)]
        return self.deal_hands(hands, talon=cards[size * self.players :])

    def deal_hands(self, hands: list[list[Card]], talon: list[Card] | None = None) -> list[Event]:
        """Deal these exact hands (scripted deals in tests; ``deal`` calls it too)."""
        if self.phase is not DEALING:
            raise WrongPhase(self.phase)
        talon = list(talon or [])
        dealt = [card for hand in hands for card in hand] + talon
        if len(dealt) != len(self.rules.cards) or set(dealt) != set(self.rules.cards):
            raise ValueError("the hands and the talon must hold exactly the deck")
        self.shuffles += 1
        first = self._first_leader(hands)
        trump = self._trump_of_deal(hands)
        order = [(first + i) % self.players for i in range(self.players)]
        limit = self.rules.redeal_below
        pending = [s for s in order if limit is not None and hand_points(hands[s]) < limit]
        self.current = DealState(
            deal_no=self.deal_no,
            hands=[list(hand) for hand in hands],
            initial_hands=tuple(tuple(hand) for hand in hands),
            first_leader=first,
            leader=first,
            trump=trump,
            obligation=self.side_of(first) if self.players == 4 else None,
            talon=talon,
            redeals=self.redeals,
            redeal_pending=pending,
        )
        self.phase = REDEAL if pending else PLAY
        return [Dealt(self.deal_no, first, self.redeals, tuple(pending))]

    def _first_leader(self, hands: list[list[Card]]) -> int:
        """Who leads the deal's first trick (the preset's first-lead rule)."""
        if self.rules.first_lead == "non_dealer":
            return (self.dealer + 1) % self.players
        card = self.rules.first_lead_card
        return next(s for s, hand in enumerate(hands) if card in hand)

    def _trump_of_deal(self, hands: list[list[Card]]) -> Suit | None:
        """This deal's trump suit (RULES.md §1.1 two players, §1.4 belka)."""
        rule = self.rules.trump_rule
        if rule == "seat_suits":
            holder = next(s for s, hand in enumerate(hands) if JACK_OF_CLUBS in hand)
            if self.seat_suits is None:
                self.seat_suits = [
                    SEAT_SUIT_ORDER[(seat - holder) % 4] for seat in range(self.players)
                ]
            return self.seat_suits[holder]
        if rule == "last_card" and self.last_card is not None:
            return self.last_card.suit
        return self.rules.trump_suit

    # -- actions -----------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and return what happened; raise ``GameError`` otherwise."""
        self.verify(seat, action)
        if type(action) is PlayCard:
            return self._play(seat, action.card)
        deal = self.current
        assert deal is not None
        if isinstance(action, AskRedeal):
            self.redeals += 1
            self.phase = DEALING
            return [RedealAsked(seat)]
        if isinstance(action, KeepHand):
            deal.redeal_pending.remove(seat)
            if not deal.redeal_pending:
                self.phase = PLAY
            return [HandKept(seat)]
        return self._play(seat, action.card)

    def _play(self, seat: int, card: Card) -> list[Event]:
        deal = self.current
        assert deal is not None
        deal.hands[seat].remove(card)
        deal.trick.append((seat, card))
        events: list[Event] = [CardPlayed(seat, card)]
        if len(deal.trick) < self._seats:
            return events
        cards = tuple(deal.trick)
        winner = trick_winner(cards, self.rules.strengths[deal.trump])
        points = sum(c.points for _, c in cards)
        side = winner % 2  # the side (RULES.md §0: pairs sit opposite; two players: the seat)
        deal.points[side] += points
        deal.tricks_won[side] += 1
        deal.tricks.append(Trick(cards[0][0], cards, winner, points))
        deal.trick = []
        deal.leader = winner
        events.append(TrickTaken(len(deal.tricks) - 1, cards[0][0], cards, winner, points))
        catch = self._catch_in(cards)
        if catch is not None and not self._lyusya_beats_catch(catch[0]):
            events.append(Caught(*catch))
            events.extend(self._score(Outcome.CATCH, self.side_of(catch[0])))
        elif not any(deal.hands):
            if deal.talon:
                self._refill()
            else:
                events.extend(self._score_cards())
        return events

    def _refill(self) -> None:
        """Two players: both hands are empty, so each is dealt again from the talon."""
        deal = self.current
        assert deal is not None
        size = self.rules.hand_size
        for offset in range(self.players):
            seat = (deal.leader + offset) % self.players
            deal.hands[seat] = deal.talon[:size]
            deal.talon = deal.talon[size:]
        deal.refills.append(Refill(len(deal.tricks), tuple(tuple(h) for h in deal.hands)))

    def _lyusya_beats_catch(self, catcher: int) -> bool:
        """RULES.md §1.1 **Decision**: a catch in the last trick by a side that took every
        trick is scored as Lyusya instead."""
        deal = self.current
        assert deal is not None
        side = self.side_of(catcher)
        return not any(deal.hands) and not deal.talon and deal.tricks_won[1 - side] == 0

    def trick_winner(self, cards: tuple[tuple[int, Card], ...] | list[tuple[int, Card]]) -> int:
        """The seat taking a trick under this deal's trump suit."""
        return trick_winner(cards, self.strength)

    def _catch_in(self, cards: tuple[tuple[int, Card], ...]) -> tuple[int, int] | None:
        """(catcher, caught) when the catch rule fires in this trick (RULES.md §1.1)."""
        if self.rules.catch is None:
            return None
        catcher_card, caught_card = self.rules.catch
        holders = {card: seat for seat, card in cards}
        catcher, caught = holders.get(catcher_card), holders.get(caught_card)
        if catcher is None or caught is None or self.side_of(catcher) == self.side_of(caught):
            return None
        return catcher, caught

    def _score_cards(self) -> list[Event]:
        deal = self.current
        assert deal is not None
        for side in (0, 1):
            if deal.tricks_won[1 - side] == 0:
                return self._score(Outcome.LYUSYA, side)
        if deal.points[0] == deal.points[1]:
            return self._score(Outcome.EGGS, None)
        return self._score(Outcome.NORMAL, 0 if deal.points[0] > deal.points[1] else 1)

    def _awards(self, side: int) -> tuple[tuple[int, int], ...]:
        """The award table of ``side``: belka's defenders have their own."""
        deal = self.current
        assert deal is not None
        defence = self.rules.defence_awards
        if defence is not None and deal.obligation is not None and side != deal.obligation:
            return defence
        return self.rules.awards

    def _eyes(self, side: int, points: int) -> int:
        return next((eyes for minimum, eyes in self._awards(side) if points >= minimum), 0)

    def _score(self, outcome: Outcome, side: int | None) -> list[Event]:
        """Turn a finished deal into eyes (RULES.md §1.1 deal scoring, eggs, catch, Lyusya).

        **Decision**: under Lyusya ``win`` the 12 eyes are multiplied like every other award
        of the deal (RULES.md: the multiplier "applies to every eye award of that deal"); the
        match ends either way.
        """
        deal = self.current
        assert deal is not None
        deal.outcome = outcome.value
        multiplier = self.multiplier
        award = [0, 0]
        zeroed: int | None = None
        ends_match = False
        if outcome == Outcome.EGGS:
            self.eggs += 1
        else:
            assert side is not None
            self.eggs = 0
            if outcome == Outcome.CATCH:
                award[side] = self.rules.catch_award * multiplier
            elif outcome == Outcome.LYUSYA and self.rules.lyusya == "win":
                award[side] = self.rules.lyusya_win_award * multiplier
                ends_match = True
            elif outcome == Outcome.LYUSYA:
                zeroed = 1 - side
                self.score[zeroed] = 0
                award[side] = self._awards(side)[0][1] * multiplier
            else:
                award[side] = self._eyes(side, deal.points[side]) * multiplier
        self.score = [self.score[0] + award[0], self.score[1] + award[1]]
        return self._scored(outcome, side, award, multiplier, zeroed, ends_match)

    def _scored(
        self,
        outcome: Outcome,
        side: int | None,
        award: list[int],
        multiplier: int,
        zeroed: int | None,
        ends_match: bool,
        **extra: Any,
    ) -> list[Event]:
        """Record a scored deal and move on to the next deal or the end of the match."""
        deal = self.current
        assert deal is not None
        result = DealScored(
            deal_no=deal.deal_no,
            outcome=outcome.value,
            points=(deal.points[0], deal.points[1]),
            tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
            award=(award[0], award[1]),
            multiplier=multiplier,
            score=(self.score[0], self.score[1]),
            side=side,
            zeroed=zeroed,
            details={"trump": None if deal.trump is None else deal.trump.value, **extra},
        )
        self.last_result = result
        if deal.tricks:
            self.last_card = deal.tricks[-1].cards[-1][1]
        self.deal_no += 1
        self.redeals = 0
        self.dealer = (self.dealer + 1) % self.players
        events: list[Event] = [result]
        if side is not None and (ends_match or self.score[side] >= self.rules.target):
            self.winner = side
            self.phase = OVER
            events.append(MatchOver(side, result.score))
        else:
            self.phase = DEALING
        return events

    # -- views -------------------------------------------------------------------------

    def view_for(self, seat: int | None) -> View:
        """What ``seat`` may see (its own hand, never another's); ``None`` = the group."""
        deal = self.current
        in_deal = deal is not None and self.phase in (REDEAL, PLAY)
        hand: tuple[Card, ...] = ()
        if deal is not None and seat is not None and self.phase is not DEALING:
            hand = tuple(deal.hands[seat])
        return View(
            seat=seat,
            phase=self.phase,
            deal_no=deal.deal_no if deal is not None and in_deal else self.deal_no,
            players=self.players,
            hand=hand,
            hand_sizes=tuple(len(h) for h in deal.hands) if deal is not None else (),
            talon=len(deal.talon) if deal is not None else 0,
            to_act=self.to_act(),
            legal=self.legal_cards(seat) if seat is not None else (),
            can_redeal=seat is not None and self.phase is REDEAL and seat in self.to_act(),
            trick=tuple(deal.trick) if deal is not None else (),
            last_trick=deal.tricks[-1] if deal is not None and deal.tricks else None,
            played=tuple(c for t in deal.tricks for _, c in t.cards) if deal is not None else (),
            first_leader=deal.first_leader if deal is not None else None,
            obligation=deal.obligation if deal is not None else None,
            trump_suit=deal.trump if deal is not None else self.rules.trump_suit,
            seat_suits=tuple(self.seat_suits) if self.seat_suits is not None else None,
            points=(deal.points[0], deal.points[1]) if deal is not None else (0, 0),
            tricks_won=(deal.tricks_won[0], deal.tricks_won[1]) if deal is not None else (0, 0),
            score=(self.score[0], self.score[1]),
            multiplier=self.multiplier,
            redeals=self.redeals,
            last_result=self.last_result,
            winner=self.winner,
            rules=self.rules,
            strength=self.strength,
        )

    # -- persistence -------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return _ADAPTER.dump_python(self, mode="json")  # type: ignore[no-any-return]

    @classmethod
    def load(cls, data: Any) -> MatchState:
        """Rebuild a state saved by ``dump`` (or by the engine before the game protocol)."""
        if "deal" in data:
            data = _upgrade(data)
        return _ADAPTER.validate_python(data)

    def deal_trace(self, result: DealScored, *, match: int, players: list[str]) -> dict[str, Any]:
        from kozelbot.follow.trace import deal_trace

        return deal_trace(self, result, match=match, players=players)


_ADAPTER: TypeAdapter[MatchState] = TypeAdapter(MatchState)


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A state saved before the game protocol (``deal`` instead of ``current``, no per-deal
    trump suit or obligation): hvalenyi, whose trump suit is fixed and whose first leader's
    pair is on obligation. Games running when the bot is upgraded resume from it."""
    data = dict(data)
    deal = data.pop("deal")
    if deal is not None:
        deal = dict(deal)
        rules = PRESETS[data["variant"]].build(PRESETS[data["variant"]].options_from(
            data["options"]))  # fmt: skip
        deal.setdefault("trump", None if rules.trump_suit is None else rules.trump_suit.value)
        deal.setdefault("obligation", deal["first_leader"] % 2)
    data["current"] = deal
    return data
