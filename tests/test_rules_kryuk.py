"""Козёл с Крюком (RULES.md §1.2, preset ``kryuk``): one test or more per rule clause.

Deals are written as trick rows (see ``tests/scripted.py``): row ``k`` holds the card each
seat plays in trick ``k``. The rows below were found once by a search over computer-played
first deals (hand-offs declined) and frozen here, so the points, awards and winners follow
from the cards, not from a lucky seed. A first deal's rows stay legal in a later deal with
the same first leader (the first deal's lead rules are the strictest). Hvalyonka deals are
scripted with ``deal_stock`` (the shuffled deck, top first).
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from kozelbot.core.cards import DECK_32, Card, Rank, Suit, hand_points, parse_cards
from kozelbot.core.protocol import DealScored, GameError, shuffle_rng
from kozelbot.families.follow import FAMILY
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.records import Handoff
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.trace import deal_trace
from kozelbot.families.follow.vocabulary import (
    BLIND,
    Caught,
    Dealt,
    Event,
    GiveTrump,
    KeepHand,
    NotAllowed,
    NotYourTurn,
    Outcome,
    Phase,
    PlayCard,
    ReturnCard,
    TrickTaken,
    TrumpLeadBanned,
    WrongPhase,
)
from kozelbot.tools.simulate import play_match
from tests.scripted import (
    Rows,
    card,
    cards,
    hand_text,
    hands_from_rows,
    match_over,
    of_type,
    play_cards,
    play_rows,
    refusal_text,
    rotate,
    scored,
    table_text,
)

KRYUK_TRUMPS = parse_cards("7C QC QS QH QD JC JS JH JD AC 10C KC 9C 8C")
"""RULES.md §1.2: every trump of the deck, strongest first (the ladder, then clubs)."""

# -- frozen deals (first deals of a match; the first leader is the holder of A♦) -------------

# Seats 0+2 take 61 card points (first leader: seat 1).
ROWS_61_59: Rows = [
    "9D AD 7D 8D",
    "9S AS 8S KS",
    "JC 7S 10S 8C",
    "8H AH 10H 7H",
    "QD 10D KD 9H",
    "KH JD 7C 9C",
    "KC QS JH QC",
    "10C JS QH AC",
]
# Seats 0+2 take 89 (first leader: seat 3).
ROWS_89_31: Rows = [
    "10D 7D 9D AD",
    "8C 7S 10H AS",
    "7H KH 9H 8H",
    "AC 9S 7C 8S",
    "9C JS KD 8D",
    "QS KS JH JD",
    "QC 10S 10C QH",
    "JC AH QD KC",
]
# Seats 0+2 take 90 (first leader: seat 0).
ROWS_90_30: Rows = [
    "AD 9D KS 8D",
    "AH 7H 10H 8H",
    "7S 9S 8C JH",
    "7D 7C 9C 9H",
    "10S 10D JD KD",
    "JC QD JS QC",
    "QS AS 10C KH",
    "8S QH KC AC",
]
# Seats 1+3 take 118 in seven tricks (first leader: seat 3); ``rotate(…, 1)`` gives 118:2.
ROWS_2_118: Rows = [
    "10D KD 8D AD",
    "9S AS 8S 7S",
    "8C JH 7C 9C",
    "10H JS 7H KH",
    "8H QC JD QD",
    "9H JC QH QS",
    "KS 10C 9D 7D",
    "AH AC KC 10S",
]
# Seats 0+2 take all 120 points but only seven tricks: seats 1+3 take 8♦ 7♠ 8♥ 8♣ (0 points).
ROWS_120_SEVEN_TRICKS: Rows = [
    "AD 10D 7D 9D",
    "8D 7S 8H 8C",
    "KD KH 10H 7H",
    "AC QS 7C JD",
    "JC KC 9C JH",
    "KS 8S JS 10S",
    "QC 9S QD 9H",
    "10C AH QH AS",
]
# 60:60 (first leader: seat 0).
ROWS_EGGS: Rows = [
    "AD 7D 7H 7C",
    "8C 8S 10S AS",
    "8D 10D QC 7S",
    "9D 10H 8H 9H",
    "9C KH 9S AH",
    "KD QD KS AC",
    "JC QS JD 10C",
    "QH KC JS JH",
]
# Seats 0+2 take all eight tricks (first leader: seat 0).
ROWS_ALL_TRICKS: Rows = [
    "AD 8D 10D 7D",
    "AH 8H 7H KH",
    "JH 8C 7C 9C",
    "JS 7S KS 10S",
    "QH JC QD JD",
    "QS 9H KC 8S",
    "10C 9D QC 9S",
    "AC KD AS 10H",
]
# The third trick holds 7♣ (seat 2) and Q♣ (seat 3): the catch, for seats 0+2 (first
# leader: seat 2). The rows after it are never played.
ROWS_CATCH: Rows = [
    "9S KD AD 8D",
    "9C KS AS 7S",
    "JD QH 7C QC",
    "JS QS 8C 9D",
    "QD 8H JC AH",
    "10C 10S 7D 10H",
    "JH KH 9H 8S",
    "AC 7H 10D KC",
]
# The fifth trick holds Q♣ (seat 1) and 7♣ (seat 3): partners, an ordinary trick (first
# leader: seat 2; seats 1+3 take 81).
ROWS_SAME_PAIR_7C_QC: Rows = [
    "7D 8C AD 10D",
    "AS 7H 8H 8S",
    "8D 10H 9D 9C",
    "7S 9S KS 10S",
    "JS QC QH 7C",
    "JC JD QS KC",
    "QD 9H KH 10C",
    "KD JH AH AC",
]
# Built by hand: seats 0+2 take the first seven tricks; in the last one seat 0's 7♣ meets
# seat 1's Q♣ (first leader: seat 0). The catch and all eight tricks in one deal.
ROWS_ALL_TRICKS_CATCH_LAST: Rows = [
    "AD 9D AS 7D",
    "10D 8D KS 7S",
    "KD AC QH KC",
    "QS 9H AH KH",
    "10S 9S QD 9C",
    "JC 8S 10H 8H",
    "JD 10C JS 8C",
    "7C QC JH 7H",
]

# Lead restrictions: seat 3 holds A♦ (and leads it in a first deal); seat 1 holds A♠ and
# plain cards besides its four trumps. Nobody may hand off (no hand holds a single trump).
LEAD_HANDS = [
    parse_cards("7S 8S 9H 8H 9D QS JC AC"),
    parse_cards("AS 9S KH 8D QH JS KC 9C"),
    parse_cards("10S KS AH 7H 7D QD JH 8C"),
    parse_cards("10H AD 10D KD 7C QC JD 10C"),
]

# Hand-off: seat 0 (A♦, first leader) holds a single trump, Q♠ (3 points); its partner,
# seat 2, holds the plain cards K♠ 8♠ K♥ besides five trumps.
HANDOFF_HANDS = [
    parse_cards("QS AS 10S 9S AH 10H 9H AD"),
    parse_cards("7C QC QH AC 10D KD 9D 7S"),
    parse_cards("JC JS KC 9C 8C KS 8S KH"),
    parse_cards("QD JH JD 10C 8D 7D 8H 7H"),
]
# Hand-off to a partner holding nothing but trumps (seat 2).
HANDOFF_TO_ALL_TRUMPS = [
    parse_cards("QS AS 10S 9S AH 10H 9H AD"),
    parse_cards("7C QD KC KS 8S 10D KD 9D"),
    parse_cards("QC QH JC JS JH JD AC 10C"),
    parse_cards("9C 8C 7S KH 8H 7H 8D 7D"),
]

# Hvalyonka, praised seat 1 (deal 1). Seat 1 is dealt Q♣ Q♠ (trumps), then J♣ A♠ and leads
# A♠ face down; seat 2 is dealt 10♥ 7♣, seat 3 Q♥ Q♦ then J♠ 8♠, seat 0 9♦ K♦; then the
# rest of the deck, in turn from seat 1, up to 8 cards each.
HVALYONKA_STOCK = parse_cards(
    "QC QS JC AS  10H 7C  QH QD JS 8S  9D KD  "
    "AH KH 10S 7D  JH JD 9S 7S AD 10D  9H 8H KS 8D  AC 10C KC 9C 8C 7H"
)
# The praised seat's first three pairs are all trumps: the dealer swaps A♠ into the 4th.
STOCK_EIGHT_TRUMPS_ON_TOP = parse_cards(
    "7C QC QS QH QD JC JS JH  AS 10S KS 9S 8S 7S  AH 10H KH 9H 8H 7H "
    "AD 10D KD 9D 8D 7D  AC 10C KC 9C 8C JD"
)


# Hvalyonka, praised seat 1, after whose blind trick (A♠ 7♣ 8♠ K♦) seat 0 holds a single
# trump with points (J♥) and may hand it off to seat 2.
HANDOFF_AFTER_HVALYONKA = parse_cards(
    "QC QS JC AS  10H 7C  QH QD JS 8S  9D KD  "
    "AC 10C KH 7D  JD KC 9C 8C 10S KS  AH 9H 8H 7H  JH 9S 7S AD 10D 8D"
)


def kryuk(**options: object) -> MatchState:
    """A fresh ``kryuk`` match."""
    return MatchState("kryuk", dict(options))


def later_deal(leader: int, *, deal_no: int = 1, score: tuple[int, int] = (0, 0)) -> MatchState:
    """A ``kryuk`` match at a later deal whose first-lead right is ``leader``'s."""
    state = kryuk()
    state.deal_no = deal_no
    state.lead_right = leader
    state.score = list(score)
    return state


