"""Хвалёный козёл for two players (RULES.md §1.1 "Two players"): one test per clause.

A two-player deal is written as *duel rows*: row ``k`` holds the card seat 0 and seat 1
play in trick ``k`` (``"c0 c1"``). The first half of the rows are the hands dealt; the second
half are the hands dealt again from the talon when both hands are empty. ``deal_duel`` orders
the talon so that each seat gets its own column at the refill (the engine deals the talon
to the last trick's winner first). The engine decides who leads each trick: the non-dealer
first, then each trick's winner. The ``DUEL_*`` deals were found once by a search over
computer-played first deals (dealer seat 0, so seat 1 leads, trump clubs) and frozen here.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from kozelbot.core.cards import DECK_32, DECK_36, Card, Suit, hand_points, parse_cards
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import (
    AskRedeal,
    CardPlayed,
    Caught,
    Dealt,
    Event,
    KeepHand,
    Outcome,
    Phase,
    PlayCard,
    RedealNotAllowed,
    TrickTaken,
)
from kozelbot.tools.simulate import play_match
from tests.scripted import card, of_type

DuelRows = list[str]

# Seat 0 takes the named number of card points (a first deal: seat 1 leads, trump clubs).
DUEL_0_61: DuelRows = [
    "9C AD",
    "6C 7C",
    "6S JD",
    "9H AH",
    "JC 7H",
    "8S QS",
    "KC 8H",
    "9S KD",
    "AC 10D",
    "6H KH",
    "JH QC",
    "7D 6D",
    "QH 8C",
    "9D 8D",
    "KS 7S",
    "10S QD",
    "JS 10H",
    "AS 10C",
]
DUEL_0_89: DuelRows = [
    "6S AS",
    "7C 10S",
    "AD 8D",
    "6D 8C",
    "9H 7H",
    "10H 9C",
    "JD 9S",
    "QH JS",
    "AC 10C",
    "6C QD",
    "7D 9D",
    "JH QC",
    "JC QS",
    "8H 6H",
    "KC 7S",
    "8S KH",
    "KS KD",
    "10D AH",
]
DUEL_0_90: DuelRows = [
    "10D 7D",
    "6C JD",
    "AD 8D",
    "6H 7H",
    "7C 7S",
    "8H JC",
    "QH 8S",
    "KH KD",
    "10C 10S",
    "6D 8C",
    "9C QC",
    "JS QS",
    "KC QD",
    "AC JH",
    "9S 6S",
    "9D 9H",
    "10H KS",
    "AH AS",
]
DUEL_0_120_NOT_LYUSYA: DuelRows = [
    "9C AH",
    "6C 8C",
    "AS KS",
    "10S 7H",
    "7D 8D",
    "JH 8H",
    "9S 9H",
    "QH 10H",
    "AC AD",
    "QC 7C",
    "QS JC",
    "QD KC",
    "JS 10C",
    "JD 6H",
    "6D 9D",
    "7S 6S",
    "KD 8S",
    "10D KH",
]
# Seat 1 takes the named number of card points.
DUEL_1_61: DuelRows = [
    "9D AD",
    "AS 7S",
    "6C 7C",
    "7H 9C",
    "JS 7D",
    "9H JH",
    "QD 10S",
    "10H JC",
    "KC AC",
    "8C QC",
    "QH QS",
    "8D JD",
    "9S 10C",
    "KD 6D",
    "KH 6H",
    "KS 6S",
    "10D 8H",
    "AH 8S",
]
DUEL_1_89: DuelRows = [
    "7D AD",
    "10S 7S",
    "AS 8C",
    "9H 8H",
    "6S 9C",
    "10D KD",
    "8D QH",
    "QD KH",
    "9D QS",
    "7C 6C",
    "JC QC",
    "10C JS",
    "6D JH",
    "6H JD",
    "7H AC",
    "8S KC",
    "9S 10H",
    "KS AH",
]
DUEL_1_90: DuelRows = [
    "8D 6D",
    "AD 7D",
    "9H 9C",
    "10S 6S",
    "KH JD",
    "7C 7S",
    "10H KC",
    "JC 9S",
    "QD KD",
    "7H 8H",
    "JH 6C",
    "QH QC",
    "10C QS",
    "AC JS",
    "8S 8C",
    "9D 6H",
    "KS 10D",
    "AS AH",
]
# 60:60 — eggs.
DUEL_EGGS: DuelRows = [
    "QD 6C",
    "10C QC",
    "7S AS",
    "8S 6S",
    "6H 8C",
    "10D 7D",
    "10H JD",
    "AD 8D",
    "AH JS",
    "7C 7H",
    "QS JH",
    "QH JC",
    "AC KC",
    "9C 8H",
    "6D KD",
    "9D 9H",
    "9S KH",
    "10S KS",
]
# The last card played is J♥ (a permanent trump whose natural suit is hearts); 75:45.
DUEL_LAST_JH: DuelRows = [
    "10D 8D",
    "AD 7C",
    "6H 9H",
    "7S 10S",
    "QD 10H",
    "8S 8C",
    "QH QC",
    "10C KC",
    "9S AC",
    "AS 6S",
    "6C JS",
    "9D 6D",
    "KD 7D",
    "KH 7H",
    "AH 8H",
    "9C JC",
    "JD QS",
    "JH KS",
]
# Seat 1 leads its nine ladder cards, then six club trumps and three top diamonds: every
# trick (Люся). 6♣ and Q♣ are both seat 1's, so there is no catch.
DUEL_LYUSYA: DuelRows = [
    "AS 6C",
    "10S QC",
    "KS QS",
    "9S QH",
    "8S QD",
    "7S JC",
    "6S JS",
    "AH JH",
    "10H JD",
    "KH AC",
    "9H 10C",
    "8H KC",
    "7H 9C",
    "6H 8C",
    "6D 7C",
    "9D AD",
    "8D 10D",
    "7D KD",
]


def duel(**options: object) -> MatchState:
    """A fresh two-player ``hvalenyi`` match with these table options."""
    return MatchState("hvalenyi", {"players": 2, **options})


def columns(rows: DuelRows) -> list[list[Card]]:
    """The two hands that duel rows describe (column ``s`` is seat ``s``'s hand)."""
    hands: list[list[Card]] = [[], []]
    for row in rows:
        cards = parse_cards(row)
        assert len(cards) == 2, row
        for seat, c in enumerate(cards):
            hands[seat].append(c)
    return hands


def play_duel_rows(state: MatchState, rows: DuelRows) -> list[Event]:
    """Play duel rows: in each trick the leader plays its card of the row, then the other."""
    events: list[Event] = []
    for row in rows:
        cards = parse_cards(row)
        for _ in range(2):
            if state.phase is not Phase.PLAY:
                return events
            seat = state.to_act()[0]
            events.extend(state.apply(seat, PlayCard(cards[seat])))
    return events


def deal_duel(state: MatchState, rows: DuelRows) -> list[Event]:
    """Deal duel rows: the first half as the hands, the second half as the talon, ordered
    so each seat is dealt its own column of the second half at the refill."""
    size = state.rules.hand_size
    assert len(rows) == 2 * size
    first, second = columns(rows[:size]), columns(rows[size:])
    probe = copy.deepcopy(state)
    probe.deal_hands(first, talon=second[0] + second[1])
    play_duel_rows(probe, rows[:size])
    assert probe.current is not None
    refilled_first = probe.current.leader  # the winner of the trick before the refill
    talon = second[refilled_first] + second[1 - refilled_first]
    return state.deal_hands(first, talon=talon)


def play_duel(state: MatchState, rows: DuelRows) -> list[Event]:
    """Deal duel rows and play them out."""
    events = deal_duel(state, rows)
    events.extend(play_duel_rows(state, rows))
    return events


def play_out(state: MatchState) -> list[Event]:
    """Play the current deal to its end with the computer player."""
    events: list[Event] = []
    while state.phase is Phase.PLAY:
        seat = state.to_act()[0]
        events.extend(state.apply(seat, choose_action(state.view_for(seat))))
    return events


def scored(events: list[Event]) -> DealScored:
    """The one ``DealScored`` among ``events``."""
    results = of_type(events, DealScored)
    assert len(results) == 1, events
    return results[0]


# -- dealing: hands and talon ----------------------------------------------------------


@pytest.mark.parametrize(("deck", "size"), [(36, 9), (32, 8)])
def test_s1_1_two_players_each_dealt_9_of_36_or_8_of_32_the_rest_is_the_talon(
    deck: int, size: int
) -> None:
    """RULES.md §1.1 two players: each is dealt 9 cards from 36 (8 from 32); the rest is a
    face-down talon (the views tell only its size)."""
    for seed in range(10):
        state = duel(deck=deck)
        state.deal(random.Random(seed))
        deal = state.current
        assert deal is not None
        assert [len(hand) for hand in deal.hands] == [size, size]
        assert len(deal.talon) == deck - 2 * size
        assert set(deal.hands[0]) | set(deal.hands[1]) | set(deal.talon) == set(
            DECK_36 if deck == 36 else DECK_32
        )
        for seat in (0, 1, None):
            view = state.view_for(seat)
            assert view.talon == deck - 2 * size
            assert view.hand_sizes == (size, size)
        assert set(state.view_for(0).hand) == set(deal.hands[0])


def test_s1_1_two_players_hands_are_dealt_again_from_the_talon_when_both_are_empty() -> None:
    """RULES.md §1.1 two players: when both hands are empty each is dealt the same number
    again from the talon; play goes on, and the deal is scored only when the talon's cards
    are played too (18 tricks, all 120 card points)."""
    state = duel()
    deal_duel(state, DUEL_1_61)
    assert state.current is not None
    talon = list(state.current.talon)
    first_half = play_duel_rows(state, DUEL_1_61[:9])
    assert len(of_type(first_half, TrickTaken)) == 9
    assert of_type(first_half, DealScored) == []
    deal = state.current
    assert state.phase is Phase.PLAY
    assert [len(hand) for hand in deal.hands] == [9, 9]
    assert deal.talon == []
    assert set(deal.hands[0]) | set(deal.hands[1]) == set(talon)
    assert deal.hands == columns(DUEL_1_61[9:])
    assert state.view_for(None).talon == 0
    winner = of_type(first_half, TrickTaken)[-1].winner
    assert state.to_act() == (winner,)  # the last trick's winner leads on
    second_half = play_duel_rows(state, DUEL_1_61[9:])
    tricks = of_type(first_half + second_half, TrickTaken)
    assert len(tricks) == 18
    result = scored(second_half)
    scored_at = second_half.index(result)
    assert all(not isinstance(e, TrickTaken) for e in second_half[scored_at:])
    assert sum(result.points) == 120
    assert sum(result.tricks_won) == 18
    assert sum(t.points for t in tricks) == 120


def test_s1_1_two_players_deck_32_talon_refill() -> None:
    """RULES.md §1.1 two players, deck 32: 8 cards each, 16 in the talon, dealt again after
    the eighth trick; 16 tricks hold the 120 card points."""
    for seed in range(5):
        state = duel(deck=32)
        state.deal(random.Random(seed))
        events: list[Event] = []
        while state.phase is Phase.PLAY:
            seat = state.to_act()[0]
            events.extend(state.apply(seat, choose_action(state.view_for(seat))))
            deal = state.current
            assert deal is not None
            if len(deal.tricks) == 8 and not deal.trick:
                assert deal.talon == [] and [len(h) for h in deal.hands] == [8, 8]
        result = scored(events)
        assert result.outcome != Outcome.CATCH  # no 6♣ in the 32-card deck
        assert sum(result.points) == 120
        assert sum(result.tricks_won) == 16


# -- trump suit ------------------------------------------------------------------------


def test_s1_1_two_players_trump_suit_is_clubs_in_the_first_deal() -> None:
    """RULES.md §1.1 two players: clubs are trumps in the first deal (diamonds, the
    four-player trump suit, are plain): 7♣ takes A♦, and A♣ is a trump."""
    state = duel()
    events = deal_duel(state, DUEL_0_61)
    assert of_type(events, Dealt)[0].deal_no == 0
    assert state.current is not None and state.current.trump is Suit.CLUBS
    assert state.view_for(0).trump_suit is Suit.CLUBS
    strength = state.strength
    assert strength.is_trump(card("AC")) and strength.is_trump(card("7C"))
    assert not strength.is_trump(card("AD"))
    assert strength.suit_of[card("AD")] is Suit.DIAMONDS
    assert state.trick_winner([(1, card("AD")), (0, card("7C"))]) == 0
    # The first trick of the deal: seat 1 leads A♦, seat 0 (no diamond) plays 9♣ and wins.
    events = play_duel_rows(state, DUEL_0_61[:1])
    taken = of_type(events, TrickTaken)[0]
    assert taken.cards == ((1, card("AD")), (0, card("9C")))
    assert taken.winner == 0


def test_s1_1_two_players_later_trump_is_the_natural_suit_of_the_last_card_played() -> None:
    """RULES.md §1.1 two players: in later deals the trump suit is the natural suit of the
    last card played in the previous deal — J♥, a permanent trump, names hearts; then each
    deal's last card names the next deal's trumps."""
    state = duel()
    events = play_duel(state, DUEL_LAST_JH)
    assert scored(events).points == (75, 45)
    last = of_type(events, CardPlayed)[-1].card
    assert last == card("JH")
    assert state.last_card == card("JH")
    state.deal(random.Random(3))
    assert state.current is not None and state.current.trump is Suit.HEARTS
    assert state.view_for(None).trump_suit is Suit.HEARTS
    assert state.strength.is_trump(card("AH")) and state.strength.is_trump(card("6H"))
    assert not state.strength.is_trump(card("AC"))
    assert state.strength.suit_of[card("AC")] is Suit.CLUBS
    trump = Suit.HEARTS
    for seed in range(4, 10):
        events = play_out(state)
        assert scored(events).details["trump"] == trump.value
        if state.phase is not Phase.DEALING:
            break
        last = of_type(events, CardPlayed)[-1].card
        assert state.last_card == last
        state.deal(random.Random(seed))
        trump = last.suit
        assert state.current is not None and state.current.trump is trump


# -- no redeal, first lead, dealer ---------------------------------------------------------


def test_s1_1_two_players_no_redeal_ever() -> None:
    """RULES.md §1.1 two players: no redeal — a hand under 14 points is offered nothing,
    play starts at once, and a redeal request is refused."""
    state = duel()
    hands = [
        parse_cards("9S 8S 7S 6S 9H 8H 7H 6H 9D"),
        parse_cards("7C 8C 9C 8D 7D 6D JD 10D QD"),
    ]
    assert [hand_points(hand) for hand in hands] == [0, 15]
    dealt = {c for hand in hands for c in hand}
    events = state.deal_hands(hands, talon=[c for c in DECK_36 if c not in dealt])
    assert of_type(events, Dealt)[0].redeal_seats == ()
    assert state.phase is Phase.PLAY
    assert state.rules.redeal_below is None
    for seat in (0, 1):
        assert not any(isinstance(a, AskRedeal | KeepHand) for a in state.legal_actions(seat))
        assert not state.view_for(seat).can_redeal
        with pytest.raises(RedealNotAllowed):
            state.apply(seat, AskRedeal())
    for seed in range(30):
        state = duel(deck=32 if seed % 2 else 36)
        state.deal(random.Random(seed))
        assert state.phase is Phase.PLAY


def test_s1_1_two_players_first_lead_by_the_non_dealer_and_the_dealer_alternates() -> None:
    """RULES.md §1.1 two players: the non-dealer leads first; the dealer alternates every
    deal (seat 0 deals first, so seats 1, 0, 1, 0 lead)."""
    state = duel()
    assert state.dealer == 0
    leaders: list[int] = []
    dealers: list[int] = []
    for seed in range(4):
        dealers.append(state.dealer)
        dealt = of_type(state.deal(random.Random(seed)), Dealt)[0]
        leaders.append(dealt.first_leader)
        assert state.to_act() == (dealt.first_leader,)
        assert state.view_for(None).first_leader == dealt.first_leader
        play_out(state)
        if state.phase is not Phase.DEALING:
            break
    assert len(leaders) >= 2
    assert dealers == [0, 1, 0, 1][: len(dealers)]
    assert leaders == [(dealer + 1) % 2 for dealer in dealers]


# -- catch ---------------------------------------------------------------------------------


def test_s1_1_two_players_catch_applies_between_the_two_players() -> None:
    """RULES.md §1.1 two players: the catch applies between the two — seat 1 leads Q♣,
    seat 0 answers 6♣: the deal ends with that trick, seat 0 scores 4 eyes and the card
    points are not counted."""
    state = duel()
    assert state.rules.has_catch
    hands = [
        parse_cards("6C AS 10S KS 9S 8S 7S 6S AH"),
        parse_cards("QC AD 10D KD 9D 8D 7D 6D 10H"),
    ]
    dealt = {c for hand in hands for c in hand}
    talon = [c for c in DECK_36 if c not in dealt]
    state.deal_hands(hands, talon=talon)
    assert state.to_act() == (1,)
    events = state.apply(1, PlayCard(card("QC")))
    assert state.legal_cards(0) == (card("6C"),)
    events += state.apply(0, PlayCard(card("6C")))
    assert of_type(events, Caught) == [Caught(catcher=0, caught=1)]
    result = scored(events)
    assert result.outcome == Outcome.CATCH
    assert result.side == 0
    assert result.award == (4, 0)
    assert result.score == (4, 0)
    assert len(of_type(events, TrickTaken)) == 1
    assert state.phase is Phase.DEALING
    assert state.current is not None and [len(h) for h in state.current.hands] == [8, 8]


def test_s1_1_two_players_catch_award_is_multiplied_after_eggs() -> None:
    """RULES.md §1.1 two players ("as above"): after eggs the catch counts double."""
    state = duel()
    assert scored(play_duel(state, DUEL_EGGS)).outcome == Outcome.EGGS
    # Eggs ended on 10♠: spades are trumps now; seat 1 deals, so seat 0 leads.
    assert state.last_card == card("10S")
    hands = [
        parse_cards("6C AS 10S KS 9S 8S 7S 6S AH"),
        parse_cards("QC AD 10D KD 9D 8D 7D 6D 10H"),
    ]
    dealt = {c for hand in hands for c in hand}
    state.deal_hands(hands, talon=[c for c in DECK_36 if c not in dealt])
    assert state.current is not None and state.current.trump is Suit.SPADES
    leader = state.to_act()[0]
    assert leader == 0
    events = state.apply(0, PlayCard(card("6C")))
    events += state.apply(1, PlayCard(card("QC")))
    result = scored(events)
    assert result.outcome == Outcome.CATCH
    assert result.multiplier == 2
    assert result.award == (8, 0)


# -- scoring per player --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "points", "award"),
    [
        (DUEL_0_61, (61, 59), (2, 0)),
        (DUEL_0_89, (89, 31), (2, 0)),
        (DUEL_0_90, (90, 30), (4, 0)),
        (DUEL_0_120_NOT_LYUSYA, (120, 0), (4, 0)),
        (DUEL_1_61, (59, 61), (0, 2)),
        (DUEL_1_89, (31, 89), (0, 2)),
        (DUEL_1_90, (30, 90), (0, 4)),
    ],
    ids=["0:61", "0:89", "0:90", "0:120-with-a-lost-trick", "1:61", "1:89", "1:90"],
)
def test_s1_1_two_players_scoring_per_player_61_to_89_is_2_eyes_90_plus_is_4(
    rows: DuelRows, points: tuple[int, int], award: tuple[int, int]
) -> None:
    """RULES.md §1.1 two players: each for self, scored per player as above — 61–89 card
    points give 2 eyes, 90–120 give 4; the other player scores nothing."""
    state = duel()
    result = scored(play_duel(state, rows))
    assert result.outcome == Outcome.NORMAL
    assert result.points == points
    assert result.award == award
    assert result.score == award
    assert result.side == (0 if award[0] else 1)
    assert state.phase is Phase.DEALING


