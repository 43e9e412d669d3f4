"""The cover game (RULES.md §2, seeds 003 and 000): multi-card leads beaten stack by stack or
answered by face-down discards, hands refilled from a talon, loser points to 12.

The same shape as the follow-suit engine: ``to_act`` / ``legal_actions`` / ``verify`` /
``apply`` → frozen events, the chance step (``chance(shuffle)`` / ``deal(rng)``; ``deal_deck``
for a scripted deck; ``deal_from_seed`` deals a fair-play seed text again), ``view_for(seat)``,
a pydantic JSON round trip. One legality authority: ``verify`` (``legal_actions`` enumerates
what it accepts).

A *game* is one deal to the end of the talon; a *round* is a lead and its answers. Round
steps: ``lead`` (the leader leads 1–6 cards of one suit; anyone with 4+ cards of a suit who
has not acted may claim the lead, "У мене N") → ``answer`` (clockwise: beat every stack,
discard face down exactly the surplus over the last beater's hand, or pass) → ``rebeat``
(classic: the last beater beats again or calls Відбій) → ``level`` (players above the
smallest hand add cards face down to the trick) → the draw, automatically → next round.

**Decisions** where RULES.md §2 is silent:
- A claim names a count only; a later claim must be larger, or equal and nearer clockwise to
  the round's first leader. A claim made after the lead takes every card of the round back.
- The leader is the first "last beater" (the hand rule counts from the lead); when the turn
  comes back to the last beater in a classic round they may beat their own top cards or call
  Відбій; with nothing to beat with, the round ends.
- Levelling counts the smallest hand of everyone in play, the trick taker included; the
  taker adds nothing.
- ``opening=seed000``: every game's trump is the suit of the cut card, shown to all and left
  at the bottom of the talon (so no trump change at the last draw); the dealer (rotating
  clockwise among the players in play) leads, unless someone holds four trumps (the first such
  seat clockwise from the dealer).
- Four aces or four sixes are checked after the deal and after every draw.
- ``opening=seed000`` with ``hand=4``: the cut decides the trump (the option is chosen to get
  the cut; "quick is always diamonds" is the default opening's rule).
- Both pairs reaching 12 in one game: fewer loser points wins, then the side that took the
  last trick (the tie-break RULES.md gives each for self). Each for self, when every remaining
  player reaches 12 and the tied ones did not take the last trick: the lowest seat wins.
- Eggs each for self count the players still in play: two left can make eggs.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from pydantic import TypeAdapter

from kozelbot.cards import DECK_36, Card, Rank, Suit
from kozelbot.cover.presets import PRESETS, CoverRules
from kozelbot.fairplay import SeedError, parse_seed, seed_trace
from kozelbot.game import DealScored, GameError, MatchOver, Shuffle

ORDER: tuple[Rank, ...] = (
    Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING,
    Rank.TEN, Rank.ACE,
)  # fmt: skip
"""Plain-suit order, low to high (RULES.md §2): the ten sits between the king and the ace."""
RANK_OF = {rank: index for index, rank in enumerate(ORDER)}
POSHKA = Card.parse("6S")
TARGET = 12
"""Loser points that lose the match (pairs) or put a player out (self)."""
MAX_LEAD = 6


class Phase(StrEnum):
    DEALING = "dealing"
    LEAD = "lead"
    ANSWER = "answer"
    REBEAT = "rebeat"
    LEVEL = "level"
    OVER = "over"


class Outcome(StrEnum):
    NORMAL = "normal"
    EGGS = "eggs"
    ACES = "aces"
    SIXES = "sixes"


# --- actions -------------------------------------------------------------------------


def _cards_text(cards: tuple[Card, ...]) -> str:
    return ",".join(str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Lead:
    """Lead 1–6 cards of one suit (with poshka, 6♠ may join any suit)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"lead:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Beat:
    """Cover every stack with one higher card each; which card goes where is worked out."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"beat:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put exactly the surplus over the last beater's hand face down."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"discard:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Level:
    """Levelling: add cards face down to the trick just taken."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"level:{_cards_text(self.cards)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Не б'ю: answer without beating (only with no surplus to shed)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Otboy:
    """Відбій: the last beater ends the round (classic)."""

    def __str__(self) -> str:
        return "otboy"


@dataclass(frozen=True, slots=True)
class Claim:
    """У мене N: claim the lead with N cards of one suit (the suit stays hidden)."""

    count: int

    def __str__(self) -> str:
        return f"claim:{self.count}"


Action = Lead | Beat | Discard | Level | Pass | Otboy | Claim


def parse_action(text: str) -> Action:
    """Read an action back from its ``str`` (the move log's notation)."""
    if text == "pass":
        return Pass()
    if text == "otboy":
        return Otboy()
    verb, _, arg = text.partition(":")
    if verb == "claim" and arg.isdigit() and len(arg) == 1:
        return Claim(int(arg))
    kinds: dict[str, type[Lead | Beat | Discard | Level]] = {
        "lead": Lead, "beat": Beat, "discard": Discard, "level": Level,
    }  # fmt: skip
    if verb in kinds and arg:
        cards = tuple(Card.parse(part) for part in arg.split(","))
        if len(set(cards)) == len(cards) <= MAX_LEAD:
            return kinds[verb](cards)
    raise ValueError(f"not an action: {text!r}")


# --- events ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameDealt:
    game_no: int
    first_leader: int
    trump: Suit


@dataclass(frozen=True, slots=True)
class Acted:
    """A seat's move in a round (a discard or levelling shows only its count to others)."""

    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class RoundTaken:
    """The trick went to ``taker``; ``points`` counts every card of it, face-down ones too,
    so it is not for the table (``CoverState.open_points`` is)."""

    taker: int
    points: int


@dataclass(frozen=True, slots=True)
class TrumpChanged:
    """The talon's bottom card was drawn and shown: its suit is trump from now on."""

    card: Card


# --- errors ----------------------------------------------------------------------------


class NotYourTurn(GameError):
    code = "not_your_turn"

    def __init__(self, to_act: tuple[int, ...]) -> None:
        super().__init__(f"not your turn; to act: {to_act}")
        self.to_act = to_act


class IllegalMove(GameError):
    """A move the rules refuse: ``reason`` names why (the texts translate it), ``count`` is
    the number of cards it asks for, where it asks for some."""

    code = "illegal"

    def __init__(self, reason: str, count: int = 0) -> None:
        super().__init__(f"{reason} {count}" if count else reason)
        self.reason = reason
        self.count = count


# --- state -----------------------------------------------------------------------------


@dataclass(slots=True)
class Move:
    """One move of a round, for the trace and for taking a round back after a claim
    (``kind`` is ``lead``, ``beat``, ``discard``, ``pass``, ``otboy`` or ``claim``; a claim
    keeps its ``count``)."""

    seat: int
    kind: str
    cards: tuple[Card, ...] = ()
    onto: tuple[int, ...] = ()
    count: int = 0


def _move_trace(move: Move) -> dict[str, Any]:
    """A move as a trace object (``CoverState.deal_trace``)."""
    if move.kind == "claim":
        return {"seat": move.seat, "type": "claim", "count": move.count}
    entry: dict[str, Any] = {"seat": move.seat, "type": move.kind,
                             "cards": [str(c) for c in move.cards]}  # fmt: skip
    if move.kind == "beat":
        entry["onto"] = list(move.onto)
    return entry


@dataclass(slots=True)
class Round:
    """A lead and its answers."""

    leader: int
    first_leader: int
    """Who was to lead before any claim (claim ties go nearest clockwise from here)."""
    stacks: list[list[Card]] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    last_beater: int = -1
    turn: int = -1
    answered: list[int] = field(default_factory=list)
    """Seats that answered since the last beat (or the lead)."""
    discarded: list[int] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    """The moves standing since the round (re)started: the last claim took earlier ones back."""
    log: list[Move] = field(default_factory=list)
    """Every move of the round in order, claims and moves taken back included (the trace)."""
    claims: list[tuple[int, int]] = field(default_factory=list)
    level_pending: list[int] = field(default_factory=list)
    taker: int = -1

    def add(self, move: Move) -> None:
        """Record a lead or an answer: it stands (until a claim) and joins the log."""
        self.moves.append(move)
        self.log.append(move)


@dataclass(slots=True)
class CoverGame:
    """One game: hands, talon, trump, the round in progress, and what was taken."""

    game_no: int
    deck: tuple[Card, ...]
    """The shuffled deck, top first (for the trace)."""
    dealt: tuple[tuple[Card, ...], ...]
    hands: list[list[Card]]
    talon: list[Card]
    """Top first; the last card is the bottom one."""
    trump: Suit
    trump_start: Suit
    first_leader: int
    round: Round
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """Finished rounds, as trace objects."""
    points: list[int] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    bottom_shown: bool = False
    bottom: Card | None = None
    """The talon's bottom card once shown to all (the cut card, or drawn at the last draw)."""
    last_taker: int = -1
    last_stacks: list[list[Card]] = field(default_factory=list)
    """The last trick's stacks as they lay when it was taken (the final table shows them)."""
    last_face_down: int = 0
    """How many cards of the last trick lay face down (discards)."""
    dealer: int | None = None
    """The seat that dealt (``None`` in games stored before it was kept)."""


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or the table, ``seat=None``) may know."""

    seat: int | None
    phase: Phase
    game_no: int
    players: int
    in_play: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    talon: int
    trump: Suit
    trump_start: Suit
    """The trump this game was dealt with (``trump`` differs once the drawn bottom card
    changed it)."""
    bottom: Card | None
    """The talon's bottom card once shown (seed 000 cut card, or drawn at the last draw)."""
    stacks: tuple[tuple[Card, ...], ...]
    """The round's stacks while it is played (empty during the levelling and after the last
    trick: the trick then holds face-down cards too)."""
    discards: int
    to_act: tuple[int, ...]
    leader: int | None
    last_beater: int | None
    claims: tuple[tuple[int, int], ...]
    surplus: int
    """Cards this seat must shed now (beat or discard), if it is answering."""
    may_beat: bool
    level_count: int
    """Cards this seat must add to the trick now (levelling)."""
    score: tuple[int, ...]
    multiplier: int
    out: tuple[int, ...]
    open_points: tuple[int, ...]
    """Each side's points of the face-up cards in the tricks it took this game
    (``CoverState.open_points``); the true totals, which count the face-down cards too, are
    nobody's to see until the game is scored (``last_result``)."""
    last_result: DealScored | None
    winner: int | None
    rules: CoverRules


