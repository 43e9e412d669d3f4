"""Козёл on a board of sixes (RULES.md §1.3, preset ``sixes``): one test or more per clause.

Deals are written as trick rows (see ``tests/scripted.py``): row ``k`` holds the card each
seat plays in trick ``k``. The rows below were found once by a search over computer-played
first deals (redeals and hand-offs declined) and frozen here, so the points, pairs and
winners follow from the cards. Sixes has no lead restriction, so a first deal's rows stay
legal in a later deal with the same first leader. Called openings are scripted with
``deal_stock`` (the shuffled deck, top first).
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from kozelbot.core import callbacks
from kozelbot.core.cards import DECK_32, DECK_36, Card, Rank, Suit, hand_points, parse_cards
from kozelbot.core.i18n import translator
from kozelbot.core.protocol import DealScored, GameError, shuffle_rng
from kozelbot.core.texts import is_not_now
from kozelbot.families.follow import FAMILY, render
from kozelbot.families.follow.records import Handoff, HandoffNote
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.trace import deal_trace
from kozelbot.families.follow.vocabulary import (
    OPENINGS,
    AnswerOffer,
    AskRedeal,
    CallOpening,
    Dealt,
    Event,
    Exchanged,
    GiveTrump,
    HandedOff,
    HandoffOffered,
    KeepHand,
    MustFollow,
    NotAllowed,
    NotYourTurn,
    OfferAnswered,
    OfferHandoff,
    OpeningCalled,
    Outcome,
    Phase,
    PlayCard,
    RedealAsked,
    RedealNotAllowed,
    ReturnCard,
    Returned,
    TrickTaken,
    Waiting,
    WrongPhase,
    parse_action,
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
    playing_table,
    refusal_text,
    rotate,
    scored,
    table_text,
)

SIXES_TRUMPS = parse_cards("7C QC QS QH QD JC JS JH JD AC 10C KC 9C 8C")
"""RULES.md §1.3 (seed 000): every trump, strongest first."""
NO_SHAMOK_TRUMPS = parse_cards("QC QS QH QD JC JS JH JD AD 10D KD 9D 8D 7D")
"""RULES.md §1.3 option ``no_shamok`` (seed 001): every trump, strongest first."""

# -- frozen first deals (the first leader holds 8♣) -------------------------------------------

# Seats 0+2 take 61 (first leader: seat 0).
ROWS_61_59: Rows = [
    "AD 7D 7H 7C",
    "8C 8S 10S AS",
    "8D 10D QC 7S",
    "9D 10H 8H 9H",
    "9C QS JD AC",
    "JC KH 9S AH",
    "QH QD JS JH",
    "KD KC KS 10C",
]
# Seats 0+2 take 89 (first leader: seat 2).
ROWS_89_31: Rows = [
    "7H KH AH 7C",
    "10D 7D 8C AD",
    "KC JH QC QD",
    "9H QS 8H 8S",
    "AS 7S KS 10S",
    "10H 8D 9C QH",
    "JD 9D AC 9S",
    "JC KD JS 10C",
]
# Seats 0+2 take 90 (first leader: seat 2).
ROWS_90_30: Rows = [
    "7D 10D AD 9D",
    "AS KS 7S 9S",
    "KD 7C 8D 10H",
    "AH 8H 7H 9C",
    "JS JD 8C JH",
    "QC AC QH QD",
    "JC 9H 8S QS",
    "10C KH 10S KC",
]
# Seats 0+2 take all 120 points in seven tricks; seats 1+3 take 9♦ 8♦ 7♦ 7♣ (first: 0).
ROWS_120_SEVEN_TRICKS: Rows = [
    "AH 7H 9H KH",
    "9D 8D 7D 7C",
    "8C 8S 9S 7S",
    "QC QD AC JC",
    "QS 8H 10C QH",
    "JS KD JH KC",
    "JD KS AD 10H",
    "9C 10S 10D AS",
]
# Seats 0+2 take all eight tricks, Lyusya (first leader: seat 1).
ROWS_LYUSYA: Rows = [
    "JH 7S KS 10S",
    "AD 8D 10D 7D",
    "AH 8H 7H KH",
    "JS 8C 7C 9C",
    "AC JC QC JD",
    "QH 9H AS 8S",
    "QS 9D KC 9S",
    "10C KD QD 10H",
]
# 60:60 (first leader: seat 2).
ROWS_EGGS: Rows = [
    "7C 8D 7D 9D",
    "7H AH 8C 8H",
    "9S KS 7S 10S",
    "JH AC JD QC",
    "9H 9C QD 10H",
    "QH KC QS JS",
    "JC AD 8S AS",
    "KH 10C KD 10D",
]

# Seat 0 holds 8♣ and K♥ 9♥; seat 1 the hearts 10♥ 8♥ and trumps A♣ J♠ 9♣; seat 2 the
# hearts 7♥ A♥; seat 3 no heart, but A♠. No redeal, no hand-off: play starts at once.
FOLLOW_HANDS = [
    parse_cards("8C 10C QD KH 9H AD 9S 9D"),
    parse_cards("AC JS 9C 10H 8H 10D KD 7D"),
    parse_cards("JH JD KC 7H AH KS 10S 8D"),
    parse_cards("7C QC QS QH JC AS 8S 7S"),
]
# Seat 1 has no heart and holds A♠ and A♦; spades get led first, hearts next.
ACE_HANDS = [
    parse_cards("8C KS 9H KD 9D 10C QH JS"),
    parse_cards("AS AD 7S 8D QC QS JC 7D"),
    parse_cards("10S AH 10H 8H 10D JH KC 9C"),
    parse_cards("8S 9S KH 7H 7C QD JD AC"),
]
# Seat 0 holds all four nines (42 points), seat 1 exactly 12 points, seat 2 (8♣, the first
# leader) exactly 13, seat 3 53.
REDEAL_HANDS = [
    parse_cards("9S 9H 9D 9C AS AH 10S 10H"),
    parse_cards("8S 8H 8D 7S KS KH JS JH"),
    parse_cards("8C 7H 7D 7C KD QC QS QH"),
    parse_cards("AD AC 10D 10C KC QD JC JD"),
]
# Seat 0 holds two trumps with points (Q♠ J♦); seat 2 (8♣, first leader) is its partner.
HANDOFF_HANDS = [
    parse_cards("QS JD AS 10S AH 9H AD 9D"),
    parse_cards("7C QC QH QD JC JS JH AC"),
    parse_cards("10C KC 9C 8C KS KH KD 9S"),
    parse_cards("8S 7S 10H 8H 7H 10D 8D 7D"),
]
# Seat 1 is dealt all four aces.
ROYAL_HANDS = [
    parse_cards("8C 10S KS QS JS 10H KH QH"),
    parse_cards("AS AH AD AC 7S 8S 9S 7H"),
    parse_cards("9C 10C KC 7C QC JC 9H 8H"),
    parse_cards("10D KD QD JD 9D 8D 7D JH"),
]


def stock(top: str, rest: str, bottom: str) -> list[Card]:
    """A stock, top first: ``top`` cards, the ``rest``, then ``bottom`` read from the very
    bottom card upwards (the order in which an opening takes them)."""
    return parse_cards(top) + parse_cards(rest) + parse_cards(bottom)[::-1]


# Shtany, first leader seat 1. Seat 1 gets Q♣ A♠ (kept), then 7♥ K♥ and plays 7♥; seat 2
# 9♠ Q♠ (plays 9♠); seat 3 A♦ 8♦ (plays 8♦); seat 0 9♥ J♠ (plays 9♥, which takes the
# trick). Then 4, 6, 6, 6 cards in turn from seat 1; seat 2 ends with 3 card points.
SHTANY_STOCK = stock(
    "QC 7H 9S AD 9H",
    "7C QH AH 10H  9C 8C 8S 7S 9D 7D  QD JC JH 10D KD KS  JD AC 10C KC 10S 8H",
    "AS KH QS 8D JS",
)
# Double shtany, first leader seat 3: Q♣ A♠ + Q♠ A♦ (all kept), then J♣ 7♥ + K♥ A♥ —
# eight cards, it plays 7♥; seat 0 10♠ 9♦ + J♠ 8♠ (plays 10♠); seat 1 K♠ 9♥ + 8♦ J♦
# (plays K♠); seat 2 10♥ 7♣ + K♦ 7♠ (plays 10♥, which takes the trick).
DOUBLE_SHTANY_STOCK = stock(
    "QC AS JC 7H  10S 9D  KS 9H  10H 7C",
    "QH QD 9S 8H  JH AC 10D 7D  10C KC 9C 8C",
    "QS AD KH AH  JS 8S  8D JD  KD 7S",
)
# Mirror, first leader seat 0, one card at a time from the bottom: seat 0 Q♣ then A♠ (an
# ace is not kept), seat 1 J♦ 8♣ then 7♠, seat 2 K♠, seat 3 10♠; A♠ takes the trick.
MIRROR_STOCK = stock(
    "",
    "7C QS AH 10H 9S 8S  QH QD KH 9H AD  JC JS JH 8H 7H 10D KD  AC 10C KC 9C 9D 8D 7D",
    "QC AS JD 8C 7S KS 10S",
)


def sixes(**options: object) -> MatchState:
    """A fresh ``sixes`` match."""
    return MatchState("sixes", dict(options))


def later_deal(
    leader: int, *, deal_no: int = 1, score: tuple[int, int] = (0, 0), **options: object
) -> MatchState:
    """A ``sixes`` match at a later deal whose first lead is ``leader``'s."""
    state = sixes(**options)
    state.deal_no = deal_no
    state.lead_right = leader
    state.score = list(score)
    return state