def test_s1_1_two_players_eggs_double_the_next_deal() -> None:
    """RULES.md §1.1 two players ("as above"): 60:60 gives no eyes and the next deal's eyes
    are multiplied by two."""
    state = duel()
    eggs = scored(play_duel(state, DUEL_EGGS))
    assert eggs.outcome == Outcome.EGGS
    assert eggs.points == (60, 60)
    assert eggs.award == (0, 0) and eggs.side is None
    assert state.multiplier == 2


def test_s1_1_two_players_lyusya_gives_12_eyes_and_ends_the_match() -> None:
    """RULES.md §1.1 two players ("as above"): the player who took every trick (all 18,
    across the refill) gets 12 eyes and the match ends."""
    state = duel()
    events = play_duel(state, DUEL_LYUSYA)
    assert of_type(events, Caught) == []
    result = scored(events)
    assert result.outcome == Outcome.LYUSYA
    assert result.tricks_won == (0, 18)
    assert result.award == (0, 12)
    assert of_type(events, MatchOver) == [MatchOver(winner=1, score=(0, 12))]
    assert state.phase is Phase.OVER and state.winner == 1


def test_s1_1_two_players_match_to_12_eyes() -> None:
    """RULES.md §1.1 two players: the first player to 12 eyes wins (4 + 4 + 4)."""
    state = duel()
    first = scored(play_duel(state, DUEL_0_90))
    assert first.score == (4, 0)
    # Later deals have other trumps and leaders; the computer finishes the match.
    results: list[DealScored] = [first]
    for seed in range(200):
        if state.phase is Phase.OVER:
            break
        state.deal(random.Random(seed))
        events = play_out(state)
        results.append(scored(events))
        if state.phase is Phase.OVER:
            over = of_type(events, MatchOver)
            assert over and over[0].winner == state.winner
    assert state.phase is Phase.OVER and state.winner is not None
    final = results[-1]
    assert final.outcome == Outcome.LYUSYA or final.score[state.winner] >= 12
    assert all(max(r.score) < 12 for r in results[:-1])