def keep_handoffs(state: MatchState) -> list[Event]:
    """Every seat asked about a hand-off keeps its hand."""
    events: list[Event] = []
    while state.phase is Phase.HANDOFF:
        events.extend(state.apply(state.to_act()[0], KeepHand()))
    return events


def deal_rows(state: MatchState, rows: Rows) -> list[Event]:
    """Deal the hands of ``rows`` (a plain deal) and decline every hand-off."""
    events = state.deal_hands(hands_from_rows(rows))
    events.extend(keep_handoffs(state))
    return events


def play_deal(state: MatchState, rows: Rows) -> list[Event]:
    """Deal ``rows`` and play them out."""
    events = deal_rows(state, rows)
    assert state.phase is Phase.PLAY
    events.extend(play_rows(state, rows))
    return events


def deal_hands(state: MatchState, hands: list[list[Card]]) -> list[Event]:
    return state.deal_hands([list(hand) for hand in hands])


def hvalyonka(stock: list[Card] = HVALYONKA_STOCK, praised: int = 1) -> MatchState:
    """Deal 1 of a match, the hvalyonka of ``praised`` dealt from ``stock``."""
    state = later_deal(praised)
    state.deal_stock(list(stock))
    assert state.phase is BLIND
    return state


def computer(state: MatchState) -> list[Event]:
    """One computer move for the seat to act."""
    seat = state.to_act()[0]
    return state.apply(seat, choose_action(state.view_for(seat)))


def breaks_dealing_constraints(hand: list[Card] | tuple[Card, ...]) -> bool:
    """Four queens without 7♣, or more than four plain cards of one suit (RULES.md §1.2)."""
    queens = sum(1 for c in hand if c.rank is Rank.QUEEN)
    if queens == 4 and card("7C") not in hand:
        return True
    plain = [c for c in hand if c not in KRYUK_TRUMPS]
    return any(sum(1 for c in plain if c.suit is suit) > 4 for suit in Suit)


# -- ladder, deck ---------------------------------------------------------------------------


def test_s1_2_ladder_7c_qc_qs_qh_qd_jc_js_jh_jd_then_clubs_a_10_k_9_8() -> None:
    """RULES.md §1.2: 7♣ (Крюк) > Q♣ (Пелотка) > Q♠ > Q♥ > Q♦ > J♣ J♠ J♥ J♦, then the
    trump suit clubs A 10 K 9 8; every trump beats every plain card."""
    state = kryuk()
    table = state.strength
    trumps = sorted((c for c in DECK_32 if table.is_trump(c)), key=lambda c: -table.strength[c])
    assert trumps == KRYUK_TRUMPS
    for i, high in enumerate(KRYUK_TRUMPS):
        for low in KRYUK_TRUMPS[i + 1 :]:
            assert state.trick_winner([(0, low), (1, high), (2, card("AS"))]) == 1
            assert state.trick_winner([(0, high), (1, low), (2, card("AS"))]) == 0
        assert state.trick_winner([(0, card("AH")), (1, card("10H")), (2, high)]) == 2


def test_s1_2_plain_suits_spades_hearts_diamonds_a_10_k_9_8_7() -> None:
    """RULES.md §1.2: the plain suits are ♠ ♥ ♦, each A 10 K 9 8 7 (queens and jacks are
    trumps; every club is a trump); a discard of another suit never wins."""
    state = kryuk()
    table = state.strength
    plain = [c for c in DECK_32 if not table.is_trump(c)]
    assert {c.suit for c in plain} == {Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS}
    for suit in "SHD":
        order = [card(rank + suit) for rank in ("A", "10", "K", "9", "8", "7")]
        assert {c for c in plain if c.suit.value == suit} == set(order)
        for high, low in pairwise(order):
            assert state.trick_winner([(0, low), (1, high)]) == 1, (high, low)
            assert state.trick_winner([(0, high), (1, low)]) == 0, (high, low)
    assert state.trick_winner([(0, card("7H")), (1, card("AS")), (2, card("AD"))]) == 0


def test_s1_2_deck_32_cards_8_each() -> None:
    """RULES.md §1.2: 4 players in pairs, the 32-card deck, 8 cards each."""
    state = kryuk()
    assert state.players == 4
    assert set(state.rules.cards) == set(DECK_32) and len(state.rules.cards) == 32
    for seed in range(20):
        state = kryuk()
        state.deal(shuffle_rng(seed, 0))
        assert state.current is not None
        hands = state.current.hands
        assert [len(hand) for hand in hands] == [8, 8, 8, 8]
        assert {c for hand in hands for c in hand} == set(DECK_32)


def test_s1_2_dealing_never_gives_four_queens_without_7c_or_five_plain_cards_of_a_suit() -> None:
    """RULES.md §1.2 dealing: the deck is re-shuffled until no hand holds four queens
    without 7♣ and no hand holds more than four plain cards of one suit."""
    raw_breaks = 0
    for seed in range(600):
        deck = list(DECK_32)
        shuffle_rng(seed, 0).shuffle(deck)
        raw_breaks += any(breaks_dealing_constraints(deck[i * 8 : i * 8 + 8]) for i in range(4))
        state = kryuk()
        state.deal(shuffle_rng(seed, 0))
        assert state.current is not None
        for hand in state.current.hands:
            assert not breaks_dealing_constraints(hand), (seed, [str(c) for c in hand])
    assert raw_breaks > 0  # a plain shuffle does break them now and then: the check matters


