"""Белка (RULES.md §1, §1.4): one test per rule clause, on scripted deals.

Deals are written as trick rows (see ``tests/scripted.py``). Every ``ROWS_OB_*`` deal has J♣
at seat 0, so in the first deal of a match (and in any deal while seat 0 owns clubs) the trump
suit is clubs and seats 0+2 are on obligation; the number is the card points seats 0+2 take.
They were found once by a search over computer-played deals and frozen here, so the points
and eyes below follow from the cards, not from a lucky seed.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from kozelbot.core.cards import DECK_32, DECK_36, DECKS, Card, Rank, Suit, hand_points, parse_cards
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import (
    AskRedeal,
    Caught,
    Dealt,
    Event,
    KeepHand,
    MustFollow,
    Outcome,
    Phase,
    PlayCard,
    RedealAsked,
    RedealNotAllowed,
    TrickTaken,
    Waiting,
    WrongPhase,
)
from kozelbot.tools.simulate import play_match
from tests.scripted import (
    Rows,
    card,
    deal_and_keep,
    hands_from_rows,
    of_type,
    play_cards,
    play_rows,
    rotate,
    scored,
)

JC = Card.parse("JC")
JACKS = parse_cards("JC JS JH JD")
PLAIN_RANKS_32 = ("A", "10", "K", "Q", "9", "8", "7")
PLAIN_RANKS_36 = (*PLAIN_RANKS_32, "6")

# Seats 0+2 (J♣ at seat 0: on obligation) take the named number of card points.
ROWS_OB_61: Rows = [
    "JC 9C AC 7C",
    "AS 8S 7S QS",
    "8H QH 7H 9H",
    "8C JS JH AD",
    "QC JD KC 10D",
    "9D KD 7D 8D",
    "9S KS KH 10S",
    "10C AH 10H QD",
]
ROWS_OB_64: Rows = [
    "JC JD KC JH",
    "KD AD 8D 7D",
    "10S 7S KS AS",
    "7C 9S 10H 8S",
    "10D QC QD 9D",
    "8C 8H 7H 9H",
    "9C 10C JS QS",
    "AC QH KH AH",
]
ROWS_OB_89: Rows = [
    "JC 8C QC 7C",
    "AD 7D 8D 9C",
    "8H KH JH 7H",
    "10C KC JS AC",
    "JD 7S 8S 9S",
    "QD 9D 10D 9H",
    "QH KS QS 10S",
    "AH KD AS 10H",
]
ROWS_OB_90: Rows = [
    "JC QC AC JH",
    "JS KC 7C 7S",
    "JD 10C 10H 8D",
    "9C 7H 10S QD",
    "8C QS 7D QH",
    "8H KH 9H AH",
    "8S AS 9S KS",
    "AD KD 9D 10D",
]
ROWS_OB_92: Rows = [
    "JC 8C 9C JH",
    "9H KH QH 7H",
    "AC 8D JD 7D",
    "10C KC JS 8H",
    "9S AH 7S 10S",
    "7C 9D AS KD",
    "QC QD KS 10D",
    "QS 10H 8S AD",
]
ROWS_OB_120_NOT_LYUSYA: Rows = [
    "JC JH AC 9C",
    "AH 7H 8H KH",
    "7S 7D 8S 9S",
    "9D QD 7C 8D",
    "QC 9H JS 10C",
    "10H QH AS QS",
    "JD KD 8C KS",
    "AD 10D KC 10S",
]
# The other pair (seats 1+3) takes 61, 64, 89, 90 and 92.
ROWS_OB_59: Rows = [
    "JC 8C 10C 7C",
    "JS JH QC AC",
    "7H KH 9H AH",
    "QH 10H 9C 8H",
    "10S KC JD 9D",
    "QD 10D 8D AD",
    "7S 8S 9S KS",
    "KD 7D QS AS",
]
ROWS_OB_56: Rows = [
    "JC JD AC 8C",
    "AH 7H 10H 9C",
    "QH KD JH 7D",
    "QC 8H JS 8D",
    "7C 9H 10C 9D",
    "10S QS KC 9S",
    "KS AD 7S AS",
    "KH 10D 8S QD",
]
ROWS_OB_31: Rows = [
    "JC 8C KC 9C",
    "7S 9S 10S AS",
    "AC KH 10H 7H",
    "8D QD 7D AD",
    "8S AH 9H 8H",
    "QS JS 7C 10C",
    "KD JH JD QC",
    "KS 10D QH 9D",
]
ROWS_OB_30: Rows = [
    "JC 8C 9C 7C",
    "AS JH 7S AD",
    "AC 8H AH 7H",
    "9S 10C 8S KH",
    "QC 9H 7D QH",
    "QS 9D KS JD",
    "KC 10H QD JS",
    "10S 10D KD 8D",
]
ROWS_OB_28: Rows = [
    "JC 8C AC 7C",
    "7S 8S 9S AS",
    "JH JD 9C JS",
    "KC 10H 7D 10C",
    "9H QH QS QC",
    "KH 8H AD 7H",
    "9D 8D KD 10D",
    "KS QD 10S AH",
]
# 60:60 — eggs.
ROWS_OB_60: Rows = [
    "JC 8C AC 9C",
    "JS JD 10C 8H",
    "8D AD QD 10D",
    "9H 7H 10H AH",
    "KD 7D QC 9D",
    "KC 7S JH QH",
    "10S QS 7C KS",
    "8S AS 9S KH",
]
# Seat 0 leads its eight trumps and takes every trick (Люся); seats 1 and 3 hold no trump,
# seat 2 only three low ones.
ROWS_LYUSYA: Rows = [
    "JC AS 9C AH",
    "JS 10S 8C 10H",
    "JH KS 7C KH",
    "JD QS 9D QH",
    "AC 9S 8D 9H",
    "10C 8S 7D 8H",
    "KC 7S AD 7H",
    "QC 10D KD QD",
]

# A deal for the trick rules (trump clubs): seat 0 holds J♣ and leads; seat 1 holds the two
# trumps J♦ and A♣, two hearts and one spade, Q♠; seat 2 holds one trump, 7♣.
FOLLOW_HANDS = [
    parse_cards("JC JH QH KS 9D 8D 7D 7S"),
    parse_cards("JD AC 8H 7H QS AD 10D KD"),
    parse_cards("9S 10S AS 9H 10H KH QD 7C"),
    parse_cards("JS 10C KC QC 9C 8C AH 8S"),
]

# Seat 1 holds 13 card points, seat 2 exactly 14.
HANDS_13_AND_14 = [
    parse_cards("JC JS JH JD AS KS AH QH"),
    parse_cards("10S QS 9S 8S 7S 9D 8D 7D"),
    parse_cards("10H KH 9H 8H 7H 9C 8C 7C"),
    parse_cards("AC 10C KC QC AD 10D KD QD"),
]

# The ace-discard ban (trump clubs, seat 0 leads and takes the first two tricks): seat 1 has
# no spade and holds A♥, A♦ and the trump ace A♣.
BAN_HANDS = [
    parse_cards("JC AS KS QS 9S 10D KD 7D"),
    parse_cards("AH AD AC 9D 7H 8H 10C KC"),
    parse_cards("10S 8S QD JS JH QC 9C 10H"),
    parse_cards("7S 8D JD 8C 7C KH QH 9H"),
]
# Seat 0 leads five trumps, then two spades; seat 1 follows with its five trumps and its
# one spade and is left with A♥ and A♦ only, hearts and diamonds never led.
ONLY_ACES_HANDS = [
    parse_cards("JC JS JH JD AC 10C AS KS"),
    parse_cards("KC QC 9C 8C 7C 7S AH AD"),
    parse_cards("10S QS 10H KH QH 9H 8H 7H"),
    parse_cards("9S 8S 10D KD QD 9D 8D 7D"),
]


def new_match(**options: object) -> MatchState:
    """A fresh ``belka`` match with these table options."""
    return MatchState("belka", dict(options))


def rotate_hands(hands: list[list[Card]], by: int) -> list[list[Card]]:
    """The same hands moved ``by`` seats clockwise."""
    return [list(hands[(seat - by) % 4]) for seat in range(4)]


def swap_suits(rows: Rows, suit: Suit) -> Rows:
    """The same deal with clubs and ``suit`` exchanged on every card but the jacks (which
    belong to no suit): a deal legal under trump clubs is legal, and plays the same, under
    trump ``suit``."""
    other = {Suit.CLUBS: suit, suit: Suit.CLUBS}

    def swapped(text: str) -> str:
        c = Card.parse(text)
        if c.rank is Rank.JACK:
            return str(c)
        return str(Card(c.rank, other.get(c.suit, c.suit)))

    return [" ".join(swapped(part) for part in row.split()) for row in rows]


def play_deal(state: MatchState, rows: Rows) -> list[Event]:
    """Deal the hands of ``rows``, keep them, and play the rows out."""
    events = deal_and_keep(state, hands_from_rows(rows))
    events.extend(play_rows(state, rows))
    return events


def follow_deal(**options: object) -> MatchState:
    """The trick-rules deal, dealt and kept: seat 0 (J♣) is to lead, trump clubs."""
    state = new_match(**options)
    deal_and_keep(state, [list(hand) for hand in FOLLOW_HANDS])
    assert state.to_act() == (0,)
    assert state.current is not None and state.current.trump is Suit.CLUBS
    return state


# -- §1.4 players, deck, dealing -------------------------------------------------------


def test_s1_4_four_players_in_pairs() -> None:
    """RULES.md §1.4: 4 players in pairs — partners sit opposite (0+2 against 1+3)."""
    state = new_match()
    assert state.players == 4
    assert [state.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    deal_and_keep(state, hands_from_rows(ROWS_OB_61))
    assert [state.view_for(seat).partner for seat in range(4)] == [2, 3, 0, 1]


def test_s1_4_deck_32_by_default_8_cards_each() -> None:
    """RULES.md §1.4: deck 32 (no sixes) by default, 8 cards each."""
    state = new_match()
    assert state.options["deck"] == 32
    assert set(state.rules.cards) == set(DECK_32)
    for seed in range(10):
        state = new_match()
        state.deal(random.Random(seed))
        assert state.current is not None
        hands = state.current.hands
        assert [len(hand) for hand in hands] == [8, 8, 8, 8]
        assert not any(c.rank is Rank.SIX for hand in hands for c in hand)


def test_s1_4_deck_36_option_9_cards_each() -> None:
    """RULES.md §1.4 *option* deck 36: 9 cards each, sixes included."""
    state = new_match(deck=36)
    assert set(state.rules.cards) == set(DECK_36)
    for seed in range(10):
        state = new_match(deck=36)
        state.deal(random.Random(seed))
        assert state.current is not None
        assert [len(hand) for hand in state.current.hands] == [9, 9, 9, 9]
        assert {c for hand in state.current.hands for c in hand} == set(DECK_36)


@pytest.mark.parametrize("deck", [32, 36])
def test_s1_4_all_cards_are_dealt(deck: int) -> None:
    """RULES.md §1.4: all cards dealt — no talon, and a scripted deal must hold the deck."""
    state = new_match(deck=deck)
    state.deal(random.Random(1))
    assert state.current is not None
    assert state.current.talon == []
    assert sorted(map(str, (c for h in state.current.hands for c in h))) == sorted(
        map(str, DECKS[deck])
    )
    assert state.view_for(0).talon == 0
    state = new_match()
    hands = hands_from_rows(ROWS_OB_61)
    hands[0][0] = hands[1][0]
    with pytest.raises(ValueError):
        state.deal_hands(hands)


# -- §1.4 ladder and suit order -------------------------------------------------------


@pytest.mark.parametrize("deck", [32, 36])
def test_s1_4_ladder_is_the_jacks_only_jc_js_jh_jd_above_the_trump_suit(deck: int) -> None:
    """RULES.md §1.4 / §1 rule 4: the permanent trumps are the four jacks, J♣ > J♠ > J♥ >
    J♦, above every card of the trump suit (A 10 K Q 9 8 7 (6)); whatever the trump suit,
    queens of the other suits are plain cards."""
    state = new_match(deck=deck)
    assert state.rules.ladder == tuple(JACKS)
    ranks = PLAIN_RANKS_36 if deck == 36 else PLAIN_RANKS_32
    for trump in Suit:
        table = state.rules.strength_for(trump)
        trumps = sorted(
            (c for c in DECKS[deck] if table.is_trump(c)), key=lambda c: -table.strength[c]
        )
        assert trumps == [*JACKS, *(card(rank + trump.value) for rank in ranks)], trump
        for other in Suit:
            if other is not trump:
                assert table.suit_of[card("Q" + other.value)] is other


def test_s1_4_jacks_outrank_the_trump_suit_in_play() -> None:
    """RULES.md §1.4 / §1 rule 4: J♥ led takes A♣, the ace of the trump suit; and in the
    ladder J♣ > J♠ > J♥ > J♦ > every trump-suit card."""
    state = follow_deal()
    events = play_cards(state, "JH AC 7C 10C")
    taken = of_type(events, TrickTaken)[0]
    assert taken.winner == 0
    assert taken.points == 2 + 11 + 0 + 10
    ladder = [*JACKS, *parse_cards("AC 10C KC QC 9C 8C 7C")]
    for i, high in enumerate(ladder):
        for low in ladder[i + 1 :]:
            assert state.trick_winner([(0, low), (1, high), (2, card("AS"))]) == 1
            assert state.trick_winner([(0, high), (1, low), (2, card("AS"))]) == 0


def test_s1_4_a_jack_led_is_a_trump_lead() -> None:
    """RULES.md §1 rule 1 in belka: a jack has no suit — J♥ led is a trump lead, and seat 1
    must answer with a trump, not with its hearts."""
    state = follow_deal()
    play_cards(state, "JH")
    assert set(state.legal_cards(1)) == set(parse_cards("JD AC"))
    with pytest.raises(MustFollow) as error:
        state.apply(1, PlayCard(card("7H")))
    assert error.value.led is None


def test_s1_4_a_queen_led_is_a_plain_suit_lead() -> None:
    """RULES.md §1.4: the queen is a plain card in belka — Q♥ led is a hearts lead; seat 1
    must follow with hearts and may not trump."""
    state = follow_deal()
    play_cards(state, "QH")
    assert set(state.legal_cards(1)) == set(parse_cards("8H 7H"))
    with pytest.raises(MustFollow) as error:
        state.apply(1, PlayCard(card("AC")))
    assert error.value.led is Suit.HEARTS


@pytest.mark.parametrize("deck", [32, 36])
def test_s1_4_plain_suit_order_a_10_k_q_9_8_7_6(deck: int) -> None:
    """RULES.md §1.4: inside a plain suit A > 10 > K > Q > 9 > 8 > 7 (> 6) — the queen sits
    between the king and the nine."""
    state = new_match(deck=deck)  # before the first deal: trump clubs
    assert state.view_for(None).trump_suit is Suit.CLUBS
    ranks = PLAIN_RANKS_36 if deck == 36 else PLAIN_RANKS_32
    for suit in "SHD":
        order = [card(rank + suit) for rank in ranks]
        for i, high in enumerate(order):
            for low in order[i + 1 :]:
                assert state.trick_winner([(0, low), (1, high)]) == 1, (high, low)
                assert state.trick_winner([(0, high), (1, low)]) == 0, (high, low)
        for high, low in pairwise(order):
            assert state.strength.strength[high] > state.strength.strength[low]


def test_s1_4_queen_beats_nine_in_play() -> None:
    """RULES.md §1.4 plain-suit order in a played trick: 7♠ led, Q♠ takes 9♠ and 8♠."""
    state = follow_deal()
    play_cards(state, "7S")
    assert state.legal_cards(1) == (card("QS"),)
    events = play_cards(state, "QS 9S 8S")
    taken = of_type(events, TrickTaken)[0]
    assert taken.winner == 1
    assert taken.points == 3


# -- §1.4 seat suits, trump suit, obligation, first lead --------------------------------

CLOCKWISE = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_s1_4_first_jc_holder_owns_clubs_and_suits_go_clockwise_c_s_h_d(holder: int) -> None:
    """RULES.md §1.4 **Decision**: in the first deal the holder of J♣ owns clubs and the
    suits go to the seats clockwise from them in the order C, S, H, D."""
    state = new_match()
    assert state.seat_suits is None
    deal_and_keep(state, hands_from_rows(rotate(ROWS_OB_61, holder)))
    expected = [CLOCKWISE[(seat - holder) % 4] for seat in range(4)]
    assert state.seat_suits == expected
    assert state.view_for(None).seat_suits == tuple(expected)
    assert state.current is not None and state.current.trump is Suit.CLUBS


def four_deals() -> list[dict[str, Any]]:
    """Four deals of one match; J♣ with seat 2, 3, 0 and 1 in turn. Seat 2 owns clubs (the
    first holder), so the suits are ♥ ♦ ♣ ♠ for seats 0..3 and the deals' trumps should be
    ♣, ♠, ♥, ♦. Each deal is ``ROWS_OB_61`` moved to the holder and recoloured to that
    trump, so the pair on obligation takes 61 card points every time."""
    state = new_match()
    records: list[dict[str, Any]] = []
    for holder, trump in ((2, Suit.CLUBS), (3, Suit.SPADES), (0, Suit.HEARTS), (1, Suit.DIAMONDS)):
        rows = swap_suits(rotate(ROWS_OB_61, holder), trump)
        dealt = of_type(deal_and_keep(state, hands_from_rows(rows)), Dealt)[0]
        deal = state.current
        assert deal is not None
        view = state.view_for(None)
        record: dict[str, Any] = {
            "holder": holder,
            "expected_trump": trump,
            "trump": deal.trump,
            "view_trump": view.trump_suit,
            "obligation": deal.obligation,
            "view_obligation": view.obligation,
            "first_leader": dealt.first_leader,
            "to_act": state.to_act(),
            "seat_suits": list(state.seat_suits or []),
        }
        record["result"] = scored(play_rows(state, rows))
        records.append(record)
    return records


def test_s1_4_seat_suits_stay_for_the_whole_match() -> None:
    """RULES.md §1.4 **Decision**: the seats' suits are assigned once, in the first deal, and
    kept for the whole match, wherever J♣ goes later."""
    expected = [Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES]
    for record in four_deals():
        assert record["seat_suits"] == expected, record


def test_s1_4_trump_suit_is_the_suit_owned_by_the_seat_holding_jc() -> None:
    """RULES.md §1.4 **Decision**: in every deal the trump suit is the suit owned by the seat
    that holds J♣ (♣, ♠, ♥, ♦ as J♣ goes to seats 2, 3, 0, 1)."""
    for record in four_deals():
        assert record["trump"] is record["expected_trump"], record
        assert record["view_trump"] is record["expected_trump"], record
        assert record["result"].details["trump"] == record["expected_trump"].value


def test_s1_4_the_jc_holders_pair_is_on_obligation() -> None:
    """RULES.md §1.4: the pair of the seat holding J♣ is on obligation, in every deal."""
    for record in four_deals():
        assert record["obligation"] == record["holder"] % 2, record
        assert record["view_obligation"] == record["holder"] % 2, record


def test_s1_4_the_jc_holder_leads_the_first_trick_of_every_deal() -> None:
    """RULES.md §1.4: the holder of J♣ leads the first trick of every deal, whoever took the
    last trick of the previous deal."""
    for record in four_deals():
        assert record["first_leader"] == record["holder"], record
        assert record["to_act"] == (record["holder"],), record
    for seed in range(20):
        state = new_match()
        state.deal(random.Random(seed))
        assert state.current is not None
        holder = next(s for s, hand in enumerate(state.current.hands) if JC in hand)
        assert state.current.first_leader == holder


def test_s1_4_seat_suits_come_from_the_first_deal_as_played_after_a_redeal() -> None:
    """RULES.md §1.4 **Decision** + §1.1 redeal: a redeal deals the first deal again, so the
    holder of J♣ in the hands actually played owns clubs and the first deal's trump is
    clubs (the thrown-back dealing had J♣ at seat 1; the played one has it at seat 2)."""
    state = new_match()
    dealt = of_type(state.deal_hands(rotate_hands(HANDS_13_AND_14, 1)), Dealt)[0]
    assert dealt.first_leader == 1 and 2 in dealt.redeal_seats
    state.apply(2, AskRedeal())
    assert state.phase is Phase.DEALING and state.deal_no == 0
    deal_and_keep(state, hands_from_rows(rotate(ROWS_OB_61, 2)))
    assert state.current is not None and state.current.first_leader == 2
    assert state.current.trump is Suit.CLUBS
    assert state.seat_suits == [Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES]


# -- §1.4 eyes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "points", "eyes"),
    [
        (ROWS_OB_61, (61, 59), 1),
        (ROWS_OB_64, (64, 56), 1),
        (ROWS_OB_89, (89, 31), 1),
        (ROWS_OB_90, (90, 30), 2),
        (ROWS_OB_92, (92, 28), 2),
        (ROWS_OB_120_NOT_LYUSYA, (120, 0), 2),
    ],
    ids=["61", "64", "89", "90", "92", "120-with-a-lost-trick"],
)
def test_s1_4_obligation_pair_scores_1_eye_for_61_to_89_and_2_for_90_plus(
    rows: Rows, points: tuple[int, int], eyes: int
) -> None:
    """RULES.md §1.4 eyes: the pair on obligation (J♣'s) scores 1 eye for 61–89 card points
    and 2 for 90 or more; the other pair scores nothing."""
    state = new_match()
    result = scored(play_deal(state, rows))
    assert state.current is not None and state.current.obligation == 0
    assert result.outcome == Outcome.NORMAL
    assert result.points == points
    assert result.side == 0
    assert result.award == (eyes, 0)
    assert result.score == (eyes, 0)
    assert state.phase is Phase.DEALING


@pytest.mark.parametrize(
    ("rows", "points", "eyes"),
    [
        (ROWS_OB_59, (59, 61), 2),
        (ROWS_OB_56, (56, 64), 2),
        (ROWS_OB_31, (31, 89), 2),
        (ROWS_OB_30, (30, 90), 3),
        (ROWS_OB_28, (28, 92), 3),
    ],
    ids=["61", "64", "89", "90", "92"],
)
def test_s1_4_other_pair_scores_2_eyes_for_61_to_89_and_3_for_90_plus(
    rows: Rows, points: tuple[int, int], eyes: int
) -> None:
    """RULES.md §1.4 eyes: the pair not on obligation scores 2 eyes for 61–89 card points
    and 3 for 90 or more."""
    state = new_match()
    result = scored(play_deal(state, rows))
    assert state.current is not None and state.current.obligation == 0
    assert result.outcome == Outcome.NORMAL
    assert result.points == points
    assert result.side == 1
    assert result.award == (0, eyes)
    assert result.score == (0, eyes)


def test_s1_4_eyes_follow_the_obligation_whichever_pair_it_is() -> None:
    """RULES.md §1.4 eyes: the tables go by obligation, not by seats — with J♣ at seat 1
    (seats 1+3 on obligation) 61 points give seats 1+3 one eye and seats 0+2 two; in a
    later deal trumped by another suit the same holds."""
    state = new_match()
    first = scored(play_deal(state, rotate(ROWS_OB_61, 1)))
    assert state.current is not None and state.current.obligation == 1
    assert first.points == (59, 61)
    assert first.award == (0, 1)
    second = scored(play_deal(state, rotate(ROWS_OB_59, 1)))
    assert second.points == (61, 59)
    assert second.award == (2, 0)
    # J♣ now with seat 2, which owns spades: seats 0+2 on obligation under trump spades.
    assert state.seat_suits is not None and state.seat_suits[2] is Suit.SPADES
    third = scored(play_deal(state, swap_suits(rotate(ROWS_OB_30, 2), Suit.SPADES)))
    assert third.details["trump"] == "S"
    assert third.points == (30, 90)
    assert third.award == (0, 3)
    assert third.score == (2, 4)


def test_s1_4_no_catch_rule() -> None:
    """RULES.md §1.4: no catch — 6♣ (a low trump here) and Q♣ of opposing pairs in one
    trick make an ordinary trick; the deal goes on."""
    state = new_match(deck=36)
    assert state.rules.catch is None and not state.rules.has_catch
    hands = [
        parse_cards("JC 6C AS KS QS 9S 8S 7S 6S"),
        parse_cards("QC AH 10H KH QH 9H 8H 7H 6H"),
        parse_cards("AD 10D KD QD 9D 8D 7D 6D 10S"),
        parse_cards("JS JH JD AC 10C KC 9C 8C 7C"),
    ]
    deal_and_keep(state, hands)
    events = play_cards(state, "6C QC 10S 7C")
    assert of_type(events, Caught) == []
    assert of_type(events, DealScored) == []
    taken = of_type(events, TrickTaken)[0]
    assert taken.winner == 1  # Q♣ is simply the highest trump of the trick
    assert taken.points == 13
    assert state.phase is Phase.PLAY
    assert state.current is not None
    assert [len(hand) for hand in state.current.hands] == [8, 8, 8, 8]


# -- §1.4 eggs, Lyusya, match ----------------------------------------------------------


def test_s1_4_eggs_60_60_scores_nothing_and_doubles_the_next_deal() -> None:
    """RULES.md §1.4 (eggs as in §1.1): 60:60 gives no eyes; the next deal's eyes are
    doubled — 1 eye on obligation becomes 2, the other pair's 2 become 4."""
    state = new_match()
    eggs = scored(play_deal(state, ROWS_OB_60))
    assert eggs.outcome == Outcome.EGGS
    assert eggs.points == (60, 60)
    assert eggs.award == (0, 0) and eggs.side is None
    assert state.multiplier == 2
    doubled = scored(play_deal(state, ROWS_OB_64))
    assert doubled.multiplier == 2
    assert doubled.award == (2, 0)
    assert state.multiplier == 1
    scored(play_deal(state, ROWS_OB_60))
    doubled = scored(play_deal(state, ROWS_OB_59))
    assert doubled.multiplier == 2
    assert doubled.award == (0, 4)
    assert doubled.score == (2, 4)


def test_s1_4_two_eggs_in_a_row_multiply_by_three() -> None:
    """RULES.md §1.4 / §1.1 **Decision**: after two eggs in a row the multiplier is ×3."""
    state = new_match()
    scored(play_deal(state, ROWS_OB_60))
    second = scored(play_deal(state, ROWS_OB_60))
    assert second.outcome == Outcome.EGGS
    assert second.multiplier == 2
    assert state.multiplier == 3
    result = scored(play_deal(state, ROWS_OB_90))
    assert result.multiplier == 3
    assert result.award == (6, 0)
    again = scored(play_deal(state, ROWS_OB_90))
    assert again.multiplier == 1
    assert again.award == (2, 0)


def test_s1_4_lyusya_gives_12_eyes_and_ends_the_match() -> None:
    """RULES.md §1.4 (Lyusya as in §1.1 ``win``): the pair that took every trick gets 12
    eyes and the match ends at once."""
    state = new_match()
    events = play_deal(state, ROWS_LYUSYA)
    result = scored(events)
    assert result.outcome == Outcome.LYUSYA
    assert result.tricks_won == (8, 0)
    assert result.points == (120, 0)
    assert result.award == (12, 0)
    assert of_type(events, MatchOver) == [MatchOver(winner=0, score=(12, 0))]
    assert state.phase is Phase.OVER and state.winner == 0


def test_s1_4_lyusya_by_the_other_pair_also_gives_12_eyes() -> None:
    """RULES.md §1.4: Lyusya is 12 eyes whichever pair takes every trick (here the pair of
    J♣'s holder, seat 1, on obligation — the table of eyes does not apply)."""
    state = new_match()
    events = play_deal(state, rotate(ROWS_LYUSYA, 1))
    result = scored(events)
    assert result.outcome == Outcome.LYUSYA
    assert result.award == (0, 12)
    assert of_type(events, MatchOver) == [MatchOver(winner=1, score=(0, 12))]


def test_s1_4_match_to_12_eyes() -> None:
    """RULES.md §1.4 (match as in §1.1): the first pair to 12 eyes wins; below 12 the
    match goes on (the other pair's 3 eyes a deal: 3, 6, 9, then 12)."""
    state = new_match()
    for expected in ((0, 3), (0, 6), (0, 9)):
        events = play_deal(state, ROWS_OB_30)
        assert scored(events).score == expected
        assert of_type(events, MatchOver) == []
        assert state.phase is Phase.DEALING
    events = play_deal(state, ROWS_OB_30)
    assert of_type(events, MatchOver) == [MatchOver(winner=1, score=(0, 12))]
    assert state.phase is Phase.OVER and state.winner == 1
    with pytest.raises(WrongPhase):
        state.deal_hands(hands_from_rows(ROWS_OB_30))


# -- §1.4 redeal -------------------------------------------------------------------------


def test_s1_4_redeal_offered_only_to_a_hand_under_14_points() -> None:
    """RULES.md §1.4 (redeal as in §1.1): a hand holding fewer than 14 card points may ask
    for a redeal before the first card; 14 may not; a kept hand starts the play."""
    assert [hand_points(hand) for hand in HANDS_13_AND_14][1:3] == [13, 14]
    state = new_match()
    dealt = of_type(state.deal_hands([list(h) for h in HANDS_13_AND_14]), Dealt)[0]
    assert dealt.redeal_seats == (1,)
    assert state.phase is Phase.REDEAL
    assert state.to_act() == (1,)
    assert state.legal_actions(1) == [AskRedeal(), KeepHand()]
    assert state.legal_actions(2) == []
    with pytest.raises(Waiting):  # the neutral refusal: it does not tell who may ask
        state.apply(2, AskRedeal())
    with pytest.raises(WrongPhase):
        state.apply(0, PlayCard(JC))
    state.apply(1, KeepHand())
    assert state.phase is Phase.PLAY
    assert state.to_act() == (0,)
    with pytest.raises(RedealNotAllowed):
        state.apply(1, AskRedeal())


def test_s1_4_redeal_deals_the_deal_again() -> None:
    """RULES.md §1.4 (redeal as in §1.1): asked for, the deal is shuffled and dealt again —
    same deal number, the redeal counted."""
    state = new_match()
    state.deal_hands([list(h) for h in HANDS_13_AND_14])
    assert state.apply(1, AskRedeal()) == [RedealAsked(1)]
    assert state.phase is Phase.DEALING
    assert state.deal_no == 0 and state.redeals == 1
    dealt = of_type(state.deal(random.Random(5)), Dealt)[0]
    assert dealt.deal_no == 0 and dealt.redeals == 1
    assert state.current is not None
    assert state.current.hands != HANDS_13_AND_14


def test_s1_4_no_redeal_offer_without_a_weak_hand() -> None:
    """RULES.md §1.4: with no hand under 14 points play starts straight away."""
    hands = hands_from_rows(ROWS_OB_61)
    assert min(hand_points(hand) for hand in hands) >= 14
    state = new_match()
    dealt = of_type(state.deal_hands(hands), Dealt)[0]
    assert dealt.redeal_seats == ()
    assert state.phase is Phase.PLAY


# -- §1.4 option ace-discard ban (as in §1.3) --------------------------------------------


def test_s1_4_ace_discard_ban_is_off_by_default() -> None:
    """RULES.md §1.4: the ace-discard ban is an option, off by default — without it seat 1,
    out of spades, may discard A♥ or A♦ on the first trick."""
    state = new_match()
    assert state.options["ace_discard_ban"] is False
    assert not state.rules.ace_discard_ban
    deal_and_keep(state, [list(hand) for hand in BAN_HANDS])
    play_cards(state, "AS")
    assert set(state.legal_cards(1)) == set(BAN_HANDS[1])
    play_cards(state, "AH")
    assert state.current is not None and card("AH") not in state.current.hands[1]


def test_s1_4_ace_discard_ban_forbids_a_plain_ace_of_a_suit_not_yet_led() -> None:
    """RULES.md §1.4 option / §1.3: with no card of the led suit, a player may not discard
    the ace of a suit not yet led in this deal — A♥ and A♦ are not legal on the spade lead;
    the trump ace A♣ is no plain ace and stays legal."""
    state = new_match(ace_discard_ban=True)
    deal_and_keep(state, [list(hand) for hand in BAN_HANDS])
    play_cards(state, "AS")
    legal = set(state.legal_cards(1))
    assert legal == set(BAN_HANDS[1]) - {card("AH"), card("AD")}
    assert card("AC") in legal
    for ace in ("AH", "AD"):
        with pytest.raises(MustFollow) as error:
            state.apply(1, PlayCard(card(ace)))
        assert error.value.led is Suit.SPADES
        assert set(error.value.legal) == legal
    assert state.to_act() == (1,)
    play_cards(state, "7H")  # any other discard is accepted


def test_s1_4_ace_discard_ban_allows_the_ace_once_its_suit_was_led() -> None:
    """RULES.md §1.4 option / §1.3: once diamonds have been led in the deal, A♦ may be
    discarded; A♥ still may not (hearts never led)."""
    state = new_match(ace_discard_ban=True)
    deal_and_keep(state, [list(hand) for hand in BAN_HANDS])
    play_cards(state, "AS 7H 10S 7S")  # seat 0 takes it
    play_cards(state, "10D")
    assert set(state.legal_cards(1)) == set(parse_cards("AD 9D"))  # following: the ace too
    events = play_cards(state, "9D QD 8D")
    assert of_type(events, TrickTaken)[0].winner == 0
    play_cards(state, "KS")
    legal = set(state.legal_cards(1))
    assert card("AD") in legal
    assert card("AH") not in legal
    play_cards(state, "AD")
    assert state.current is not None and card("AD") not in state.current.hands[1]


def test_s1_4_ace_discard_ban_allows_the_aces_when_only_they_remain() -> None:
    """RULES.md §1.4 option / §1.3: a hand left with nothing but aces of suits not yet led
    may play them (and while a trump is left, the ban still holds)."""
    state = new_match(ace_discard_ban=True)
    deal_and_keep(state, [list(hand) for hand in ONLY_ACES_HANDS])
    play_cards(state, "JC 7C 10S 9S")
    play_cards(state, "JS 8C QS 8S")
    play_cards(state, "JH 9C 10H 10D")
    play_cards(state, "JD QC KH KD")
    play_cards(state, "AC KC QH QD")
    play_cards(state, "AS 7S 9H 9D")
    assert state.current is not None
    assert state.current.hands[1] == parse_cards("AH AD")
    play_cards(state, "KS")
    assert set(state.legal_cards(1)) == {card("AH"), card("AD")}
    play_cards(state, "AH")
    assert state.to_act() == (2,)


# -- computer matches ------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{}, {"deck": 36}, {"ace_discard_ban": True}, {"deck": 36, "ace_discard_ban": True}],
    ids=["32", "36", "32-ace-ban", "36-ace-ban"],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s1_4_seeded_computer_matches_finish_with_120_points_every_deal(
    options: dict[str, object], seed: int
) -> None:
    """RULES.md §1.4 as a whole: a computer match of every setting ends with a winner at
    12 eyes or more (or a Lyusya); every deal holds 120 card points (there is no catch) and
    is trumped by the suit of J♣'s seat, whose pair is on obligation."""
    state = new_match(**options)
    results: list[DealScored] = []
    hands_per_seat = 9 if options.get("deck") == 36 else 8

    def on_deal(match: Any, result: DealScored) -> None:
        assert match is state
        deal = state.current
        assert deal is not None and state.seat_suits is not None
        holder = next(s for s, hand in enumerate(deal.initial_hands) if JC in hand)
        assert deal.first_leader == holder
        assert deal.obligation == holder % 2
        assert deal.trump is state.seat_suits[holder]
        assert result.details["trump"] == state.seat_suits[holder].value
        assert result.outcome != Outcome.CATCH
        assert sum(result.points) == 120
        assert sum(result.tricks_won) == hands_per_seat
        results.append(result)

    final = play_match(state, seed, on_deal=on_deal)
    assert final.over and state.winner is not None
    assert results
    last = results[-1]
    assert last.outcome == Outcome.LYUSYA or max(last.score) >= 12
    assert state.score[state.winner] == max(state.score)