# -- sides and views -------------------------------------------------------------------


def test_s1_1_two_players_sides_are_seats_0_and_1() -> None:
    """RULES.md §1.1 two players: each for self — the two sides are the two seats."""
    state = duel()
    assert state.players == 2
    assert state.side_of(0) == 0 and state.side_of(1) == 1
    result = scored(play_duel(state, DUEL_1_61))
    assert result.side == 1
    assert len(result.points) == len(result.score) == 2


def test_s1_1_two_players_the_view_has_no_partner() -> None:
    """RULES.md §1.1 two players: nobody has a partner."""
    state = duel()
    deal_duel(state, DUEL_0_61)
    assert state.view_for(0).partner is None
    assert state.view_for(1).partner is None
    assert state.view_for(0).players == 2


# -- computer matches ------------------------------------------------------------------


@pytest.mark.parametrize("deck", [36, 32])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s1_1_two_players_seeded_computer_matches_finish_with_120_points(
    deck: int, seed: int
) -> None:
    """RULES.md §1.1 two players as a whole: a computer match ends; every deal holds 120
    card points in all its tricks unless a catch ended it; the non-dealer leads (seats 1,
    0, 1, …); every deal after the first is trumped by the suit of the previous deal's last
    card."""
    state = duel(deck=deck)
    tricks = 18 if deck == 36 else 16
    leaders: list[int] = []
    trumps: list[str] = []
    last_cards: list[Card] = []

    def on_deal(match: Any, result: DealScored) -> None:
        deal = state.current
        assert deal is not None
        leaders.append(deal.first_leader)
        trumps.append(result.details["trump"])
        assert state.last_card is not None
        last_cards.append(state.last_card)
        assert state.last_card == deal.tricks[-1].cards[-1][1]
        if result.outcome == Outcome.CATCH:
            assert deck == 36
            return
        assert sum(result.points) == 120
        assert sum(result.tricks_won) == tricks
        assert deal.talon == []

    final = play_match(state, seed, on_deal=on_deal)
    assert final.over and state.winner is not None
    assert leaders == [(1 + k) % 2 for k in range(len(leaders))]
    assert trumps[0] == Suit.CLUBS.value
    assert trumps[1:] == [c.suit.value for c in last_cards[:-1]]
