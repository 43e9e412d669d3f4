"""The follow-suit family's vocabulary: phases, outcomes, actions, events and errors.

The words every step, view, renderer and test of RULES.md §1 speaks.

Actions are frozen records whose ``str`` is the move log's notation (``parse_action`` reads it
back); events are frozen records of what a move did; errors are ``GameError`` subclasses whose
fields say why a move was refused (``MustFollow`` carries the cards the player is then shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kozelbot.core.cards import DECK_36, Card, Suit
from kozelbot.core.protocol import DealScored, GameError, InTrick, MatchOver, TrickEnd


class Phase(StrEnum):
    """Where a match stands: each phase but ``over`` has its step (``MatchState.STEPS``)."""

    DEALING = "dealing"
    """The chance step: the next deal is shuffled and dealt (nobody acts)."""
    CALL = "call"
    """Sixes: the first leader calls a plain deal or an opening (``call``)."""
    BLIND = "blind"
    """Kryuk's hvalyonka: the first trick is played face down (``blind``)."""
    REDEAL = "redeal"
    """Weak hands ask for (sixes: demand) a redeal or keep (``redeal``)."""
    HANDOFF = "handoff"
    """A hand with its last trumps hands them to the partner (``handoff``)."""
    PLAY = "play"
    """Tricks (``play``)."""
    OVER = "over"
    """The match is won."""
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
    """Яйца ("eggs"): 60:60, nobody scores; the next deal is multiplied, or its winner gets
    what the eggs carry (``Rules.eggs``)."""
    CATCH = "catch"
    """Шамок ловит шамку ("the shamok catches the shamka"): the catcher (6♣, or kryuk's 7♣)
    and an opponent's Q♣ in one trick end the deal."""
    LYUSYA = "lyusya"
    """Люся ("Lyusya"): one pair took every trick."""
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


PLAYS: dict[Card, PlayCard] = {card: PlayCard(card) for card in DECK_36}
"""One ``PlayCard`` per card, made once: listing legal moves builds no new objects."""


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
    """Pass trumps to the partner face down (the hand-off, ``handoff``): kryuk its one trump,
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
    PlayCard
    | AskRedeal
    | KeepHand
    | OfferHandoff
    | AnswerOffer
    | GiveTrump
    | ReturnCard
    | CallOpening
)
WORDS: dict[str, Action] = {
    "redeal": AskRedeal(),
    "keep": KeepHand(),
    "offer": OfferHandoff(),
    "agree": AnswerOffer(True),
    "decline": AnswerOffer(False),
}
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
class CardPlayed(InTrick):
    """A card went on the table."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken(TrickEnd):
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
    Dealt
    | RedealAsked
    | HandKept
    | CardPlayed
    | TrickTaken
    | Caught
    | HandoffOffered
    | OfferAnswered
    | HandedOff
    | Returned
    | Exchanged
    | OpeningCalled
    | DealScored
    | MatchOver
)


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
    """Kryuk's trump-lead rule (``Rules.lead_ban``): this pair may not lead a trump now."""

    code = "trump_lead_banned"

    def __init__(self, legal: tuple[Card, ...]) -> None:
        super().__init__("no trump lead for this pair now")
        self.legal = legal