def settle(state: MatchState) -> list[Event]:
    """Every seat offered a redeal or a hand-off keeps its hand."""
    events: list[Event] = []
    while state.phase in (Phase.REDEAL, Phase.HANDOFF):
        events.extend(state.apply(state.to_act()[0], KeepHand()))
    return events


def deal(state: MatchState, hands: list[list[Card]]) -> list[Event]:
    """A plain deal of these hands, every offer declined."""
    events = state.deal_hands([list(hand) for hand in hands])
    events.extend(settle(state))
    return events


def play_deal(state: MatchState, rows: Rows) -> list[Event]:
    """Deal ``rows`` (offers declined) and play them out."""
    events = deal(state, hands_from_rows(rows))
    assert state.phase is Phase.PLAY
    events.extend(play_rows(state, rows))
    return events


def called(state: MatchState, kind: str) -> list[Event]:
    """The first leader calls ``kind``."""
    assert state.phase is Phase.CALL
    return state.apply(state.to_act()[0], CallOpening(kind))


# -- deck, ladder ----------------------------------------------------------------------------


def test_s1_3_play_with_32_cards_8_each_the_sixes_only_keep_score() -> None:
    """RULES.md §1.3: the 36-card deck's four sixes are only the scoreboard; play with the
    other 32 cards, 8 each, four players in pairs."""
    state = sixes()
    assert state.players == 4
    assert set(state.rules.cards) == set(DECK_32)
    assert set(DECK_36) - set(state.rules.cards) == {c for c in DECK_36 if c.rank is Rank.SIX}
    for seed in range(10):
        state = sixes()
        state.deal(shuffle_rng(seed, 0))
        assert state.current is not None
        assert [len(hand) for hand in state.current.hands] == [8, 8, 8, 8]
        assert {c for hand in state.current.hands for c in hand} == set(DECK_32)


def test_s1_3_ladder_7c_qc_qs_qh_qd_jc_js_jh_jd_then_clubs_a_10_k_9_8() -> None:
    """RULES.md §1.3 (seed 000): 7♣ (шамок) > Q♣ Q♠ Q♥ Q♦ > J♣ J♠ J♥ J♦, then the trump
    suit clubs A 10 K 9 8; plain suits A 10 K 9 8 7."""
    state = sixes()
    table = state.strength
    trumps = sorted((c for c in DECK_32 if table.is_trump(c)), key=lambda c: -table.strength[c])
    assert trumps == SIXES_TRUMPS
    for i, high in enumerate(SIXES_TRUMPS):
        for low in SIXES_TRUMPS[i + 1 :]:
            assert state.trick_winner([(0, low), (1, high), (2, card("AH"))]) == 1
    for suit in "SHD":
        order = [card(rank + suit) for rank in ("A", "10", "K", "9", "8", "7")]
        for high, low in pairwise(order):
            assert state.trick_winner([(0, low), (1, high)]) == 1


def test_s1_3_no_shamok_ladder_queens_then_jacks_then_diamonds_down_to_7d() -> None:
    """RULES.md §1.3 option ``no_shamok`` (seed 001): queens, then jacks, then the trump
    suit diamonds A 10 K 9 8 7 (7♦ the lowest); 7♣ is a plain club."""
    state = sixes(no_shamok=True)
    table = state.strength
    trumps = sorted((c for c in DECK_32 if table.is_trump(c)), key=lambda c: -table.strength[c])
    assert trumps == NO_SHAMOK_TRUMPS
    assert not table.is_trump(card("7C")) and table.suit_of[card("7C")] is Suit.CLUBS
    for high, low in pairwise(NO_SHAMOK_TRUMPS):
        assert state.trick_winner([(0, low), (1, high), (2, card("AS"))]) == 1
    assert state.trick_winner([(0, card("AC")), (1, card("7C")), (2, card("7D"))]) == 2
    assert state.trick_winner([(0, card("KC")), (1, card("7C")), (2, card("AC"))]) == 2


def test_s1_3_seed_example_ten_of_hearts_takes_k_10_7_of_hearts_and_the_ace_of_spades() -> None:
    """Seeds 000/001's worked example: K♥ 10♥ 7♥ A♠ (hearts led, the ace of spades a
    discard) goes to the ten — 25 points to the pair of players 2 and 4 (seats 1+3)."""
    state = sixes()
    trick = [(0, card("KH")), (1, card("10H")), (2, card("7H")), (3, card("AS"))]
    assert state.trick_winner(trick) == 1
    assert sixes(no_shamok=True).trick_winner(trick) == 1
    state = sixes()
    deal(state, FOLLOW_HANDS)
    assert state.phase is Phase.PLAY and state.to_act() == (0,)
    events = play_cards(state, "KH 10H 7H AS")
    assert of_type(events, TrickTaken)[0].winner == 1
    assert of_type(events, TrickTaken)[0].points == 25
    assert state.current is not None and state.current.points == [0, 25]
    assert state.to_act() == (1,)  # the winner leads next