def deal_out(
    deck: list[Card], players: int, hand: int, dealer: int, out: list[int]
) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``deck`` (top first): one card at a time to the seats not ``out``, clockwise
    from the dealer's left, ``hand`` each; the rest is the talon (its last card the bottom)."""
    start = (dealer + 1) % players
    order = [s for k in range(players) if (s := (start + k) % players) not in out]
    hands: list[list[Card]] = [[] for _ in range(players)]
    stock = list(deck)
    for _ in range(hand):
        for seat in order:
            hands[seat].append(stock.pop(0))
    return hands, stock


def deal_from_seed(seed: str) -> list[tuple[str, list[Card]]]:
    """The cards a cover seed text deals (``Family.deal_from_seed``): the hands by seat (an
    empty one for a seat that is out) and the talon, top first. ``ValueError`` if the text
    is not a cover seed."""
    fields = parse_seed(seed)
    if fields.variant not in PRESETS:
        raise SeedError(f"unknown variant {fields.variant!r}")
    players = fields.number("players", range(2, 5))
    hand = fields.number("hand", range(4, 7, 2))
    dealer = fields.number("dealer", range(players))
    out_word = fields.context.get("out", "")
    out = sorted({int(digit) for digit in out_word}) if out_word.isdigit() else []
    if (out_word and not out) or any(seat >= players for seat in out) or players - len(out) < 2:
        raise SeedError("the seed's out= must name seats, leaving two or more in play")
    deck = list(DECK_36)
    random.Random(seed).shuffle(deck)
    hands, talon = deal_out(deck, players, hand, dealer, out)
    return [*((f"seat {seat}", cards) for seat, cards in enumerate(hands)), ("talon", talon)]


