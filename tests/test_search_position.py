"""The search representation's own clauses (issue #17 item 2): make/unmake round trips, and
RULES.md §1's trick rules, catch, Lyusya, lead rules, ace-discard ban and two players'
refill on scripted positions (the engine comparison is ``test_search_differential``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from kozelbot.core.cards import Card, parse_cards
from kozelbot.core.protocol import shuffle_rng
from kozelbot.families.follow import FAMILY
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.search import OVER, REFILL, TRICK, DealFacts, Position
from kozelbot.families.follow.search.bits import INDEX, cards_of, indices, mask_of
from kozelbot.families.follow.search.playout import Dealer, first_deal_facts, random_playout
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import PLAY, KeepHand, Outcome
from tests.scripted import ROWS_CATCH_FIRST_TRICK, ROWS_SAME_PAIR_6C_QC, hands_from_rows

SETUPS: list[tuple[str, dict[str, Any]]] = [
    ("hvalenyi", {}),
    ("hvalenyi", {"players": 2}),
    ("hvalenyi", {"deck": 32}),
    ("kryuk", {}),
    ("sixes", {"ace_discard_ban": True}),
    ("belka", {"deck": 36}),
]


def endgame(
    variant: str,
    hands: list[str],
    *,
    leader: int,
    trick: str = "",
    options: dict[str, Any] | None = None,
    **facts: Any,
) -> Position:
    """A late position: these hands and this trick on the table, every other card of the
    deck in the completed tricks (in deck order)."""
    rules = PRESETS[variant].rules(options or {})
    held = [parse_cards(hand) for hand in hands]
    table = parse_cards(trick)
    used = {card for hand in held for card in hand} | set(table)
    played = tuple(card for card in rules.cards if card not in used)
    given = DealFacts(
        rules=rules,
        trump=rules.trump_suit,
        leader=leader,
        trick=tuple(table),
        played=played,
        **facts,
    )
    return Position.of_hands(given, held)


def play(position: Position, cards: str) -> int:
    """Make these cards in turn; return what the last one completed."""
    done = 0
    for card in parse_cards(cards):
        assert position.legal() & mask_of((card,)), f"{card} is not legal"
        done = position.make(INDEX[card])
    return done


def legal(position: Position) -> set[Card]:
    return set(cards_of(position.legal()))


def engine_positions(
    variant: str, options: dict[str, Any], count: int, seed: int
) -> Iterator[tuple[MatchState, Position]]:
    """``count`` card-play positions of random engine matches, as (state, position)."""
    rng = random.Random(seed)
    found = 0
    while True:
        state = MatchState(variant, dict(options))
        while not state.over:
            if state.needs_chance:
                state.chance(shuffle_rng(seed + found, state.shuffles))
                continue
            seat = state.to_act()[0]
            actions = state.legal_actions(seat)
            if state.phase is PLAY and rng.random() < 0.2:
                yield state, Position.of_state(state)
                found += 1
                if found == count:
                    return
            state.apply(seat, rng.choice(actions))


@pytest.mark.parametrize(("variant", "options"), SETUPS)
def test_make_then_unmake_restores_every_position_exactly(
    variant: str, options: dict[str, Any]
) -> None:
    """Property: from random engine positions, a random line to the deal's end unmade card
    by card passes back through every position on the way, to the start exactly; a random
    walk of makes and unmakes always equals the position rebuilt from its line."""
    rng = random.Random(11)
    for _, position in engine_positions(variant, options, 60, seed=3):
        start = (position.key(), list(position.played))
        hands = list(position.hands)
        keys = []
        while not position.over:
            keys.append(position.key())
            position.make(rng.choice(indices(position.legal())))
        while keys:
            position.unmake()
            assert position.key() == keys.pop()
        assert (position.key(), list(position.played)) == start
        with pytest.raises(IndexError):
            position.unmake()
        line: list[int] = []
        for _ in range(60):
            if line and (position.over or rng.random() < 0.4):
                position.unmake()
                line.pop()
            else:
                card = rng.choice(indices(position.legal()))
                position.make(card)
                line.append(card)
            rebuilt = Position(position.facts, hands, position.talon)
            for card in line:
                rebuilt.make(card)
            assert rebuilt.key() == position.key()


def test_s1_trick_rule_3_a_trump_lead_is_answered_with_a_trump() -> None:
    """RULES.md §1 trick rule 3: a queen led is a trump lead; a hand with trumps must play
    one (Q♠ or 7♦ here), and a hand without any plays anything."""
    position = endgame("hvalenyi", ["QH AS", "QS 9H", "7D AH", "KS 10S"], leader=0)
    assert legal(position) == {Card.parse("QH"), Card.parse("AS")}
    play(position, "QH")
    assert legal(position) == {Card.parse("QS")}
    play(position, "QS")
    assert legal(position) == {Card.parse("7D")}
    play(position, "7D")
    assert legal(position) == {Card.parse("KS"), Card.parse("10S")}


def test_s1_trick_rule_4_the_highest_trump_else_the_highest_of_the_led_suit() -> None:
    """RULES.md §1 trick rules 4-5: a discard never wins, the ten beats the king, a trump
    beats every plain card; the winner takes the points and leads next."""
    position = endgame("hvalenyi", ["KS 7D", "10S 8D", "AH 9D", "7S 6D"], leader=0)
    play(position, "KS 10S")
    assert position.winning() == 1
    play(position, "AH")  # a discard, though an ace
    assert position.winning() == 1
    assert play(position, "7S") == TRICK
    assert position.last_trick() == (0, 1, 4 + 10 + 11)
    assert position.leader == position.turn == 1
    play(position, "8D 9D")
    assert position.winning() == 2
    assert play(position, "6D 7D") == TRICK | OVER
    assert position.last_trick() == (1, 2, 0)


def test_s1_1_catch_ends_the_deal_with_4_eyes_to_the_6c_pair() -> None:
    """RULES.md §1.1 catch: 6♣ and an opponent's Q♣ in the first trick end the deal there,
    for the 6♣ pair, whatever the card points."""
    state = MatchState("hvalenyi", {})
    state.deal_hands(hands_from_rows(ROWS_CATCH_FIRST_TRICK))
    while state.phase is not PLAY:
        state.apply(state.to_act()[0], KeepHand())
    position = Position.of_state(state)
    assert play(position, "JC 6C QC JH") == TRICK | OVER
    assert (position.outcome, position.outcome_side) == (Outcome.CATCH, 1)
    assert position.award() == (0, 4)


def test_s1_1_catch_within_one_pair_is_an_ordinary_trick() -> None:
    """RULES.md §1.1 catch: 6♣ and Q♣ of the same pair in one trick — the deal goes on."""
    state = MatchState("hvalenyi", {})
    state.deal_hands(hands_from_rows(ROWS_SAME_PAIR_6C_QC))
    while state.phase is not PLAY:
        state.apply(state.to_act()[0], KeepHand())
    position = Position.of_state(state)
    assert play(position, "JC 6C JH QC") == TRICK
    assert not position.over and position.leader == 1


@pytest.mark.parametrize(
    ("variant", "catcher", "outcome", "award"),
    [("hvalenyi", "6C", Outcome.LYUSYA, (12, 0)), ("kryuk", "7C", Outcome.CATCH, (4, 0))],
)
def test_s1_1_a_catch_in_the_last_trick_by_a_side_with_every_trick(
    variant: str, catcher: str, outcome: Outcome, award: tuple[int, int]
) -> None:
    """RULES.md §1.1 **Decision**: a catch completing the last trick for the side that took
    every trick is Lyusya; kryuk's Pelotka stands whatever else the trick completes (§1.2;
    later deal: 4 points)."""
    players = PRESETS[variant].rules({}).hand_size
    position = endgame(
        variant,
        [catcher, "QC", "8H", "8S"],
        leader=0,
        tricks_won=(players - 1, 0),
        points=(110, 0),
        deal_no=3,
    )
    assert play(position, f"{catcher} QC 8H 8S") == TRICK | OVER
    assert (position.outcome, position.outcome_side) == (outcome, 0)
    assert position.award() == award


def test_s1_1_eggs_multiply_the_next_award() -> None:
    """RULES.md §1.1 eggs: after one eggs deal the next award is doubled; 60:60 is eggs."""
    position = endgame(
        "hvalenyi", ["AS", "7S", "8S", "9S"], leader=0, tricks_won=(4, 4), points=(49, 60), eggs=1
    )
    play(position, "AS 7S 8S 9S")
    assert position.outcome is Outcome.EGGS and position.outcome_side is None
    assert position.award() == (0, 0) and position.settlement().eggs == 2
    position = endgame(
        "hvalenyi", ["AS", "7S", "8S", "9S"], leader=0, tricks_won=(4, 4), points=(50, 59), eggs=1
    )
    play(position, "AS 7S 8S 9S")
    assert position.outcome is Outcome.NORMAL and position.award() == (4, 0)


def test_s1_2_first_lead_of_the_match_is_the_ace_of_diamonds_then_no_trump_leads() -> None:
    """RULES.md §1.2: the holder of A♦ leads it in the match's first deal, and nobody may
    lead a trump there while holding a plain card."""
    hands = [
        parse_cards("7S 8S 9H 8H 9D QS JC AC"),
        parse_cards("AS 9S KH 8D QH JS KC 9C"),
        parse_cards("10S KS AH 7H 7D QD JH 8C"),
        parse_cards("10H AD 10D KD 7C QC JD 10C"),
    ]
    state = MatchState("kryuk", {})
    state.deal_hands(hands)
    while state.phase is not PLAY:
        state.apply(state.to_act()[0], KeepHand())
    position = Position.of_state(state)
    assert position.turn == 3 and legal(position) == {Card.parse("AD")}
    play(position, "AD 9D 8D 7D")
    assert position.turn == 3
    assert legal(position) == set(parse_cards("10H 10D KD"))


@pytest.mark.parametrize(("sides", "may"), [((0,), True), ((1,), False), ((0, 1), True)])
def test_s1_2_the_trump_lead_right_of_later_deals(sides: tuple[int, ...], may: bool) -> None:
    """RULES.md §1.2 козырять: a player holding a plain card may lead a trump only if their
    pair has the right (the first lead's pair; both at 10:10) — here seat 0, pair 0."""
    position = endgame(
        "kryuk", ["QS AS", "KS 8D", "AH 7H", "8S 9H"], leader=0, trump_lead=sides, deal_no=2
    )
    expected = {Card.parse("QS"), Card.parse("AS")} if may else {Card.parse("AS")}
    assert legal(position) == expected


def test_s1_3_ace_discard_ban_no_ace_of_a_suit_not_yet_led() -> None:
    """RULES.md §1.3 option: with no card of the led suit, no ace of a suit not yet led may
    be discarded (an ace of a suit led earlier may)."""
    hands = [
        parse_cards("8C KS 9H KD 9D 10C QH JS"),
        parse_cards("AS AD 7S 8D QC QS JC 7D"),
        parse_cards("10S AH 10H 8H 10D JH KC 9C"),
        parse_cards("8S 9S KH 7H 7C QD JD AC"),
    ]
    for ban, expected in ((True, "AS 8D QC QS JC 7D"), (False, "AS AD 8D QC QS JC 7D")):
        state = MatchState("sixes", {"ace_discard_ban": ban})
        state.deal_hands(hands)
        while state.phase is not PLAY:
            state.apply(state.to_act()[0], KeepHand())
        position = Position.of_state(state)
        play(position, "KS 7S 10S 8S AH 7H 9H")
        assert legal(position) == set(parse_cards(expected))
        position.unmake()
        position.unmake()
        position.unmake()  # back before hearts were led
        play(position, "AH 7H 9H")
        assert legal(position) == set(parse_cards(expected))


def test_s1_1_two_players_the_talon_goes_to_the_last_tricks_winner_first() -> None:
    """RULES.md §1.1 two players: when both hands are empty each is dealt again from the
    talon, the last trick's winner first; unmaking the trick takes the refill back."""
    state = MatchState("hvalenyi", {"players": 2})
    state.chance(shuffle_rng(4, 0))
    assert state.phase is PLAY
    deal = state.current
    assert deal is not None
    position = Position.of_state(state)
    talon = list(deal.talon)
    rng = random.Random(2)
    done = 0
    while not done & REFILL:
        before = position.key()
        done = position.make(rng.choice(indices(position.legal())))
    winner = position.leader
    assert set(cards_of(position.hands[winner])) == set(talon[:9])
    assert set(cards_of(position.hands[1 - winner])) == set(talon[9:])
    position.unmake()
    assert position.key() == before
    assert position.talon_due


def test_of_hands_refuses_hands_that_are_not_the_rest_of_the_deck() -> None:
    """The checked constructors refuse a card twice, a card missing, a wrong hand size."""
    rules = PRESETS["hvalenyi"].rules({})
    cards = rules.cards
    last = DealFacts(rules=rules, trump=rules.trump_suit, leader=0, played=tuple(cards[4:]))
    for hands in (
        [cards[0:1], cards[1:2], cards[2:3], cards[2:3]],
        [cards[0:1], cards[1:2], cards[2:3], cards[4:5]],
    ):
        with pytest.raises(ValueError, match="not the deck"):
            Position.of_hands(last, hands)
    facts = DealFacts(rules=rules, trump=rules.trump_suit, leader=0, played=tuple(cards[8:]))
    with pytest.raises(ValueError, match="holds"):
        Position.of_hands(
            facts, [rules.cards[0:3], rules.cards[3:5], rules.cards[5:7], rules.cards[7:8]]
        )


@pytest.mark.parametrize(("variant", "options"), SETUPS)
def test_first_deal_facts_are_the_engines(variant: str, options: dict[str, Any]) -> None:
    """The playout's first deals start as the engine's do (``first_deal_facts``), and the
    dealer's positions play out to a scored end."""
    state = MatchState(variant, dict(options))
    state.chance(shuffle_rng(9, 0))
    while state.phase is not PLAY:
        state.apply(state.to_act()[0], KeepHand())
    facts = DealFacts.of_state(state)
    assert facts == first_deal_facts(state.rules, facts.leader)
    rng = random.Random(1)
    dealer = Dealer(state.rules)
    for _ in range(50):
        position = dealer.deal(rng)
        assert random_playout(position, rng) == len(position.played)
        assert position.over and sum(position.award()) >= 0


def test_the_family_offers_the_benchmark_its_search_playout() -> None:
    """``benchmarks/playout.py`` reaches the representation through ``FAMILY`` alone: one
    call plays one whole random deal (8 or 9 tricks, or fewer after a catch)."""
    playout = FAMILY.players.search_playout("hvalenyi", {"players": 2})
    rng = random.Random(5)
    assert all(2 <= playout(rng) <= 36 for _ in range(20))