# -- trick rules -----------------------------------------------------------------------------


def test_s1_3_must_follow_suit() -> None:
    """RULES.md §1.3: a player holding the led suit must play it (no trumping then)."""
    state = sixes()
    deal(state, FOLLOW_HANDS)
    play_cards(state, "KH")
    assert set(state.legal_cards(1)) == cards("10H 8H")
    with pytest.raises(MustFollow) as error:
        state.apply(1, PlayCard(card("AC")))
    assert set(error.value.legal) == cards("10H 8H")
    play_cards(state, "8H")
    assert set(state.legal_cards(2)) == cards("7H AH")


def test_s1_3_without_the_led_suit_play_anything_trump_or_discard() -> None:
    """RULES.md §1.3: with no card of the led suit, a player plays anything."""
    state = sixes()
    deal(state, FOLLOW_HANDS)
    play_cards(state, "KH 10H 7H")
    assert set(state.legal_cards(3)) == set(FOLLOW_HANDS[3])
    play_cards(state, "QS")  # a trump takes it
    assert state.current is not None and state.current.tricks[0].winner == 3


def test_s1_3_trump_lead_must_be_answered_with_a_trump_and_anyone_may_lead_one() -> None:
    """RULES.md §1 rule 3 in sixes: any player may lead a trump (no lead restriction, even
    in the first deal); a trump lead must be answered with a trump."""
    state = sixes()
    deal(state, FOLLOW_HANDS)
    assert set(state.legal_cards(0)) == set(FOLLOW_HANDS[0])
    play_cards(state, "QD")
    assert set(state.legal_cards(1)) == cards("AC JS 9C")
    with pytest.raises(MustFollow):
        state.apply(1, PlayCard(card("10H")))


# -- scoring in pairs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "points", "pairs"),
    [
        (ROWS_61_59, (61, 59), 1),
        (ROWS_89_31, (89, 31), 1),
        (ROWS_90_30, (90, 30), 2),
        (ROWS_120_SEVEN_TRICKS, (120, 0), 2),
    ],
    ids=["61", "89", "90", "120-with-a-lost-trick"],
)
def test_s1_3_scoring_61_89_is_1_pair_90_120_with_a_trick_lost_is_2(
    rows: Rows, points: tuple[int, int], pairs: int
) -> None:
    """RULES.md §1.3: 61–89 → 1 pair; 90–120 while the opponents took at least one trick
    → 2 pairs; the other pair's board does not move."""
    state = sixes()
    result = scored(play_deal(state, rows))
    assert result.outcome == Outcome.NORMAL
    assert result.points == points
    assert result.award == (pairs, 0) and result.score == (pairs, 0)
    assert result.side == 0 and result.zeroed is None
    assert result.tricks_won[1] >= 1


def test_s1_3_scoring_works_for_either_pair() -> None:
    """RULES.md §1.3: the same deal one seat round scores for seats 1+3."""
    result = scored(play_deal(sixes(), rotate(ROWS_90_30, 1)))
    assert result.points == (30, 90) and result.award == (0, 2) and result.side == 1


def test_s1_3_lyusya_sends_the_opponents_back_to_0_and_scores_nothing_else() -> None:
    """RULES.md §1.3 Lyusya: all 8 tricks → the opponents' pairs go back to 0, and the Lyusya
    pair scores nothing else (not the 90+ award)."""
    state = later_deal(1, score=(3, 4))
    events = play_deal(state, ROWS_LYUSYA)
    result = scored(events)
    assert result.outcome == Outcome.LYUSYA
    assert result.tricks_won == (8, 0)
    assert result.zeroed == 1
    assert result.award == (0, 0)
    assert result.score == (3, 0)
    assert match_over(events) == [] and state.phase is Phase.DEALING


def test_s1_3_lyusya_pair_still_takes_the_eggs_carried_from_earlier_deals() -> None:
    """RULES.md §1.3 Lyusya: "eggs carried from earlier deals aside" — the pair carried by
    eggs goes to the Lyusya pair, which scores nothing else."""
    state = later_deal(1, score=(3, 4))
    state.carry = 1
    result = scored(play_deal(state, ROWS_LYUSYA))
    assert result.carry == 1
    assert result.award == (1, 0)
    assert result.score == (4, 0)
    assert state.carry == 0


def test_s1_3_lyusya_in_the_matchs_first_deal_wins_the_match() -> None:
    """RULES.md §1.3 Lyusya: in the match's first deal it wins the match outright (сухой
    козёл)."""
    state = sixes()
    events = play_deal(state, ROWS_LYUSYA)
    result = scored(events)
    assert result.outcome == Outcome.LYUSYA and result.deal_no == 0
    assert match_over(events) == [(0, result.score)]
    assert state.phase is Phase.OVER and state.winner == 0
    # The same deal later in the match does not end it.
    state = later_deal(1)
    events = play_deal(state, ROWS_LYUSYA)
    assert match_over(events) == [] and scored(events).score == (0, 0)


def test_s1_3_eggs_move_nothing_and_the_next_deals_winner_gets_one_extra_pair() -> None:
    """RULES.md §1.3 eggs: 60:60 → nothing moves; **Decision** (seed 001): the next deal's
    winner gets one extra pair (``DealScored.carry``)."""
    state = later_deal(2, score=(2, 3))
    eggs = scored(play_deal(state, ROWS_EGGS))
    assert eggs.outcome == Outcome.EGGS and eggs.points == (60, 60)
    assert eggs.side is None and eggs.award == (0, 0) and eggs.score == (2, 3)
    assert state.carry == 1 and state.view_for(None).carry == 1
    result = scored(play_deal(state, ROWS_89_31))
    assert result.carry == 1
    assert result.award == (1 + 1, 0)
    assert result.score == (4, 3)
    assert state.carry == 0
    again = scored(play_deal(state, ROWS_90_30))
    assert again.carry == 0 and again.award == (2, 0)


def test_s1_3_first_pair_to_6_wins() -> None:
    """RULES.md §1.3: the first pair to 6 pairs wins; below 6 the match goes on."""
    state = later_deal(2, score=(4, 5))
    events = play_deal(state, ROWS_89_31)
    assert scored(events).score == (5, 5)
    assert match_over(events) == [] and state.phase is Phase.DEALING
    state = later_deal(2, score=(5, 5))
    events = play_deal(state, ROWS_89_31)
    assert match_over(events) == [(0, (6, 5))]
    assert state.phase is Phase.OVER and state.winner == 0
    state = later_deal(2, score=(5, 0))
    events = play_deal(state, ROWS_90_30)
    assert match_over(events) == [(0, (7, 0))]


