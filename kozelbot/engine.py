"""The follow-suit engine (RULES.md §1): one match as a state machine with explicit phases.

Shape borrowed from OpenSpiel and pokerkit: ``to_act()`` says who may act, ``legal_actions``
lists what they may do, ``apply`` checks legality in one place (``verify``), changes the state
and returns frozen events; dealing is a chance step (``deal(rng)`` or ``deal_hands(hands)``
for scripted deals). ``view_for(seat)`` is everything one seat may know. The whole state
round-trips through JSON (``to_dict`` / ``MatchState.from_dict``).

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
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from kozelbot.cards import Card, Suit, hand_points
from kozelbot.variants import Rules, preset


class Phase(StrEnum):
    """Where a match stands."""

    DEALING = "dealing"
    REDEAL = "redeal"
    PLAY = "play"
    OVER = "over"


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


@dataclass(frozen=True, slots=True)
class DealScored:
    """A deal was scored; ``award`` and ``score`` are eyes per side (seats 0+2, 1+3)."""

    deal_no: int
    outcome: Outcome
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    award: tuple[int, int]
    multiplier: int
    score: tuple[int, int]
    side: int | None
    """The side the deal went to (``None`` for eggs)."""
    zeroed: int | None = None
    """Lyusya ``zero``: the side whose eyes were wiped."""


@dataclass(frozen=True, slots=True)
class MatchOver:
    """A side reached the target (or took a Lyusya under ``win``)."""

    winner: int
    score: tuple[int, int]


Event = Dealt | RedealAsked | HandKept | CardPlayed | TrickTaken | Caught | DealScored | MatchOver


# --- errors ----------------------------------------------------------------------------


class GameError(Exception):
    """An action the rules refuse; nothing was changed. ``code`` names the reason."""

    code = "game_error"


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


@dataclass(slots=True)
class DealState:
    """One deal in progress (or just scored)."""

    deal_no: int
    hands: list[list[Card]]
    initial_hands: tuple[tuple[Card, ...], ...]
    first_leader: int
    leader: int
    redeals: int = 0
    redeal_pending: list[int] = field(default_factory=list)
    trick: list[tuple[int, Card]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or, with ``seat=None``, the public table) may know."""

    seat: int | None
    phase: Phase
    deal_no: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    to_act: tuple[int, ...]
    legal: tuple[Card, ...]
    """Cards this seat may play now (empty when it is not its turn)."""
    can_redeal: bool
    trick: tuple[tuple[int, Card], ...]
    last_trick: Trick | None
    played: tuple[Card, ...]
    """Cards of this deal's completed tricks, in order."""
    first_leader: int | None
    trump_suit: Suit | None
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    score: tuple[int, int]
    multiplier: int
    redeals: int
    last_result: DealScored | None
    winner: int | None
    rules: Rules


def shuffle_rng(seed: int, shuffle_no: int) -> random.Random:
    """The RNG of one shuffle of a match: its seed and the shuffle number reproduce it."""
    return random.Random(seed * 1_000_003 + shuffle_no)


def side_of(seat: int) -> int:
    """Partners sit opposite: side 0 is seats 0+2, side 1 is seats 1+3."""
    return seat % 2


