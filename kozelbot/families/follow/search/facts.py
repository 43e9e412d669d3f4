"""The public facts of a deal in trick play, everything but the hands: ``DealFacts``.

What every seat may know at a card-play position (``view.View`` holds all of it): the rules
and the deal's trump suit, the trick on the table and who led it, the completed tricks'
cards, the sides' card points and tricks, and what the deal's award depends on (the side on
obligation, the match score, the eggs and carry, whether it is the match's first deal) and
kryuk's trump-lead right (``play.trump_lead_sides``, asked of the engine, not worked out
again). A searching player builds it once per decision (``of_view``) and then as many
positions as it samples hidden hands (``position.Position``); ``of_state`` reads a whole
``MatchState``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from kozelbot.core.cards import Card, Suit
from kozelbot.families.follow.play import trump_lead_sides
from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.scoring import Settlement
from kozelbot.families.follow.search.bits import INDEX, mask_of
from kozelbot.families.follow.search.tables import Tables, tables_for
from kozelbot.families.follow.vocabulary import PLAY, Outcome

if TYPE_CHECKING:
    from kozelbot.families.follow.state import MatchState
    from kozelbot.families.follow.view import View


class Frame(NamedTuple):
    """What every position of a deal reads as plain ints and tuples (``Position`` unpacks
    it into its slots at once)."""

    players: int
    hand_size: int
    rounds: tuple[tuple[int, ...], ...]
    """``Rules.rounds``: by leader, the seats in trick order."""
    next_seat: tuple[int, ...]
    prev_seat: tuple[int, ...]
    sides: tuple[int, ...]
    follow: tuple[int, ...]
    beaten_by: tuple[int, ...]
    plain: int
    ace_ban: bool
    forced: int
    """The mask of the card the next lead must be if its leader holds it, or 0."""
    free_lead: tuple[bool, ...]
    """By seat: it may lead a trump while holding a plain card."""
    lead_rule: bool
    """Leads are restricted at all (kryuk)."""
    catch: tuple[int, int] | None
    lyusya_catch: bool
    """A catch in the last trick by a side with every trick is Lyusya instead."""
    unled: int
    """With the ace-discard ban: the plain aces of suits no completed trick has led."""
    in_play: int
    """Cards in the hands and on the table (the talon not counted)."""
    done: int
    """Completed tricks."""


@dataclass(frozen=True, slots=True)
class DealFacts:
    """A deal's public facts at a card-play position (phase ``play``)."""

    rules: Rules
    trump: Suit | None
    leader: int
    """Who led the trick on the table (who leads next, if it is empty)."""
    trick: tuple[Card, ...] = ()
    """The cards on the table, the leader's first."""
    played: tuple[Card, ...] = ()
    """The completed tricks' cards, trick by trick, each from its leader (an opening trick
    included): trick ``k`` is ``played[k * players : (k + 1) * players]``."""
    points: tuple[int, int] = (0, 0)
    tricks_won: tuple[int, int] = (0, 0)
    deal_no: int = 0
    obligation: int | None = None
    trump_lead: tuple[int, ...] | None = None
    """Kryuk: the sides that may lead a trump while holding a plain card; ``None``: any."""
    score: tuple[int, int] = (0, 0)
    eggs: int = 0
    carry: int = 0
    tables: Tables = field(init=False, compare=False)
    """The deck's strength tables under ``trump``."""
    frame: Frame = field(init=False, compare=False, repr=False)
    settled: dict[tuple[Outcome, int | None, int, int], Settlement] = field(
        init=False, compare=False, repr=False
    )
    """Settlements already worked out for this deal (``ending.settlement``)."""

    def __post_init__(self) -> None:
        rules = self.rules
        tables = tables_for(rules, self.trump)
        players = rules.players
        sides = self.trump_lead
        unled = tables.plain_aces if rules.ace_discard_ban else 0
        for lead in self.played[::players]:
            unled &= ~tables.follow[INDEX[lead]]
        card = rules.first_lead_card
        forced = rules.lead_card_forced and not self.deal_no and not self.played
        catch = rules.catch
        frame = Frame(
            players=players,
            hand_size=rules.hand_size,
            rounds=rules.rounds,
            next_seat=tuple(order[1] for order in rules.rounds),
            prev_seat=tuple(order[-1] for order in rules.rounds),
            sides=tuple(rules.side_of(seat) for seat in range(players)),
            follow=tables.follow,
            beaten_by=tables.beaten_by,
            plain=tables.plain,
            ace_ban=rules.ace_discard_ban,
            forced=mask_of((card,)) if forced and card is not None else 0,
            free_lead=tuple(sides is None or rules.side_of(s) in sides for s in range(players)),
            lead_rule=rules.lead_ban or forced,
            catch=None if catch is None else (INDEX[catch[0]], INDEX[catch[1]]),
            lyusya_catch=rules.lyusya_over_catch and rules.all_tricks != "none",
            unled=unled,
            in_play=len(rules.cards) - len(self.played),
            done=len(self.played) // players,
        )
        object.__setattr__(self, "tables", tables)
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "settled", {})

    @classmethod
    def of_state(cls, state: MatchState) -> DealFacts:
        """The facts of the engine's current card-play position."""
        deal = state.current
        if state.phase is not PLAY or deal is None:
            raise ValueError(f"not a card-play position: {state.phase}")
        return cls(
            rules=state.rules,
            trump=deal.trump,
            leader=deal.leader,
            trick=tuple(card for _, card in deal.trick),
            played=tuple(card for trick in deal.tricks for _, card in trick.cards),
            points=(deal.points[0], deal.points[1]),
            tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
            deal_no=deal.deal_no,
            obligation=deal.obligation,
            trump_lead=trump_lead_sides(state),
            score=(state.score[0], state.score[1]),
            eggs=state.eggs,
            carry=state.carry,
        )

    @classmethod
    def of_view(cls, view: View) -> DealFacts:
        """The facts a seat's view of a card-play position shows. The eggs in a row are the
        multiplier's (``eggs="multiply"``); where eggs carry, the engine keeps none."""
        if view.phase is not PLAY:
            raise ValueError(f"not a card-play position: {view.phase}")
        trick = tuple(card for _, card in view.trick if card is not None)
        if len(trick) != len(view.trick):
            raise ValueError("a card on the table is face down")
        leader = view.trick[0][0] if view.trick else view.to_act[0]
        return cls(
            rules=view.rules,
            trump=view.trump_suit,
            leader=leader,
            trick=trick,
            played=view.played,
            points=view.points,
            tricks_won=view.tricks_won,
            deal_no=view.deal_no,
            obligation=view.obligation,
            trump_lead=view.trump_lead,
            score=view.score,
            eggs=view.multiplier - 1,
            carry=view.carry,
        )