# -- first lead ------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "lowest"), [({}, "8C"), ({"no_shamok": True}, "7D")])
def test_s1_3_first_deal_holder_of_the_lowest_trump_leads(
    options: dict[str, object], lowest: str
) -> None:
    """RULES.md §1.3 first lead: in the first deal the holder of the lowest trump — 8♣, or
    7♦ with ``no_shamok`` — leads."""
    for seed in range(20):
        state = sixes(**options)
        dealt = of_type(state.deal(shuffle_rng(seed, 0)), Dealt)[0]
        assert state.current is not None
        holder = next(s for s, hand in enumerate(state.current.hands) if card(lowest) in hand)
        assert dealt.first_leader == holder
        settle(state)
        if state.phase is Phase.PLAY:
            assert state.to_act() == (holder,)


@pytest.mark.parametrize(
    ("rows", "first", "winners", "next_leader"),
    [
        (ROWS_61_59, 0, 0, 2),  # the first leader's pair won: the partner leads next
        (rotate(ROWS_61_59, 2), 2, 0, 0),
        (rotate(ROWS_61_59, 1), 1, 1, 3),
        (ROWS_LYUSYA, 1, 0, 2),  # the other pair won: its player just after the leader
        (rotate(ROWS_LYUSYA, 2), 3, 0, 0),
        (rotate(ROWS_LYUSYA, 1), 2, 1, 3),
    ],
)
def test_s1_3_later_the_winning_pairs_player_first_clockwise_after_the_last_leader_leads(
    rows: Rows, first: int, winners: int, next_leader: int
) -> None:
    """RULES.md §1.3 first lead, **Decision**: the pair that won the previous deal leads,
    by its player who comes first clockwise after the previous deal's first leader."""
    state = later_deal(first)
    events = play_deal(state, rows)
    assert of_type(events, Dealt)[0].first_leader == first
    assert scored(events).side == winners
    assert state.lead_right == next_leader
    dealt = of_type(state.deal(shuffle_rng(1, state.shuffles)), Dealt)[0]
    assert dealt.first_leader == next_leader
    assert state.to_act() == (next_leader,)


def test_s1_3_after_eggs_the_previous_first_leader_leads_again() -> None:
    """RULES.md §1.3 first lead, **Decision**: after eggs (no winner) the previous deal's
    first leader leads again."""
    state = sixes()
    events = play_deal(state, ROWS_EGGS)
    assert of_type(events, Dealt)[0].first_leader == 2
    assert scored(events).outcome == Outcome.EGGS
    assert state.lead_right == 2
    dealt = of_type(state.deal(shuffle_rng(1, state.shuffles)), Dealt)[0]
    assert dealt.first_leader == 2


# -- redeal demands --------------------------------------------------------------------------


def test_s1_3_redeal_demand_with_12_points_or_less_or_all_four_nines() -> None:
    """RULES.md §1.3 redeal: a hand holding all four nines, or 12 card points or less, may
    demand a redeal; 13 points may not."""
    assert [hand_points(hand) for hand in REDEAL_HANDS] == [42, 12, 13, 53]
    state = sixes()
    dealt = of_type(state.deal_hands([list(h) for h in REDEAL_HANDS]), Dealt)[0]
    assert dealt.first_leader == 2
    assert dealt.redeal_seats == (0, 1)
    assert state.phase is Phase.REDEAL
    assert set(state.to_act()) == {0, 1}
    assert state.legal_actions(0) == [AskRedeal(), KeepHand()]
    assert state.legal_actions(2) == [] and state.legal_actions(3) == []
    with pytest.raises(Waiting):  # neutral: it does not tell who may demand one
        state.apply(2, AskRedeal())
    assert state.apply(0, AskRedeal()) == [RedealAsked(0)]
    assert state.phase is Phase.DEALING and state.redeals == 1 and state.deal_no == 0


def test_s1_3_third_demand_in_a_row_is_refused_and_the_dealing_pair_loses_a_pair() -> None:
    """RULES.md §1.3 redeal: a third consecutive demand is refused and the dealing pair
    loses a pair (opponents +1); engine **Decision**: the deal ends there as
    ``refusedRedeal`` and the dealing pair is the side of the seat before the first leader."""
    state = later_deal(2, deal_no=3, score=(2, 4))
    for count in (1, 2):
        state.deal_hands([list(h) for h in REDEAL_HANDS])
        assert state.apply(1, AskRedeal()) == [RedealAsked(1)]
        assert state.redeals == count and state.phase is Phase.DEALING
    dealt = of_type(state.deal_hands([list(h) for h in REDEAL_HANDS]), Dealt)[0]
    assert dealt.redeals == 2 and dealt.first_leader == 2
    assert AskRedeal() in state.legal_actions(1)
    events = state.apply(1, AskRedeal())
    result = scored(events)
    assert result.outcome == Outcome.REFUSED_REDEAL
    # First leader seat 2: the dealer is seat 1, so seats 1+3 lose a pair.
    assert result.side == 0
    assert result.award == (1, 0)
    assert result.score == (3, 4)
    assert state.phase is Phase.DEALING and state.deal_no == 4 and state.redeals == 0
    # A refused demand at 5 pairs ends the match.
    state = later_deal(3, deal_no=3, score=(4, 5))
    for _ in range(2):
        state.deal_hands([list(h) for h in REDEAL_HANDS])
        state.apply(1, AskRedeal())
    state.deal_hands([list(h) for h in REDEAL_HANDS])
    events = state.apply(0, AskRedeal())
    assert scored(events).award == (0, 1)  # first leader seat 3: the dealing pair is 0+2
    assert match_over(events) == [(1, (4, 6))]


def test_s1_3_redeal_demand_only_in_a_plain_deal() -> None:
    """RULES.md §1.3 redeal: only when no hvalyonka is played this deal — after an opening
    a weak hand may not demand a redeal."""
    state = later_deal(1)
    state.deal_stock(list(SHTANY_STOCK))
    called(state, "shtany")
    assert state.current is not None
    assert hand_points(state.current.initial_hands[2]) <= 12
    assert state.phase is Phase.PLAY
    with pytest.raises(RedealNotAllowed):
        state.apply(2, AskRedeal())


# -- hand-off ------------------------------------------------------------------------------


def asked_instead(state: MatchState, seat: int) -> MatchState:
    """The same state, but with ``seat`` the one deciding whether to hand off (what nobody
    else may tell apart)."""
    other = MatchState.load(state.dump())
    assert other.current is not None
    other.current.handoff_pending = [seat]
    return other


def test_s1_3_handoff_decision_to_offer_is_hidden_from_everyone_partner_included() -> None:
    """RULES.md §1.3 hand-off: "nobody learns it from the bot before they choose to" — while
    a seat holding one or two trumps decides whether to offer, the step is hidden: every
    other view (the partner's too) and the table show only that the deal waits, the same
    whoever decides, and every press of another seat gets the same neutral refusal."""
    state = sixes()
    state.deal_hands([list(h) for h in HANDOFF_HANDS])
    assert state.phase is Phase.HANDOFF and state.to_act() == (0,) and state.hidden_turn
    assert state.legal_actions(0) == [OfferHandoff(), KeepHand()]
    assert set(state.handoff_cards(0)) == cards("QS JD")
    assert state.view_for(0).to_act == (0,) and state.view_for(0).phase is Phase.HANDOFF
    for seat in (1, 2, 3, None):
        view = state.view_for(seat)
        assert view.phase is Phase.WAITING and view.to_act == () and view.actions == ()
    text = table_text(state)
    assert "Ждём начала сдачи…" in text and "Отход" not in text and "<b>" not in text
    elsewhere = asked_instead(state, 3)
    assert table_text(elsewhere) == text
    for seat in (1, 2):
        assert elsewhere.view_for(seat) == state.view_for(seat)
        assert hand_text(elsewhere, seat) == hand_text(state, seat)
    own = hand_text(state, 0)
    assert "Ждём начала сдачи…" in own and "отдаю последнего козыря" in own
    for seat, action in [
        (2, KeepHand()),
        (2, OfferHandoff()),
        (1, PlayCard(card("7C"))),
        (3, GiveTrump((card("10H"),))),
        (2, AnswerOffer(True)),
    ]:
        assert refusal_text(state, seat, action) == "The deal has not started yet — wait a moment."


