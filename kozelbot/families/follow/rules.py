"""The follow-suit family's engine parameters (RULES.md §1), as data: ``Rules``.

``Rules`` lists every parameter of §1 — deck, ladder, trump rule, players and sides, first
lead, lead and discard restrictions, catch, redeal, hand-off, opening, scoring, eggs, all
tricks, target — and precompiles the strength of every card under each possible trump suit,
so the engine's hot path is two dictionary look-ups. It also answers the questions that need
only the parameters and one hand (may it ask for a redeal, which trumps may it hand off). A
preset (``presets``) is a pydantic options model plus a function from chosen options to
``Rules``: no subclass and no ``if variant ==`` per variant; the engine reads the parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from kozelbot.core.cards import DECKS, Card, Rank, Suit, hand_points
from kozelbot.core.seats import Seats

PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
    Rank.SIX,
)
"""Strength inside a plain suit, high to low: the ten beats the king (RULES.md §0). Ladder
cards leave their suit, so the same order serves every preset."""

TRUMP = 1000
"""Strengths from here up are trumps; plain cards are below 100."""


@dataclass(frozen=True, slots=True)
class Strength:
    """Every card's strength and effective suit under one trump suit (bigger wins)."""

    strength: Mapping[Card, int]
    suit_of: Mapping[Card, Suit | None]
    """``None`` for every trump: a trump has no other suit (RULES.md §1 trick rule 1)."""

    def is_trump(self, card: Card) -> bool:
        return self.strength[card] >= TRUMP


def compile_strength(
    deck: tuple[Card, ...], ladder: tuple[Card, ...], trump: Suit | None
) -> Strength:
    """Strengths: the ladder first (in its order), then the trump suit, then plain suits."""
    in_suit = [Card(rank, trump) for rank in PLAIN_ORDER if trump is not None]
    ranked = [c for c in ladder if c in deck] + [
        c for c in in_suit if c in deck and c not in ladder
    ]
    strength = {card: TRUMP + index for index, card in enumerate(reversed(ranked))}
    for card in deck:
        strength.setdefault(card, 100 - PLAIN_ORDER.index(card.rank))
    return Strength(strength, {c: None if strength[c] >= TRUMP else c.suit for c in deck})


