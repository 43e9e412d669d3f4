"""The follow-suit engine (RULES.md §1): one match as a state machine with explicit phases.

Shape borrowed from OpenSpiel and pokerkit: ``to_act()`` says who may act, ``legal_actions``
lists what they may do, ``apply`` checks legality in one place (``verify``), changes the state
and returns frozen events; dealing is a chance step (``chance(shuffle)`` / ``deal(rng)``, or
``deal_hands`` / ``deal_stock`` for scripted deals; ``deal_from_seed`` deals a fair-play seed
text again). ``view_for(seat)`` is everything one seat may know. The whole state round-trips
through JSON (``dump`` / ``MatchState.load``, one ``TypeAdapter``).

The steps of a deal, each switched on by the preset's ``Rules`` (no subclass per variant):

``dealing`` (the chance step) → ``call`` (sixes: the first leader calls plain or an opening)
→ ``blind`` (kryuk's hvalyonka: the praised player and then each other player are dealt pairs
until a plain card arrives and play one card face down; sixes' called openings draw and play
by themselves) → ``redeal`` (a weak hand asks for, or in sixes demands, a new deal) →
``handoff`` (a hand with its last trumps passes them to the partner, who returns as many) →
``play`` (tricks) → back to ``dealing`` after the deal is scored, or ``over``.

**Decision** (the redeal phase, RULES.md §1.1 "before the first card"): every eligible seat
answers "redeal" or "keep" at the same time; the first "redeal" reshuffles at once, and play
starts when every eligible seat has kept. So nobody loses the right because someone else moved
first, and a deal with no weak hand starts straight away.

**Decision** (hand-offs, RULES.md §1.2/§1.3): eligible seats are asked one at a time, each
once, in play order from the first leader; a pair exchanges at most once per deal; in a deal
with an opening trick the hand-off comes when the hands are complete, after that trick (the
rules place it "before the first lead", and the blind lead is made before the hands exist).
Kryuk: the seat passes its one trump with points (``GiveTrump``) or keeps its hand; the
partner returns a card. Sixes (``offered``): the seat holding one or two trumps may announce
the hand-off aloud (``OfferHandoff``, «отдаю последнего козыря!») or keep; the partner answers
aloud (``AnswerOffer``: «давай» / «не надо»); if agreed, the seat passes one or both of its
trumps face down (any trumps: the points rule is kryuk's) and the partner returns as many
cards, one per press. A declined offer does not stop the partner offering in their own turn.

Hidden steps (``hidden_turn``): the redeal offers, kryuk's whole hand-off (the decision and
the return) and sixes' decision whether to offer. Who is asked there depends on cards nobody
else may see, so every view but the asked seat's shows the step as ``waiting`` and names
nobody (the kryuk partner learns of a hand-off only when the trump reaches them), the hand
sizes do not move, and every card pressed, and every press of a seat not asked, is refused
with the same ``Waiting``. What timing still shows: a person deciding takes seconds, so the
group can see that the deal waits at its start (or, after an opening trick, before play goes
on) — never who waits or why (computers decide at once, so at a table of one person and three
computers a wait points at that person). Sixes' announced offer, the answer and the passing of
the cards are public (the group sees how many cards passed, never which).

**Decision** (RULES.md §1.2 "the holder of A♦", and §1.3's lowest trump alike): when the first
leader of a deal is the holder of a card (the match's first deal of kryuk and sixes), it is
whoever holds that card when play begins, after any hand-off; the deal's ``first_leader``, its
``leader`` and the side on obligation follow, and so do the lead right's rotation and the
trump-lead rule, which read them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from pydantic import TypeAdapter

from kozelbot.cards import Card, Rank, Suit, hand_points
from kozelbot.fairplay import SeedError, parse_seed
from kozelbot.follow.opening import HAND, draw
from kozelbot.follow.presets import PRESETS
from kozelbot.follow.rules import Rules, Strength
from kozelbot.game import DealScored, GameError, MatchOver, Shuffle
from kozelbot.game import shuffle_rng as shuffle_rng


class Phase(StrEnum):
    """Where a match stands."""

    DEALING = "dealing"
    CALL = "call"
    BLIND = "blind"
    REDEAL = "redeal"
    HANDOFF = "handoff"
    PLAY = "play"
    OVER = "over"
    WAITING = "waiting"
    """Views only: the deal waits for a hidden step (a redeal offer, a hidden hand-off) this
    seat is not asked in. The state itself is never in it."""


DEALING, REDEAL, PLAY, OVER = Phase.DEALING, Phase.REDEAL, Phase.PLAY, Phase.OVER
CALL, BLIND, HANDOFF, WAITING = Phase.CALL, Phase.BLIND, Phase.HANDOFF, Phase.WAITING
IN_DEAL = frozenset({CALL, BLIND, REDEAL, HANDOFF, PLAY, WAITING})
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
    ALL_TRICKS = "allTricks"
    """Kryuk: one pair took all eight tricks (the other pair's score is reset, or lost)."""
    REFUSED_REDEAL = "refusedRedeal"
    """Sixes: a third demand in a row is refused; the dealing pair loses a pair."""
    ROYAL = "royal"
    """Sixes option: a hand dealt all four aces wins the match."""


OPENINGS = ("plain", "shtany", "double_shtany", "mirror")
"""What the first leader of a sixes deal may call (RULES.md §1.3)."""


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
    """Decline the redeal one may ask for, or the hand-off one may make (or offer)."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class OfferHandoff:
    """Sixes: announce the hand-off aloud («отдаю последнего козыря!», «отхожусь»)."""

    def __str__(self) -> str:
        return "offer"


@dataclass(frozen=True, slots=True)
class AnswerOffer:
    """Sixes: the partner's answer to an offered hand-off, «давай» (``agree``) or «не надо»
    (``decline``)."""

    agree: bool

    def __str__(self) -> str:
        return "agree" if self.agree else "decline"


@dataclass(frozen=True, slots=True)
class GiveTrump:
    """Pass trumps to the partner face down (отход от последнего): kryuk its one trump,
    sixes one or both of its trumps. Notation ``give:QS`` or ``give:QS_JD``."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "give:" + "_".join(map(str, self.cards))


@dataclass(frozen=True, slots=True)
class ReturnCard:
    """The partner's card in return for a handed-off trump."""

    card: Card

    def __str__(self) -> str:
        return f"return:{self.card}"


@dataclass(frozen=True, slots=True)
class CallOpening:
    """Sixes: the first leader calls a plain deal or an opening (RULES.md §1.3)."""

    kind: str

    def __str__(self) -> str:
        return f"call:{self.kind}"


Action = (
    PlayCard | AskRedeal | KeepHand | OfferHandoff | AnswerOffer | GiveTrump | ReturnCard
    | CallOpening
)  # fmt: skip
WORDS: dict[str, Action] = {
    "redeal": AskRedeal(), "keep": KeepHand(), "offer": OfferHandoff(),
    "agree": AnswerOffer(True), "decline": AnswerOffer(False),
}  # fmt: skip
"""The actions written as one word."""


def parse_action(text: str) -> Action:
    """Read an action back from its ``str`` (the move log's notation)."""
    if text in WORDS:
        return WORDS[text]
    verb, _, arg = text.partition(":")
    if verb == "call" and arg in OPENINGS:
        return CallOpening(arg)
    if verb == "give" and arg:
        return GiveTrump(tuple(Card.parse(part) for part in arg.split("_")))
    if verb == "play" and arg:
        return PlayCard(Card.parse(arg))
    if verb == "return" and arg:
        return ReturnCard(Card.parse(arg))
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
class HandoffOffered:
    """Sixes: ``seat`` announced a hand-off to ``partner`` (public)."""

    seat: int
    partner: int


@dataclass(frozen=True, slots=True)
class OfferAnswered:
    """Sixes: ``seat`` answered the offer of ``partner`` (public)."""

    seat: int
    partner: int
    agree: bool


@dataclass(frozen=True, slots=True)
class HandedOff:
    """Trumps went to the partner face down (the pair alone may know which)."""

    seat: int
    partner: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Returned:
    """The partner returned a card for the trumps handed off."""

    seat: int
    partner: int
    card: Card


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A hand-off is complete: ``count`` cards went each way between ``giver`` and ``to``."""

    giver: int
    to: int
    count: int


@dataclass(frozen=True, slots=True)
class OpeningCalled:
    """Sixes: the first leader called ``kind``; ``plays`` are the opening trick's cards."""

    seat: int
    kind: str


Event = (
    Dealt | RedealAsked | HandKept | CardPlayed | TrickTaken | Caught | HandoffOffered
    | OfferAnswered | HandedOff | Returned | Exchanged | OpeningCalled | DealScored | MatchOver
)  # fmt: skip


# --- errors ----------------------------------------------------------------------------


class WrongPhase(GameError):
    """The action does not fit the current phase (e.g. a card during the redeal)."""

    code = "wrong_phase"

    def __init__(self, phase: Phase) -> None:
        super().__init__(f"not possible in phase {phase}")
        self.phase = phase


class Waiting(WrongPhase):
    """A press during a hidden step (``MatchState.hidden_turn``) by a seat that is not asked:
    refused in the same words whatever the step is, whoever is asked and why (RULES.md §1.2
    "Opponents are not told"). ``started``: a trick was already played in this deal."""

    code = "waiting"

    def __init__(self, started: bool) -> None:
        super().__init__(WAITING)
        self.started = started


class NotYourTurn(GameError):
    """Another seat is to act; ``step`` is the phase it acts in (a card in ``play``, an
    answer or a card passed in a public hand-off, the call)."""

    code = "not_your_turn"

    def __init__(self, to_act: tuple[int, ...], step: Phase = Phase.PLAY) -> None:
        super().__init__(f"not your turn; to act: {to_act}")
        self.to_act = to_act
        self.step = step


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


class NotAllowed(GameError):
    """A hand-off, return, call or opening card the rules do not allow now; ``legal`` lists
    the cards that would be (empty for a call)."""

    code = "not_allowed"

    def __init__(self, what: str, legal: tuple[Card, ...] = ()) -> None:
        super().__init__(what)
        self.what = what
        self.legal = legal


class TrumpLeadBanned(GameError):
    """Kryuk's козырять rule: this pair may not lead a trump now (RULES.md §1.2)."""

    code = "trump_lead_banned"

    def __init__(self, legal: tuple[Card, ...]) -> None:
        super().__init__("no trump lead for this pair now")
        self.legal = legal


# --- state -----------------------------------------------------------------------------


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
    """A last-trump hand-off (отход): ``cards`` (trumps, face down) from ``giver`` to ``to``,
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
    """The step now awaited is hidden (``MatchState.hidden_turn``): shown alike to all."""
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
    (``MatchState.trump_lead_sides``); ``None`` where any pair may."""

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def partner(self) -> int | None:
        """The seat opposite, in pair games."""
        if self.seat is None or self.players != 4:
            return None
        return (self.seat + 2) % 4


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


def hvalyonka_hands(rules: Rules, cards: list[Card], first: int) -> list[list[Card]]:
    """The eight cards each seat will receive in a hvalyonka dealt from ``cards``: the pairs
    drawn from the praised seat ``first`` on until a plain card, then the top-up. The stock
    alone decides them, not which card anyone plays face down, so the dealing constraints
    can be checked."""
    stock = list(cards)
    table = rules.strengths[rules.trump_suit]
    order = [(first + i) % rules.players for i in range(rules.players)]
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    for seat in order:
        hands[seat] = draw(stock, "pairs", table.is_trump)
    for seat in order:
        need = HAND - len(hands[seat])
        hands[seat].extend(stock[:need])
        stock = stock[need:]
    return hands


def acceptable(rules: Rules, hands: list[list[Card]]) -> bool:
    """Kryuk's dealing constraints (RULES.md §1.2): no hand holds four queens without the
    hook (7♣), nor five plain cards of a suit."""
    table = rules.strengths[rules.trump_suit]
    hook = rules.catch[0] if rules.catch else None
    for hand in hands:
        if sum(1 for c in hand if c.rank is Rank.QUEEN) == 4 and hook not in hand:
            return False
        for suit in Suit:
            plain = sum(1 for c in hand if c.suit is suit and not table.is_trump(c))
            if plain > 4:
                return False
    return True


def shuffle_deck(
    rules: Rules, opening: str, first: int, rng: random.Random
) -> tuple[list[Card], list[list[Card]]]:
    """Shuffle the deck with ``rng``: the deck top first, and the hands it deals (plain: the
    deck cut into hands, the rest the talon; ``hvalyonka``: drawn from ``first`` on; for a
    ``call`` the stock alone counts), re-shuffled until the preset's dealing constraints
    hold. The engine's chance step and ``deal_from_seed`` both deal with it."""
    cards = list(rules.cards)
    rng.shuffle(cards)
    size = rules.hand_size
    hands: list[list[Card]] = []
    for _ in range(1000):
        if opening == "hvalyonka":
            hands = hvalyonka_hands(rules, cards, first)
        else:
            hands = [cards[i * size : (i + 1) * size] for i in range(rules.players)]
        if not rules.deal_constraints or acceptable(rules, hands):
            break
        rng.shuffle(cards)
    return cards, hands


OPENINGS_DEALT = ("plain", "hvalyonka", "call")
"""What a deal's seed text says it starts with (``open=``)."""
OPENING_RULE = {"hvalyonka": "hvalyonka", "call": "called"}
"""The preset's opening rule (``Rules.opening``) under which a deal starts so."""


def deal_from_seed(seed: str) -> list[tuple[str, list[Card]]]:
    """The cards a follow-suit seed text deals (``Family.deal_from_seed``): the hands by
    seat and the talon (two players), or the stock, top first, for a called opening (whose
    hands depend on the call). ``ValueError`` if the text is not a follow-suit seed."""
    fields = parse_seed(seed)
    chosen = PRESETS.get(fields.variant)
    if chosen is None:
        raise SeedError(f"unknown variant {fields.variant!r}")
    deck = fields.number("deck", range(32, 37, 4))
    players = fields.number("players", range(2, 5, 2))
    opening = fields.context.get("open", "")
    if opening not in OPENINGS_DEALT:
        raise SeedError(f"the seed's open= must be one of {', '.join(OPENINGS_DEALT)}")
    first = fields.number("first", range(players)) if opening == "hvalyonka" else 0
    words = {"deck": deck, "players": players}
    rules: Rules = chosen.rules(
        {key: value for key, value in words.items() if key in chosen.options_model.model_fields}
    )
    if (rules.deck, rules.players) != (deck, players):
        raise SeedError(f"{fields.variant} is not played with deck={deck}, players={players}")
    if opening != "plain" and rules.opening != OPENING_RULE[opening]:
        raise SeedError(f"{fields.variant} has no {opening} deal")
    cards, hands = shuffle_deck(rules, opening, first, random.Random(seed))
    if opening == "call":
        return [("stock", cards)]
    piles = [(f"seat {seat}", hand) for seat, hand in enumerate(hands)]
    talon = cards[rules.hand_size * players :] if opening == "plain" else []
    return [*piles, ("talon", talon)] if talon else piles


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
    carry: int = 0
    """Kryuk/sixes: eggs points or pairs waiting for the winner of the next scored deal."""
    had_eggs: bool = False
    """Sixes: an eggs deal happened in this match (the losers' title says so)."""
    deal_no: int = 0
    """The number of the deal being played, or of the next one while dealing."""
    shuffles: int = 0
    """Shuffles so far in the match (the bot derives each shuffle's RNG from it)."""
    seeds: list[str] = field(default_factory=list)
    """Fair play: the seed texts of this deal's shuffles (``GameState.seeds``)."""
    redeals: int = 0
    """Redeals asked for (or demanded) in the current deal so far."""
    redeal_requests: list[RedealRequest] = field(default_factory=list)
    """Each redeal asked for (or demanded) in the deal shown, in order (for its trace)."""
    current: DealState | None = None
    last_result: DealScored | None = None
    winner: int | None = None
    seat_suits: list[Suit] | None = None
    """Belka: the suit each seat owns for the match (assigned in the first deal)."""
    dealer: int = 0
    """Two players: who deals (the other leads first); it alternates every deal."""
    last_card: Card | None = None
    """Two players: the last card played in the previous deal (it names the trump suit)."""
    lead_right: int | None = None
    """Kryuk/sixes: who leads the next deal (``None`` before the first)."""

    def __post_init__(self) -> None:
        self.options = PRESETS[self.variant].options_from(self.options).model_dump()
        self._seats = self.rules.players

    @cached_property
    def rules(self) -> Rules:
        rules: Rules = PRESETS[self.variant].rules(self.options)
        return rules

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

    @property
    def hidden_turn(self) -> bool:
        """Whether the step now awaited is secret: the redeal offers, kryuk's hand-off (the
        decision and the return), sixes' decision whether to offer one. Every view but the
        asked seat's shows it as ``waiting``; presses of other seats get ``Waiting``."""
        phase = self.phase
        if phase is REDEAL:
            return True
        if phase is not HANDOFF:
            return False
        deal = self.current
        assert deal is not None
        return self.rules.handoff == "hidden" or deal.active_handoff is None

    def _started(self) -> bool:
        """Whether a trick of the current deal was played (an opening's)."""
        deal = self.current
        return deal is not None and bool(deal.tricks)

    def accepts(self, deal_no: int) -> bool:
        return (
            self.phase in IN_DEAL and self.current is not None and self.current.deal_no == deal_no
        )

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def multiplier(self) -> int:
        """The eggs multiplier of the current deal: k eggs in a row → ×(k+1) (RULES.md §1.1)."""
        return self.eggs + 1 if self.rules.eggs == "multiply" else 1

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
        phase = self.phase
        if deal is None:
            return ()
        if phase is PLAY or phase is BLIND:
            return ((deal.leader + len(deal.trick)) % self._seats,)
        if phase is REDEAL:
            return tuple(deal.redeal_pending)
        if phase is HANDOFF:
            active = deal.active_handoff
            if active is None:
                return (deal.handoff_pending[0],)
            return (active.giver,) if active.step == "give" else (active.to,)
        if phase is CALL:
            return (deal.first_leader,)
        return ()

    def legal_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` may play now (RULES.md §1 trick rules 2–3); empty if not its turn."""
        deal = self.current
        if deal is None or (self.phase is not PLAY and self.phase is not BLIND):
            return ()
        if (deal.leader + len(deal.trick)) % self._seats != seat:
            return ()
        hand = deal.hands[seat]
        if self.phase is BLIND:
            return self._blind_cards(seat, hand)
        if not deal.trick:
            return self._leads(seat, hand)
        suit_of = self.rules.strengths[deal.trump].suit_of
        led = suit_of[deal.trick[0][1]]
        following = tuple(card for card in hand if suit_of[card] is led)
        if following:
            return following
        if self.rules.ace_discard_ban:
            return self._without_banned_aces(hand, suit_of)
        return tuple(hand)

    def _blind_cards(self, seat: int, hand: list[Card]) -> tuple[Card, ...]:
        """Kryuk's hvalyonka: the praised player leads a plain card face down; the others
        play any card face down (RULES.md §1.2)."""
        deal = self.current
        assert deal is not None
        if seat != deal.first_leader:
            return tuple(hand)
        table = self.strength
        return tuple(c for c in hand if not table.is_trump(c)) or tuple(hand)

    def _leads(self, seat: int, hand: list[Card]) -> tuple[Card, ...]:
        """What ``seat`` may lead: anything, unless the preset restricts leads (kryuk's A♦
        opening of the match and its trump-lead rule, RULES.md §1.2)."""
        rules = self.rules
        if not rules.lead_ban and not rules.lead_card_forced:
            return tuple(hand)
        deal = self.current
        assert deal is not None
        forced = rules.first_lead_card
        if rules.lead_card_forced and self.deal_no == 0 and not deal.tricks and forced in hand:
            return (forced,) if forced is not None else tuple(hand)
        if not rules.lead_ban:
            return tuple(hand)
        table = self.strength
        plain = tuple(c for c in hand if not table.is_trump(c))
        if not plain or self._may_lead_trump(seat):
            return tuple(hand)
        return plain

    def _may_lead_trump(self, seat: int) -> bool:
        """Kryuk: whether ``seat``'s pair may lead a trump while holding a plain card."""
        return self.side_of(seat) in (self.trump_lead_sides() or ())

    def trump_lead_sides(self) -> tuple[int, ...] | None:
        """Kryuk's козырять right in the current deal (RULES.md §1.2): the sides that may lead
        a trump while holding a plain card — the pair that made the first lead, nobody in
        the match's first deal, both pairs at 10:10 (козлячий бой); ``None`` where the preset
        restricts no trump lead."""
        deal = self.current
        if not self.rules.lead_ban or deal is None:
            return None
        if deal.deal_no == 0:
            return ()
        fight = self.rules.fight_score
        if fight is not None and self.score == [fight, fight]:
            return (0, 1)
        return (self.side_of(deal.first_leader),)

    def _without_banned_aces(
        self, hand: list[Card], suit_of: Mapping[Card, Suit | None]
    ) -> tuple[Card, ...]:
        """RULES.md §1.3/§1.4 ace-discard ban: with no card of the led suit, a plain ace of a
        suit not yet led in this deal may not be discarded (unless nothing else is left)."""
        deal = self.current
        assert deal is not None
        led = {suit_of[t.cards[0][1]] for t in deal.tricks}
        led.add(suit_of[deal.trick[0][1]])
        allowed = tuple(
            c for c in hand if not (c.rank is Rank.ACE and suit_of[c] is not None
                                    and suit_of[c] not in led)
        )  # fmt: skip
        return allowed or tuple(hand)

    def handoff_cards(self, seat: int) -> tuple[Card, ...]:
        """Trumps ``seat`` may hand off in this step: kryuk's deciding seat its one trump with
        points; sixes' deciding seat (before the offer) and the giver (once agreed) its one or
        two trumps. Empty for everyone else."""
        deal = self.current
        if self.phase is not HANDOFF or deal is None:
            return ()
        active = deal.active_handoff
        if active is None:
            if deal.handoff_pending[0] != seat:
                return ()
        elif active.step != "give" or active.giver != seat:
            return ()
        return self._handoff_candidates(deal.hands[seat])

    def _handoff_candidates(self, hand: list[Card]) -> tuple[Card, ...]:
        """The trumps a hand may pass: it holds as many trumps as the preset allows (kryuk
        one; sixes one or two), and in kryuk the trump must have points."""
        table = self.strength
        trumps = [c for c in hand if table.is_trump(c)]
        if len(trumps) not in self.rules.handoff_trumps:
            return ()
        if self.rules.handoff_points:
            return tuple(c for c in trumps if c.points > 0)
        return tuple(trumps)

    def _gives(self, seat: int) -> list[GiveTrump]:
        """The hand-offs ``seat`` may make now: kryuk one trump, sixes one or both."""
        candidates = self.handoff_cards(seat)
        if self.rules.handoff == "hidden":
            return [GiveTrump((card,)) for card in candidates]
        gives = [GiveTrump((card,)) for card in candidates]
        if len(candidates) > 1:
            gives.append(GiveTrump(candidates))
        return gives

    def return_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards the partner may return: a plain card, a trump only if nothing else (the
        trumps just received stay)."""
        deal = self.current
        if self.phase is not HANDOFF or deal is None or deal.returning != seat:
            return ()
        active = deal.active_handoff
        assert active is not None
        hand = [c for c in deal.hands[seat] if c not in active.cards]
        table = self.strength
        return tuple(c for c in hand if not table.is_trump(c)) or tuple(hand)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        phase = self.phase
        if phase is PLAY or phase is BLIND:
            return [PlayCard(card) for card in self.legal_cards(seat)]
        if seat not in self.to_act():
            return []
        if phase is REDEAL:
            return [AskRedeal(), KeepHand()]
        if phase is HANDOFF:
            return self._handoff_actions(seat)
        if phase is CALL:
            return [CallOpening(kind) for kind in OPENINGS]
        return []

    def _handoff_actions(self, seat: int) -> list[Action]:
        deal = self.current
        assert deal is not None
        active = deal.active_handoff
        if active is None:
            if self.rules.handoff == "offered":
                return [OfferHandoff(), KeepHand()]
            return [*self._gives(seat), KeepHand()]
        if active.step == "answer":
            return [AnswerOffer(True), AnswerOffer(False)]
        if active.step == "give":
            return list(self._gives(seat))
        return [ReturnCard(card) for card in self.return_cards(seat)]

    def verify(self, seat: int, action: Action) -> None:
        """Raise the ``GameError`` that explains why ``action`` is illegal; pass if legal.

        In a hidden step every card, and every action of a seat not asked, gets the same
        ``Waiting``, so that no refusal tells who is asked or why."""
        phase = self.phase
        if type(action) is PlayCard and (phase is PLAY or phase is BLIND):
            self._verify_card(seat, action.card)
            return
        if self.hidden_turn and (type(action) is PlayCard or seat not in self.to_act()):
            raise Waiting(self._started())
        if type(action) is PlayCard:
            raise WrongPhase(phase)
        if isinstance(action, AskRedeal) or (isinstance(action, KeepHand) and phase is not HANDOFF):
            if phase is not REDEAL:
                raise RedealNotAllowed("no redeal now")
            return
        expected = {KeepHand: HANDOFF, GiveTrump: HANDOFF, ReturnCard: HANDOFF,
                    OfferHandoff: HANDOFF, AnswerOffer: HANDOFF, CallOpening: CALL}  # fmt: skip
        if phase is not expected.get(type(action)):
            raise WrongPhase(phase)
        to_act = self.to_act()
        if to_act != (seat,):
            raise NotYourTurn(to_act, phase)
        if isinstance(action, CallOpening):
            if action.kind not in OPENINGS:
                raise NotAllowed("no such opening")
            return
        self._verify_handoff(seat, action)

    def _verify_handoff(self, seat: int, action: Action) -> None:
        """The hand-off step's own rules, for the seat it asks."""
        deal = self.current
        assert deal is not None
        active = deal.active_handoff
        step = "decide" if active is None else active.step
        if step == "return":
            returns = self.return_cards(seat)
            if not isinstance(action, ReturnCard):
                raise NotAllowed("return a card first", returns)
            if action.card not in returns:
                raise NotAllowed("return another card", returns)
            return
        if step == "answer":
            if not isinstance(action, AnswerOffer):
                raise NotAllowed("answer the offer")
            return
        offered = self.rules.handoff == "offered"
        if step == "decide" and isinstance(action, KeepHand):
            return
        if step == "decide" and offered:
            if not isinstance(action, OfferHandoff):
                raise NotAllowed("offer the hand-off or keep the hand")
            return
        if not isinstance(action, GiveTrump):
            raise NotAllowed("hand off a trump", self.handoff_cards(seat))
        if not any(set(action.cards) == set(give.cards) and len(action.cards) == len(give.cards)
                   for give in self._gives(seat)):  # fmt: skip
            raise NotAllowed("this trump may not be handed off", self.handoff_cards(seat))

    def _verify_card(self, seat: int, card: Card) -> None:
        if self.phase is not PLAY and self.phase is not BLIND:
            raise WrongPhase(self.phase)
        deal = self.current
        assert deal is not None
        if (deal.leader + len(deal.trick)) % self._seats != seat:
            raise NotYourTurn(self.to_act())
        if card not in deal.hands[seat]:
            raise CardNotInHand(card)
        if deal.trick and self.phase is PLAY and not self.rules.ace_discard_ban:
            suit_of = self.rules.strengths[deal.trump].suit_of
            led = suit_of[deal.trick[0][1]]
            if suit_of[card] is led:
                return  # following suit is always legal (the hot path)
        legal = self.legal_cards(seat)
        if card in legal:
            return
        if self.phase is BLIND:
            raise NotAllowed("lead a plain card face down", legal)
        if not deal.trick:
            raise TrumpLeadBanned(legal)
        led_suit = self.strength.suit_of[deal.trick[0][1]]
        raise MustFollow(card, led_suit, legal)

    def can_apply(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is legal for ``seat`` now."""
        try:
            self.verify(seat, action)
        except GameError:
            return False
        return True

    # -- chance step -------------------------------------------------------------------

    def seed_context(self) -> str:
        """The deal's context in its seed text (``kozelbot.fairplay``): ``deck``, ``players``,
        ``open`` (``plain``, ``hvalyonka`` or ``call``) and, for a hvalyonka, ``first`` (the
        praised seat, who draws first)."""
        opening = self._opening_due()
        words = f"deck={self.rules.deck},players={self.players},open={opening}"
        if opening == "hvalyonka":
            words += f",first={self._first_leader(None)}"
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
        opening = self._opening_due()
        first = self._first_leader(None) if opening == "hvalyonka" else 0
        cards, hands = shuffle_deck(self.rules, opening, first, rng)
        if opening != "plain":
            return self.deal_stock(cards)
        return self.deal_hands(hands, talon=cards[self.rules.hand_size * self.players :])

    def _acceptable(self, hands: list[list[Card]]) -> bool:
        """Kryuk's dealing constraints (RULES.md §1.2)."""
        return acceptable(self.rules, hands)

    def _opening_due(self) -> str:
        """``plain``, or the opening this deal starts with: kryuk's hvalyonka in every deal
        but the match's first and one right after eggs; sixes' call likewise, and never
        right after a redeal (RULES.md §1.2, §1.3)."""
        rules = self.rules
        if rules.opening == "plain" or self.deal_no == 0 or self.redeals:
            return "plain"
        last = self.last_result
        if last is not None and last.outcome == Outcome.EGGS:
            return "plain"
        return "hvalyonka" if rules.opening == "hvalyonka" else "call"

    def deal_stock(self, cards: list[Card]) -> list[Event]:
        """Start a deal with an opening from this stock (top first; scripted tests call it)."""
        if self.phase is not DEALING:
            raise WrongPhase(self.phase)
        if sorted(map(str, cards)) != sorted(map(str, self.rules.cards)):
            raise ValueError("the stock must hold exactly the deck")
        self.shuffles += 1
        self._new_requests()
        first = self._first_leader(None)
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
            dealer=self._dealer_of(first),
            redeals=self.redeals,
        )
        events: list[Event] = [Dealt(self.deal_no, first, self.redeals, ())]
        if self._opening_due() == "hvalyonka":
            self.current.opening = "hvalyonka"
            self._draw_blind(first)
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
        first = self._first_leader(hands)
        trump = self._trump_of_deal(hands)
        self.current = DealState(
            deal_no=self.deal_no,
            hands=[list(hand) for hand in hands],
            initial_hands=tuple(tuple(hand) for hand in hands),
            first_leader=first,
            leader=first,
            trump=trump,
            obligation=self.side_of(first) if self.players == 4 else None,
            talon=talon,
            deck=dealt,
            dealer=self._dealer_of(first),
            redeals=self.redeals,
        )
        royal = self._hands_complete()
        return [Dealt(self.deal_no, first, self.redeals, tuple(self.current.redeal_pending)),
                *royal]  # fmt: skip

    def _new_requests(self) -> None:
        """A deal's first shuffle forgets the previous deal's redeal requests."""
        if not self.redeals:
            self.redeal_requests = []

    def _dealer_of(self, first: int) -> int:
        """Two players: the dealer. Four players: RULES.md names no dealer, so the seat
        before the first leader, as sixes' "dealing pair" rule has it."""
        return self.dealer if self.players == 2 else (first - 1) % self.players

    def _hands_complete(self) -> list[Event]:
        """The hands are dealt: a royal kozel ends the match (its events are returned);
        otherwise open the redeal offers, then the hand-offs, then play."""
        deal = self.current
        assert deal is not None
        if self.rules.royal:
            for seat, hand in enumerate(deal.initial_hands):
                if sum(1 for c in hand if c.rank is Rank.ACE) == 4:
                    return self._royal(seat)
        order = [(deal.first_leader + i) % self.players for i in range(self.players)]
        if deal.opening == "plain":
            deal.redeal_pending = [s for s in order if self._may_redeal(deal.hands[s])]
        if self.rules.handoff != "none":
            deal.handoff_pending = [s for s in order if self._handoff_candidates(deal.hands[s])]
        self._next_phase()
        return []

    def _may_redeal(self, hand: list[Card]) -> bool:
        limit = self.rules.redeal_below
        if limit is None:
            return False
        if hand_points(hand) < limit:
            return True
        return self.rules.redeal_nines and sum(1 for c in hand if c.rank is Rank.NINE) == 4

    def _next_phase(self) -> None:
        """After an answer: the next step of the deal that still has someone to ask."""
        deal = self.current
        assert deal is not None
        if deal.redeal_pending:
            self.phase = REDEAL
        elif deal.handoff_pending or deal.active_handoff is not None:
            self.phase = HANDOFF
        else:
            self.phase = PLAY
            self._holder_leads()

    def _holder_leads(self) -> None:
        """Play begins: where a card names the first leader (the match's first deal of
        kryuk and sixes), its holder now leads, after any hand-off (RULES.md §1.2
        **Decision**: a partner may return A♦)."""
        deal = self.current
        assert deal is not None
        card = self.rules.first_lead_card
        if card is None or deal.tricks or deal.trick or not self._leader_by_card():
            return
        holder = next(s for s, hand in enumerate(deal.hands) if card in hand)
        deal.first_leader = deal.leader = holder
        if deal.obligation is not None:
            deal.obligation = self.side_of(holder)

    def _leader_by_card(self) -> bool:
        """Whether this deal's first leader is the holder of ``first_lead_card``."""
        rule = self.rules.first_lead
        return rule == "holder" or (rule in ("rotate", "winners") and self.lead_right is None)

    def _first_leader(self, hands: list[list[Card]] | None) -> int:
        """Who leads the deal's first trick (the preset's first-lead rule)."""
        rule = self.rules.first_lead
        if rule == "non_dealer":
            return (self.dealer + 1) % self.players
        if not self._leader_by_card():
            return self.lead_right if self.lead_right is not None else 0
        card = self.rules.first_lead_card
        assert hands is not None, "the first deal of a match is a plain deal"
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

    # -- openings ------------------------------------------------------------------------

    def _draw_blind(self, seat: int) -> None:
        """Kryuk's hvalyonka: ``seat`` is dealt pairs until a plain card arrives."""
        deal = self.current
        assert deal is not None
        table = self.strength
        deal.hands[seat] = draw(deal.stock, "pairs", table.is_trump)
        deal.draws.append(Draw(seat, tuple(deal.hands[seat])))

    def _call(self, seat: int, kind: str) -> list[Event]:
        """Sixes: a plain deal, or an opening whose cards draw and play themselves: each
        player in turn draws until a card arrives that they may not keep (``shtany``: aces and
        trumps are kept; ``mirror``: trumps) and plays it — the first two face down."""
        deal = self.current
        assert deal is not None
        events: list[Event] = [OpeningCalled(seat, kind)]
        stock = deal.stock
        if kind == "plain":
            size = self.rules.hand_size
            hands = [stock[i * size : (i + 1) * size] for i in range(self.players)]
            deal.stock = []
            deal.hands = [list(h) for h in hands]
            deal.initial_hands = tuple(tuple(h) for h in hands)
            events.extend(self._hands_complete())
            return events
        deal.opening = kind
        table = self.strength
        style = {"shtany": "shtany", "double_shtany": "double_shtany", "mirror": "mirror"}[kind]

        def kept(card: Card) -> bool:
            return table.is_trump(card) or (kind != "mirror" and card.rank is Rank.ACE)

        for offset in range(self.players):
            player = (deal.first_leader + offset) % self.players
            drawn = draw(stock, style, kept)
            deal.hands[player] = drawn
            deal.draws.append(Draw(player, tuple(drawn)))
            playable = [c for c in drawn if not kept(c)] or drawn[-1:]
            events.extend(self._play(player, playable[0]))
        return events

    def _finish_opening(self) -> list[Event]:
        """The opening trick is scored: everybody is dealt up to eight cards in all, then
        the hand-offs (and play) follow."""
        deal = self.current
        assert deal is not None
        received = [len(hand) + 1 for hand in deal.hands]  # one card each went to the trick
        for offset in range(self.players):
            seat = (deal.first_leader + offset) % self.players
            need = HAND - received[seat]
            deal.hands[seat].extend(deal.stock[:need])
            deal.stock = deal.stock[need:]
        blind = deal.tricks[0]
        deal.initial_hands = tuple(
            tuple([card for s, card in blind.cards if s == seat] + deal.hands[seat])
            for seat in range(self.players)
        )
        return self._hands_complete()

    # -- actions -----------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action and return what happened; raise ``GameError`` otherwise."""
        self.verify(seat, action)
        if type(action) is PlayCard:
            return self._play(seat, action.card)
        deal = self.current
        assert deal is not None
        if isinstance(action, AskRedeal):
            return self._redeal(seat)
        if isinstance(action, KeepHand) and self.phase is REDEAL:
            deal.redeal_pending.remove(seat)
            self._next_phase()
            return [HandKept(seat)]
        if isinstance(action, CallOpening):
            return self._call(seat, action.kind)
        events = self._handoff(seat, action)
        self._next_phase()
        return events

    def _handoff(self, seat: int, action: Action) -> list[Event]:
        """One step of a hand-off (verified): keep, offer, answer, give, return."""
        deal = self.current
        assert deal is not None
        partner = (seat + 2) % 4
        if isinstance(action, KeepHand):
            deal.handoff_pending.pop(0)
            return [HandKept(seat)]
        if isinstance(action, OfferHandoff):
            deal.handoff_pending.pop(0)
            deal.handoffs.append(Handoff(seat, partner))
            return [HandoffOffered(seat, partner)]
        if isinstance(action, AnswerOffer):
            last = deal.handoffs[-1]
            deal.handoffs[-1] = replace(last, answer="agree" if action.agree else "decline")
            if action.agree:  # a pair exchanges at most once per deal
                pair = (seat, last.giver)
                deal.handoff_pending = [s for s in deal.handoff_pending if s not in pair]
            return [OfferAnswered(seat, last.giver, action.agree)]
        if isinstance(action, GiveTrump):
            if deal.active_handoff is None:  # kryuk: passed at once, nobody asked before
                deal.handoff_pending.pop(0)
                deal.handoff_pending = [s for s in deal.handoff_pending if s != partner]
                deal.handoffs.append(Handoff(seat, partner))
            for card in action.cards:
                deal.hands[seat].remove(card)
                deal.hands[partner].append(card)
            deal.handoffs[-1] = replace(deal.handoffs[-1], cards=action.cards)
            return [HandedOff(seat, partner, action.cards)]
        assert isinstance(action, ReturnCard)
        last = deal.handoffs[-1]
        deal.hands[seat].remove(action.card)
        deal.hands[last.giver].append(action.card)
        done = replace(last, returned=(*last.returned, action.card))
        deal.handoffs[-1] = done
        events: list[Event] = [Returned(seat, last.giver, action.card)]
        if done.step == "done":
            events.append(Exchanged(done.giver, done.to, len(done.cards)))
        return events


    def _redeal(self, seat: int) -> list[Event]:
        """A redeal: asked (hvalenyi, belka) or demanded (sixes, where the demand after
        ``redeal_limit`` in a row is refused and costs the dealing pair a pair).

        **Decision** (sixes' refused demand): the deal ends there as ``refusedRedeal``; the
        dealing pair — the side of the seat before the first leader — loses a pair, i.e. the
        other pair scores one, and the next deal is dealt afresh."""
        limit = self.rules.redeal_limit
        deal = self.current
        assert deal is not None
        self.redeal_requests.append(RedealRequest(seat, hand_points(deal.hands[seat])))
        if limit is not None and self.redeals >= limit:
            dealing = self.side_of((deal.first_leader - 1) % self.players)
            award = [0, 0]
            award[1 - dealing] = self.rules.refused_redeal_award
            self.score = [self.score[0] + award[0], self.score[1] + award[1]]
            return [RedealAsked(seat), *self._scored(
                Outcome.REFUSED_REDEAL, 1 - dealing, award, 1, None, False)]  # fmt: skip
        self.redeals += 1
        self.phase = DEALING
        if self.deal_no == 0:
            self.seat_suits = None  # belka: the suits come from the first deal as played
        return [RedealAsked(seat)]

    def _play(self, seat: int, card: Card) -> list[Event]:
        deal = self.current
        assert deal is not None
        deal.hands[seat].remove(card)
        deal.trick.append((seat, card))
        events: list[Event] = [CardPlayed(seat, card)]
        opening = self.phase is BLIND or (deal.opening != "plain" and not deal.tricks)
        if len(deal.trick) < self._seats:
            if self.phase is BLIND:
                self._draw_blind((seat + 1) % self._seats)
            return events
        cards = tuple(deal.trick)
        winner = trick_winner(cards, self.rules.strengths[deal.trump])
        points = sum(c.points for _, c in cards)
        side = winner % 2  # the side (RULES.md §0: pairs sit opposite; two players: the seat)
        deal.points[side] += points
        deal.tricks_won[side] += 1
        face_down = opening and deal.opening != "mirror"  # the mirror leads face up
        deal.tricks.append(Trick(cards[0][0], cards, winner, points, face_down))
        deal.trick = []
        deal.leader = winner
        events.append(TrickTaken(len(deal.tricks) - 1, cards[0][0], cards, winner, points))
        if opening:  # the hands so far (an opening trick may end the deal by a catch)
            deal.initial_hands = tuple(
                tuple([c for s, c in cards if s == seat] + deal.hands[seat])
                for seat in range(self._seats)
            )
        catch = self._catch_in(cards)
        if catch is not None and not self._lyusya_beats_catch(catch[0]):
            events.append(Caught(*catch))
            events.extend(self._score(Outcome.CATCH, self.side_of(catch[0])))
            return events
        if opening:
            events.extend(self._finish_opening())
            return events
        if not any(deal.hands):
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
        trick is scored as Lyusya instead. Only where deals score eyes (hvalenyi): kryuk's
        Pelotka ends the deal whatever else the trick completes (RULES.md §1.2)."""
        deal = self.current
        assert deal is not None
        if not self.rules.lyusya_over_catch or self.rules.all_tricks == "none":
            return False  # kryuk: the catch ends the deal, whatever else the trick completes
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

    # -- scoring -----------------------------------------------------------------------

    def _score_cards(self) -> list[Event]:
        deal = self.current
        assert deal is not None
        all_tricks = self.rules.all_tricks
        for side in (0, 1):
            if all_tricks != "none" and deal.tricks_won[1 - side] == 0:
                outcome = Outcome.ALL_TRICKS if all_tricks == "reset" else Outcome.LYUSYA
                return self._score(outcome, side)
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
        """Turn a finished deal into the preset's score."""
        if self.rules.eggs == "multiply":
            return self._score_eyes(outcome, side)
        return self._score_board(outcome, side)

    def _score_eyes(self, outcome: Outcome, side: int | None) -> list[Event]:
        """Eyes (RULES.md §1.1 deal scoring, eggs, catch, Lyusya; §1.4 belka's awards).

        **Decision**: under Lyusya ``win`` the 12 eyes are multiplied like every other award
        of the deal (RULES.md: the multiplier "applies to every eye award of that deal"); the
        match ends either way.
        """
        deal = self.current
        assert deal is not None
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
            elif outcome == Outcome.LYUSYA and self.rules.all_tricks == "win":
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

    def _score_board(self, outcome: Outcome, side: int | None) -> list[Event]:
        """Kryuk's points (RULES.md §1.2) and sixes' pairs on the board (§1.3).

        Sixes Lyusya (all 8 tricks): the opponents' pairs go back to 0 and the Lyusya pair
        scores nothing else; in the match's first deal it wins the match (сухой козёл).
        Carried eggs go to the winner of the next scored deal whatever its outcome, a Lyusya
        included."""
        deal = self.current
        assert deal is not None
        rules = self.rules
        award = [0, 0]
        zeroed: int | None = None
        ends_match = False
        carried = 0
        if outcome == Outcome.EGGS:
            self.carry += rules.eggs_carry
            self.had_eggs = True
            return self._scored(outcome, None, award, 1, None, False)
        assert side is not None
        other = 1 - side
        if outcome == Outcome.CATCH:
            first = rules.catch_first_deal_award
            award[side] = first if first is not None and self.deal_no == 0 else rules.catch_award
        elif outcome == Outcome.ALL_TRICKS:  # kryuk
            if self.score == [0, 0]:
                award[side] = rules.all_tricks_nil_award
            elif self.score[other] == 0:
                ends_match = True
            else:
                zeroed = other
        elif outcome == Outcome.LYUSYA:  # sixes: nothing else is scored
            zeroed = other
            ends_match = self.deal_no == 0  # сухой козёл
        else:
            award[side] = self._eyes(side, deal.points[side])
        carried, self.carry = self.carry, 0
        award[side] += carried
        if zeroed is not None:
            self.score[zeroed] = 0
        self.score = [self.score[0] + award[0], self.score[1] + award[1]]
        return self._scored(outcome, side, award, 1, zeroed, ends_match, carry=carried)

    def _royal(self, seat: int) -> list[Event]:
        """Sixes option: a hand dealt all four aces wins the match at once."""
        return self._scored(Outcome.ROYAL, self.side_of(seat), [0, 0], 1, None, True)

    def _scored(
        self,
        outcome: Outcome,
        side: int | None,
        award: list[int],
        multiplier: int,
        zeroed: int | None,
        ends_match: bool,
        carry: int = 0,
    ) -> list[Event]:
        """Record a scored deal and move on to the next deal or the end of the match."""
        deal = self.current
        assert deal is not None
        deal.outcome = outcome.value
        over = side is not None and (ends_match or self.score[side] >= self.rules.target)
        title = self._title(side, award) if over and self.rules.titles else None
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
            carry=carry,
            title=title,
            details=self._details(over),
            seeds=tuple(self.seeds),
        )
        self.last_result = result
        if deal.tricks:
            self.last_card = deal.tricks[-1].cards[-1][1]
        self._pass_lead(outcome, side)
        self.deal_no += 1
        self.redeals = 0
        self.dealer = (self.dealer + 1) % self.players
        events: list[Event] = [result]
        if over:
            assert side is not None
            self.winner = side
            self.phase = OVER
            events.append(MatchOver(side, result.score, title))
        else:
            self.phase = DEALING
        return events

    def _details(self, over: bool) -> dict[str, Any]:
        """The facts a scored deal's texts need beyond the score (``DealScored.details``, JSON
        as it is stored in the outbox): the trump suit and opening; the side on obligation;
        kryuk's and sixes' eggs points or pairs ``waiting`` for the next deal's winner; the
        last trick (``cards`` as [seat, card] pairs in play order, ``winner``,
        ``points``), which the table shows once the deal is over; and, with two players,
        the next deal's trump suit (the last card's) unless the match is over."""
        deal = self.current
        assert deal is not None
        details: dict[str, Any] = {
            "trump": None if deal.trump is None else deal.trump.value,
            "opening": deal.opening,
            "obligation": deal.obligation,
        }
        if self.rules.eggs == "carry":
            details["waiting"] = self.carry  # after eggs: what the next deal's winner gets
        if deal.tricks:
            last = deal.tricks[-1]
            details["last_trick"] = {
                "cards": [[seat, str(card)] for seat, card in last.cards],
                "winner": last.winner, "points": last.points,
            }  # fmt: skip
            if self.rules.trump_rule == "last_card" and not over:
                details["next_trump"] = last.cards[-1][1].suit.value
        return details

    def _pass_lead(self, outcome: Outcome, side: int | None) -> None:
        """Who leads the next deal: kryuk passes the right clockwise (it stays after eggs);
        sixes gives it to the winners' player first clockwise after the last first leader
        (the same leader after eggs)."""
        deal = self.current
        assert deal is not None
        rule = self.rules.first_lead
        first = deal.first_leader
        if rule == "rotate":
            self.lead_right = first if outcome == Outcome.EGGS else (first + 1) % self.players
        elif rule == "winners":
            if side is None:
                self.lead_right = first
            else:
                self.lead_right = next(
                    (first + k) % 4 for k in range(1, 5) if self.side_of((first + k) % 4) == side
                )

    def _title(self, side: int | None, award: list[int]) -> str:
        """Sixes: the losers' title — козлы, с яйцами if eggs happened, с хвостами if the
        winners were at 5 and won the last deal with 90+ (RULES.md §1.3)."""
        deal = self.current
        assert deal is not None and side is not None
        parts = ["kozly"]
        if self.had_eggs:
            parts.append("eggs")
        before = self.score[side] - award[side]
        if before == self.rules.target - 1 and deal.points[side] >= self.rules.tails_points:
            parts.append("tails")
        return "_".join(parts)

    # -- views -------------------------------------------------------------------------

    def view_for(self, seat: int | None) -> View:
        """What ``seat`` may see (its own hand, never another's); ``None`` = the group."""
        deal = self.current
        phase = self.phase
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
            mine = seat is not None and self.players == 4
            handoffs = tuple(h for h in deal.handoffs
                             if mine and seat is not None and seat in (h.giver, h.to))  # fmt: skip
            if self.rules.handoff == "offered":
                notes = tuple(HandoffNote(h.giver, h.to, h.answer, len(h.cards), len(h.returned))
                              for h in deal.handoffs)  # fmt: skip
        to_act = self.to_act()
        sizes = [len(h) for h in deal.hands] if deal is not None else []
        view_phase = phase
        if self.hidden_turn:
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
            actions = tuple(self.legal_actions(seat))
        return View(
            seat=seat,
            phase=view_phase,
            deal_no=deal.deal_no if deal is not None else self.deal_no,
            players=self.players,
            hand=hand,
            hand_sizes=tuple(sizes),
            talon=len(deal.talon) if deal is not None else 0,
            to_act=to_act,
            legal=self.legal_cards(seat) if seat is not None else (),
            actions=actions,
            can_redeal=seat is not None and phase is REDEAL and seat in to_act,
            hidden_turn=self.hidden_turn,
            trick=trick,
            last_trick=deal.tricks[-1] if deal is not None and deal.tricks else None,
            played=tuple([c for t in deal.tricks for _, c in t.cards]) if deal is not None else (),
            first_leader=deal.first_leader if deal is not None else None,
            obligation=deal.obligation if deal is not None else None,
            trump_suit=deal.trump if deal is not None else self.rules.trump_suit,
            seat_suits=tuple(self.seat_suits) if self.seat_suits is not None else None,
            points=(deal.points[0], deal.points[1]) if deal is not None else (0, 0),
            tricks_won=(deal.tricks_won[0], deal.tricks_won[1]) if deal is not None else (0, 0),
            score=(self.score[0], self.score[1]),
            multiplier=self.multiplier,
            carry=self.carry,
            redeals=self.redeals,
            opening=deal.opening if deal is not None else "plain",
            handoffs=handoffs,
            handoff_notes=notes,
            returning=returning,
            last_result=self.last_result,
            winner=self.winner,
            rules=self.rules,
            strength=self.strength,
            trump_lead=self.trump_lead_sides() if in_deal else None,
        )

    # -- persistence -------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return _ADAPTER.dump_python(self, mode="json")  # type: ignore[no-any-return]

    @classmethod
    def load(cls, data: Any) -> MatchState:
        """Rebuild a state saved by ``dump`` (or by the engine before the game protocol, or
        before hand-offs passed several cards)."""
        if "deal" in data:
            data = _upgrade(data)
        data = _upgrade_handoffs(data)
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
        rules = PRESETS[data["variant"]].rules(data["options"])
        deal.setdefault("trump", None if rules.trump_suit is None else rules.trump_suit.value)
        deal.setdefault("obligation", deal["first_leader"] % 2)
    data["current"] = deal
    return data


def _upgrade_handoffs(data: dict[str, Any]) -> dict[str, Any]:
    """A state saved when a hand-off was one ``card`` and one ``returned`` card (or none):
    each becomes ``cards`` / ``returned`` tuples; sixes' hand-offs of then were announced
    and made at once, so their ``answer`` is ``agree``. Games running when the bot is
    upgraded resume from it."""
    deal = data.get("current")
    if not isinstance(deal, dict) or not any("card" in h for h in deal.get("handoffs", ())):
        return data
    offered = PRESETS[data["variant"]].rules(data["options"]).handoff == "offered"
    upgraded = []
    for old in deal["handoffs"]:
        if "card" not in old:
            upgraded.append(old)
            continue
        returned = old.get("returned")
        upgraded.append({
            "giver": old["giver"], "to": old["to"], "cards": [old["card"]],
            "returned": [] if returned is None else [returned],
            "answer": "agree" if offered else None,
        })  # fmt: skip
    return {**data, "current": {**deal, "handoffs": upgraded}}