def test_s1_3_handoff_offer_and_answer_are_public() -> None:
    """RULES.md §1.3 hand-off: the offer is made aloud and the partner answers aloud — once
    offered, everyone sees whose answer is awaited, and the answer."""
    state = sixes()
    state.deal_hands([list(h) for h in HANDOFF_HANDS])
    assert state.apply(0, OfferHandoff()) == [HandoffOffered(0, 2)]
    assert state.phase is Phase.HANDOFF and not state.hidden_turn
    for seat in (0, 1, 2, 3, None):
        view = state.view_for(seat)
        assert view.to_act == (2,) and view.handoff_notes == (HandoffNote(0, 2, None, 0, 0),)
    offered = table_text(state)
    assert "Аня: «отдаю последнего козыря!»\nОтвечает <b>Вера</b>." in offered
    assert state.legal_actions(2) == [AnswerOffer(True), AnswerOffer(False)]
    assert "«давай» или «не надо»" in hand_text(state, 2)
    with pytest.raises(NotYourTurn) as error:
        state.apply(1, AnswerOffer(True))
    assert error.value.to_act == (2,)
    assert state.apply(2, AnswerOffer(True)) == [OfferAnswered(2, 0, True)]
    assert state.to_act() == (0,) and not state.hidden_turn
    assert "Отход: Аня → Вера: «давай!»\n<b>Аня</b> передаёт козырей втёмную." in table_text(state)


def test_s1_3_handoff_agreed_one_or_both_trumps_pass_face_down_and_as_many_cards_return() -> None:
    """RULES.md §1.3 hand-off: if agreed, the player gives one or both of those trumps face
    down and the partner returns as many plain cards of their choice; **Decision**: the group
    sees how many cards passed, never which — the table keeps a one-line note of the count."""
    state = sixes()
    state.deal_hands([list(h) for h in HANDOFF_HANDS])
    state.apply(0, OfferHandoff())
    state.apply(2, AnswerOffer(True))
    gives = state.legal_actions(0)
    assert [set(g.cards) for g in gives if isinstance(g, GiveTrump)] == [
        cards("QS"),
        cards("JD"),
        cards("QS JD"),
    ]
    with pytest.raises(NotAllowed):
        state.apply(0, GiveTrump((card("AS"),)))
    assert state.apply(0, GiveTrump((card("JD"), card("QS")))) == [
        HandedOff(0, 2, (card("JD"), card("QS")))
    ]
    assert state.to_act() == (2,) and state.current is not None and state.current.returning == 2
    assert set(state.return_cards(2)) == cards("KS KH KD 9S")  # plain cards only
    with pytest.raises(NotAllowed):
        state.apply(2, ReturnCard(card("QS")))
    assert "Отход: Аня → Вера,\n2 карты втёмную\n<b>Вера</b> возвращает столько же." in table_text(
        state
    )
    state.apply(2, ReturnCard(card("9S")))
    assert state.phase is Phase.HANDOFF and state.to_act() == (2,)
    events = state.apply(2, ReturnCard(card("KD")))
    assert events == [Returned(2, 0, card("KD")), Exchanged(0, 2, 2)]
    assert state.phase is Phase.PLAY and state.to_act() == (2,)
    assert state.current is not None
    assert cards("9S KD") <= set(state.current.hands[0]) and not cards("QS JD") & set(
        state.current.hands[0]
    )
    assert state.current.handoffs == [
        Handoff(0, 2, (card("JD"), card("QS")), (card("9S"), card("KD")), "agree")
    ]
    note = HandoffNote(0, 2, "agree", 2, 2)
    for seat in (1, 3, None):
        view = state.view_for(seat)
        assert view.handoffs == () and view.handoff_notes == (note,)
        assert not {c for h in view.handoffs for c in (*h.cards, *h.returned)}
    assert state.view_for(0).handoffs == state.view_for(2).handoffs == tuple(state.current.handoffs)
    text = table_text(state)
    assert "Отход: Аня → Вера, 2 карты" in text
    for hidden in ("Д♠", "В♦", "9♠", "К♦"):
        assert hidden not in text
    assert "Партнёр вернул вам 9♠ К♦." in hand_text(state, 0)
    assert "Партнёр отдал вам В♦ Д♠." in hand_text(state, 2)
    assert "9♠" not in hand_text(state, 1) and "Д♠" not in hand_text(state, 3)


# Seat 2 (8♣, the first leader) holds one trump, seat 0 two (Q♠ J♦): both may offer.
BOTH_MAY_OFFER = [
    parse_cards("QS JD AS 10S AH 9H AD 9D"),
    parse_cards("7C QC QH QD JC JS JH AC"),
    parse_cards("8C KS KH KD 9S 10H 8H 10D"),
    parse_cards("10C KC 9C 8S 7S 7H 8D 7D"),
]


def test_s1_3_handoff_declined_offer_lets_the_partner_offer_in_their_own_turn() -> None:
    """RULES.md §1.3 hand-off, **Decision**: each seat is asked once, in play order from the
    first leader; «не надо» ends that offer but not the partner's own chance to offer; a
    pair exchanges at most once per deal."""
    state = sixes()
    state.deal_hands([list(h) for h in BOTH_MAY_OFFER])
    assert state.to_act() == (2,)
    state.apply(2, OfferHandoff())
    assert state.apply(0, AnswerOffer(False)) == [OfferAnswered(0, 2, False)]
    assert "Отход: Вера → Аня: «не надо!»" in table_text(state)
    assert state.to_act() == (0,) and state.hidden_turn  # seat 0's own turn to decide
    state.apply(0, OfferHandoff())
    state.apply(2, AnswerOffer(True))
    state.apply(0, GiveTrump((card("QS"),)))
    state.apply(2, ReturnCard(card("KS")))
    assert state.phase is Phase.PLAY  # nobody is asked again
    assert state.current is not None
    assert [h.answer for h in state.current.handoffs] == ["decline", "agree"]


def test_s1_3_handoff_any_trump_may_pass_and_the_holder_of_8c_then_leads() -> None:
    """RULES.md §1.3 hand-off: no points are asked of the trump (a lone 8♣ may pass); the
    first deal's lead goes to whoever holds the lowest trump when play begins (**Decision**,
    as RULES.md §1.2 decides for A♦)."""
    state = sixes()
    state.deal_hands([list(h) for h in BOTH_MAY_OFFER])
    assert state.handoff_cards(2) == (card("8C"),)
    state.apply(2, OfferHandoff())
    state.apply(0, AnswerOffer(True))
    state.apply(2, GiveTrump((card("8C"),)))
    state.apply(0, ReturnCard(card("9H")))
    assert state.phase is Phase.PLAY and state.to_act() == (0,)
    assert state.current is not None
    assert state.current.first_leader == 0 and state.current.obligation == 0


