"""A deal in trick play for search: hands as bitmasks, a card made and unmade in place.

``Position`` holds a follow-suit deal from any card-play position the engine reaches (phase
``play``, mid-trick included) to its end: each seat's hand as an int mask over the card
indices of ``bits``, the trick on the table, the sides' card points and tricks, and a stack of
what each move changed, so ``unmake`` restores the position exactly. Nothing is copied and no
object but ints is made per move: a move is an int, the answers are ints and masks, the tables are
the ones ``tables`` compiled once per trump suit.

It answers what a searching player asks (RULES.md §1): the seat to play (``turn``), its legal
cards (``legal``: follow suit, kryuk's first lead of the match and trump-lead right, the
ace-discard ban — as the engine's ``play.cards``), who is taking the trick (``winning``), what
``make`` completed (``TRICK``, and the trick's winner, points and the next leader in
``last_trick``), two players' refill from the talon (``REFILL``: the talon is known, dealt as
the engine deals it — its first half to the last trick's winner), the end of the deal
(``OVER``: every trick played, or a catch), its ``outcome`` and card ``points``; ``ending``
scores it with the engine's ``scoring.settle``.

The engine stays the one authority on what the bot accepts; this is its fast mirror, checked
against it move by move (``tests/test_search_differential.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.follow.scoring import Settlement, outcome_of
from kozelbot.families.follow.search.bits import BIT, INDEX, POINTS, mask_of
from kozelbot.families.follow.search.ending import settle_deal
from kozelbot.families.follow.search.facts import DealFacts, check_hands
from kozelbot.families.follow.vocabulary import Outcome

if TYPE_CHECKING:
    from kozelbot.families.follow.state import MatchState
    from kozelbot.families.follow.view import View

TRICK = 1
"""``make`` completed a trick (its winner now leads: ``leader``)."""
OVER = 2
"""``make`` ended the deal (``outcome``)."""
REFILL = 4
"""``make`` emptied both hands of a two-player deal and the talon was dealt."""

_LEADER_MASK, _POINTS_SHIFT, _POINTS_MASK = 3, 2, 0xFF
_REFILL_FLAG = 1 << 10
"""A completed trick's undo record: the previous leader, the trick's points, the refill."""
_CARD_MASK, _AT_SHIFT = 0x3F, 6
"""The card winning a trick so far, with its place in the trick: ``place << 6 | card``."""


class Position:
    """A deal from a card-play position on, made and unmade card by card.

    Read, never written from outside: ``hands`` (masks by seat), ``turn`` (the seat to
    play), ``leader`` (who led the trick on the table; after a trick, its winner), ``n``
    (cards on the table), ``played`` (card indices in play order: the table as given, then
    every card made), ``points`` and ``won`` (card points and tricks per side, the deal's
    earlier tricks included), ``done`` (completed tricks of the deal), ``left`` (tricks until
    the hands are empty), ``talon_due`` (two players: the refill is still to come),
    ``outcome`` and ``outcome_side`` once the deal is ``over``, ``facts``."""

    __slots__ = (
        "_beaten_by",
        "_bests",
        "_follow_of",
        "_free_lead",
        "_next",
        "_prev",
        "_records",
        "_rounds",
        "_side",
        "_unled_stack",
        "ace_ban",
        "base",
        "catch",
        "done",
        "facts",
        "follow",
        "forced",
        "hand_size",
        "hands",
        "lead_rule",
        "leader",
        "left",
        "lyusya_catch",
        "n",
        "outcome",
        "outcome_side",
        "plain",
        "played",
        "players",
        "points",
        "talon",
        "talon_due",
        "trick_points",
        "turn",
        "unled",
        "won",
    )

    def __init__(
        self, facts: DealFacts, hands: Sequence[int], talon: tuple[int, int] = (0, 0)
    ) -> None:
        """The position of ``facts`` with these hands (masks, by seat; the cards on the table
        are not in them) and, with two players, the talon not yet dealt: (the half the next
        refill gives the last trick's winner, the other half). Nothing is checked here
        (``of_state`` and ``of_view`` check what they are given)."""
        (
            self.players,
            self.hand_size,
            self._rounds,
            self._next,
            self._prev,
            self._side,
            self._follow_of,
            self._beaten_by,
            self.plain,
            self.ace_ban,
            self.forced,
            self._free_lead,
            self.lead_rule,
            self.catch,
            self.lyusya_catch,
            self.unled,
            in_play,
            self.done,
        ) = facts.frame
        self.facts = facts
        self.hands = list(hands)
        self.talon = talon
        self.talon_due = due = bool(talon[0] | talon[1])
        self.left = (in_play - due * self.players * self.hand_size) // self.players
        self.points = list(facts.points)
        self.won = list(facts.tricks_won)
        self.outcome: Outcome | None = None
        """How the deal ended (``None`` while it goes on)."""
        self.outcome_side: int | None = None
        """The side the ended deal went to (``None`` for eggs)."""
        self.played: list[int] = []
        self._bests: list[int] = []
        self._records: list[int] = []
        self._unled_stack: list[int] = []
        self.leader = self.turn = facts.leader
        self.n = self.trick_points = 0
        self.follow = 0
        self.base = 0
        """Cards given on the table, not made: ``unmake`` stops before them."""
        if facts.trick:
            on_table = [INDEX[card] for card in facts.trick]
            for place, card in enumerate(on_table):
                self.hands[self._rounds[facts.leader][place]] |= BIT[card]
            for card in on_table:
                self.make(card)
            self.base = len(on_table)

    # -- constructors ------------------------------------------------------------------

    @classmethod
    def of_state(cls, state: MatchState) -> Position:
        """The engine's current card-play position, every hand and the talon as they are."""
        facts = DealFacts.of_state(state)
        deal = state.current
        assert deal is not None
        return cls.of_hands(facts, deal.hands, deal.talon)

    @classmethod
    def of_view(
        cls, view: View, hands: Sequence[Iterable[Card]], talon: Sequence[Card] = ()
    ) -> Position:
        """A seat's view of a card-play position with every hand filled in (the seat's own
        as its view shows it, the others sampled) and, with two players, the talon in the
        order it will be dealt."""
        if view.seat is not None and set(hands[view.seat]) != set(view.hand):
            raise ValueError("the seat's own hand differs from its view")
        return cls.of_hands(DealFacts.of_view(view), hands, talon)

    @classmethod
    def of_hands(
        cls, facts: DealFacts, hands: Sequence[Iterable[Card]], talon: Sequence[Card] = ()
    ) -> Position:
        """``facts`` with these hands (cards, by seat) and talon (top first), checked: the
        hands, the table, the completed tricks and the talon hold the deck once, and the
        hands' sizes fit the trick on the table."""
        masks = [mask_of(hand) for hand in hands]
        check_hands(facts, masks, list(talon))
        size = facts.rules.hand_size
        halves = (mask_of(talon[:size]), mask_of(talon[size:]))
        return cls(facts, masks, halves)

    # -- moves -------------------------------------------------------------------------

    def make(self, card: int) -> int:
        """Play ``card`` (an index; it must be legal) for the seat to play, and return what
        it completed: 0, or ``TRICK`` (``leader`` is the winner, who leads next), with
        ``OVER`` when the deal ended (``outcome``) or ``REFILL`` when the talon was dealt."""
        bit = BIT[card]
        seat = self.turn
        self.hands[seat] ^= bit
        self.played.append(card)
        n = self.n
        if n:
            best = self._bests[-1]
            if self._beaten_by[best & _CARD_MASK] & bit:
                best = n << _AT_SHIFT | card
            self.trick_points += POINTS[card]
        else:
            best = card
            follow = self.follow = self._follow_of[card]
            self.trick_points = POINTS[card]
            if self.ace_ban:
                self._unled_stack.append(self.unled)
                self.unled &= ~follow
        self._bests.append(best)
        n += 1
        if n < self.players:
            self.n = n
            self.turn = self._next[seat]
            return 0
        leader = self.leader
        winner = self._rounds[leader][best >> _AT_SHIFT]
        points = self.trick_points
        side = self._side[winner]
        self.points[side] += points
        self.won[side] += 1
        self.leader = self.turn = winner
        self.n = 0
        self.done += 1
        left = self.left = self.left - 1
        record = leader | points << _POINTS_SHIFT
        catch = self.catch
        if catch is not None:
            trick = self.played[-n:]
            if catch[0] in trick and catch[1] in trick and self._caught(trick, catch, leader):
                self._records.append(record)
                return TRICK | OVER
        event = TRICK
        if not left:
            if self.talon_due:
                first, second = self.talon
                self.hands[winner] = first
                self.hands[self._next[winner]] = second
                self.talon_due = False
                self.left = self.hand_size
                record |= _REFILL_FLAG
                event = TRICK | REFILL
            else:
                ended = outcome_of(self.facts.rules, self.points, self.won)
                self.outcome, self.outcome_side = ended
                event = TRICK | OVER
        self._records.append(record)
        return event

    def _caught(self, trick: list[int], catch: tuple[int, int], leader: int) -> bool:
        """The catch (``Rules.catch``) in the trick just taken: its two cards held by
        opposing sides end the deal, unless Lyusya is scored instead (``tricks``'
        ``lyusya_beats_catch``: the catch is in the last trick and its side took every
        trick). Sets the outcome when it ends the deal."""
        order = self._rounds[leader]
        side = self._side[order[trick.index(catch[0])]]
        if side == self._side[order[trick.index(catch[1])]]:
            return False
        if self.lyusya_catch and not self.left and not self.talon_due and not self.won[1 - side]:
            return False
        self.outcome, self.outcome_side = Outcome.CATCH, side
        return True

    def unmake(self) -> None:
        """Take back the last ``make`` exactly; ``IndexError`` past the given position."""
        played = self.played
        if len(played) <= self.base:
            raise IndexError("no move to take back")
        card = played.pop()
        self._bests.pop()
        n = self.n
        if n:
            seat = self._prev[self.turn]
            n = self.n = n - 1
            self.trick_points -= POINTS[card]
            if not n and self.ace_ban:
                self.unled = self._unled_stack.pop()
        else:
            record = self._records.pop()
            winner = self.leader
            side = self._side[winner]
            points = record >> _POINTS_SHIFT & _POINTS_MASK
            self.points[side] -= points
            self.won[side] -= 1
            if record & _REFILL_FLAG:
                self.hands[winner] = self.hands[self._next[winner]] = 0
                self.talon_due = True
                self.left = 0
            self.left += 1
            self.done -= 1
            self.outcome = self.outcome_side = None
            leader = self.leader = record & _LEADER_MASK
            seat = self._rounds[leader][-1]
            n = self.n = self.players - 1
            self.trick_points = points - POINTS[card]
            self.follow = self._follow_of[played[-n]]
        self.hands[seat] |= BIT[card]
        self.turn = seat

    # -- the questions -----------------------------------------------------------------

    def legal(self) -> int:
        """The mask of the cards the seat to play (``turn``) may play (RULES.md §1 trick
        rules 2–3 and the preset's lead and discard restrictions, as ``play.cards``)."""
        hand = self.hands[self.turn]
        if self.n:
            following = hand & self.follow
            if following:
                return following
            if self.ace_ban:
                return hand & ~self.unled or hand
            return hand
        if self.lead_rule:
            forced = self.forced
            if forced and not self.done and hand & forced:
                return forced
            plain = hand & self.plain
            if plain and not self._free_lead[self.turn]:
                return plain
        return hand

    def winning(self) -> int | None:
        """The seat taking the trick on the table so far (``None`` if it is empty)."""
        if not self.n:
            return None
        return self._rounds[self.leader][self._bests[-1] >> _AT_SHIFT]

    def last_trick(self) -> tuple[int, int, int] | None:
        """The last trick completed since the position was given: (its leader, its winner,
        its points); the winner leads next. ``None`` before any."""
        if not self._records:
            return None
        record = self._records[-1]
        return record & _LEADER_MASK, self.leader, record >> _POINTS_SHIFT & _POINTS_MASK

    @property
    def over(self) -> bool:
        """Whether the deal has ended (every trick played, or a catch)."""
        return self.outcome is not None

    def settlement(self) -> Settlement:
        """What the ended deal gives (``scoring.settle``, as the engine scores it)."""
        if self.outcome is None:
            raise ValueError("the deal goes on")
        return settle_deal(self.facts, self.outcome, self.outcome_side, self.points)

    def award(self) -> tuple[int, int]:
        """The ended deal's award per side (``settlement().award``)."""
        return self.settlement().award

    def key(self) -> tuple[object, ...]:
        """Everything that decides the rest of the deal (equal keys: equal positions)."""
        table = tuple(self.played[len(self.played) - self.n :])
        return (
            tuple(self.hands),
            self.turn,
            self.leader,
            table,
            tuple(self.points),
            tuple(self.won),
            self.done,
            self.left,
            self.talon_due,
            self.unled,
            self.outcome,
            self.outcome_side,
        )