TrumpRule = Literal["fixed", "seat_suits", "last_card"]
FirstLead = Literal["holder", "rotate", "winners", "non_dealer"]
Scoring = Literal["eyes", "points", "pairs"]
EggsRule = Literal["multiply", "carry"]
AllTricks = Literal["win", "zero", "reset", "sweep", "none"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Engine parameters of a follow-suit game (RULES.md §1), fixed for a whole match."""

    name: str
    deck: int
    ladder: tuple[Card, ...]
    """Permanent trumps, strongest first; they belong to no suit."""
    trump_suit: Suit | None
    """The trump suit (``fixed``), or the first deal's (``last_card``)."""
    target: int
    players: int = 4
    """4 in two pairs (0+2 against 1+3), or 2 playing each for self."""
    trump_rule: TrumpRule = "fixed"
    """``fixed``; ``seat_suits``: the suit owned by the seat holding J♣ (belka);
    ``last_card``: the natural suit of the previous deal's last card (two players)."""
    first_lead: FirstLead = "holder"
    """``holder`` of ``first_lead_card`` every deal; ``rotate``: the first deal's holder of
    ``first_lead_card`` leads it, then the right passes clockwise (kryuk); ``winners``: the
    first deal's holder of ``first_lead_card``, then the previous deal's winners (sixes);
    ``non_dealer`` (two players)."""
    first_lead_card: Card | None = None
    lead_card_forced: bool = False
    """The first lead of the match must be ``first_lead_card`` itself (kryuk: A♦)."""
    catch: tuple[Card, Card] | None = None
    """(catcher, caught): both in one trick, held by opposing sides, end the deal."""
    catch_award: int = 4
    catch_first_deal_award: int | None = None
    """The catch's award in the match's first deal, if different (kryuk: 12)."""
    redeal_below: int | None = None
    """A hand with fewer card points may ask for (or demand) a redeal before the first card."""
    redeal_nines: bool = False
    """A hand holding all four nines may demand a redeal too (sixes)."""
    redeal_limit: int | None = None
    """Consecutive demands allowed; the next is refused and costs the dealing side (sixes)."""
    awards: tuple[tuple[int, int], ...] = ((90, 4), (61, 2))
    """(minimum card points, award), best first — for the side on obligation in belka."""
    defence_awards: tuple[tuple[int, int], ...] | None = None
    """The other side's table when it differs (belka)."""
    scoring: Scoring = "eyes"
    """The unit of the match score: eyes (hvalenyi, belka), points (kryuk) or pairs on the
    board of sixes (sixes). Texts name it; the rules below say how it is scored."""
    eggs: EggsRule = "multiply"
    """What an eggs deal (``Outcome.EGGS``, 60:60: nobody scores) leaves behind:
    ``multiply`` — after k eggs in a row every award of the next deal is multiplied by k+1
    (hvalenyi, belka); ``carry`` — each eggs deal adds ``eggs_carry`` for the winner of the
    next scored deal (kryuk, sixes)."""
    eggs_carry: int = 0
    """What one eggs deal carries under ``eggs="carry"`` (kryuk 2 points, sixes 1 pair)."""
    all_tricks: AllTricks = "win"
    """What taking every trick does. ``win``: Lyusya (``Outcome.LYUSYA``), the side gets
    ``lyusya_win_award`` (× the eggs multiplier) and the match; ``zero``: Lyusya, the other
    side's score goes to 0 and the side gets its best award (hvalenyi's ``lyusya`` option);
    ``reset``: kryuk's all eight tricks — the other side's score goes to 0, a side already at
    0 loses the match, and at 0:0 the side gets ``all_tricks_nil_award`` instead; ``sweep``:
    sixes' Lyusya — the other side goes back to 0, nothing else is scored, and in the match's
    first deal it wins the match (сухой козёл, the dry kozel); ``none``: scored like any
    other deal, by its card points."""
    lyusya_win_award: int = 12
    """The award of Lyusya under ``all_tricks="win"`` (hvalenyi: the match target)."""
    all_tricks_nil_award: int = 0
    """The award of all tricks under ``all_tricks="reset"`` when the score is 0:0 (kryuk 6)."""
    lyusya_over_catch: bool = True
    """A catch in the last trick by a side that took every trick scores Lyusya instead
    (RULES.md §1.1 **Decision**: hvalenyi); ``False``: the catch ends the deal whatever else
    the trick completes (kryuk's Pelotka, RULES.md §1.2)."""
    refused_redeal_award: int = 0
    """What the other side scores when a redeal demand beyond ``redeal_limit`` is refused
    (sixes: the dealing pair loses a pair, 1)."""
    titles: bool = False
    """The losers get a title at the end of the match (sixes: козлы, the kozly; с яйцами,
    with eggs, if an eggs deal happened; с хвостами, with tails — see ``tails_points``)."""
    tails_points: int = 90
    """With ``titles``: the losers are "with tails" when the winners stood one short of the
    target and won the last deal with at least this many card points (sixes 90)."""
    handoff: Literal["none", "hidden", "offered"] = "none"
    """The last-trump hand-off (``handoff``): ``hidden`` (kryuk: the player passes the trump, the
    partner returns a card, and nobody else learns of it); ``offered`` (sixes: the player
    announces it aloud, the partner answers aloud, the cards pass face down)."""
    handoff_trumps: tuple[int, ...] = (1,)
    """How many trumps a hand may hold to hand off its last (kryuk 1; sixes 1 or 2)."""
    handoff_points: bool = False
    """The trump handed off must have card points (kryuk; sixes gives any of its trumps)."""
    lead_ban: bool = False
    """Kryuk's козырять rule (the right to lead trumps): a player holding a plain card may lead
    a trump only if their side made the first lead of the deal; nobody may in the match's first
    deal (RULES.md §1.2)."""
    fight_score: int | None = None
    """With ``lead_ban``: when both sides stand at this score (козлячий бой, the kozel fight:
    kryuk 10:10) both may lead trumps."""
    ace_discard_ban: bool = False
    deal_constraints: bool = False
    """Kryuk's re-shuffle until no four queens without 7♣ and no five plain cards of a suit."""
    opening: Literal["plain", "hvalyonka", "called"] = "plain"
    """``hvalyonka``: kryuk's praised first trick; ``called``: sixes' first leader calls
    plain, shtany, double_shtany or mirror."""
    royal: bool = False
    """A hand dealt all four aces wins the match (sixes option)."""
    timeout_random: bool = False
    """On time-out a random legal card is played (kryuk), not the computer's choice."""
    single_card_autoplay: bool = False
    """An illegal press by a player with exactly one legal card plays that card (kryuk)."""
    first_move_bonus: int = 0
    """Extra seconds for the first move of a deal (kryuk: 15 s against 10 s)."""
    strengths: Mapping[Suit | None, Strength] = field(default_factory=dict, compare=False)
    seats: Seats = field(init=False, compare=False)
    """Who sits where: four in two pairs, or two each for self (``kozelbot.core.seats``)."""
    rounds: tuple[tuple[int, ...], ...] = field(init=False, compare=False)
    """``rounds[leader]``: every seat in turn clockwise from ``leader`` (``Seats.clockwise``),
    so the seat whose card comes next in a trick is ``rounds[leader][cards on the table]``."""

    def __post_init__(self) -> None:
        deck = DECKS[self.deck]
        tables = {suit: compile_strength(deck, self.ladder, suit) for suit in (None, *Suit)}
        object.__setattr__(self, "strengths", tables)
        seats = Seats(self.players, pairs=self.players == 4)
        object.__setattr__(self, "seats", seats)
        rounds = tuple(tuple(seats.clockwise(seat)) for seat in range(self.players))
        object.__setattr__(self, "rounds", rounds)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The deck this match is played with."""
        return DECKS[self.deck]

    @property
    def hand_size(self) -> int:
        """Cards per hand: the whole deck shared out, or 8/9 each from a talon (two players)."""
        return len(self.cards) // 4

    def strength_for(self, trump: Suit | None) -> Strength:
        return self.strengths[trump]

    def side_of(self, seat: int) -> int:
        """Partners sit opposite (0+2 against 1+3); two players are each a side."""
        return self.seats.side_of(seat)

    @property
    def has_catch(self) -> bool:
        """Whether the catch rule is in force with this deck."""
        return self.catch is not None and all(c in self.cards for c in self.catch)

    def may_redeal(self, hand: list[Card]) -> bool:
        """Whether ``hand`` may ask for (or demand) a redeal: fewer card points than
        ``redeal_below``, or all four nines where ``redeal_nines`` (RULES.md §1.1, §1.3)."""
        limit = self.redeal_below
        if limit is None:
            return False
        if hand_points(hand) < limit:
            return True
        return self.redeal_nines and sum(1 for c in hand if c.rank is Rank.NINE) == 4

    def handoff_candidates(self, hand: list[Card], table: Strength) -> tuple[Card, ...]:
        """The trumps ``hand`` may hand off under ``table``: it holds as many trumps as
        ``handoff_trumps`` allows (kryuk one; sixes one or two), and with ``handoff_points``
        each must have card points (RULES.md §1.2, §1.3)."""
        trumps = [c for c in hand if table.is_trump(c)]
        if len(trumps) not in self.handoff_trumps:
            return ()
        if self.handoff_points:
            return tuple(c for c in trumps if c.points > 0)
        return tuple(trumps)