def test_s1_3_handoff_is_traced_with_the_answer_and_every_card() -> None:
    """RULES.md §1.3 hand-off (trace): each offer with its answer, the trumps passed and the
    cards returned; the first trick's hands show where they went."""
    state = sixes()
    state.deal_hands([list(h) for h in BOTH_MAY_OFFER])
    state.apply(2, OfferHandoff())
    state.apply(0, AnswerOffer(False))
    state.apply(0, OfferHandoff())
    state.apply(2, AnswerOffer(True))
    state.apply(0, GiveTrump((card("QS"), card("JD"))))
    state.apply(2, ReturnCard(card("KS")))
    state.apply(2, ReturnCard(card("9S")))
    while state.last_result is None:
        seat = state.to_act()[0]
        state.apply(seat, FAMILY.players.choose(state, seat))
    trace = deal_trace(state, state.last_result, match=0, players=["a", "b", "c", "d"])
    assert trace["handoffs"] == [
        {"from": 2, "to": 0, "cards": [], "returned": [], "answer": "decline"},
        {"from": 0, "to": 2, "cards": ["QS", "JD"], "returned": ["KS", "9S"], "answer": "agree"},
    ]
    first = trace["tricks"][0]["hands"]
    assert {"KS", "9S"} <= set(first[0]) and {"QS", "JD"} <= set(first[2])


def test_s1_3_opening_trace_records_the_stock_and_each_seats_draws() -> None:
    """RULES.md §1.3 shtany (issue #14 trace): ``deck`` is the stock, top first, and
    ``opening_draws`` the cards each seat drew, in dealing order."""
    state = later_deal(1)
    state.deal_stock(list(SHTANY_STOCK))
    called(state, "shtany")
    settle(state)
    while state.last_result is None:
        seat = state.to_act()[0]
        state.apply(seat, FAMILY.players.choose(state, seat))
    trace = deal_trace(state, state.last_result, match=0, players=["a", "b", "c", "d"])
    assert trace["deck"] == [str(c) for c in SHTANY_STOCK]
    assert trace["opening_draws"] == [
        {"seat": 1, "cards": ["QC", "AS", "7H", "KH"]},
        {"seat": 2, "cards": ["9S", "QS"]},
        {"seat": 3, "cards": ["AD", "8D"]},
        {"seat": 0, "cards": ["9H", "JS"]},
    ]
    assert trace["dealer"] == 0


def test_s1_3_handoff_buttons_carry_every_answer_in_the_move_notation() -> None:
    """RULES.md §1.3 hand-off: each step has its buttons — offer or keep, «давай» or «не
    надо», one or both trumps, each card to return — whose data the bot's callback parser
    accepts and whose action reads back from its notation."""
    state = sixes()
    state.deal_hands([list(h) for h in HANDOFF_HANDS])
    seen: list[str] = []

    def buttons(seat: int) -> list[str]:
        """The seat's act buttons that may be pressed now (the faintly marked ones not)."""
        keyboard = render.hand_keyboard(playing_table(state), state, seat, translator("ru"))
        acts = [
            b.data
            for row in keyboard
            for b in row
            if b.data and b.data.startswith("a:") and not is_not_now(b.text)
        ]
        for data in acts:
            parsed = callbacks.parse(data)
            assert isinstance(parsed, callbacks.ActButton), data
            assert parse_action(parsed.action) in state.legal_actions(seat)
        seen.extend(acts)
        return acts

    assert buttons(0) == ["a:1:0:offer", "a:1:0:keep"] and buttons(2) == []
    state.apply(0, OfferHandoff())
    assert buttons(2) == ["a:1:0:agree", "a:1:0:decline"]
    state.apply(2, AnswerOffer(True))
    assert buttons(0) == ["a:1:0:give:QS", "a:1:0:give:JD", "a:1:0:give:QS_JD"]
    state.apply(0, GiveTrump((card("QS"), card("JD"))))
    assert set(buttons(2)) == {f"a:1:0:return:{c}" for c in ("KS", "KH", "KD", "9S")}
    state.apply(2, ReturnCard(card("KS")))
    assert set(buttons(2)) == {f"a:1:0:return:{c}" for c in ("KH", "KD", "9S")}
    assert len(seen) == 14


def test_s1_3_timeouts_keep_the_hidden_decision_and_answer_the_public_steps() -> None:
    """RULES.md §3 on time-out in sixes' hand-off: the hidden decision whether to offer is
    kept (nothing is offered); the public answer and the trumps are the computer's choice;
    a completed exchange counts one hand-off for the giver (/stats)."""
    state = sixes()
    state.deal_hands([list(h) for h in HANDOFF_HANDS])
    rng = random.Random(3)
    assert FAMILY.players.on_timeout(state, 0, rng) == KeepHand()
    state.apply(0, OfferHandoff())
    assert not state.hidden_turn and FAMILY.players.on_timeout(state, 2, rng) == AnswerOffer(True)
    state.apply(2, AnswerOffer(True))
    gives = FAMILY.players.on_timeout(state, 0, rng)
    assert gives in state.legal_actions(0) and isinstance(gives, GiveTrump)
    assert FAMILY.rules.tallies(Exchanged(0, 2, 2), state) == ((0, "handoffs"),)
    assert FAMILY.rules.tallies(HandedOff(0, 2, (card("QS"),)), state) == ()


def test_s1_3_handoff_with_one_trump() -> None:
    """RULES.md §1.3 hand-off: one trump is enough."""
    hands = [list(hand) for hand in HANDOFF_HANDS]
    hands[0][hands[0].index(card("JD"))] = card("9S")
    hands[2][hands[2].index(card("9S"))] = card("JD")
    state = sixes()
    state.deal_hands(hands)
    assert state.phase is Phase.HANDOFF and state.to_act() == (0,)
    assert state.handoff_cards(0) == (card("QS"),)


def test_s1_3_handoff_not_with_three_trumps() -> None:
    """RULES.md §1.3 hand-off: one or two trumps, not three."""
    hands = [list(hand) for hand in HANDOFF_HANDS]
    hands[0][hands[0].index(card("9D"))] = card("10C")
    hands[2][hands[2].index(card("10C"))] = card("9D")
    state = sixes()
    state.deal_hands(hands)
    assert state.phase is Phase.PLAY
    assert state.handoff_cards(0) == ()