class MatchState:
    """A whole match of a follow-suit preset: score, eggs, and the current deal."""

    def __init__(self, variant: str, options: dict[str, Any]) -> None:
        chosen = preset(variant).options_from(options)
        self.variant = variant
        self.options: dict[str, Any] = chosen.model_dump()
        self.rules: Rules = preset(variant).build(chosen)
        self.players = self.rules.players
        self.phase = Phase.DEALING
        self.score = [0, 0]
        self.eggs = 0
        """Eggs deals in a row just before the current one."""
        self.deal_no = 0
        self.shuffles = 0
        """Shuffles so far in the match (the bot derives each shuffle's RNG from it)."""
        self.redeals = 0
        """Redeals asked for in the current deal so far."""
        self.current: DealState | None = None
        self.last_result: DealScored | None = None
        self.winner: int | None = None

    # -- who acts, what is legal ---------------------------------------------------------

    @property
    def multiplier(self) -> int:
        """The eggs multiplier of the current deal: k eggs in a row → ×(k+1) (RULES.md §1.1)."""
        return self.eggs + 1

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now; empty while dealing (a chance step) and after the match."""
        deal = self.current
        if deal is None:
            return ()
        if self.phase is Phase.REDEAL:
            return tuple(deal.redeal_pending)
        if self.phase is Phase.PLAY:
            return ((deal.leader + len(deal.trick)) % self.players,)
        return ()

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` may play now (RULES.md §1 trick rules 2–3); empty if not its turn."""
        if self.phase is not Phase.PLAY or self.to_act() != (seat,):
            return ()
        assert self.current is not None
        hand = self.current.hands[seat]
        if not self.current.trick:
            return tuple(hand)
        suit_of = self.rules.suit_of
        led = suit_of[self.current.trick[0][1]]
        following = tuple(card for card in hand if suit_of[card] is led)
        return following or tuple(hand)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        if self.phase is Phase.REDEAL:
            return [AskRedeal(), KeepHand()] if seat in self.to_act() else []
        return [PlayCard(card) for card in self.legal_cards(seat)]

    def verify(self, seat: int, action: Action) -> None:
        """Raise the ``GameError`` that explains why ``action`` is illegal; pass if legal."""
        if isinstance(action, AskRedeal | KeepHand):
            if self.phase is not Phase.REDEAL:
                raise RedealNotAllowed("no redeal now")
            if seat not in self.to_act():
                raise RedealNotAllowed("this hand may not ask for a redeal")
            return
        if self.phase is not Phase.PLAY:
            raise WrongPhase(self.phase)
        to_act = self.to_act()
        if to_act != (seat,):
            raise NotYourTurn(to_act)
        assert self.current is not None
        if action.card not in self.current.hands[seat]:
            raise CardNotInHand(action.card)
        legal = self.legal_cards(seat)
        if action.card not in legal:
            led = self.rules.effective_suit(self.current.trick[0][1])
            raise MustFollow(action.card, led, legal)

    def can_apply(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is legal for ``seat`` now."""
        try:
            self.verify(seat, action)
        except GameError:
            return False
        return True

    # -- chance step -------------------------------------------------------------------

    def deal(self, rng: random.Random) -> list[Event]:
        """Shuffle with ``rng`` and deal every card (the chance step)."""
        cards = list(self.rules.cards)
        rng.shuffle(cards)
        size = len(cards) // self.players
        return self.deal_hands([cards[i * size : (i + 1) * size] for i in range(self.players)])

    def deal_hands(self, hands: list[list[Card]]) -> list[Event]:
        """Deal these exact hands (scripted deals in tests; ``deal`` calls it too)."""
        if self.phase is not Phase.DEALING:
            raise WrongPhase(self.phase)
        dealt = [card for hand in hands for card in hand]
        if len(dealt) != len(self.rules.cards) or set(dealt) != set(self.rules.cards):
            raise ValueError("the hands must hold exactly the deck")
        self.shuffles += 1
        first = next(s for s, hand in enumerate(hands) if self.rules.first_lead_card in hand)
        order = [(first + i) % self.players for i in range(self.players)]
        limit = self.rules.redeal_below
        pending = [s for s in order if limit is not None and hand_points(hands[s]) < limit]
        self.current = DealState(
            deal_no=self.deal_no,
            hands=[list(hand) for hand in hands],
            initial_hands=tuple(tuple(hand) for hand in hands),
            first_leader=first,
            leader=first,
            redeals=self.redeals,
            redeal_pending=pending,
        )
        self.phase = Phase.REDEAL if pending else Phase.PLAY
        return [Dealt(self.deal_no, first, self.redeals, tuple(pending))]

    # -- actions -----------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and return what happened; raise ``GameError`` otherwise."""
        self.verify(seat, action)
        deal = self.current
        assert deal is not None
        if isinstance(action, AskRedeal):
            self.redeals += 1
            self.phase = Phase.DEALING
            return [RedealAsked(seat)]
        if isinstance(action, KeepHand):
            deal.redeal_pending.remove(seat)
            if not deal.redeal_pending:
                self.phase = Phase.PLAY
            return [HandKept(seat)]
        return self._play(seat, action.card)

    def _play(self, seat: int, card: Card) -> list[Event]:
        deal = self.current
        assert deal is not None
        deal.hands[seat].remove(card)
        deal.trick.append((seat, card))
        events: list[Event] = [CardPlayed(seat, card)]
        if len(deal.trick) < self.players:
            return events
        cards = tuple(deal.trick)
        winner = self.trick_winner(cards)
        points = sum(c.points for _, c in cards)
        deal.points[side_of(winner)] += points
        deal.tricks_won[side_of(winner)] += 1
        deal.tricks.append(Trick(cards[0][0], cards, winner, points))
        deal.trick = []
        deal.leader = winner
        events.append(TrickTaken(len(deal.tricks) - 1, cards[0][0], cards, winner, points))
        catch = self._catch_in(cards)
        if catch is not None:
            events.append(Caught(*catch))
            events.extend(self._score(Outcome.CATCH, side_of(catch[0])))
        elif not any(deal.hands):
            events.extend(self._score_cards())
        return events

    def trick_winner(self, cards: tuple[tuple[int, Card], ...] | list[tuple[int, Card]]) -> int:
        """The seat taking a trick: highest trump, else highest card of the led suit."""
        strength, suit_of = self.rules.strength, self.rules.suit_of
        led = suit_of[cards[0][1]]
        best_seat, best_card = cards[0]
        for seat, card in cards[1:]:
            suit = suit_of[card]
            if suit is not led and suit is not None:
                continue  # a discard never wins
            if strength[card] > strength[best_card]:
                best_seat, best_card = seat, card
        return best_seat

    def _catch_in(self, cards: tuple[tuple[int, Card], ...]) -> tuple[int, int] | None:
        """(catcher, caught) when the catch rule fires in this trick (RULES.md §1.1)."""
        if self.rules.catch is None:
            return None
        catcher_card, caught_card = self.rules.catch
        holders = {card: seat for seat, card in cards}
        catcher, caught = holders.get(catcher_card), holders.get(caught_card)
        if catcher is None or caught is None or side_of(catcher) == side_of(caught):
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

    def _eyes(self, points: int) -> int:
        return next((eyes for minimum, eyes in self.rules.awards if points >= minimum), 0)

    def _score(self, outcome: Outcome, side: int | None) -> list[Event]:
        """Turn a finished deal into eyes (RULES.md §1.1 deal scoring, eggs, catch, Lyusya).

        **Decision**: under Lyusya ``win`` the 12 eyes are multiplied like every other award
        of the deal (RULES.md: the multiplier "applies to every eye award of that deal"); the
        match ends either way.
        """
        deal = self.current
        assert deal is not None
        deal.outcome = outcome
        multiplier = self.multiplier
        award = [0, 0]
        zeroed: int | None = None
        ends_match = False
        if outcome is Outcome.EGGS:
            self.eggs += 1
        else:
            assert side is not None
            self.eggs = 0
            if outcome is Outcome.CATCH:
                award[side] = self.rules.catch_award * multiplier
            elif outcome is Outcome.LYUSYA and self.rules.lyusya == "win":
                award[side] = self.rules.lyusya_win_award * multiplier
                ends_match = True
            elif outcome is Outcome.LYUSYA:
                zeroed = 1 - side
                self.score[zeroed] = 0
                award[side] = self.rules.awards[0][1] * multiplier
            else:
                award[side] = self._eyes(deal.points[side]) * multiplier
        self.score = [self.score[0] + award[0], self.score[1] + award[1]]
        result = DealScored(
            deal_no=deal.deal_no,
            outcome=outcome,
            points=(deal.points[0], deal.points[1]),
            tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
            award=(award[0], award[1]),
            multiplier=multiplier,
            score=(self.score[0], self.score[1]),
            side=side,
            zeroed=zeroed,
        )
        self.last_result = result
        self.deal_no += 1
        self.redeals = 0
        events: list[Event] = [result]
        if side is not None and (ends_match or self.score[side] >= self.rules.target):
            self.winner = side
            self.phase = Phase.OVER
            events.append(MatchOver(side, result.score))
        else:
            self.phase = Phase.DEALING
        return events

    # -- views -------------------------------------------------------------------------

    def view_for(self, seat: int | None) -> View:
        """What ``seat`` may see (its own hand, never another's); ``None`` = the group."""
        deal = self.current
        in_deal = deal is not None and self.phase in (Phase.REDEAL, Phase.PLAY)
        hand: tuple[Card, ...] = ()
        if deal is not None and seat is not None and self.phase is not Phase.DEALING:
            hand = tuple(deal.hands[seat])
        return View(
            seat=seat,
            phase=self.phase,
            deal_no=deal.deal_no if deal is not None and in_deal else self.deal_no,
            hand=hand,
            hand_sizes=tuple(len(h) for h in deal.hands) if deal is not None else (),
            to_act=self.to_act(),
            legal=self.legal_cards(seat) if seat is not None else (),
            can_redeal=seat is not None and self.phase is Phase.REDEAL and seat in self.to_act(),
            trick=tuple(deal.trick) if deal is not None else (),
            last_trick=deal.tricks[-1] if deal is not None and deal.tricks else None,
            played=tuple(c for t in deal.tricks for _, c in t.cards) if deal is not None else (),
            first_leader=deal.first_leader if deal is not None else None,
            trump_suit=self.rules.trump_suit,
            points=(deal.points[0], deal.points[1]) if deal is not None else (0, 0),
            tricks_won=(deal.tricks_won[0], deal.tricks_won[1]) if deal is not None else (0, 0),
            score=(self.score[0], self.score[1]),
            multiplier=self.multiplier,
            redeals=self.redeals,
            last_result=self.last_result,
            winner=self.winner,
            rules=self.rules,
        )

    # -- persistence -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        deal = self.current
        return {
            "variant": self.variant,
            "options": self.options,
            "phase": self.phase.value,
            "score": list(self.score),
            "eggs": self.eggs,
            "deal_no": self.deal_no,
            "shuffles": self.shuffles,
            "redeals": self.redeals,
            "winner": self.winner,
            "last_result": _result_to_dict(self.last_result),
            "deal": None if deal is None else {
                "deal_no": deal.deal_no,
                "hands": [_cards(h) for h in deal.hands],
                "initial_hands": [_cards(h) for h in deal.initial_hands],
                "first_leader": deal.first_leader,
                "leader": deal.leader,
                "redeals": deal.redeals,
                "redeal_pending": list(deal.redeal_pending),
                "trick": [[s, str(c)] for s, c in deal.trick],
                "tricks": [
                    {"leader": tr.leader, "cards": [[s, str(c)] for s, c in tr.cards],
                     "winner": tr.winner, "points": tr.points}
                    for tr in deal.tricks
                ],
                "points": list(deal.points),
                "tricks_won": list(deal.tricks_won),
                "outcome": None if deal.outcome is None else deal.outcome.value,
            },
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchState:
        """Rebuild a state saved by ``to_dict``."""
        state = cls(data["variant"], data["options"])
        state.phase = Phase(data["phase"])
        state.score = list(data["score"])
        state.eggs = data["eggs"]
        state.deal_no = data["deal_no"]
        state.shuffles = data["shuffles"]
        state.redeals = data["redeals"]
        state.winner = data["winner"]
        state.last_result = _result_from_dict(data["last_result"])
        raw = data["deal"]
        if raw is not None:
            state.current = DealState(
                deal_no=raw["deal_no"],
                hands=[_parse(h) for h in raw["hands"]],
                initial_hands=tuple(tuple(_parse(h)) for h in raw["initial_hands"]),
                first_leader=raw["first_leader"],
                leader=raw["leader"],
                redeals=raw["redeals"],
                redeal_pending=list(raw["redeal_pending"]),
                trick=[(s, Card.parse(c)) for s, c in raw["trick"]],
                tricks=[
                    Trick(tr["leader"], tuple((s, Card.parse(c)) for s, c in tr["cards"]),
                          tr["winner"], tr["points"])
                    for tr in raw["tricks"]
                ],
                points=list(raw["points"]),
                tricks_won=list(raw["tricks_won"]),
                outcome=None if raw["outcome"] is None else Outcome(raw["outcome"]),
            )  # fmt: skip
        return state


def _cards(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _parse(cards: list[str]) -> list[Card]:
    return [Card.parse(c) for c in cards]


def _result_to_dict(result: DealScored | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "deal_no": result.deal_no,
        "outcome": result.outcome.value,
        "points": list(result.points),
        "tricks_won": list(result.tricks_won),
        "award": list(result.award),
        "multiplier": result.multiplier,
        "score": list(result.score),
        "side": result.side,
        "zeroed": result.zeroed,
    }


def _result_from_dict(data: dict[str, Any] | None) -> DealScored | None:
    if data is None:
        return None
    return DealScored(
        deal_no=data["deal_no"],
        outcome=Outcome(data["outcome"]),
        points=(data["points"][0], data["points"][1]),
        tricks_won=(data["tricks_won"][0], data["tricks_won"][1]),
        award=(data["award"][0], data["award"][1]),
        multiplier=data["multiplier"],
        score=(data["score"][0], data["score"][1]),
        side=data["side"],
        zeroed=data["zeroed"],
    )