def test_s1_2_dealing_constraints_reject_exactly_the_named_hands() -> None:
    """RULES.md §1.2 dealing: four queens *with* 7♣ and four plain cards of a suit are fine."""
    assert not breaks_dealing_constraints(parse_cards("7C QC QS QH QD AS 10S KS"))
    assert breaks_dealing_constraints(parse_cards("JC QC QS QH QD AS 10S KS"))
    assert not breaks_dealing_constraints(parse_cards("AS 10S KS 9S AH 10H KH 9H"))
    assert breaks_dealing_constraints(parse_cards("AS 10S KS 9S 8S 10H KH 9H"))
    state = kryuk()
    assert state._acceptable([parse_cards("7C QC QS QH QD AS 10S KS")])
    assert not state._acceptable([parse_cards("JC QC QS QH QD AS 10S KS")])
    assert state._acceptable([parse_cards("AS 10S KS 9S AH 10H KH 9H")])
    assert not state._acceptable([parse_cards("AS 10S KS 9S 8S 10H KH 9H")])


def test_s1_2_dealing_constraints_hold_in_hvalyonka_deals_too() -> None:
    """RULES.md §1.2 dealing: the constraints are a rule of every deal, so they hold for
    the hands a hvalyonka deal ends with as well."""
    for seed in range(300):
        state = later_deal(seed % 4)
        state.deal(shuffle_rng(seed, 0))
        while state.phase is BLIND:
            computer(state)
        assert state.current is not None
        for hand in state.current.initial_hands:
            assert not breaks_dealing_constraints(hand), (seed, [str(c) for c in hand])


# -- last-trump hand-off (отход от последнего) -------------------------------------------------


def test_s1_2_handoff_single_trump_with_points_goes_to_the_partner_for_a_plain_card() -> None:
    """RULES.md §1.2 hand-off: before the first lead, a hand holding exactly one trump that
    has points may pass it to the partner, who returns a plain card of their choice."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    assert state.phase is Phase.HANDOFF
    assert state.to_act() == (0,)
    assert state.handoff_cards(0) == (card("QS"),)
    assert state.legal_actions(0) == [GiveTrump((card("QS"),)), KeepHand()]
    with pytest.raises(WrongPhase):
        state.apply(0, PlayCard(card("AD")))  # no lead before the hand-off is settled
    state.apply(0, GiveTrump((card("QS"),)))
    assert state.to_act() == (2,)
    assert set(state.return_cards(2)) == cards("KS 8S KH")  # plain cards only
    with pytest.raises(NotAllowed) as error:
        state.apply(2, ReturnCard(card("JC")))
    assert set(error.value.legal) == cards("KS 8S KH")
    with pytest.raises(NotAllowed):
        state.apply(2, ReturnCard(card("QS")))
    state.apply(2, ReturnCard(card("KH")))  # the partner's choice
    assert state.phase is Phase.PLAY and state.to_act() == (0,)
    assert state.current is not None
    assert card("KH") in state.current.hands[0] and card("QS") not in state.current.hands[0]
    assert card("QS") in state.current.hands[2] and card("KH") not in state.current.hands[2]
    assert [len(hand) for hand in state.current.hands] == [8, 8, 8, 8]
    assert state.current.handoffs == [Handoff(0, 2, (card("QS"),), (card("KH"),))]


def test_s1_2_handoff_partner_returns_a_trump_only_when_holding_nothing_else() -> None:
    """RULES.md §1.2 hand-off: the partner returns a trump only if they hold nothing else."""
    state = kryuk()
    deal_hands(state, HANDOFF_TO_ALL_TRUMPS)
    assert state.phase is Phase.HANDOFF and state.to_act() == (0,)
    state.apply(0, GiveTrump((card("QS"),)))
    assert set(state.return_cards(2)) == cards("QC QH JC JS JH JD AC 10C")
    state.apply(2, ReturnCard(card("10C")))
    assert state.phase is Phase.PLAY
    assert state.current is not None
    assert card("10C") in state.current.hands[0]


@pytest.mark.parametrize("zero", ["7C", "8C", "9C"])
def test_s1_2_handoff_not_for_a_single_trump_without_points(zero: str) -> None:
    """RULES.md §1.2 hand-off: the single trump must have points — a lone 7♣ (Крюк), 8♣ or
    9♣ cannot be handed off, so play starts at once."""
    hands = [list(hand) for hand in HANDOFF_HANDS]
    holder = next(s for s, hand in enumerate(hands) if card(zero) in hand)
    hands[holder][hands[holder].index(card(zero))] = card("QS")
    hands[0][hands[0].index(card("QS"))] = card(zero)
    state = kryuk()
    state.deal_hands(hands)
    assert state.phase is Phase.PLAY and state.to_act() == (0,)
    assert state.handoff_cards(0) == ()
    with pytest.raises(WrongPhase):
        state.apply(0, GiveTrump((card(zero),)))


def test_s1_2_handoff_not_with_two_trumps() -> None:
    """RULES.md §1.2 hand-off: only a hand holding exactly one trump (sixes allows two)."""
    hands = [list(hand) for hand in HANDOFF_HANDS]
    hands[0][hands[0].index(card("9H"))] = card("JS")
    hands[2][hands[2].index(card("JS"))] = card("9H")
    state = kryuk()
    state.deal_hands(hands)
    assert state.phase is Phase.PLAY
    assert state.current is not None and state.current.handoffs == []


def test_s1_2_handoff_may_be_declined() -> None:
    """RULES.md §1.2 hand-off: the player *may* pass the trump; keeping the hand starts play."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    state.apply(0, KeepHand())
    assert state.phase is Phase.PLAY and state.to_act() == (0,)
    assert state.current is not None and state.current.handoffs == []
    assert [list(h) for h in state.current.hands] == [list(h) for h in HANDOFF_HANDS]


def test_s1_2_handoff_is_not_told_to_the_opponents() -> None:
    """RULES.md §1.2 hand-off: the opponents are not told — their views and the public
    view show no hand-off and nobody to act; the giver and the partner see it."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    state.apply(0, GiveTrump((card("QS"),)))
    given = Handoff(0, 2, (card("QS"),))
    assert state.view_for(0).handoffs == (given,)
    assert state.view_for(2).handoffs == (given,)
    assert state.view_for(2).returning == 2 and state.view_for(0).to_act == (2,)
    for seat in (1, 3, None):
        view = state.view_for(seat)
        assert view.handoffs == () and view.handoff_notes == ()
        assert view.returning is None and view.to_act == () and view.phase is Phase.WAITING
    state.apply(2, ReturnCard(card("8S")))
    done = Handoff(0, 2, (card("QS"),), (card("8S"),))
    assert state.view_for(0).handoffs == (done,)
    assert state.view_for(2).handoffs == (done,)
    for seat in (1, 3, None):
        assert state.view_for(seat).handoffs == ()
    assert "8♠" not in table_text(state) and "Д♠" not in table_text(state)


def test_s1_2_handoff_in_progress_does_not_show_in_the_opponents_hand_counts() -> None:
    """RULES.md §1.2 hand-off: while the partner chooses the card to return, nothing the
    opponents (or the table) see tells them a trump changed hands."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    state.apply(0, GiveTrump((card("QS"),)))
    for seat in (1, 3, None):
        assert state.view_for(seat).hand_sizes == (8, 8, 8, 8)


def asked_instead(state: MatchState, seat: int) -> MatchState:
    """The same state with ``seat`` deciding about a hand-off instead (and no trump passed
    yet): what nobody outside the hand-off may tell apart."""
    other = MatchState.load(state.dump())
    deal = other.current
    assert deal is not None
    if deal.handoffs and deal.handoffs[-1].active:
        last = deal.handoffs.pop()
        for given in last.cards:
            deal.hands[last.to].remove(given)
            deal.hands[last.giver].append(given)
    deal.handoff_pending = [seat]
    return other