def test_s1_3_handoff_of_a_game_saved_with_the_old_record_shape_loads() -> None:
    """A game saved while a hand-off was one ``card`` (announced and passed at once) goes on
    after the upgrade: the record becomes an agreed offer with its cards."""
    state = sixes()
    state.deal_hands([list(h) for h in HANDOFF_HANDS])
    state.apply(0, OfferHandoff())
    state.apply(2, AnswerOffer(True))
    state.apply(0, GiveTrump((card("QS"),)))
    data = state.dump()
    data["current"]["handoffs"] = [{"giver": 0, "to": 2, "card": "QS", "returned": None}]
    loaded = MatchState.load(data)
    assert loaded == state
    assert loaded.to_act() == (2,)
    loaded.apply(2, ReturnCard(card("9S")))
    assert loaded.phase is Phase.PLAY
    done = loaded.dump()
    done["current"]["handoffs"] = [{"giver": 0, "to": 2, "card": "QS", "returned": "9S"}]
    assert MatchState.load(done) == loaded


# -- options ----------------------------------------------------------------------------------


def test_s1_3_ace_discard_ban_no_ace_of_a_suit_not_yet_led() -> None:
    """RULES.md §1.3 option ace-discard ban: with no card of the led suit, a player may not
    discard the ace of a suit not yet led in this deal (an ace of a led suit is fine)."""
    state = sixes(ace_discard_ban=True)
    deal(state, ACE_HANDS)
    assert state.phase is Phase.PLAY and state.to_act() == (0,)
    play_cards(state, "KS 7S 10S 8S")  # spades led; seat 2 takes it
    play_cards(state, "AH 7H 9H")  # hearts led; seat 1 has no heart
    assert set(state.legal_cards(1)) == cards("AS 8D QC QS JC 7D")
    with pytest.raises(GameError) as error:
        state.apply(1, PlayCard(card("AD")))
    assert card("AD") not in getattr(error.value, "legal", ())
    play_cards(state, "AS")
    # Without the option every card may be discarded.
    state = sixes()
    deal(state, ACE_HANDS)
    play_cards(state, "KS 7S 10S 8S AH 7H 9H")
    assert card("AD") in state.legal_cards(1)


def test_s1_3_royal_kozel_four_aces_win_the_match_at_once() -> None:
    """RULES.md §1.3 option royal kozel: a player dealt all four aces wins the match at
    once (outcome ``royal``); without the option it is an ordinary hand."""
    state = sixes(royal=True)
    events = state.deal_hands([list(h) for h in ROYAL_HANDS])
    result = scored(events)
    assert result.outcome == Outcome.ROYAL and result.side == 1
    assert match_over(events) == [(1, result.score)]
    assert state.phase is Phase.OVER and state.winner == 1
    state = sixes()
    events = state.deal_hands([list(h) for h in ROYAL_HANDS])
    assert of_type(events, DealScored) == []
    assert state.phase in (Phase.REDEAL, Phase.HANDOFF, Phase.PLAY)


# -- openings (hvalyonka types) ----------------------------------------------------------------


def test_s1_3_no_opening_in_the_first_deal() -> None:
    """RULES.md §1.3 **Decision**: no opening in the match's first deal (its first leader
    is known only after dealing): straight to the redeal offers or play."""
    for seed in range(20):
        state = sixes()
        state.deal(shuffle_rng(seed, 0))
        assert state.phase in (Phase.REDEAL, Phase.HANDOFF, Phase.PLAY)
        assert state.current is not None and state.current.opening == "plain"


def test_s1_3_later_the_first_leader_calls_plain_or_an_opening() -> None:
    """RULES.md §1.3: in a later deal the first leader may call a hvalyonka type instead of
    a plain deal: plain, shtany, double shtany or mirror."""
    state = later_deal(2)
    dealt = of_type(state.deal(shuffle_rng(9, 0)), Dealt)[0]
    assert dealt.first_leader == 2
    assert state.phase is Phase.CALL and state.to_act() == (2,)
    assert state.legal_actions(2) == [CallOpening(kind) for kind in OPENINGS]
    assert set(OPENINGS) == {"plain", "shtany", "double_shtany", "mirror"}
    assert state.legal_actions(1) == []
    with pytest.raises(NotYourTurn):
        state.apply(1, CallOpening("plain"))
    with pytest.raises(WrongPhase):
        state.apply(2, PlayCard(card("7C")))
    assert state.view_for(None).hand_sizes == (0, 0, 0, 0)


def test_s1_3_plain_call_deals_8_cards_each() -> None:
    """RULES.md §1.3: a plain call ("играем") deals the shuffled deck 8 cards each."""
    deck = list(DECK_32)
    random.Random(3).shuffle(deck)
    state = later_deal(3)
    state.deal_stock(list(deck))
    events = called(state, "plain")
    assert of_type(events, OpeningCalled) == [OpeningCalled(3, "plain")]
    assert state.current is not None and state.current.opening == "plain"
    assert state.current.hands == [deck[i * 8 : i * 8 + 8] for i in range(4)]
    settle(state)
    assert state.phase is Phase.PLAY and state.to_act() == (3,)


def test_s1_3_shtany_one_from_top_and_bottom_keeping_aces_and_trumps() -> None:
    """RULES.md §1.3 shtany: each player in turn takes one card from the top and one from
    the bottom, keeps aces and trumps and asks again, and plays the first card that is
    neither; the lead is shown after the trick (the opening trick is blind); the rest of
    the deck is dealt so that each has 8 cards in all."""
    state = later_deal(1)
    state.deal_stock(list(SHTANY_STOCK))
    events = called(state, "shtany")
    taken = of_type(events, TrickTaken)
    assert taken == [
        TrickTaken(
            0,
            1,
            ((1, card("7H")), (2, card("9S")), (3, card("8D")), (0, card("9H"))),
            winner=0,
            points=0,
        )
    ]
    assert state.current is not None
    deal_now = state.current
    assert deal_now.opening == "shtany"
    assert deal_now.tricks[0].blind
    assert [set(hand) for hand in deal_now.initial_hands] == [
        cards("9H JS JD AC 10C KC 10S 8H"),
        cards("QC AS 7H KH 7C QH AH 10H"),
        cards("9S QS 9C 8C 8S 7S 9D 7D"),
        cards("AD 8D QD JC JH 10D KD KS"),
    ]
    assert [len(hand) for hand in deal_now.hands] == [7, 7, 7, 7]
    assert state.phase is Phase.PLAY and state.to_act() == (0,)


def test_s1_3_double_shtany_two_from_top_and_two_from_bottom() -> None:
    """RULES.md §1.3 double shtany: two cards from the top and two from the bottom each
    time; a player whose first batch is all aces and trumps asks again."""
    state = later_deal(3)
    state.deal_stock(list(DOUBLE_SHTANY_STOCK))
    events = called(state, "double_shtany")
    taken = of_type(events, TrickTaken)
    assert taken == [
        TrickTaken(
            0,
            3,
            ((3, card("7H")), (0, card("10S")), (1, card("KS")), (2, card("10H"))),
            winner=2,
            points=24,
        )
    ]
    assert state.current is not None
    assert state.current.tricks[0].blind
    assert set(state.current.initial_hands[3]) == cards("QC AS QS AD JC 7H KH AH")
    assert set(state.current.initial_hands[0]) == cards("10S 9D JS 8S QH QD 9S 8H")
    assert [len(hand) for hand in state.current.hands] == [7, 7, 7, 7]
    assert state.phase is Phase.PLAY and state.to_act() == (2,)