@dataclass(eq=True)
class CoverState:
    """A whole cover match: loser points, eggs, who is out, and the game in progress."""

    variant: str
    options: dict[str, Any]
    phase: Phase = Phase.DEALING
    score: list[int] = field(default_factory=list)
    eggs: int = 0
    game_no: int = 0
    shuffles: int = 0
    out: list[int] = field(default_factory=list)
    current: CoverGame | None = None
    last_result: DealScored | None = None
    winner: int | None = None
    trump: Suit = Suit.DIAMONDS
    """The trump for the next game (it changes when the talon's bottom card is drawn)."""
    next_leader: int | None = None
    dealer: int = 0
    seeds: list[str] = field(default_factory=list)
    """Fair play: the seed text of this game's shuffle (``GameState.seeds``)."""

    def __post_init__(self) -> None:
        self.options = PRESETS[self.variant].options_from(self.options).model_dump()
        if not self.score:
            self.score = [0] * self.rules.sides

    @cached_property
    def rules(self) -> CoverRules:
        rules: CoverRules = PRESETS[self.variant].rules(self.options)
        return rules

    # -- protocol ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def needs_chance(self) -> bool:
        return self.phase is Phase.DEALING

    @property
    def deal_shown(self) -> int | None:
        return None if self.current is None else self.current.game_no

    @property
    def deals_scored(self) -> int:
        return self.game_no

    @property
    def hidden_turn(self) -> bool:
        """Never: every cover step's actor is public (a claim names its claimant and N)."""
        return False

    def accepts(self, deal_no: int) -> bool:
        return (
            self.phase not in (Phase.DEALING, Phase.OVER)
            and self.current is not None
            and self.current.game_no == deal_no
        )

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def multiplier(self) -> int:
        """Eggs double the next game's loser points: ×2, ×4 after two eggs in a row…"""
        return 1 << self.eggs

    def in_play(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    # -- card strength -------------------------------------------------------------------

    def beats(self, card: Card, top: Card, trump: Suit) -> bool:
        """Whether ``card`` may cover ``top`` (RULES.md §2; poshka beats anything and is
        never beaten)."""
        if self.rules.poshka:
            if top is POSHKA:
                return False
            if card is POSHKA:
                return True
        if card.suit is top.suit:
            return RANK_OF[card.rank] > RANK_OF[top.rank]
        return card.suit is trump

    def assignment(self, cards: tuple[Card, ...], tops: list[Card]) -> tuple[int, ...] | None:
        """Which stack each card covers (an index per card), or ``None`` if these cards
        cannot cover every stack once each. The bot works it out, so people just select."""
        game = self.current
        assert game is not None
        if len(cards) != len(tops):
            return None
        for order in itertools.permutations(range(len(tops))):
            if all(self.beats(c, tops[i], game.trump) for c, i in zip(cards, order, strict=True)):
                return order
        return None

    # -- who acts, what is legal ---------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        game = self.current
        if game is None or self.phase in (Phase.DEALING, Phase.OVER):
            return ()
        rnd = game.round
        if self.phase is Phase.LEVEL:
            return tuple(rnd.level_pending)
        return (rnd.leader if self.phase is Phase.LEAD else rnd.turn,)

    def _acted(self) -> set[int]:
        game = self.current
        assert game is not None
        return {m.seat for m in game.round.moves}

    def _claimants(self) -> list[int]:
        """Seats that may still claim the lead: 4+ cards of a suit, not yet acted, and a
        claim that would win (RULES.md §2 Claim)."""
        game = self.current
        if game is None or self.phase not in (Phase.LEAD, Phase.ANSWER):
            return []
        acted = self._acted()
        rnd = game.round
        found = []
        for seat in self.in_play():
            if seat in acted or seat == rnd.leader:
                continue
            if self._claim_beats_current(seat, self._longest(game.hands[seat])):
                found.append(seat)
        return found

    def _longest(self, hand: list[Card]) -> int:
        counts: dict[Suit, int] = {}
        for card in hand:
            counts[card.suit] = counts.get(card.suit, 0) + 1
        return max(counts.values(), default=0)

    def _claim_beats_current(self, seat: int, count: int) -> bool:
        game = self.current
        assert game is not None
        if count < 4:
            return False
        rnd = game.round
        if not rnd.claims:
            return True
        best_seat, best = rnd.claims[-1]
        if count != best:
            return count > best
        n = self.players
        return (seat - rnd.first_leader) % n < (best_seat - rnd.first_leader) % n

    def _target(self) -> int:
        """The hand size everyone must come down to: the last beater's (RULES.md §2)."""
        game = self.current
        assert game is not None
        return len(game.hands[game.round.last_beater])

    def surplus(self, seat: int) -> int:
        game = self.current
        if game is None or self.phase is not Phase.ANSWER or game.round.turn != seat:
            return 0
        return max(0, len(game.hands[seat]) - self._target())

    def may_beat(self, seat: int) -> bool:
        game = self.current
        if game is None:
            return False
        if self.phase is Phase.ANSWER:
            return game.round.turn == seat and seat not in game.round.discarded
        if self.phase is Phase.REBEAT:
            return game.round.last_beater == seat
        return False

    def beats_available(self, seat: int) -> list[tuple[Card, ...]]:
        """Every set of cards from ``seat``'s hand that covers every stack, if it may beat."""
        if self.current is None or not self.may_beat(seat):
            return []
        return list(self._beats(seat))

    def _beats(self, seat: int) -> Iterator[tuple[Card, ...]]:
        """The sets of cards from ``seat``'s hand that would cover every stack (whether or
        not it may beat now)."""
        game = self.current
        assert game is not None
        tops = [stack[-1] for stack in game.round.stacks]
        hand = game.hands[seat]
        if len(hand) < len(tops):
            return
        for combo in itertools.combinations(hand, len(tops)):
            if self.assignment(combo, tops) is not None:
                yield combo

    def leads_available(self, seat: int) -> list[tuple[Card, ...]]:
        """Every lead ``seat`` may make: 1–6 cards of one suit (poshka may join any)."""
        game = self.current
        if game is None or self.phase is not Phase.LEAD or game.round.leader != seat:
            return []
        hand = game.hands[seat]
        found: list[tuple[Card, ...]] = []
        for suit in Suit:
            cards = [c for c in hand if c.suit is suit and not (self.rules.poshka and c is POSHKA)]
            extra = [POSHKA] if self.rules.poshka and POSHKA in hand else []
            pool = cards + extra
            for size in range(1, min(MAX_LEAD, len(pool)) + 1):
                for combo in itertools.combinations(pool, size):
                    if any(c is not POSHKA for c in combo) or combo == (POSHKA,):
                        found.append(combo)
        return list(dict.fromkeys(found))

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now: its turn's moves, and a claim — which may interrupt a
        round out of turn, so it is offered to every eligible seat (``to_act`` names only
        whose turn it is)."""
        game = self.current
        if game is None:
            return []
        actions: list[Action] = []
        if seat in self._claimants():
            actions.append(Claim(self._longest(game.hands[seat])))
        if seat not in self.to_act():
            return actions
        if self.phase is Phase.LEAD and seat == game.round.leader:
            actions += [Lead(c) for c in self.leads_available(seat)]
        elif self.phase is Phase.ANSWER and seat == game.round.turn:
            actions += [Beat(c) for c in self.beats_available(seat)]
            need = self.surplus(seat)
            if need:
                actions += [Discard(c) for c in itertools.combinations(game.hands[seat], need)]
            else:
                actions.append(Pass())
        elif self.phase is Phase.REBEAT:
            actions += [Beat(c) for c in self.beats_available(seat)]
            actions.append(Otboy())
        elif self.phase is Phase.LEVEL:
            need = self._level_count(seat)
            actions += [Level(c) for c in itertools.combinations(game.hands[seat], need)]
        return actions

    def verify(self, seat: int, action: Action) -> None:
        """Raise the ``GameError`` that explains why ``action`` is illegal; pass if legal."""
        game = self.current
        if game is None or self.phase in (Phase.DEALING, Phase.OVER):
            raise IllegalMove("no game in progress")
        if seat not in self.to_act() and not isinstance(action, Claim):
            raise NotYourTurn(self.to_act())
        hand = game.hands[seat]
        cards: tuple[Card, ...] = getattr(action, "cards", ())
        if any(c not in hand for c in cards) or len(set(cards)) != len(cards):
            raise IllegalMove("cards not in hand")
        rnd = game.round
        if isinstance(action, Claim):
            if seat not in self._claimants() or action.count != self._longest(hand):
                raise IllegalMove("no claim")
            return
        main = rnd.leader if self.phase is Phase.LEAD else rnd.turn
        if self.phase is not Phase.LEVEL and self.phase is not Phase.REBEAT and seat != main:
            raise NotYourTurn((main,))
        if isinstance(action, Lead):
            if self.phase is not Phase.LEAD:
                raise IllegalMove("not a lead now")
            if not 1 <= len(cards) <= MAX_LEAD:
                raise IllegalMove("lead 1 to 6 cards")
            suits = {c.suit for c in cards if not (self.rules.poshka and c is POSHKA)}
            if len(suits) > 1:
                raise IllegalMove("one suit")
            return
        if isinstance(action, Beat):
            if not self.may_beat(seat):
                raise IllegalMove("no beat now")
            if self.assignment(cards, [s[-1] for s in rnd.stacks]) is None:
                raise IllegalMove("does not beat every stack")
            return
        if isinstance(action, Discard):
            need = self.surplus(seat)
            if not need:
                raise IllegalMove("nothing to discard")
            if len(cards) != need:
                raise IllegalMove("discard exactly", need)
            return
        if isinstance(action, Pass):
            if self.phase is not Phase.ANSWER:
                raise IllegalMove("no pass now")
            if self.surplus(seat):
                raise IllegalMove("beat or discard exactly", self.surplus(seat))
            return
        if isinstance(action, Otboy):
            if self.phase is not Phase.REBEAT:
                raise IllegalMove("no Відбій now")
            return
        if isinstance(action, Level):
            if self.phase is not Phase.LEVEL or len(cards) != self._level_count(seat):
                raise IllegalMove("add exactly", self._level_count(seat))
            return
        raise IllegalMove("unknown move")

    # -- chance step ---------------------------------------------------------------------

    def seed_context(self) -> str:
        """The game's context in its seed text (``kozelbot.fairplay``): ``players``,
        ``hand``, ``dealer`` and, when someone is out, ``out`` (their seats as digits)."""
        words = f"players={self.players},hand={self.rules.hand},dealer={self.dealer}"
        if self.out:
            words += ",out=" + "".join(str(seat) for seat in sorted(self.out))
        return words

    def chance(self, shuffle: Shuffle | random.Random) -> list[Any]:
        """The chance step: shuffle the deck with the shuffle's RNG (keeping its seed text)
        and deal it."""
        if isinstance(shuffle, random.Random):
            shuffle = Shuffle(shuffle)
        self.seeds = [] if shuffle.seed is None else [shuffle.seed]
        deck = list(DECK_36)
        shuffle.rng.shuffle(deck)
        return self.deal_deck(deck)

    def deal(self, rng: random.Random) -> list[Any]:
        return self.chance(rng)

    def deal_deck(self, deck: list[Card]) -> list[Any]:
        """Deal a game from this deck (top first): one card at a time to the players in
        play, clockwise from the dealer's left; the rest is the talon."""
        if self.phase is not Phase.DEALING:
            raise IllegalMove("not dealing")
        if sorted(map(str, deck)) != sorted(map(str, DECK_36)):
            raise ValueError("the deck must hold the 36 cards")
        self.shuffles += 1
        seats = self.in_play()
        hands, stock = deal_out(deck, self.players, self.rules.hand, self.dealer, self.out)
        trump = self.trump if self.rules.classic else Suit.DIAMONDS
        bottom_shown = False
        if self.rules.cut_opening:
            trump = stock[-1].suit  # the cut card, shown and left at the bottom
            bottom_shown = True
        first = self._first_leader(hands, seats, trump)
        n = self.rules.sides
        self.current = CoverGame(
            game_no=self.game_no,
            deck=tuple(deck),
            dealt=tuple(tuple(h) for h in hands),
            hands=hands,
            talon=stock,
            trump=trump,
            trump_start=trump,
            first_leader=first,
            round=Round(leader=first, first_leader=first, last_beater=first),
            points=[0] * n,
            tricks_won=[0] * n,
            bottom_shown=bottom_shown,
            bottom=stock[-1] if bottom_shown else None,
            dealer=self.dealer,
        )
        self.phase = Phase.LEAD
        events: list[Any] = [GameDealt(self.game_no, first, trump)]
        events += self._four_of_a_kind()
        return events

    def _clockwise_from(self, start: int, seats: list[int]) -> list[int]:
        return [s for k in range(self.players) if (s := (start + k) % self.players) in seats]

    def _first_leader(self, hands: list[list[Card]], seats: list[int], trump: Suit) -> int:
        """RULES.md §2 first lead (and the seed 000 opening)."""
        if self.rules.cut_opening:
            dealer_order = self._clockwise_from(self.dealer, seats)
            for seat in dealer_order:
                if sum(1 for c in hands[seat] if c.suit is trump) >= 4:
                    return seat
            return dealer_order[0]
        if self.next_leader is not None:
            return self._clockwise_from(self.next_leader, seats)[0]
        diamonds = [
            (RANK_OF[c.rank], s) for s in seats for c in hands[s] if c.suit is Suit.DIAMONDS
        ]  # fmt: skip
        return min(diamonds)[1] if diamonds else min(seats)

    # -- actions -------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Any]:
        self.verify(seat, action)
        game = self.current
        assert game is not None
        rnd = game.round
        events: list[Any] = [Acted(seat, str(action))]
        if isinstance(action, Claim):
            self._take_back()
            rnd.claims.append((seat, action.count))
            rnd.log.append(Move(seat, "claim", count=action.count))
            rnd.leader = seat
            rnd.last_beater = seat
            self.phase = Phase.LEAD
            return events
        if isinstance(action, Lead):
            for card in action.cards:
                game.hands[seat].remove(card)
            rnd.stacks = [[c] for c in action.cards]
            rnd.add(Move(seat, "lead", action.cards))
            rnd.last_beater = seat
            rnd.answered = []
            self.phase = Phase.ANSWER
            rnd.turn = seat
            return events + self._next_turn()
        if isinstance(action, Beat):
            order = self.assignment(action.cards, [s[-1] for s in rnd.stacks])
            assert order is not None
            for card, index in zip(action.cards, order, strict=True):
                game.hands[seat].remove(card)
                rnd.stacks[index].append(card)
            rnd.add(Move(seat, "beat", action.cards, order))
            rnd.last_beater = seat
            rnd.answered = []
            rnd.turn = seat
            self.phase = Phase.ANSWER
            return events + self._next_turn()
        if isinstance(action, Discard):
            for card in action.cards:
                game.hands[seat].remove(card)
            rnd.discards.extend(action.cards)
            rnd.discarded.append(seat)
            rnd.add(Move(seat, "discard", action.cards))
            rnd.answered.append(seat)
            return events + self._next_turn()
        if isinstance(action, Pass):
            rnd.add(Move(seat, "pass"))
            rnd.answered.append(seat)
            return events + self._next_turn()
        if isinstance(action, Otboy):
            rnd.add(Move(seat, "otboy"))
            return events + self._end_round()
        assert isinstance(action, Level)
        for card in action.cards:
            game.hands[seat].remove(card)
        rnd.discards.extend(action.cards)
        rnd.level_pending.remove(seat)
        game.rounds[-1]["levelling"].append({"seat": seat, "cards": [str(c) for c in action.cards]})
        if not rnd.level_pending:
            return events + self._draw_and_continue()
        return events

    def _take_back(self) -> None:
        """A claim after the lead: every card of the round goes back to its hand."""
        game = self.current
        assert game is not None
        rnd = game.round
        for move in rnd.moves:
            game.hands[move.seat].extend(move.cards)
        rnd.stacks, rnd.discards, rnd.moves = [], [], []
        rnd.answered, rnd.discarded = [], []

    def _must_answer(self, seat: int) -> bool:
        """Whether ``seat`` has a decision: a surplus to shed, or a beat it could make."""
        game = self.current
        assert game is not None
        if len(game.hands[seat]) > self._target():
            return True
        return seat not in game.round.discarded and next(self._beats(seat), None) is not None

    def _next_turn(self) -> list[Any]:
        """Move the turn clockwise to the next player with a decision; when it comes back to
        the last beater, a classic round offers the re-beat or Відбій, a quick one ends."""
        game = self.current
        assert game is not None
        rnd = game.round
        seats = self.in_play()
        seat = rnd.turn
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if seat not in seats:
                continue
            if seat == rnd.last_beater or (not self.rules.classic and seat == rnd.leader):
                break
            if seat in rnd.answered and self.rules.classic:
                continue
            if not self.rules.classic and any(m.seat == seat and m.kind != "lead"
                                              for m in rnd.moves):  # fmt: skip
                continue  # quick: each other player answers once
            if self._must_answer(seat):
                rnd.turn = seat
                self.phase = Phase.ANSWER
                return []
            rnd.answered.append(seat)  # nothing to beat with, nothing to shed: skipped
        if self.rules.classic and next(self._beats(rnd.last_beater), None) is not None:
            rnd.turn = rnd.last_beater
            self.phase = Phase.REBEAT
            return []
        return self._end_round()

    def _end_round(self) -> list[Any]:
        """The trick goes to the last beater (the leader if nobody beat); then levelling."""
        game = self.current
        assert game is not None
        rnd = game.round
        taker = rnd.last_beater
        rnd.taker = taker
        cards = [c for stack in rnd.stacks for c in stack] + rnd.discards
        side = self.side_of(taker)
        game.tricks_won[side] += 1
        game.last_taker = taker
        game.last_stacks = [list(stack) for stack in rnd.stacks]
        game.last_face_down = len(rnd.discards)
        game.rounds.append(self._round_trace(rnd))
        seats = self.in_play()
        smallest = min(len(game.hands[s]) for s in seats)
        rnd.level_pending = [
            s for s in self._clockwise_from(taker, seats)
            if s != taker and len(game.hands[s]) > smallest
        ]  # fmt: skip
        rnd.stacks = [[c] for c in cards]  # kept together until the levelling is done
        rnd.discards = []
        events: list[Any] = [RoundTaken(taker, sum(c.points for c in cards))]
        if rnd.level_pending:
            self.phase = Phase.LEVEL
            return events
        return events + self._draw_and_continue()

    def _level_count(self, seat: int) -> int:
        game = self.current
        assert game is not None
        smallest = min(len(game.hands[s]) for s in self.in_play())
        return len(game.hands[seat]) - smallest

    def _draw_and_continue(self) -> list[Any]:
        """Count the trick, draw from the taker clockwise, and start the next round (or score
        the game when talon and hands are empty)."""
        game = self.current
        assert game is not None
        rnd = game.round
        taker = rnd.taker
        cards = [c for stack in rnd.stacks for c in stack] + rnd.discards
        game.points[self.side_of(taker)] += sum(c.points for c in cards)
        events: list[Any] = []
        shown_before = game.bottom_shown
        draws = self._draw(taker)
        game.rounds[-1]["draws"] = draws
        if game.bottom_shown and not shown_before and game.bottom is not None:
            events.append(TrumpChanged(game.bottom))
        game.rounds[-1]["trump"] = game.trump.value
        events += self._four_of_a_kind()
        if self.phase is Phase.OVER:
            return events
        seats = [s for s in self.in_play() if game.hands[s]]
        if not seats:
            return events + self._score_game()
        leader = self._clockwise_from(taker, seats)[0]
        game.round = Round(leader=leader, first_leader=leader, last_beater=leader)
        self.phase = Phase.LEAD
        return events

    def _draw(self, taker: int) -> list[dict[str, Any]]:
        """From the taker clockwise each draws up to the hand size; when the talon runs
        short the last cards go one by one around the table (RULES.md §2 Draw). Drawing the
        bottom card shows it, and its suit becomes trump (classic)."""
        game = self.current
        assert game is not None
        order = self._clockwise_from(taker, self.in_play())
        bottom = game.talon[-1] if game.talon else None
        drawn: dict[int, list[Card]] = {s: [] for s in order}
        need = {s: max(0, self.rules.hand - len(game.hands[s])) for s in order}
        if sum(need.values()) <= len(game.talon):
            for seat in order:
                drawn[seat] = game.talon[: need[seat]]
                game.talon = game.talon[need[seat] :]
        else:
            while game.talon and any(need.values()):
                for seat in order:
                    if game.talon and need[seat]:
                        drawn[seat].append(game.talon.pop(0))
                        need[seat] -= 1
        for seat in order:
            game.hands[seat].extend(drawn[seat])
        if bottom is not None and not game.talon and self.rules.classic and not game.bottom_shown:
            game.bottom_shown = True  # the bottom card was drawn: shown, and trump at once
            game.bottom = bottom
            game.trump = bottom.suit
            self.trump = bottom.suit
        return [{"seat": s, "cards": [str(c) for c in drawn[s]]} for s in order if drawn[s]]

    def _four_of_a_kind(self) -> list[Any]:
        """Four aces or four sixes in one hand end the match: that side wins, everyone else
        gets 12 (aces beat sixes)."""
        game = self.current
        assert game is not None
        found: dict[Rank, int] = {}
        for seat in self.in_play():
            for rank in (Rank.ACE, Rank.SIX):
                if sum(1 for c in game.hands[seat] if c.rank is rank) == 4:
                    found.setdefault(rank, seat)
        if not found:
            return []
        rank = Rank.ACE if Rank.ACE in found else Rank.SIX
        side = self.side_of(found[rank])
        outcome = Outcome.ACES if rank is Rank.ACE else Outcome.SIXES
        others = [s for s in self._sides_in_play() if s != side]
        award = [TARGET if s in others else 0 for s in range(self.rules.sides)]
        for s in others:
            self.score[s] += TARGET
        if not self.rules.pairs:
            self.out = sorted(set(self.out) | set(others))
        return self._scored(outcome, award, side)

    # -- scoring -------------------------------------------------------------------------

    def loser_points(self, points: int) -> int:
        """61–120 → 0; save–60 → 2; 1–(save−1) → 4; 0 → 6 (RULES.md §2)."""
        if points >= 61:
            return 0
        if points >= self.rules.save:
            return 2
        return 4 if points > 0 else 6

    def _score_game(self) -> list[Any]:
        game = self.current
        assert game is not None
        sides = self._sides_in_play()
        eggs_possible = self.rules.pairs or len(sides) == 2
        if eggs_possible and all(game.points[s] == 60 for s in sides):
            multiplier = self.multiplier
            self.eggs += 1
            return self._scored(Outcome.EGGS, [0] * self.rules.sides, None, multiplier)
        award = [0] * self.rules.sides
        multiplier = self.multiplier
        for s in sides:
            award[s] = self.loser_points(game.points[s]) * multiplier
        self.eggs = 0
        for s in sides:
            self.score[s] += award[s]
        return self._scored(Outcome.NORMAL, award, None, multiplier)

    def _sides_in_play(self) -> list[int]:
        if self.rules.pairs:
            return [0, 1]
        return self.in_play()

    def _scored(
        self, outcome: Outcome, award: list[int], instant: int | None, multiplier: int = 1
    ) -> list[Any]:
        """Record a finished game (``multiplier``: what its loser points were multiplied
        by) and move on to the next game or the end of the match."""
        game = self.current
        assert game is not None
        winner = self._match_winner(instant)
        result = DealScored(
            deal_no=game.game_no,
            outcome=outcome.value,
            points=tuple(game.points),
            tricks_won=tuple(game.tricks_won),
            award=tuple(award),
            multiplier=multiplier,
            score=tuple(self.score),
            side=None,
            details={
                "trump": game.trump.value,
                "out": sorted(self.out),
                "last_taker": game.last_taker,
                "last_stacks": [[str(c) for c in stack] for stack in game.last_stacks],
                "last_face_down": game.last_face_down,
            },
            seeds=tuple(self.seeds),
        )
        self.last_result = result
        self.game_no += 1
        self.dealer = self._clockwise_from((self.dealer + 1) % self.players, self.in_play())[0] \
            if self.in_play() else self.dealer  # fmt: skip
        self.next_leader = game.last_taker if game.last_taker >= 0 else None
        events: list[Any] = [result]
        if winner is not None:
            self.winner = winner
            self.phase = Phase.OVER
            events.append(MatchOver(winner, result.score))
        else:
            self.phase = Phase.DEALING
        return events

    def _match_winner(self, instant: int | None) -> int | None:
        """Pairs: the first side to 12 loses. Self: a player at 12 is out; the last one left
        wins; if all remaining reach 12 together, fewer loser points wins, then whoever took
        the last trick (RULES.md §2 Match)."""
        if instant is not None:
            return instant
        game = self.current
        assert game is not None
        if self.rules.pairs:
            losers = [s for s in (0, 1) if self.score[s] >= TARGET]
            if not losers:
                return None
            if len(losers) == 2:
                if self.score[0] != self.score[1]:
                    return 0 if self.score[0] < self.score[1] else 1
                return self.side_of(game.last_taker)  # as in self: the last trick decides
            return 1 - losers[0]
        remaining = self.in_play()
        reached = [s for s in remaining if self.score[s] >= TARGET]
        if len(reached) == len(remaining):
            best = min(self.score[s] for s in remaining)
            tied = [s for s in remaining if self.score[s] == best]
            winner = game.last_taker if game.last_taker in tied else tied[0]
            self.out = sorted(set(self.out) | {s for s in remaining if s != winner})
            return winner
        self.out = sorted(set(self.out) | set(reached))
        left = self.in_play()
        return left[0] if len(left) == 1 else None

    # -- trace -------------------------------------------------------------------------

    def _round_trace(self, rnd: Round) -> dict[str, Any]:
        """A round just taken, as a trace object (the format: ``deal_trace``); its
        ``levelling``, ``draws`` and ``trump`` are filled in as they happen."""
        lead = next((m for m in rnd.moves if m.kind == "lead"), None)
        return {
            "leader": rnd.leader,
            "first_leader": rnd.first_leader,
            "claims": self._claims_trace(rnd),
            "sequence": self._sequence_trace(rnd),
            "lead": [str(c) for c in lead.cards] if lead else [],
            "actions": [_move_trace(m) for m in rnd.moves if m.kind != "lead"],
            "taker": rnd.last_beater,
            "levelling": [],
            "draws": [],
            "trump": None,
        }

    @staticmethod
    def _log(rnd: Round) -> list[Move] | None:
        """The round's whole log, or ``None`` if it began before the log was kept (stored
        by an older version): then its standing moves are not all in it."""
        last_claim = max((i for i, m in enumerate(rnd.log) if m.kind == "claim"), default=-1)
        return rnd.log if len(rnd.log) - last_claim - 1 == len(rnd.moves) else None

    def _claims_trace(self, rnd: Round) -> list[dict[str, Any]]:
        """Each claim with its place in the round: ``after`` moves of the round's
        ``sequence`` (claims included), and whether it ``took_back`` a lead already made.
        A round begun before the log was kept gives ``None`` for both."""
        if self._log(rnd) is None:
            return [{"seat": s, "count": n, "after": None, "took_back": None}
                    for s, n in rnd.claims]  # fmt: skip
        found: list[dict[str, Any]] = []
        standing = 0
        for index, move in enumerate(rnd.log):
            if move.kind != "claim":
                standing += 1
                continue
            found.append({"seat": move.seat, "count": move.count, "after": index,
                          "took_back": standing > 0})  # fmt: skip
            standing = 0
        return found

    def _sequence_trace(self, rnd: Round) -> list[dict[str, Any]]:
        """Every move of the round in order, claims included; a move that a later claim
        took back is marked ``taken_back`` (a round begun before the log was kept: the
        moves that stood)."""
        log = self._log(rnd) or rnd.moves
        last_claim = max((i for i, m in enumerate(log) if m.kind == "claim"), default=-1)
        return [
            {**_move_trace(m), **({"taken_back": True} if i < last_claim and m.kind != "claim"
                                  else {})}
            for i, m in enumerate(log)
        ]  # fmt: skip

    def deal_trace(self, result: DealScored, *, match: int, players: list[str]) -> dict[str, Any]:
        """One JSON object per game: enough to check the game without the engine.

        - ``match``, ``deal`` (0-based game number), ``variant``, ``options``, ``players``.
        - ``deck``: the shuffled deck, top first; ``dealer``: the seat that dealt (one card
          at a time, clockwise from the dealer's left, to the seats in play; ``null`` for a
          game stored before the dealer was kept); ``hands``: what each seat was dealt
          (empty for a seat that is out); the rest of the deck is the talon, its last card
          the bottom one (``opening=seed000``: the cut card, shown, whose suit is trump).
        - ``trump_start``: the trump at the deal; ``first_leader``: who led first (the
          default opening: the lowest diamond (none dealt: the lowest seat in play), in
          later games the previous game's last taker (or the next in play); seed000: the
          dealer, or the first holder of four trumps clockwise from the dealer).
        - ``rounds``, in order, each: ``first_leader`` (whose lead it was before any claim),
          ``leader`` (who led, the last claimant if any), ``claims`` (``seat``, ``count`` N
          of «У мене N», ``after``: how many entries of ``sequence`` came before it, and
          ``took_back``: whether a lead already made was taken back), ``sequence`` (every
          move in order: ``seat``, ``type`` lead | beat | discard | pass | otboy | claim,
          ``cards``, ``onto`` for a beat — the stack index each card covers — ``count`` for
          a claim, ``taken_back: true`` for a move a later claim took back), ``lead`` and
          ``actions`` (the moves that stood: the lead's cards, then the answers as in
          ``sequence``), ``taker``, ``levelling`` (``seat``, ``cards`` added face down),
          ``draws`` (``seat``, ``cards``, in drawing order) and ``trump`` after the draw.
        - ``points`` (every card of the tricks taken, face down too), ``tricks_won``,
          ``outcome`` (normal | eggs | aces | sixes), ``multiplier``, ``loser_points``,
          ``score``, ``out``, ``winner`` (the match winner when this game ends it), and the
          fair-play ``seed`` / ``commit`` (``kozelbot.fairplay.seed_trace``).
        """
        game = self.current
        assert game is not None
        return {
            "match": match,
            "deal": result.deal_no,
            "variant": self.variant,
            "options": dict(self.options),
            "players": list(players),
            "deck": [str(c) for c in game.deck],
            "dealer": game.dealer,
            "hands": [[str(c) for c in hand] for hand in game.dealt],
            "trump_start": game.trump_start.value,
            "first_leader": game.first_leader,
            "rounds": game.rounds,
            "points": list(result.points),
            "tricks_won": list(result.tricks_won),
            "outcome": result.outcome,
            "multiplier": result.multiplier,
            "loser_points": list(result.award),
            "score": list(result.score),
            "out": sorted(self.out),
            "winner": self.winner,
            **seed_trace(self.seeds),
        }

    # -- views -------------------------------------------------------------------------

    def open_points(self) -> list[int]:
        """Each side's points of the face-up cards (leads and beats) in the tricks it took
        this game: what everyone at the table saw. Face-down discards and levelling count
        only in ``CoverGame.points``, secret until the game is scored."""
        game = self.current
        if game is None:
            return []
        sides = [0] * self.rules.sides
        for rnd in game.rounds:
            beats = [c for a in rnd["actions"] if a["type"] == "beat" for c in a["cards"]]
            shown = [*rnd["lead"], *beats]
            sides[self.side_of(rnd["taker"])] += sum(Card.parse(c).points for c in shown)
        return sides

    def view_for(self, seat: int | None) -> View:
        game = self.current
        rnd = game.round if game is not None else None
        hand = tuple(game.hands[seat]) if game is not None and seat is not None else ()
        bottom = game.bottom if game is not None else None
        level = self._level_count(seat) if (
            seat is not None and self.phase is Phase.LEVEL and rnd is not None
            and seat in rnd.level_pending) else 0  # fmt: skip
        return View(
            seat=seat,
            phase=self.phase,
            game_no=game.game_no if game is not None else self.game_no,
            players=self.players,
            in_play=tuple(self.in_play()),
            hand=hand,
            hand_sizes=tuple(len(h) for h in game.hands) if game is not None else (),
            talon=len(game.talon) if game is not None else 0,
            trump=game.trump if game is not None else self.trump,
            trump_start=game.trump_start if game is not None else self.trump,
            bottom=bottom,
            stacks=tuple(tuple(s) for s in rnd.stacks)
            if rnd is not None and self.phase in (Phase.LEAD, Phase.ANSWER, Phase.REBEAT)
            else (),
            discards=len(rnd.discards) if rnd is not None else 0,
            to_act=self.to_act(),
            leader=rnd.leader if rnd is not None else None,
            last_beater=rnd.last_beater if rnd is not None else None,
            claims=tuple(rnd.claims) if rnd is not None else (),
            surplus=self.surplus(seat) if seat is not None else 0,
            may_beat=self.may_beat(seat) if seat is not None else False,
            level_count=level,
            score=tuple(self.score),
            multiplier=self.multiplier,
            out=tuple(self.out),
            open_points=tuple(self.open_points()),
            last_result=self.last_result,
            winner=self.winner,
            rules=self.rules,
        )

    # -- persistence -------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        return _ADAPTER.dump_python(self, mode="json")  # type: ignore[no-any-return]

    @classmethod
    def load(cls, data: Any) -> CoverState:
        return _ADAPTER.validate_python(data)


_ADAPTER: TypeAdapter[CoverState] = TypeAdapter(CoverState)