def test_s1_2_handoff_of_a_game_saved_with_the_old_record_shape_loads() -> None:
    """A game saved while a hand-off record held one ``card`` and one ``returned`` card (or
    null) loads as the same hand-off, the return still owed, with no answer (nobody is asked
    in kryuk)."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    state.apply(0, GiveTrump((card("QS"),)))
    data = state.dump()
    data["current"]["handoffs"] = [{"giver": 0, "to": 2, "card": "QS", "returned": None}]
    loaded = MatchState.load(data)
    assert loaded == state and loaded.to_act() == (2,) and loaded.hidden_turn
    assert loaded.current is not None and loaded.current.handoffs[0].answer is None


def test_s1_2_handoff_step_is_hidden_from_everyone_but_the_deciding_seat() -> None:
    """RULES.md §1.2 hand-off, "Opponents are not told": the whole step is hidden — while a
    seat decides, every other view (the partner's too: nothing has reached them) and the
    table show only that the deal waits, exactly as if another seat were deciding."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    assert state.hidden_turn and state.to_act() == (0,)
    assert state.view_for(0).phase is Phase.HANDOFF and state.view_for(0).to_act == (0,)
    for seat in (1, 2, 3, None):
        view = state.view_for(seat)
        assert view.phase is Phase.WAITING and view.to_act == () and view.actions == ()
    text = table_text(state)
    assert "Ждём начала сдачи…" in text and "Отход" not in text and "<b>" not in text
    assert "⏳" not in text  # a timer would tell that someone is asked
    for decider in (1, 2, 3):
        other = asked_instead(state, decider)
        assert table_text(other) == text
        for seat in {1, 2, 3} - {decider}:
            assert other.view_for(seat) == state.view_for(seat)
            assert hand_text(other, seat) == hand_text(state, seat)
    assert all("Ждём начала сдачи…" in hand_text(state, seat) for seat in range(4))
    state.apply(0, GiveTrump((card("QS"),)))
    assert state.hidden_turn and state.to_act() == (2,)
    assert table_text(state) == text == table_text(asked_instead(state, 3))
    for seat, decider in ((1, 3), (3, 1)):  # an opponent cannot tell it from the other's
        assert state.view_for(seat) == asked_instead(state, decider).view_for(seat)
    state.apply(2, ReturnCard(card("8S")))
    assert not state.hidden_turn and state.phase is Phase.PLAY


def test_s1_2_handoff_refusals_for_seats_not_asked_are_neutral() -> None:
    """RULES.md §1.2 hand-off: a seat not asked that presses anything — a card, a forged
    ``keep`` or ``give`` — is told only that the deal waits: no seat, no reason."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    neutral = "The deal has not started yet — wait a moment."
    presses = [
        (1, KeepHand()),
        (3, GiveTrump((card("QD"),))),
        (2, KeepHand()),
        (2, ReturnCard(card("8S"))),
        (1, PlayCard(card("7S"))),
        (0, PlayCard(card("AD"))),
    ]
    for seat, action in presses:
        assert refusal_text(state, seat, action) == neutral, (seat, action)
    state.apply(0, GiveTrump((card("QS"),)))
    for seat, action in [(1, KeepHand()), (3, ReturnCard(card("8D"))), (0, PlayCard(card("AD")))]:
        assert refusal_text(state, seat, action) == neutral, (seat, action)


def test_s1_2_handoff_after_a_hvalyonka_trick_waits_for_play_to_go_on() -> None:
    """RULES.md §1.2 **Decision** (hand-off in a hvalyonka deal): the hand-off comes after the
    blind trick, hidden like any other; the table then says only that play will go on."""
    state = hvalyonka(HANDOFF_AFTER_HVALYONKA)
    play_cards(state, "AS 7C 8S KD")
    assert state.phase is Phase.HANDOFF and state.hidden_turn
    asked = state.to_act()[0]
    text = table_text(state)
    assert "Ждём продолжения игры…" in text and "Ждём начала сдачи" not in text
    others = [seat for seat in range(4) if seat != asked]
    assert refusal_text(state, others[0], KeepHand()) == "Play goes on in a moment — please wait."
    assert table_text(asked_instead(state, others[0])) == text


def test_s1_2_hvalyonka_trace_records_the_stock_and_each_seats_pairs() -> None:
    """RULES.md §1.2 hvalyonka (issue #14 trace): ``deck`` is the stock the deal was drawn
    from, top first, and ``opening_draws`` the pairs each seat was dealt, in dealing order."""
    state = hvalyonka()
    while state.last_result is None or state.last_result.deal_no != 1:
        computer(state)
    trace = deal_trace(state, state.last_result, match=0, players=["a", "b", "c", "d"])
    assert trace["deck"] == [str(c) for c in HVALYONKA_STOCK]
    assert trace["opening_draws"] == [
        {"seat": 1, "cards": ["QC", "QS", "JC", "AS"]},
        {"seat": 2, "cards": ["10H", "7C"]},
        {"seat": 3, "cards": ["QH", "QD", "JS", "8S"]},
        {"seat": 0, "cards": ["9D", "KD"]},
    ]
    assert trace["dealer"] == 0 and trace["redeal_requests"] == []


def test_s1_2_handoff_is_traced_with_its_cards() -> None:
    """RULES.md §1.2 hand-off (trace): the trump passed and the card returned, with no answer
    (nobody is asked in kryuk); the first trick's hands hold them where they went."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    state.apply(0, GiveTrump((card("QS"),)))
    state.apply(2, ReturnCard(card("KH")))
    while state.last_result is None:
        computer(state)
    trace = deal_trace(state, state.last_result, match=0, players=["a", "b", "c", "d"])
    assert trace["handoffs"] == [
        {"from": 0, "to": 2, "cards": ["QS"], "returned": ["KH"], "answer": None}
    ]
    first = trace["tricks"][0]["hands"]
    assert "KH" in first[0] and "QS" in first[2]


def test_s1_2_first_deal_holder_of_ad_after_the_handoff_leads_it() -> None:
    """RULES.md §1.2 first lead, **Decision**: "the holder" is whoever holds A♦ when the
    first card is led — a partner who returns A♦ hands over the first lead with it, and
    the lead right then passes on from the new first leader."""
    hands = [list(hand) for hand in HANDOFF_HANDS]
    hands[0][hands[0].index(card("AD"))] = card("8S")
    hands[2][hands[2].index(card("8S"))] = card("AD")
    state = kryuk()
    assert of_type(state.deal_hands(hands), Dealt)[0].first_leader == 2
    state.apply(0, GiveTrump((card("QS"),)))
    state.apply(2, ReturnCard(card("AD")))
    assert state.phase is Phase.PLAY
    assert state.current is not None
    assert state.current.first_leader == 0 and state.current.leader == 0
    assert state.current.obligation == 0
    assert state.to_act() == (0,) and state.legal_cards(0) == (card("AD"),)
    with pytest.raises(TrumpLeadBanned):
        state.apply(0, PlayCard(card("AH")))
    for _ in range(32):
        if state.phase is not Phase.PLAY:
            break
        computer(state)
    result = state.last_result
    assert result is not None and result.deal_no == 0
    assert state.lead_right == (1 if result.outcome != Outcome.EGGS else 0)


# -- first lead ---------------------------------------------------------------------------


def test_s1_2_first_deal_holder_of_ad_leads_and_must_lead_ad() -> None:
    """RULES.md §1.2 first lead: in the match's first deal the holder of A♦ leads, and must
    lead A♦ itself."""
    for seed in range(30):
        state = kryuk()
        dealt = of_type(state.deal(shuffle_rng(seed, 0)), Dealt)[0]
        keep_handoffs(state)
        assert state.current is not None
        holder = next(s for s, hand in enumerate(state.current.hands) if card("AD") in hand)
        assert dealt.first_leader == holder
        assert state.to_act() == (holder,)
        assert state.legal_cards(holder) == (card("AD"),)
    state = kryuk()
    deal_hands(state, LEAD_HANDS)
    assert state.to_act() == (3,)
    for other in ("10D", "KD", "7C", "QC"):
        with pytest.raises(GameError) as error:
            state.apply(3, PlayCard(card(other)))
        assert getattr(error.value, "legal", None) == (card("AD"),)
    play_cards(state, "AD")
    assert state.to_act() == (0,)


def test_s1_2_later_deals_the_first_lead_right_passes_clockwise() -> None:
    """RULES.md §1.2 first lead: after the first deal the first-lead right passes clockwise,
    whoever holds A♦ and whoever took the last trick."""
    state = kryuk()
    events = play_deal(state, ROWS_61_59)  # A♦ with seat 1
    assert of_type(events, Dealt)[0].first_leader == 1
    assert scored(events).outcome == Outcome.NORMAL
    assert state.lead_right == 2
    dealt = of_type(state.deal(shuffle_rng(5, state.shuffles)), Dealt)[0]
    assert dealt.first_leader == 2 and dealt.deal_no == 1
    assert state.to_act() == (2,)
    for leader in range(4):
        state = later_deal(leader)
        hands = hands_from_rows(ROWS_90_30)  # A♦ with seat 0
        assert of_type(state.deal_hands(hands), Dealt)[0].first_leader == leader


def test_s1_2_first_lead_right_stays_put_after_eggs() -> None:
    """RULES.md §1.2 eggs: the first-lead right does not pass after an eggs deal."""
    state = kryuk()
    result = scored(play_deal(state, ROWS_EGGS))
    assert result.outcome == Outcome.EGGS
    assert state.lead_right == 0
    dealt = of_type(state.deal(shuffle_rng(3, state.shuffles)), Dealt)[0]
    assert dealt.first_leader == 0
    state = later_deal(2, deal_no=4)
    scored(play_deal(state, rotate(ROWS_EGGS, 2)))
    assert state.lead_right == 2


# -- lead restriction (козырять) -------------------------------------------------------------


def test_s1_2_first_deal_nobody_may_lead_a_trump_while_holding_a_plain_card() -> None:
    """RULES.md §1.2 lead restriction: in the match's first deal nobody may lead a trump
    while holding a plain card — not even the pair that made the first lead."""
    state = kryuk()
    deal_hands(state, LEAD_HANDS)
    play_cards(state, "AD 9D 8D 7D")  # seat 3 keeps the lead
    assert state.to_act() == (3,)
    assert set(state.legal_cards(3)) == cards("10H 10D KD")
    with pytest.raises(TrumpLeadBanned) as error:
        state.apply(3, PlayCard(card("7C")))
    assert set(error.value.legal) == cards("10H 10D KD")
    play_cards(state, "10H")
    assert state.current is not None and state.current.trick


def test_s1_2_first_deal_a_hand_of_only_trumps_may_lead_one() -> None:
    """RULES.md §1.2 lead restriction: "unless holding only trumps" — in the first deal a
    player left with trumps alone leads one."""
    state = kryuk()
    deal_rows(state, ROWS_ALL_TRICKS_CATCH_LAST)
    play_rows(state, ROWS_ALL_TRICKS_CATCH_LAST[:6])
    assert state.to_act() == (0,)
    assert set(state.legal_cards(0)) == cards("JD 7C")
    play_cards(state, "JD")


def test_s1_2_later_deal_only_the_pair_that_led_first_may_lead_a_trump() -> None:
    """RULES.md §1.2 lead restriction: after the first deal, a player holding a plain card
    may lead a trump only if their pair made the first lead of this deal."""
    state = later_deal(0)
    deal_hands(state, LEAD_HANDS)
    assert state.phase is Phase.PLAY and state.to_act() == (0,)
    assert set(state.legal_cards(0)) == set(LEAD_HANDS[0])  # the first leader's pair
    play_cards(state, "7S AS 10S 10H")  # seat 1 (the other pair) takes the trick
    assert state.to_act() == (1,)
    assert set(state.legal_cards(1)) == cards("9S KH 8D")
    with pytest.raises(TrumpLeadBanned) as error:
        state.apply(1, PlayCard(card("QH")))
    assert set(error.value.legal) == cards("9S KH 8D")
    # The first leader's partner, holding plain cards, may lead a trump.
    state = later_deal(2)
    deal_hands(state, LEAD_HANDS)
    assert set(state.legal_cards(2)) == set(LEAD_HANDS[2])
    state = later_deal(1)
    deal_hands(state, LEAD_HANDS)
    play_cards(state, "AS 10S 10H 7S")  # seat 1 led and keeps the lead
    assert set(state.legal_cards(1)) == set(LEAD_HANDS[1]) - cards("AS")


@pytest.mark.parametrize(
    ("score", "may"), [((10, 10), True), ((10, 9), False), ((9, 10), False), ((8, 8), False)]
)
def test_s1_2_at_10_10_both_pairs_may_lead_a_trump(score: tuple[int, int], may: bool) -> None:
    """RULES.md §1.2 lead restriction: at 10:10 (козлячий бой) both pairs may lead trumps;
    at any other score only the pair that made the first lead."""
    state = later_deal(0, deal_no=6, score=score)
    deal_hands(state, LEAD_HANDS)
    play_cards(state, "7S AS 10S 10H")
    assert state.to_act() == (1,)
    assert (card("QH") in state.legal_cards(1)) is may
    if may:
        play_cards(state, "QH")


# -- catch Pelotka -----------------------------------------------------------------------------


def test_s1_2_catch_pelotka_in_the_first_deal_scores_12_and_wins_the_match() -> None:
    """RULES.md §1.2 catch: 7♣ and an opponent's Q♣ in one trick end the deal; in the
    match's first deal the 7♣ pair scores 12 — the match is won."""
    state = kryuk()
    events = play_deal(state, ROWS_CATCH)
    assert of_type(events, Caught) == [Caught(catcher=2, caught=3)]
    assert len(of_type(events, TrickTaken)) == 3
    result = scored(events)
    assert result.outcome == Outcome.CATCH
    assert result.side == 0
    assert result.award == (12, 0)
    assert match_over(events) == [(0, (12, 0))]
    assert state.phase is Phase.OVER and state.winner == 0


def test_s1_2_catch_pelotka_in_a_later_deal_scores_4_and_ends_the_deal() -> None:
    """RULES.md §1.2 catch: in a later deal the 7♣ pair scores 4; the deal ends when the
    trick is complete (cards stay in the hands, their points are not counted)."""
    state = later_deal(2, score=(3, 5))
    events = play_deal(state, ROWS_CATCH)
    result = scored(events)
    assert result.outcome == Outcome.CATCH
    assert result.award == (4, 0)
    assert result.score == (7, 5)
    assert match_over(events) == []
    assert state.phase is Phase.DEALING
    assert state.current is not None
    assert [len(hand) for hand in state.current.hands] == [5, 5, 5, 5]
    with pytest.raises(WrongPhase):
        state.apply(2, PlayCard(card("JS")))
    # Either pair can catch: the same deal one seat round is a catch for seats 1+3.
    state = later_deal(3)
    result = scored(play_deal(state, rotate(ROWS_CATCH, 1)))
    assert result.outcome == Outcome.CATCH and result.award == (0, 4)


def test_s1_2_catch_pelotka_needs_the_q_of_clubs_of_an_opponent() -> None:
    """RULES.md §1.2 catch: 7♣ and the partner's Q♣ in one trick is an ordinary trick."""
    state = kryuk()
    events = play_deal(state, ROWS_SAME_PAIR_7C_QC)
    assert of_type(events, Caught) == []
    tricks = of_type(events, TrickTaken)
    assert len(tricks) == 8
    both = [t for t in tricks if {c for _, c in t.cards} >= cards("7C QC")]
    assert len(both) == 1 and both[0].winner == 3  # the 7♣ simply takes its partner's Q♣
    result = scored(events)
    assert result.outcome == Outcome.NORMAL
    assert result.points == (39, 81) and result.award == (0, 2)


def test_s1_2_catch_pelotka_in_the_last_trick_stands_when_the_catchers_took_every_trick() -> None:
    """RULES.md §1.2 catch: the catch ends the deal and scores 12 in the match's first deal,
    also when it comes in the last trick and the catching pair took every trick (§1.1's
    Decision prefers the greater outcome for that pair; here that is the catch)."""
    state = kryuk()
    events = play_deal(state, ROWS_ALL_TRICKS_CATCH_LAST)
    assert of_type(events, TrickTaken)[-1].winner == 0
    assert scored(events).tricks_won == (8, 0)
    assert of_type(events, Caught) == [Caught(catcher=0, caught=1)]
    result = scored(events)
    assert result.outcome == Outcome.CATCH
    assert result.award == (12, 0)
    assert state.phase is Phase.OVER and state.winner == 0


# -- deal scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "points", "award"),
    [
        (ROWS_61_59, (61, 59), 2),
        (ROWS_89_31, (89, 31), 2),
        (ROWS_90_30, (90, 30), 4),
        (rotate(ROWS_2_118, 1), (118, 2), 4),
        (ROWS_120_SEVEN_TRICKS, (120, 0), 6),
    ],
    ids=["61", "89", "90", "118", "120-in-seven-tricks"],
)
def test_s1_2_scoring_61_89_is_2_then_90_119_is_4_then_120_with_a_lost_trick_is_6(
    rows: Rows, points: tuple[int, int], award: int
) -> None:
    """RULES.md §1.2 deal scoring (points): 61–89 → 2, 90–119 → 4, 120 card points with
    fewer than 8 tricks → 6; the other pair scores nothing."""
    state = kryuk()
    result = scored(play_deal(state, rows))
    assert result.outcome == Outcome.NORMAL
    assert result.points == points
    assert result.award == (award, 0)
    assert result.score == (award, 0)
    assert result.side == 0 and result.zeroed is None
    if points[0] == 120:
        assert result.tricks_won == (7, 1)


def test_s1_2_scoring_works_for_either_pair() -> None:
    """RULES.md §1.2 deal scoring: the same deal one seat round scores for seats 1+3."""
    state = kryuk()
    result = scored(play_deal(state, ROWS_2_118))
    assert result.points == (2, 118)
    assert result.award == (0, 4) and result.side == 1


def test_s1_2_all_8_tricks_at_0_0_give_the_winners_6() -> None:
    """RULES.md §1.2: all 8 tricks at 0:0 — nothing to reset, the winners get 6 instead."""
    state = kryuk()
    events = play_deal(state, ROWS_ALL_TRICKS)
    result = scored(events)
    assert result.outcome == Outcome.ALL_TRICKS
    assert result.tricks_won == (8, 0) and result.points == (120, 0)
    assert result.award == (6, 0) and result.score == (6, 0)
    assert match_over(events) == []
    assert state.phase is Phase.DEALING


def test_s1_2_all_8_tricks_reset_the_other_pairs_score_to_0() -> None:
    """RULES.md §1.2: one pair took all 8 tricks → the other pair's match score is set to 0
    (``DealScored.zeroed``); the match goes on."""
    state = later_deal(0, score=(4, 10))
    events = play_deal(state, ROWS_ALL_TRICKS)
    result = scored(events)
    assert result.outcome == Outcome.ALL_TRICKS
    assert result.zeroed == 1
    assert result.score == (4, 0)
    assert match_over(events) == []
    state = later_deal(1, score=(8, 2))
    result = scored(play_deal(state, rotate(ROWS_ALL_TRICKS, 1)))
    assert result.zeroed == 0 and result.score == (0, 2)


def test_s1_2_all_8_tricks_against_a_pair_already_at_0_wins_the_match() -> None:
    """RULES.md §1.2: if the trickless pair's score already was 0, that pair loses."""
    state = later_deal(0, score=(4, 0))
    events = play_deal(state, ROWS_ALL_TRICKS)
    result = scored(events)
    assert result.outcome == Outcome.ALL_TRICKS
    assert match_over(events) == [(0, result.score)]
    assert state.phase is Phase.OVER and state.winner == 0


# -- eggs, match ---------------------------------------------------------------------------------


def test_s1_2_eggs_score_nothing_and_carry_2_points_to_the_next_deals_winner() -> None:
    """RULES.md §1.2 eggs: 60:60 scores nothing; 2 points go to the winner of the next
    scored deal (``DealScored.carry``)."""
    state = later_deal(0, score=(2, 4))
    eggs = scored(play_deal(state, ROWS_EGGS))
    assert eggs.outcome == Outcome.EGGS and eggs.points == (60, 60)
    assert eggs.side is None and eggs.award == (0, 0) and eggs.score == (2, 4)
    assert state.carry == 2 and state.view_for(None).carry == 2
    result = scored(play_deal(state, ROWS_90_30))
    assert result.carry == 2
    assert result.award == (4 + 2, 0)
    assert result.score == (8, 4)
    assert state.carry == 0
    after = scored(play_deal(later_deal(0), ROWS_90_30))
    assert after.carry == 0 and after.award == (4, 0)


def test_s1_2_eggs_carry_adds_up_over_consecutive_eggs() -> None:
    """RULES.md §1.2 eggs, **Decision**: the 2 points add up over consecutive eggs."""
    state = kryuk()
    scored(play_deal(state, ROWS_EGGS))
    scored(play_deal(state, ROWS_EGGS))
    assert state.carry == 4
    result = scored(play_deal(state, rotate(ROWS_2_118, 1)))
    assert result.carry == 4
    assert result.award == (8, 0)


def test_s1_2_eggs_carry_goes_to_a_catch_winner_too() -> None:
    """RULES.md §1.2 eggs (engine **Decision**): the carried points go to the winner of the
    next scored deal whatever its outcome — a catch included."""
    state = kryuk()
    scored(play_deal(state, ROWS_EGGS))
    result = scored(play_deal(state, rotate(ROWS_CATCH, 2)))  # first leader 0, as after eggs
    assert result.outcome == Outcome.CATCH
    assert result.carry == 2 and result.award == (4 + 2, 0)


def test_s1_2_match_to_12() -> None:
    """RULES.md §1.2 match: the first pair to 12 wins; below 12 the match goes on."""
    state = later_deal(1, score=(8, 11))
    events = play_deal(state, ROWS_61_59)
    assert scored(events).score == (10, 11)
    assert match_over(events) == [] and state.phase is Phase.DEALING
    state = later_deal(1, score=(10, 11))
    events = play_deal(state, ROWS_61_59)
    assert match_over(events) == [(0, (12, 11))]
    assert state.phase is Phase.OVER
    state = later_deal(0, score=(9, 4))
    events = play_deal(state, ROWS_90_30)  # 12 or more: 9 + 4 = 13
    assert match_over(events) == [(0, (13, 4))]


# -- hvalyonka (хвалёнка) -------------------------------------------------------------------------


def test_s1_2_hvalyonka_not_in_the_first_deal() -> None:
    """RULES.md §1.2 hvalyonka: never in the match's first deal — it is dealt plainly."""
    for seed in range(20):
        state = kryuk()
        state.deal(shuffle_rng(seed, 0))
        assert state.phase in (Phase.PLAY, Phase.HANDOFF)
        assert state.current is not None and state.current.opening == "plain"
        assert [len(hand) for hand in state.current.hands] == [8, 8, 8, 8]


def test_s1_2_hvalyonka_in_later_deals_the_first_leader_is_praised() -> None:
    """RULES.md §1.2 hvalyonka: in a later deal the first leader is praised: they alone
    hold cards, and they play first, face down."""
    for seed in range(20):
        state = later_deal(seed % 4)
        dealt = of_type(state.deal(shuffle_rng(seed, 0)), Dealt)[0]
        assert dealt.first_leader == seed % 4
        assert state.phase is BLIND
        assert state.current is not None and state.current.opening == "hvalyonka"
        assert state.to_act() == (seed % 4,)
        sizes = state.view_for(None).hand_sizes
        assert sizes[seed % 4] >= 2 and sum(sizes) == sizes[seed % 4]


def test_s1_2_hvalyonka_not_right_after_eggs() -> None:
    """RULES.md §1.2 hvalyonka: not in a deal right after eggs (a plain deal instead)."""
    state = kryuk()
    scored(play_deal(state, ROWS_EGGS))
    state.deal(shuffle_rng(1, state.shuffles))
    assert state.phase in (Phase.PLAY, Phase.HANDOFF)
    assert state.current is not None and state.current.opening == "plain"
    assert [len(hand) for hand in state.current.hands] == [8, 8, 8, 8]
    # After the next deal (not eggs) it is back.
    keep_handoffs(state)
    while state.phase is Phase.PLAY:
        computer(state)
    assert state.last_result is not None and state.last_result.outcome != Outcome.EGGS
    state.deal(shuffle_rng(2, state.shuffles))
    assert state.phase is BLIND


def test_s1_2_hvalyonka_praised_player_dealt_pairs_while_all_trumps() -> None:
    """RULES.md §1.2 hvalyonka: the praised player is dealt 2 cards, and 2 more while all
    their cards are trumps; nobody else holds a card yet."""
    state = hvalyonka()
    assert state.current is not None
    assert state.current.hands[1] == parse_cards("QC QS JC AS")
    assert state.view_for(None).hand_sizes == (0, 4, 0, 0)
    assert state.view_for(1).hand == tuple(parse_cards("QC QS JC AS"))


def test_s1_2_hvalyonka_never_more_than_8_cards_a_plain_card_by_the_4th_pair() -> None:
    """RULES.md §1.2 hvalyonka: never more than 8 cards — the dealer makes sure a plain
    card arrives by the 4th pair."""
    state = hvalyonka(STOCK_EIGHT_TRUMPS_ON_TOP)
    assert state.current is not None
    hand = state.current.hands[1]
    assert len(hand) == 8
    assert hand[:6] == parse_cards("7C QC QS QH QD JC")
    assert [c for c in hand if c not in KRYUK_TRUMPS] == [card("AS")]
    assert card("AS") in hand[6:]
    assert state.legal_cards(1) == (card("AS"),)
    # Over many shuffles: every player's cards come in pairs, all trumps but the last pair,
    # which brings a plain card; nobody holds more than 8.
    for seed in range(200):
        state = later_deal(seed % 4)
        state.deal(shuffle_rng(seed, 1))
        while state.phase is BLIND:
            seat = state.to_act()[0]
            assert state.current is not None
            hand = state.current.hands[seat]
            assert len(hand) % 2 == 0 and 2 <= len(hand) <= 8
            assert all(c in KRYUK_TRUMPS for c in hand[:-2])
            assert any(c not in KRYUK_TRUMPS for c in hand[-2:])
            computer(state)


def test_s1_2_hvalyonka_praised_player_leads_a_plain_card_face_down() -> None:
    """RULES.md §1.2 hvalyonka: the praised player leads a plain card, face down."""
    state = hvalyonka()
    assert state.legal_cards(1) == (card("AS"),)
    for trump in ("QC", "QS", "JC"):
        with pytest.raises(NotAllowed) as error:
            state.apply(1, PlayCard(card(trump)))
        assert error.value.legal == (card("AS"),)
    with pytest.raises(NotYourTurn):
        state.apply(2, PlayCard(card("10H")))
    play_cards(state, "AS")
    assert state.view_for(1).trick == ((1, card("AS")),)
    for seat in (0, 2, 3, None):
        assert state.view_for(seat).trick == ((1, None),)


def test_s1_2_hvalyonka_next_players_dealt_pairs_until_a_plain_card_play_any_card_blind() -> None:
    """RULES.md §1.2 hvalyonka: the next three players in turn are dealt pairs until a plain
    card arrives, and each plays any card (a trump too) face down, not knowing the lead."""
    state = hvalyonka()
    play_cards(state, "AS")
    assert state.current is not None
    assert state.current.hands[2] == parse_cards("10H 7C")
    assert state.current.hands[3] == [] and state.current.hands[0] == []
    assert set(state.legal_cards(2)) == cards("10H 7C")
    play_cards(state, "7C")  # a trump, face down
    assert state.current.hands[3] == parse_cards("QH QD JS 8S")
    assert set(state.legal_cards(3)) == cards("QH QD JS 8S")
    assert state.view_for(3).trick == ((1, None), (2, None))
    assert state.view_for(2).trick == ((1, None), (2, card("7C")))
    assert state.view_for(None).trick == ((1, None), (2, None))
    play_cards(state, "8S")
    assert state.current.hands[0] == parse_cards("9D KD")
    assert state.phase is BLIND and state.to_act() == (0,)


def test_s1_2_hvalyonka_trick_is_scored_as_usual_then_everyone_has_8_cards_in_all() -> None:
    """RULES.md §1.2 hvalyonka: the lead is shown and the trick scored as usual (the blind
    7♣ takes the praised A♠); everybody is then dealt up to 8 cards in all."""
    state = hvalyonka()
    events = play_cards(state, "AS 7C 8S KD")
    taken = of_type(events, TrickTaken)
    assert taken == [
        TrickTaken(
            0,
            1,
            ((1, card("AS")), (2, card("7C")), (3, card("8S")), (0, card("KD"))),
            winner=2,
            points=15,
        )
    ]
    assert state.current is not None
    assert state.current.tricks[0].blind
    assert state.current.points == [15, 0]
    assert state.phase is Phase.PLAY and state.to_act() == (2,)
    assert [len(hand) for hand in state.current.hands] == [7, 7, 7, 7]
    assert state.current.hands[1] == parse_cards("QC QS JC AH KH 10S 7D")
    assert state.current.hands[2] == parse_cards("10H JH JD 9S 7S AD 10D")
    assert [len(hand) for hand in state.current.initial_hands] == [8, 8, 8, 8]
    assert {c for hand in state.current.initial_hands for c in hand} == set(DECK_32)
    assert state.current.stock == []
    assert all(v is not None for _, v in state.view_for(3).last_trick.cards)  # type: ignore[union-attr]


def test_s1_2_hvalyonka_praised_pair_keeps_the_trump_lead_right_after_losing_the_trick() -> None:
    """RULES.md §1.2 hvalyonka: the praised pair keeps the trump-lead right even if the
    opponents took the first trick; the opponents still may not lead a trump."""
    state = hvalyonka()
    play_cards(state, "AS 7C 8S KD")
    assert state.to_act() == (2,)  # the opponents of the praised seat 1 lead
    assert set(state.legal_cards(2)) == cards("10H 9S 7S AD 10D")
    with pytest.raises(TrumpLeadBanned):
        state.apply(2, PlayCard(card("JH")))
    play_cards(state, "10H 9H 7H AH")  # seat 1 (praised) takes the hearts trick
    assert state.to_act() == (1,)
    assert set(state.legal_cards(1)) == cards("QC QS JC KH 10S 7D")
    play_cards(state, "QC")


def test_s1_2_hvalyonka_praised_player_rotates_and_skips_deals_after_eggs() -> None:
    """RULES.md §1.2 hvalyonka: the praised player (the first leader) rotates clockwise each
    deal; the deal after eggs is plain and keeps its first leader."""
    seen_eggs = 0
    for seed in (0, 1, 2, 20, 30, 84):  # 20, 30 and 84 have eggs deals
        state = kryuk()
        deals: list[tuple[int, str]] = []
        results: list[DealScored] = []
        for _ in range(3000):
            if state.phase is Phase.OVER:
                break
            if state.phase is Phase.DEALING:
                dealt = of_type(state.deal(shuffle_rng(seed, state.shuffles)), Dealt)[0]
                assert state.current is not None
                deals.append((dealt.first_leader, state.current.opening))
                continue
            results.extend(of_type(computer(state), DealScored))
        assert state.phase is Phase.OVER
        assert deals[0][1] == "plain"
        for (before, _), (leader, opening), result in zip(deals, deals[1:], results, strict=False):
            if result.outcome == Outcome.EGGS:
                seen_eggs += 1
                assert (leader, opening) == (before, "plain")
            else:
                assert (leader, opening) == ((before + 1) % 4, "hvalyonka")
    assert seen_eggs > 0


# -- timing ------------------------------------------------------------------------------------


def test_s1_2_timing_10_s_per_move_and_15_s_for_a_deals_first_move() -> None:
    """RULES.md §1.2 timing: 15 s for the first move of a deal, 10 s for each other move
    (the preset's default move time is 10 s)."""
    state = kryuk()
    assert state.options["move_time"] == 10
    deal_hands(state, LEAD_HANDS)
    assert state.move_time(10) == 15
    assert FAMILY.rules.move_time(state, state.options) == 15
    play_cards(state, "AD")
    assert state.move_time(10) == 10
    assert FAMILY.rules.move_time(state, state.options) == 10
    assert state.move_time(0) == 0  # no timer
    blind = hvalyonka()
    assert blind.move_time(10) == 15
    play_cards(blind, "AS")
    assert blind.move_time(10) == 10


def test_s1_2_timeout_plays_a_random_legal_card() -> None:
    """RULES.md §1.2 timing: on time-out the system plays a random legal card."""
    state = later_deal(0)
    deal_hands(state, LEAD_HANDS)
    legal = [PlayCard(c) for c in state.legal_cards(0)]
    assert FAMILY.players.on_timeout(state, 0, random.Random(1)) in legal
    chosen = {FAMILY.players.on_timeout(state, 0, random.Random(seed)) for seed in range(40)}
    assert chosen <= set(legal)
    assert len(chosen) > 1  # random, not the computer's one choice
    blind = hvalyonka()
    play_cards(blind, "AS")
    picks = {FAMILY.players.on_timeout(blind, 2, random.Random(seed)) for seed in range(40)}
    assert picks == {PlayCard(card("10H")), PlayCard(card("7C"))}


def test_s1_2_timeout_in_the_hidden_handoff_keeps_the_hand_and_makes_a_return_owed() -> None:
    """RULES.md §1.2 timing and hand-off (**Decision**, ``players.on_timeout``): a
    person who lets the hidden hand-off decision time out hands nothing off; a return the
    partner owes is still made (a plain card)."""
    state = kryuk()
    deal_hands(state, HANDOFF_HANDS)
    assert state.hidden_turn
    assert FAMILY.players.on_timeout(state, 0, random.Random(1)) == KeepHand()
    state.apply(0, GiveTrump((card("QS"),)))
    made = FAMILY.players.on_timeout(state, 2, random.Random(1))
    assert isinstance(made, ReturnCard) and made.card in cards("KS 8S KH")


def test_s1_2_illegal_card_with_exactly_one_legal_card_plays_it_at_once() -> None:
    """RULES.md §1.2 timing: an illegal card with exactly one legal card plays that card at
    once; with several legal cards nothing is played (they are shown)."""
    state = kryuk()
    deal_hands(state, LEAD_HANDS)
    assert state.legal_cards(3) == (card("AD"),)
    assert FAMILY.rules.after_refusal(state, 3, PlayCard(card("10D"))) == PlayCard(card("AD"))
    play_cards(state, "AD")
    assert state.legal_cards(0) == (card("9D"),)  # the only diamond
    assert FAMILY.rules.after_refusal(state, 0, PlayCard(card("QS"))) == PlayCard(card("9D"))
    play_cards(state, "9D 8D 7D")
    assert len(state.legal_cards(3)) == 3
    assert FAMILY.rules.after_refusal(state, 3, PlayCard(card("7C"))) is None


def test_s1_2_single_card_autoplay_is_kryuks_alone() -> None:
    """RULES.md §1.2 timing is the kryuk seed's: hvalenyi refuses the card and plays none."""
    state = MatchState("hvalenyi", {})
    for _ in range(500):
        if state.phase is Phase.DEALING:
            state.deal(shuffle_rng(4, state.shuffles))
            continue
        seat = state.to_act()[0]
        if state.phase is Phase.PLAY and len(state.legal_cards(seat)) == 1:
            assert state.current is not None
            other = next(c for c in state.current.hands[seat] if c not in state.legal_cards(seat))
            assert FAMILY.rules.after_refusal(state, seat, PlayCard(other)) is None
            break
        computer(state)
    else:
        pytest.fail("no single-legal-card position found")


# -- whole matches -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_s1_2_seeded_computer_matches_finish_and_deals_hold_120_points(seed: int) -> None:
    """RULES.md §1.2: seeded computer matches finish with a pair at 12 (or an all-tricks
    win), and every deal not ended by a catch shares out exactly 120 card points."""
    results: list[DealScored] = []
    traces: list[dict[str, object]] = []

    def on_deal(state: object, result: DealScored) -> None:
        assert isinstance(state, MatchState)
        results.append(result)
        traces.append(deal_trace(state, result, match=0, players=["a", "b", "c", "d"]))

    final = play_match(kryuk(), seed, on_deal=on_deal)
    assert final.over and final.winner is not None
    assert results
    for result, trace in zip(results, traces, strict=True):
        if result.outcome == Outcome.CATCH:
            assert sum(result.points) <= 120
        else:
            assert sum(result.points) == 120, result
            assert sum(result.tricks_won) == 8
        if result.deal_no > 0 and trace.get("opening") == "hvalyonka":
            assert trace["tricks"][0].get("blind") is True  # type: ignore[index]
    last = results[-1]
    assert last.side == final.winner
    assert last.score[final.winner] >= 12 or last.outcome == Outcome.ALL_TRICKS
    assert hand_points(DECK_32) == 120