def check_hands(facts: DealFacts, hands: list[int], talon: list[Card]) -> None:
    """Raise ``ValueError`` unless these hands (masks by seat) and talon complete ``facts``:
    the deck once over hands, table, completed tricks and talon; one card fewer in the hand
    of each seat that has played to the trick on the table; a talon only as two hands."""
    rules = facts.rules
    players = rules.players
    if len(hands) != players:
        raise ValueError(f"{len(hands)} hands for {players} players")
    if len(facts.trick) >= players or len(facts.played) % players:
        raise ValueError("the table or the completed tricks are not whole tricks")
    if talon and len(talon) != players * rules.hand_size:
        raise ValueError(f"a talon of {len(talon)} cards")
    dealt = [*facts.trick, *facts.played, *talon]
    every = mask_of(dealt)
    count = len(dealt)
    for hand in hands:
        every |= hand
        count += hand.bit_count()
    if every != facts.tables.deck or count != len(rules.cards):
        raise ValueError("the hands, the table, the tricks and the talon are not the deck")
    order = rules.rounds[facts.leader]
    full = hands[order[-1]].bit_count()
    for place, seat in enumerate(order):
        if hands[seat].bit_count() != full - (place < len(facts.trick)):
            raise ValueError(f"seat {seat} holds {hands[seat].bit_count()} cards")