def test_s1_3_mirror_one_card_at_a_time_from_the_bottom_keeping_trumps() -> None:
    """RULES.md §1.3 mirror: cards one at a time from the bottom, trumps kept (an ace is
    not), the first plain card led; the next player does the same."""
    state = later_deal(0)
    state.deal_stock(list(MIRROR_STOCK))
    events = called(state, "mirror")
    taken = of_type(events, TrickTaken)
    assert taken == [
        TrickTaken(
            0,
            0,
            ((0, card("AS")), (1, card("7S")), (2, card("KS")), (3, card("10S"))),
            winner=0,
            points=25,
        )
    ]
    assert state.current is not None and state.current.opening == "mirror"
    assert set(state.current.initial_hands[0]) == cards("QC AS 7C QS AH 10H 9S 8S")
    assert set(state.current.initial_hands[1]) == cards("JD 8C 7S QH QD KH 9H AD")
    assert [len(hand) for hand in state.current.hands] == [7, 7, 7, 7]
    assert state.phase is Phase.PLAY and state.to_act() == (0,)


def test_s1_3_mirror_is_played_face_up_so_its_trick_is_not_blind() -> None:
    """RULES.md §1.3 mirror: the lead is face up (unlike shtany's), so the trick is no
    blind trick."""
    state = later_deal(0)
    state.deal_stock(list(MIRROR_STOCK))
    called(state, "mirror")
    assert state.current is not None
    assert not state.current.tricks[0].blind


def test_s1_3_opening_trick_cards_and_hands_make_the_whole_deck() -> None:
    """RULES.md §1.3 openings: with each opening everybody has 8 cards in all, and the
    deal then plays out to 120 points."""
    for kind, leader, deck in (
        ("shtany", 1, SHTANY_STOCK),
        ("double_shtany", 3, DOUBLE_SHTANY_STOCK),
        ("mirror", 0, MIRROR_STOCK),
    ):
        state = later_deal(leader)
        state.deal_stock(list(deck))
        called(state, kind)
        assert state.current is not None
        assert {c for hand in state.current.initial_hands for c in hand} == set(DECK_32)
        assert [len(hand) for hand in state.current.initial_hands] == [8, 8, 8, 8]
        settle(state)
        results: list[DealScored] = []
        while state.phase is Phase.PLAY:
            seat = state.to_act()[0]
            results += of_type(state.apply(seat, PlayCard(state.legal_cards(seat)[0])), DealScored)
        assert len(results) == 1 and sum(results[0].points) == 120
        trace = deal_trace(state, results[0], match=0, players=["a", "b", "c", "d"])
        assert trace["opening"] == kind
        # shtany lead face down; the mirror leads face up (RULES.md §1.3)
        assert trace["tricks"][0].get("blind", False) is (kind != "mirror")


def test_s1_3_no_opening_right_after_a_redeal() -> None:
    """RULES.md §1.3: after a redeal no hvalyonka — the new deal is dealt plainly."""
    state = later_deal(2)
    state.deal_stock([c for hand in REDEAL_HANDS for c in hand])
    called(state, "plain")
    assert state.phase is Phase.REDEAL and set(state.to_act()) == {0, 1}
    state.apply(1, AskRedeal())
    dealt = of_type(state.deal(shuffle_rng(2, state.shuffles)), Dealt)[0]
    assert dealt.redeals == 1 and dealt.first_leader == 2
    assert state.phase is not Phase.CALL
    assert state.current is not None and state.current.opening == "plain"
    assert [len(hand) for hand in state.current.hands] == [8, 8, 8, 8]


def test_s1_3_no_opening_right_after_eggs() -> None:
    """RULES.md §1.3 (as §1.2): the deal right after eggs is dealt plainly, with no call;
    after a deal that is not eggs the first leader calls again."""
    state = sixes()
    scored(play_deal(state, ROWS_EGGS))
    state.deal(shuffle_rng(1, state.shuffles))
    assert state.phase is not Phase.CALL
    assert state.current is not None and state.current.opening == "plain"
    assert state.current.first_leader == 2
    assert [len(hand) for hand in state.current.hands] == [8, 8, 8, 8]
    state = sixes()
    scored(play_deal(state, ROWS_EGGS))
    assert scored(play_deal(state, ROWS_90_30)).outcome == Outcome.NORMAL
    state.deal(shuffle_rng(1, state.shuffles))
    assert state.phase is Phase.CALL


# -- losers' titles ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("eggs_first", "rows", "score", "title"),
    [
        (False, ROWS_89_31, (5, 3), "kozly"),
        (False, ROWS_90_30, (4, 3), "kozly"),  # 90+ but the winners were at 4, not 5
        (False, ROWS_90_30, (5, 3), "kozly_tails"),
        (True, ROWS_89_31, (5, 3), "kozly_eggs"),
        (True, ROWS_90_30, (5, 3), "kozly_eggs_tails"),
    ],
)
def test_s1_3_losers_titles_kozly_with_eggs_with_tails(
    eggs_first: bool, rows: Rows, score: tuple[int, int], title: str
) -> None:
    """RULES.md §1.3 loser titles on the match's last deal: "козлы"; "с яйцами" if any eggs
    happened in the match; "с хвостами" if the winners were at 5 and won the last deal
    with 90+."""
    state = later_deal(2, score=score)
    if eggs_first:
        eggs = scored(play_deal(state, ROWS_EGGS))
        assert eggs.title is None and eggs.outcome == Outcome.EGGS
    events = play_deal(state, rows)
    result = scored(events)
    assert match_over(events) != []
    assert result.title == title


def test_s1_3_no_title_before_the_last_deal() -> None:
    """RULES.md §1.3 loser titles: only at the end."""
    result = scored(play_deal(later_deal(2, score=(3, 3)), ROWS_90_30))
    assert result.score == (5, 3) and result.title is None


# -- whole matches -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{}, {"no_shamok": True}, {"no_shamok": True, "ace_discard_ban": True, "royal": True}],
    ids=["default", "no_shamok", "all-options"],
)
@pytest.mark.parametrize("seed", range(8))
def test_s1_3_seeded_computer_matches_finish_and_deals_hold_120_points(
    options: dict[str, object], seed: int
) -> None:
    """RULES.md §1.3: seeded computer matches finish (a pair at 6, a first-deal Lyusya or a
    royal kozel), and every deal not ended by a refused redeal or royal kozel shares out
    exactly 120 card points in 8 tricks."""
    results: list[DealScored] = []

    def on_deal(state: object, result: DealScored) -> None:
        assert isinstance(state, MatchState)
        results.append(result)
        deal_trace(state, result, match=0, players=["a", "b", "c", "d"])

    final = play_match(sixes(**options), seed, on_deal=on_deal)
    assert final.over and final.winner is not None
    for result in results:
        if result.outcome in (Outcome.REFUSED_REDEAL, Outcome.ROYAL):
            assert result.points == (0, 0)
        else:
            assert sum(result.points) == 120, result
            assert sum(result.tricks_won) == 8
    last = results[-1]
    assert last.side == final.winner and last.title is not None
    assert last.title.startswith("kozly")
    assert (
        last.score[final.winner] >= 6
        or last.outcome == Outcome.ROYAL
        or (last.outcome == Outcome.LYUSYA and last.deal_no == 0)
    )
