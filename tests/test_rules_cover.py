"""The cover game (RULES.md §2, preset ``cover``): one test or more per clause.

Positions are built in two ways: a scripted deal (``deal_hands`` writes the deck that deals
the given hands, top first) when the deal itself is under test, and otherwise a plain deal
whose hands, talon and round are then set directly on the dataclasses (``position``). Card
conservation is not the point of these positions (``test_simulate`` checks it over whole
matches), so a position holds only the cards the clause needs.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from kozelbot.core.cards import DECK_36, Card, Suit, parse_cards
from kozelbot.core.options import OptionError
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.families.cover.ai import choose
from kozelbot.families.cover.board import Round as CoverRound
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.strength import ORDER
from kozelbot.families.cover.vocabulary import (
    MAX_LEAD,
    Acted,
    Beat,
    Claim,
    Discard,
    GameDealt,
    IllegalMove,
    Lead,
    Level,
    NotYourTurn,
    Otboy,
    Pass,
    Phase,
    RoundTaken,
    TrumpChanged,
)
from kozelbot.tools.simulate import play_match

PAIRS: dict[str, Any] = {"mode": "pairs", "players": 4}
QUICK_PAIRS: dict[str, Any] = {"mode": "pairs", "players": 4, "hand": 4}
SELF3: dict[str, Any] = {"mode": "self", "players": 3}
SELF2: dict[str, Any] = {"mode": "self", "players": 2}


# -- helpers ------------------------------------------------------------------------------


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def of_type(events: Iterable[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def deal_order(state: CoverState) -> list[int]:
    """Seats in play clockwise from the dealer's left (the order of the deal)."""
    seats = state.in_play()
    clockwise = [(state.dealer + k) % state.players for k in range(1, state.players + 1)]
    return [s for s in clockwise if s in seats]


def deal_hands(
    state: CoverState, hands: dict[int, str], talon: str = "", bottom: str | None = None
) -> list[Card]:
    """The deck (top first) that deals ``hands`` (seat → its cards, complete) to the seats in
    play; the talon starts with ``talon``, ends with ``bottom``, and holds the rest between
    (in deck order)."""
    order = deal_order(state)
    dealt = {seat: list(parse_cards(hands[seat])) for seat in order}
    assert all(len(h) == state.rules.hand for h in dealt.values())
    top = list(parse_cards(talon))
    last = [card(bottom)] if bottom else []
    used = {c for h in dealt.values() for c in h} | set(top) | set(last)
    assert len(used) == sum(len(h) for h in dealt.values()) + len(top) + len(last)
    deck = [dealt[seat][k] for k in range(state.rules.hand) for seat in order]
    return deck + top + [c for c in DECK_36 if c not in used] + last


def deal(state: CoverState, deck: list[Card] | None = None) -> list[Any]:
    """Deal ``deck`` (the unshuffled deck by default: no four aces or sixes in any hand)."""
    return state.deal_deck(list(DECK_36) if deck is None else deck)


def position(
    options: dict[str, Any],
    hands: list[str],
    talon: str = "",
    leader: int = 0,
    trump: Suit = Suit.DIAMONDS,
) -> CoverState:
    """A match whose current game has exactly these hands (one string per seat), this talon
    (top first) and ``leader`` to lead."""
    state = CoverState("cover", dict(options))
    deal(state)
    set_position(state, hands, talon, leader, trump)
    return state


def set_position(
    state: CoverState,
    hands: list[str],
    talon: str = "",
    leader: int = 0,
    trump: Suit | None = None,
) -> None:
    game = state.current
    assert game is not None
    game.hands = [list(parse_cards(h)) for h in hands]
    game.talon = list(parse_cards(talon))
    if trump is not None:
        game.trump = trump
    game.round = CoverRound(leader=leader, first_leader=leader, last_beater=leader)
    state.phase = Phase.LEAD


def hand(state: CoverState, seat: int) -> list[Card]:
    assert state.current is not None
    return state.current.hands[seat]


def stacks(state: CoverState) -> list[list[Card]]:
    assert state.current is not None
    return state.current.round.stacks


def refused(state: CoverState, seat: int, action: Any) -> str:
    """The reason ``action`` is refused; the state is unchanged."""
    before = state.dump()
    with pytest.raises(IllegalMove) as caught:
        state.apply(seat, action)
    assert state.dump() == before
    return str(caught.value)  # the reason, with the count where it asks for one


def finish_game(state: CoverState, points: list[int], leader: int = 0) -> list[Any]:
    """End the current game with these card points per side: ``leader`` leads 6♥ (no points,
    nobody can beat it), the others discard a card each, and the talon is empty."""
    game = state.current
    assert game is not None
    seats = state.in_play()
    filler = iter(parse_cards("7C 8C 9C"))
    game.hands = [[] for _ in range(state.players)]
    for seat in seats:
        game.hands[seat] = [card("6H")] if seat == leader else [next(filler)]
    game.talon = []
    game.points = list(points)
    game.round = CoverRound(leader=leader, first_leader=leader, last_beater=leader)
    state.phase = Phase.LEAD
    events = state.apply(leader, Lead(cards("6H")))
    while state.phase is Phase.ANSWER:
        (seat,) = state.to_act()
        events += state.apply(seat, Discard((hand(state, seat)[0],)))
    assert state.phase in (Phase.DEALING, Phase.OVER)
    return events


def scored(events: Iterable[Any]) -> DealScored:
    (result,) = of_type(events, DealScored)
    return result


def cards_in(value: Any, seen: set[int] | None = None) -> Iterator[Card]:
    """Every card anywhere inside a view (dataclasses, tuples, lists, dicts)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Card):
        yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from cards_in(getattr(value, f.name), seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from cards_in(item, seen)


# -- players, deck, order -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "sides"),
    [(PAIRS, 2), ({"mode": "self", "players": 4}, 4), (SELF3, 3), (SELF2, 2)],
)
def test_s2_two_to_four_players_pairs_or_self(options: dict[str, Any], sides: int) -> None:
    """§2: 2 to 4 players, ``pairs`` (partners opposite) or ``self`` (one side per seat)."""
    state = CoverState("cover", dict(options))
    assert state.players == options["players"]
    assert state.rules.sides == sides == len(state.score)
    if options["mode"] == "pairs":
        assert [state.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    else:
        assert [state.side_of(s) for s in range(state.players)] == list(range(sides))


@pytest.mark.parametrize("players", [2, 3])
def test_s2_pairs_need_exactly_four_players(players: int) -> None:
    with pytest.raises(OptionError):
        CoverState("cover", {"mode": "pairs", "players": players})


def test_s2_plain_order_6_7_8_9_J_Q_K_10_A() -> None:
    """§2: plain-suit order, low to high: 6 7 8 9 J Q K 10 A (the ten over the king)."""
    assert [r.value for r in ORDER] == ["6", "7", "8", "9", "J", "Q", "K", "10", "A"]
    state = CoverState("cover", dict(PAIRS))
    hearts = cards("6H 7H 8H 9H JH QH KH 10H AH")
    for low, high in itertools.combinations(hearts, 2):
        assert state.beats(high, low, Suit.DIAMONDS)
        assert not state.beats(low, high, Suit.DIAMONDS)


def test_s2_plain_order_ten_beats_king_at_the_table() -> None:
    state = position(PAIRS, ["KH 6C", "10H 7C", "8S 9S", "JS QS"], "6S 7S 8S 9S")
    state.apply(0, Lead(cards("KH")))
    assert Beat(cards("10H")) in state.legal_actions(1)
    state.apply(1, Beat(cards("10H")))
    assert stacks(state) == [list(cards("KH 10H"))]
    state2 = position(PAIRS, ["10H 6C", "KH 7C", "8S 9S", "JS QS"], "6S 7S 8S 9S")
    state2.apply(0, Lead(cards("10H")))
    assert refused(state2, 1, Beat(cards("KH"))) == "does not beat every stack"


@pytest.mark.parametrize(
    ("options", "size"),
    [
        (PAIRS, 6),
        (QUICK_PAIRS, 4),
        (SELF3, 6),
        (SELF2, 6),
        ({"mode": "self", "players": 3, "hand": 4}, 4),
        ({"mode": "self", "players": 2, "hand": 4}, 4),
    ],
)
def test_s2_deck_36_hand_classic_6_quick_4_rest_is_talon(
    options: dict[str, Any], size: int
) -> None:
    """§2: deck 36; ``classic`` deals 6 cards, ``quick`` 4; the rest is the talon."""
    state = CoverState("cover", dict(options))
    assert state.rules.hand == size
    assert state.rules.classic == (size == 6)
    deck = list(DECK_36)
    deal(state, deck)
    game = state.current
    assert game is not None
    assert [len(h) for h in game.hands] == [size] * state.players
    assert len(game.talon) == 36 - size * state.players
    assert sorted(map(str, [c for h in game.hands for c in h] + game.talon)) == sorted(
        map(str, DECK_36)
    )
    with pytest.raises(ValueError):
        CoverState("cover", dict(options)).deal_deck(list(DECK_36[1:]))


@pytest.mark.parametrize("dealer", [0, 1, 3])
def test_s2_deal_one_by_one_clockwise_from_dealers_left(dealer: int) -> None:
    """§2: deal one by one (from the dealer's left, clockwise); the talon is the rest, top
    first."""
    state = CoverState("cover", dict(PAIRS))
    state.dealer = dealer
    deck = list(DECK_36)
    deal(state, deck)
    game = state.current
    assert game is not None
    for k in range(6):
        for i in range(4):
            assert game.hands[(dealer + 1 + i) % 4][k] is deck[4 * k + i]
    assert game.talon == deck[24:]


def test_s2_deal_skips_players_who_are_out() -> None:
    state = CoverState("cover", {"mode": "self", "players": 4})
    state.out = [2]
    state.next_leader = 0
    deck = list(DECK_36)
    deal(state, deck)
    game = state.current
    assert game is not None
    assert game.hands[2] == []
    assert game.hands[1] == deck[0:18:3]
    assert game.hands[3] == deck[1:18:3]
    assert game.hands[0] == deck[2:18:3]
    assert len(game.talon) == 18


# -- trump and first lead -------------------------------------------------------------------


def test_s2_first_game_trump_diamonds_lowest_diamond_leads() -> None:
    """§2: first game trump diamonds; the holder of the lowest diamond leads (K♦ is lower than
    10♦ in the plain order)."""
    state = CoverState("cover", dict(PAIRS))
    deck = deal_hands(
        state,
        {
            1: "10D 6C 7C 8C 9C JC",
            2: "QC KC 10C AC 6S 7S",
            3: "KD 8S 9S JS QS KS",
            0: "10S AS 6H 7H 8H 9H",
        },
    )
    events = deal(state, deck)
    assert of_type(events, GameDealt) == [GameDealt(0, 3, Suit.DIAMONDS)]
    assert state.to_act() == (3,)
    assert state.current is not None and state.current.trump is Suit.DIAMONDS
    assert state.view_for(0).trump is Suit.DIAMONDS


def test_s2_first_game_six_of_diamonds_leads() -> None:
    state = CoverState("cover", dict(SELF3))
    deck = deal_hands(
        state,
        {1: "AD 6C 7C 8C 9C JC", 2: "QC KC 10C AC 6S 6D", 0: "7D 8S 9S JS QS KS"},
    )
    deal(state, deck)
    assert state.to_act() == (2,)


def test_s2_decision_nobody_dealt_a_diamond_lowest_seat_leads() -> None:
    """§2 **Decision**: if nobody was dealt a diamond, the lowest-numbered seat in play leads
    (not the dealer's left)."""
    state = CoverState("cover", dict(SELF3))
    state.dealer = 2
    deck = deal_hands(
        state,
        {0: "6C 7C 8C 9C JC QC", 1: "KC 10C AC 6S 7S 8S", 2: "9S JS QS KS 10S AS"},
    )
    events = deal(state, deck)
    assert of_type(events, GameDealt)[0].first_leader == 0
    assert state.to_act() == (0,)


def test_s2_later_games_led_by_last_trick_taker() -> None:
    """§2: later games are led by whoever took the last trick of the previous game, wherever
    the diamonds are."""
    state = CoverState("cover", dict(PAIRS))
    deal(state)
    events = finish_game(state, [70, 50], leader=2)
    assert scored(events).details["last_taker"] == 2
    deck = deal_hands(
        state,
        {
            1: "6D 6C 7C 8C 9C JC",
            2: "QC KC 10C AC 6S 7S",
            3: "7D 8S 9S JS QS KS",
            0: "10S AS 6H 7H 8H 9H",
        },
    )
    events = deal(state, deck)
    assert of_type(events, GameDealt)[0].first_leader == 2
    assert state.to_act() == (2,)


def test_s2_later_game_leader_out_next_in_play_leads() -> None:
    """§2: if the last trick's taker is out, the next player in play clockwise leads."""
    state = CoverState("cover", dict(SELF3))
    deal(state)
    state.score = [0, 10, 0]
    events = finish_game(state, [55, 10, 55], leader=1)
    result = scored(events)
    assert result.award == (2, 4, 2)
    assert state.out == [1]
    assert not of_type(events, MatchOver)
    events = deal(state)
    assert of_type(events, GameDealt)[0].first_leader == 2
    assert state.current is not None and state.current.hands[1] == []


def test_s2_inside_a_game_the_trick_winner_leads() -> None:
    state = position(
        PAIRS,
        ["7H 6C 7C", "9H 8C 9C", "6S 7S 8S", "9S JS QS"],
        "JC QC KC 10C AC 6D 7D 8D 9D 10D JD QD",
    )
    state.apply(0, Lead(cards("7H")))
    state.apply(1, Beat(cards("9H")))
    state.apply(2, Discard(cards("6S")))
    state.apply(3, Discard(cards("9S")))
    # back to the leader: nothing to beat 9♥ with, no surplus → skipped; seat 1 has no re-beat
    assert state.phase is Phase.LEAD
    assert state.to_act() == (1,)


# -- the lead -------------------------------------------------------------------------------


def test_s2_lead_one_to_six_cards_of_one_suit_each_a_stack() -> None:
    """§2: a lead is 1 to 6 cards of one suit, face up; each becomes a stack."""
    state = position(PAIRS, ["6H 7H 8H 9H JH QH", "6C 7C 8C 9C JC QC", "6S", "7S"], "AS")
    leads = [a for a in state.legal_actions(0) if isinstance(a, Lead)]
    assert len(leads) == 2**6 - 1
    assert {len(a.cards) for a in leads} == set(range(1, MAX_LEAD + 1))
    state.apply(0, Lead(cards("6H 7H 8H 9H JH QH")))
    assert stacks(state) == [[c] for c in cards("6H 7H 8H 9H JH QH")]
    assert hand(state, 0) == []
    assert state.view_for(2).stacks == tuple((c,) for c in cards("6H 7H 8H 9H JH QH"))


def test_s2_lead_offers_each_suit_separately() -> None:
    state = position(PAIRS, ["6H 7H 6C", "8C", "6S", "7S"])
    leads = {a.cards for a in state.legal_actions(0) if isinstance(a, Lead)}
    assert leads == {cards("6H"), cards("7H"), cards("6H 7H"), cards("6C")}


@pytest.mark.parametrize("lead", ["6H 6C", "6H 7H 6C", "AD 6H"])
def test_s2_lead_of_mixed_suits_refused(lead: str) -> None:
    state = position(PAIRS, ["6H 7H 6C AD", "8C", "6S", "7S"])
    assert refused(state, 0, Lead(cards(lead))) == "one suit"


def test_s2_lead_empty_or_not_held_refused() -> None:
    state = position(PAIRS, ["6H 7H", "8C", "6S", "7S"])
    assert refused(state, 0, Lead(())) == "lead 1 to 6 cards"
    assert refused(state, 0, Lead(cards("8H"))) == "cards not in hand"
    with pytest.raises(NotYourTurn):
        state.apply(1, Lead(cards("8C")))


# -- beating --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("beater", "top", "ok"),
    [
        ("7H", "6H", True),  # higher, same suit
        ("AH", "10H", True),
        ("6H", "7H", False),  # lower, same suit
        ("AC", "6H", False),  # another plain suit
        ("6D", "AH", True),  # trump on plain
        ("7D", "6D", True),  # higher trump on trump
        ("10D", "KD", True),
        ("KD", "10D", False),  # lower trump on trump
        ("AH", "6D", False),  # plain on trump
    ],
)
def test_s2_beat_higher_same_suit_or_trump_on_plain_or_higher_trump(
    beater: str, top: str, ok: bool
) -> None:
    """§2: each card higher than its stack's top: a higher card of the same suit, a trump on a
    plain card, or a higher trump on a trump (trump ♦)."""
    state = position(PAIRS, [f"{top} 7S", f"{beater} 6S", "8S 9S", "JS QS"], "KS")
    state.apply(0, Lead(cards(top)))
    assert state.to_act() == (1,)  # seat 1 owes one card: beat or discard
    assert state.beats(card(beater), card(top), Suit.DIAMONDS) is ok
    if ok:
        assert Beat(cards(beater)) in state.legal_actions(1)
        state.apply(1, Beat(cards(beater)))
        assert stacks(state) == [[card(top), card(beater)]]
    else:
        assert not any(isinstance(a, Beat) for a in state.legal_actions(1))
        assert refused(state, 1, Beat(cards(beater))) == "does not beat every stack"


@pytest.mark.parametrize(
    ("hands", "lead", "given", "covered"),
    [
        # 10♥ fits 6♥ first, but must take 9♥ so that 7♥ can take 6♥
        (["6H 9H", "10H 7H 6C"], "6H 9H", "10H 7H", "6H 7H|9H 10H"),
        (["6H 9H", "10H 7H 6C"], "6H 9H", "7H 10H", "6H 7H|9H 10H"),
        # the trump 6♦ fits 6♥ first, but must take A♥ so that 7♥ can take 6♥
        (["6H AH", "6D 7H 6C"], "6H AH", "6D 7H", "6H 7H|AH 6D"),
        (["6H AH", "6D 7H 6C"], "6H AH", "7H 6D", "6H 7H|AH 6D"),
    ],
)
def test_s2_beat_covers_every_stack_whatever_order_given(
    hands: list[str], lead: str, given: str, covered: str
) -> None:
    """§2: one card on every stack; the engine finds which card covers which stack, in
    whatever order the cards are given."""
    state = position(PAIRS, [*hands, "8S 9S 7S", "JS QS KS"], "6S")
    state.apply(0, Lead(cards(lead)))
    state.apply(1, Beat(cards(given)))
    assert stacks(state) == [list(cards(pair)) for pair in covered.split("|")]
    assert hand(state, 1) == [card("6C")]


@pytest.mark.parametrize("beat", ["8H", "8H 6C", "8H 9S", "7H 8H", "6D 6C", "AH 7H 8H"])
def test_s2_partial_beat_refused(beat: str) -> None:
    """§2: all stacks or nothing: one card per stack, each covering its stack."""
    state = position(
        PAIRS,
        ["6H KH 6S 7S 8S 9S", "7H 8H 6C 9S 6D AH", "JS QS KS 10S AS 7C", "8C 9C JC QC KC 10C"],
        "AC",
    )
    state.apply(0, Lead(cards("6H KH")))
    assert refused(state, 1, Beat(cards(beat))) == "does not beat every stack"
    state.apply(1, Beat(cards("6D 7H")))  # a whole beat is taken
    assert stacks(state) == [list(cards("6H 7H")), list(cards("KH 6D"))]


def test_s2_beat_with_too_few_cards_is_not_offered() -> None:
    state = position(PAIRS, ["6H 7H 8H", "AH", "AS 6S 7S", "KS 8S 9S"], "6C")
    state.apply(0, Lead(cards("6H 7H 8H")))
    # seat 1 holds one card for three stacks: it owes one and can only discard it
    assert state.to_act() == (1,)
    assert state.legal_actions(1) == [Discard(cards("AH"))]
    assert refused(state, 1, Beat(cards("AH"))) == "does not beat every stack"


# -- the hand rule ------------------------------------------------------------------------


def test_s2_hand_rule_surplus_over_leader_beat_or_discard_exactly_no_mixing() -> None:
    """§2: the leader is the first last beater; a player holding more must beat or discard
    face down exactly the difference (no mixing, no pass)."""
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C 9C", "8H 9H JC QC KC 10C", "6S 7S 8S 9S JS QS", "KS AS AC 7D 8D 9D"],
        "JH",
    )
    state.apply(0, Lead(cards("6H 7H")))
    assert state.to_act() == (1,)
    assert state.view_for(1).surplus == 2
    actions = state.legal_actions(1)
    assert Pass() not in actions
    assert {a.cards for a in actions if isinstance(a, Discard)} == set(
        itertools.combinations(hand(state, 1), 2)
    )
    assert [a for a in actions if isinstance(a, Beat)] == [Beat(cards("8H 9H"))]
    assert refused(state, 1, Pass()) == "beat or discard exactly 2"
    assert refused(state, 1, Discard(cards("JC"))) == "discard exactly 2"
    assert refused(state, 1, Discard(cards("JC QC KC"))) == "discard exactly 2"
    assert refused(state, 1, Beat(cards("8H"))) == "does not beat every stack"
    state.apply(1, Discard(cards("JC QC")))
    assert len(hand(state, 1)) == 4
    assert state.to_act() == (2,)


def test_s2_hand_rule_no_surplus_may_beat_or_pass() -> None:
    """§2: a player holding as many or fewer cards than the last beater discards nothing and
    may beat or pass (the leader too)."""
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C AH", "8H 9H JC QC KC 10C", "6S 7S 8S 9S JS QS", "KS AS AC 7D 8D 9D"],
        "JH",
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Beat(cards("8H")))
    state.apply(2, Discard(cards("6S")))
    state.apply(3, Discard(cards("KS")))
    assert state.to_act() == (0,)
    assert state.phase is Phase.ANSWER
    view = state.view_for(0)
    assert view.surplus == 0 and view.may_beat
    actions = state.legal_actions(0)
    assert Pass() in actions and not any(isinstance(a, Discard) for a in actions)
    assert refused(state, 0, Discard(cards("6C"))) == "nothing to discard"
    state.apply(0, Pass())
    assert state.phase is Phase.REBEAT and state.to_act() == (1,)


def test_s2_hand_rule_nothing_to_beat_with_turn_skipped() -> None:
    """§2: with nothing owed and nothing to beat with, the turn is skipped."""
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C 9C", "8H 9H JC QC KC 10C", "6S 7S 8S 9S JS QS", "KS AS AC 7D 8D 9D"],
        "JH",
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Beat(cards("8H")))
    state.apply(2, Discard(cards("6S")))
    state.apply(3, Beat(cards("7D")))
    # seats 0 and 1 hold as many cards as seat 3 and no trump; seat 2 discarded and owes
    # nothing: all skipped, so the turn is back at seat 3 (which can re-beat with 8♦)
    assert state.phase is Phase.REBEAT and state.to_act() == (3,)
    assert state.current is not None and state.current.round.moves[-1].seat == 3


def test_s2_hand_rule_after_a_rebeat() -> None:
    """§2: each player must end with as many cards as the last beater: after a re-beat the
    others owe the difference again."""
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C 9C", "8H 9H 10H AH JC QC", "6S 7S 8S 9S JS QS", "KS AS AC 7D KC 10C"],
    )
    state.apply(0, Lead(cards("6H 7H")))
    state.apply(1, Beat(cards("8H 9H")))
    state.apply(2, Discard(cards("6S 7S")))
    state.apply(3, Discard(cards("KS AS")))
    # seat 0 holds four, as many as seat 1, and cannot beat: skipped
    assert state.phase is Phase.REBEAT and state.to_act() == (1,)
    state.apply(1, Beat(cards("10H AH")))
    assert len(hand(state, 1)) == 2
    # everyone now owes 2: seat 2 (discarded) may only discard
    assert state.to_act() == (2,)
    assert state.view_for(2).surplus == 2
    state.apply(2, Discard(cards("8S 9S")))
    assert state.to_act() == (3,) and state.view_for(3).surplus == 2
    state.apply(3, Discard(cards("AC KC")))
    assert state.to_act() == (0,) and state.view_for(0).surplus == 2
    events = state.apply(0, Discard(cards("6C 7C")))
    assert of_type(events, RoundTaken)[0].taker == 1
    assert [len(hand(state, s)) for s in range(4)] == [2, 2, 2, 2]


def test_s2_discarder_may_no_longer_beat_only_discard_when_needed() -> None:
    """§2: whoever discarded in this round may no longer beat, only discard when needed."""
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C 9C", "8H 9H 10H AH JC QC", "6S 7S 8S 9S AD KD", "KS AS AC 7D KC 10C"],
        "JH",
    )
    state.apply(0, Lead(cards("6H 7H")))
    state.apply(1, Beat(cards("8H 9H")))
    assert Beat(cards("AD KD")) in state.legal_actions(2)
    state.apply(2, Discard(cards("6S 7S")))  # could have beaten with A♦ K♦
    state.apply(3, Discard(cards("KS AS")))
    assert state.phase is Phase.REBEAT
    state.apply(1, Beat(cards("10H AH")))
    assert state.to_act() == (2,)
    view = state.view_for(2)
    assert view.surplus == 2 and not view.may_beat
    actions = state.legal_actions(2)
    assert actions and all(isinstance(a, Discard) for a in actions)
    assert refused(state, 2, Beat(cards("AD KD"))) == "no beat now"
    state.apply(2, Discard(cards("8S 9S")))
    assert hand(state, 2) == list(cards("AD KD"))


def test_s2_discarder_without_surplus_is_skipped() -> None:
    """§2: a discarder who owes nothing has no turn, even holding a beat."""
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C 9C", "8H 9H JC QC KC 10C", "6S 7S 8S 9S AD KD", "KS AS 10D JD AC 10S"],
        "JH",
    )
    state.apply(0, Lead(cards("6H 7H")))
    state.apply(1, Beat(cards("8H 9H")))
    state.apply(2, Discard(cards("6S 7S")))
    events = state.apply(3, Beat(cards("10D JD")))
    # seats 0 and 1: four cards, nothing to beat trumps with; seat 2 holds A♦ K♦ (a beat of
    # 10♦ J♦) but discarded and owes nothing → skipped; seat 3 has no re-beat: round over
    assert of_type(events, RoundTaken)[0].taker == 3
    assert hand(state, 2) == list(cards("8S 9S AD KD"))
    assert state.phase is Phase.LEAD and state.to_act() == (3,)


def test_s2_leader_may_beat_a_partner_and_anyone_may_beat_a_partner() -> None:
    """§2: the leader may beat too, and anyone may beat a partner (seats 0+2, 1+3)."""
    state = position(
        PAIRS,
        ["6H JH 6C 7C 8C 9C", "6S JC QC KC 10C AC", "7H 8S 9S JS QS KS", "8H 10S AS 7S 9D 8D"],
        "JD",
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Discard(cards("6S")))
    assert Beat(cards("7H")) in state.legal_actions(2)
    state.apply(2, Beat(cards("7H")))  # seat 2 beats its partner's lead
    state.apply(3, Discard(cards("10S")))
    assert state.phase is Phase.ANSWER and state.to_act() == (0,)
    assert Beat(cards("JH")) in state.legal_actions(0)
    state.apply(0, Beat(cards("JH")))  # the leader beats its partner's card
    assert stacks(state) == [list(cards("6H 7H JH"))]
    assert state.current is not None and state.current.round.last_beater == 0
    assert state.to_act() == (1,) and state.view_for(1).surplus == 1


def test_s2_anyone_may_beat_a_partner_who_beat() -> None:
    """§2: seat 3 beats its partner seat 1's beat."""
    state = position(
        PAIRS,
        ["6H 7S 8S 9S JS QS", "7H 6C 7C 8C 9C JC", "KS 10S AS 8H 9H QC", "8D 9D JH QH KH AH"],
        "JD",
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Beat(cards("7H")))
    state.apply(2, Discard(cards("KS")))
    assert Beat(cards("8D")) in state.legal_actions(3)
    state.apply(3, Beat(cards("AH")))
    assert state.current is not None and state.current.round.last_beater == 3
    assert stacks(state) == [list(cards("6H 7H AH"))]


# -- the end of a round -------------------------------------------------------------------


def test_s2_round_ends_when_nobody_can_beat_trick_to_the_leader() -> None:
    """§2: the round ends when nobody can beat any more; the trick goes to the leader if
    nobody beat."""
    state = position(
        PAIRS,
        ["AH 6C 7C 8C 9C JC", "6S 7S 8S 9S JS QS", "KS 10S AS 7H 8H 9H", "QC KC 10C AC 6H JH"],
        "6D 7D 8D 9D",
    )
    state.apply(0, Lead(cards("AH")))
    state.apply(1, Discard(cards("6S")))
    state.apply(2, Discard(cards("7H")))
    events = state.apply(3, Discard(cards("6H")))
    assert of_type(events, RoundTaken) == [RoundTaken(0, 11)]
    assert state.current is not None and state.current.points == [11, 0]
    assert state.phase is Phase.LEAD and state.to_act() == (0,)


def test_s2_trick_to_the_last_beater() -> None:
    state = position(
        PAIRS,
        ["6H 6C 7C 8C 9C JC", "AH 7S 8S 9S JS QS", "KS 10S AS 7H 8H 9H", "QC KC 10C AC 10H JH"],
        "6D 7D 8D 9D",
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Beat(cards("AH")))
    state.apply(2, Discard(cards("KS")))
    events = state.apply(3, Discard(cards("10H")))
    # back at seat 0: nothing above A♥; seat 1 holds no trump for a re-beat: round over
    assert of_type(events, RoundTaken) == [RoundTaken(1, 0 + 11 + 4 + 10)]
    assert state.current is not None and state.current.points == [0, 25]
    assert state.current.tricks_won == [0, 1]
    assert state.to_act() == (1,)


def test_s2_classic_turns_go_round_until_everyone_answered_the_last_beat() -> None:
    """§2 classic: turns go clockwise; after each beat the others answer it again."""
    state = position(
        PAIRS,
        ["6H 6C 7C 8C 9C JC", "7H AH 8S 9S JS QS", "KS 10S AS 7S 8H 9H", "QC KC 10C AC 10H JH"],
        "6D 7D 8D 9D",
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Beat(cards("7H")))
    state.apply(2, Discard(cards("KS")))
    state.apply(3, Beat(cards("10H")))
    # seat 0: as many cards as seat 3 and nothing above 10♥ → skipped; seat 1 holds A♥
    assert state.phase is Phase.ANSWER and state.to_act() == (1,)
    state.apply(1, Beat(cards("AH")))
    assert stacks(state) == [list(cards("6H 7H 10H AH"))]
    assert state.to_act() == (2,)
    state.apply(2, Discard(cards("10S")))
    state.apply(3, Discard(cards("QC")))
    events = state.apply(0, Discard(cards("6C")))
    # seat 1 has nothing left to beat A♥ with: the round ends, seat 1 takes it
    assert of_type(events, RoundTaken) == [RoundTaken(1, 10 + 11 + 4 + 10 + 3)]


def test_s2_classic_rebeat_and_otboy() -> None:
    """§2 classic: the last beater, once everyone has answered, beats again (their own top
    cards) or calls Відбій."""
    hands = ["6H 6C 7C 8C 9C JC", "7H AH 6S 8S 9S JS", "KS 10S AS 7S 8H 9H", "QC KC 10C AC QH JH"]

    def to_rebeat() -> CoverState:
        state = position(PAIRS, hands, "6D 7D 8D 9D")
        state.apply(0, Lead(cards("6H")))
        state.apply(1, Beat(cards("7H")))
        assert refused(state, 2, Otboy()) == "no Відбій now"
        state.apply(2, Discard(cards("KS")))
        state.apply(3, Discard(cards("QC")))
        # seat 0 (as many cards as seat 1, nothing above 7♥) is skipped
        assert state.phase is Phase.REBEAT and state.to_act() == (1,)
        return state

    state = to_rebeat()
    actions = state.legal_actions(1)
    assert Otboy() in actions and Beat(cards("AH")) in actions
    assert Pass() not in actions and not any(isinstance(a, Discard) for a in actions)
    state.apply(1, Beat(cards("AH")))  # on its own top card
    assert stacks(state) == [list(cards("6H 7H AH"))]
    assert state.phase is Phase.ANSWER and state.to_act() == (2,)
    assert state.view_for(2).surplus == 1

    other = to_rebeat()
    events = other.apply(1, Otboy())
    assert of_type(events, RoundTaken) == [RoundTaken(1, 4 + 3)]
    assert other.phase is Phase.LEAD and other.to_act() == (1,)


def test_s2_quick_single_answer_no_rebeat_no_otboy() -> None:
    """§2 quick: each other player answers once (beat every stack, even beaten ones, or
    discard); when the turn is back at the leader the round ends; no re-beat, no Відбій."""
    state = position(
        QUICK_PAIRS,
        ["6H 7H AH 10H", "8H 9H 6C 7C", "JH QH 8C 9C", "6S 7S 8S 9S"],
        "JS QS KS AS 6D 7D 8D 9D",
    )
    state.apply(0, Lead(cards("6H 7H")))
    assert refused(state, 1, Otboy()) == "no Відбій now"
    state.apply(1, Beat(cards("8H 9H")))
    state.apply(2, Beat(cards("JH QH")))  # on the beaten stacks' top cards
    assert stacks(state) == [list(cards("6H 8H JH")), list(cards("7H 9H QH"))]
    events = state.apply(3, Discard(cards("6S 7S")))
    # the leader holds A♥ 10♥ (a beat) but the turn is back at the leader: the round ends
    assert of_type(events, RoundTaken) == [RoundTaken(2, 2 + 3)]
    assert state.current is not None and state.current.last_taker == 2
    assert state.phase is Phase.LEAD and state.to_act() == (2,)


def test_s2_quick_last_beater_gets_no_second_turn() -> None:
    state = position(
        QUICK_PAIRS,
        ["6H 7S 8S 9S", "7H AH 6C 7C", "8C 9C JC QC", "JS QS KS AS"],
        "6D 7D 8D 9D",
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Beat(cards("7H")))
    state.apply(2, Discard(cards("8C")))
    events = state.apply(3, Discard(cards("JS")))
    # seat 1 could beat its own 7♥ with A♥, but quick has no re-beat
    assert of_type(events, RoundTaken) == [RoundTaken(1, 2)]
    assert Card.parse("AH") in hand(state, 1)


# -- levelling and the draw ---------------------------------------------------------------


def test_s2_levelling_all_level_with_the_smallest_hand_taker_adds_nothing() -> None:
    """§2: after the trick every player holding more than the fewest, except the taker, adds
    cards of their choice face down to the trick (**Decision**: the taker's hand counts
    for the smallest; the taker adds nothing)."""
    state = position(SELF3, ["KH 6C 7C", "7S", "8S 9S AS"])
    state.apply(0, Lead(cards("KH")))
    # seat 1 holds fewer than seat 0 and cannot beat: skipped; seat 2 owes one
    assert state.to_act() == (2,)
    events = state.apply(2, Discard(cards("8S")))
    assert of_type(events, RoundTaken) == [RoundTaken(0, 4)]
    assert state.phase is Phase.LEVEL and state.to_act() == (2,)
    assert state.view_for(2).level_count == 1
    assert state.view_for(0).level_count == 0
    assert [a for a in state.legal_actions(2)] == [Level((c,)) for c in cards("9S AS")]
    assert refused(state, 2, Level(cards("9S AS"))) == "add exactly 1"
    with pytest.raises(NotYourTurn):
        state.apply(0, Level(cards("6C")))
    state.apply(2, Level(cards("AS")))
    assert state.phase is Phase.LEAD and state.to_act() == (0,)
    assert [len(hand(state, s)) for s in range(3)] == [2, 1, 1]
    assert state.current is not None and state.current.points == [4 + 11, 0, 0]


def test_s2_levelling_several_players() -> None:
    state = position(PAIRS, ["9H 6C 7C 8C", "6S 7S", "8S 9S JS", "QS KS AS 10S"], leader=0)
    state.apply(0, Lead(cards("9H")))
    # seat 1: two cards (fewer than seat 0's three), cannot beat → skipped; seat 2: three,
    # cannot beat → skipped; seat 3 owes one
    assert state.to_act() == (3,)
    state.apply(3, Discard(cards("QS")))
    assert state.phase is Phase.LEVEL
    assert set(state.to_act()) == {2, 3}
    state.apply(3, Level(cards("KS")))
    assert state.phase is Phase.LEVEL and state.to_act() == (2,)
    state.apply(2, Level(cards("8S")))
    assert [len(hand(state, s)) for s in range(4)] == [3, 2, 2, 2]
    assert state.current is not None and state.current.points == [3 + 4, 0]


def test_s2_draw_from_the_taker_clockwise_up_to_hand_size() -> None:
    """§2: from the trick taker clockwise, each draws up to the hand size."""
    talon = "6D 7D 8D 9D 10D JD QD KD AD"
    state = position(
        PAIRS,
        ["6H 6C 7C 8C 9C JC", "AH 7S 8S 9S JS QS", "KS 10S AS 7H 8H 9H", "QC KC 10C AC 10H JH"],
        talon,
    )
    state.apply(0, Lead(cards("6H")))
    state.apply(1, Beat(cards("AH")))
    state.apply(2, Discard(cards("KS")))
    state.apply(3, Discard(cards("10H")))
    assert [len(hand(state, s)) for s in range(4)] == [6, 6, 6, 6]
    assert hand(state, 1)[-1] is card("6D")
    assert hand(state, 2)[-1] is card("7D")
    assert hand(state, 3)[-1] is card("8D")
    assert hand(state, 0)[-1] is card("9D")
    assert state.current is not None and state.current.talon == list(cards("10D JD QD KD AD"))


SHORT_HANDS = [
    "9H 10H AH 6C 7C 8C",
    "6S 7S 8S 9S JS QS",
    "KS 10S AS 9C JC QC",
    "KC 10C AC 6H 7H 8H",
]


def short_talon_round(options: dict[str, Any]) -> tuple[CoverState, list[Any]]:
    """Seat 0 leads 9♥ 10♥, nobody can beat, everyone owes two, the talon holds five."""
    state = position(options, SHORT_HANDS, "JH QH KH 6D 7S")
    state.apply(0, Lead(cards("9H 10H")))
    state.apply(1, Discard(cards("8S 9S")))
    state.apply(2, Discard(cards("KS 10S")))
    events = state.apply(3, Discard(cards("6H 7H")))
    return state, events


def test_s2_short_talon_last_cards_one_by_one_hands_differ_by_one() -> None:
    """§2: when the talon runs short the last cards go one by one around the table (from the
    taker), so hands may differ by one."""
    state, events = short_talon_round(PAIRS)
    assert of_type(events, RoundTaken) == [RoundTaken(0, 10 + 4 + 10)]
    assert [len(hand(state, s)) for s in range(4)] == [6, 5, 5, 5]
    assert hand(state, 0)[-2:] == list(cards("JH 7S"))
    assert hand(state, 1)[-1] is card("QH")
    assert hand(state, 2)[-1] is card("KH")
    assert hand(state, 3)[-1] is card("6D")
    assert state.current is not None and state.current.talon == []


def test_s2_trump_changes_at_the_last_draw_at_once_and_for_next_games() -> None:
    """§2 classic: the talon's bottom card, drawn in the last draw, makes its suit trump at
    once and for the next games."""
    state, _ = short_talon_round(PAIRS)
    assert state.current is not None and state.current.trump is Suit.SPADES
    assert state.trump is Suit.SPADES
    assert state.view_for(1).trump is Suit.SPADES
    # at once: seat 0 leads 8♣, seat 1 (as many cards) may beat it with the trump 6♠
    state.apply(0, Lead(cards("8C")))
    assert state.to_act() == (1,)
    assert Beat(cards("6S")) in state.legal_actions(1)
    assert not state.beats(card("6D"), card("8C"), state.current.trump)
    # and for the next games
    finish_game(state, [70, 50])
    events = deal(state)
    assert of_type(events, GameDealt)[0].trump is Suit.SPADES
    assert state.current.trump is Suit.SPADES


def test_s2_bottom_card_shown_to_all_when_drawn() -> None:
    """§2: when the bottom card is drawn in the last draw it is shown to all."""
    state, events = short_talon_round(PAIRS)
    shown = of_type(events, TrumpChanged) == [TrumpChanged(card("7S"))]
    assert shown or all(state.view_for(s).bottom is card("7S") for s in range(4))


def test_s2_bottom_card_unknown_before_the_last_draw() -> None:
    state = CoverState("cover", dict(PAIRS))
    deal(state)
    assert state.current is not None and state.current.talon
    for seat in (None, 0, 1, 2, 3):
        assert state.view_for(seat).bottom is None
        assert state.current.talon[-1] not in set(cards_in(state.view_for(seat)))


def test_s2_quick_diamonds_always_trump_bottom_never_shown() -> None:
    """§2 quick: diamonds are always trump, and the bottom card is never shown."""
    state = position(
        QUICK_PAIRS,
        ["9H 10H AH 6C", "6S 7S 8S 9S", "KS 10S AS 9C", "KC 10C 6H 7H"],
        "JH QH KH 6D 7S",
    )
    state.apply(0, Lead(cards("9H 10H")))
    state.apply(1, Discard(cards("8S 9S")))
    state.apply(2, Discard(cards("KS 10S")))
    state.apply(3, Discard(cards("6H 7H")))
    assert state.current is not None and state.current.talon == []
    assert [len(hand(state, s)) for s in range(4)] == [4, 3, 3, 3]
    assert state.current.trump is Suit.DIAMONDS and state.trump is Suit.DIAMONDS
    assert all(state.view_for(s).bottom is None for s in range(4))
    # and the next game too, even if the match trump had been set otherwise
    finish_game(state, [70, 50])
    state.trump = Suit.CLUBS
    events = deal(state)
    assert of_type(events, GameDealt)[0].trump is Suit.DIAMONDS


# -- claims ---------------------------------------------------------------------------------


CLAIM_HANDS = [
    "6C 7C 8C 9C JC QC",  # seat 0: six clubs
    "6H 7H 8H 9H 6S 7S",  # seat 1: four hearts
    "JH QH KH 10H AH 8S",  # seat 2: five hearts
    "9S JS QS KS 7D 8D",  # seat 3: four spades
]


def test_s2_claim_before_the_lead() -> None:
    """§2: a player holding 4+ cards of one suit who has not yet acted may claim the lead;
    others see only N."""
    state = position(PAIRS, CLAIM_HANDS, "10S AS", leader=1)
    assert Claim(5) in state.legal_actions(2)
    assert Claim(4) in state.legal_actions(3)
    assert Claim(6) in state.legal_actions(0)
    assert not any(isinstance(a, Claim) for a in state.legal_actions(1))  # the leader
    assert refused(state, 2, Claim(4)) == "no claim"  # N is the real count
    events = state.apply(2, Claim(5))
    assert of_type(events, Acted) == [Acted(2, "claim:5")]
    assert state.phase is Phase.LEAD and state.to_act() == (2,)
    view = state.view_for(0)
    assert view.claims == ((2, 5),) and view.leader == 2
    assert not set(cards_in(view)) & set(hand(state, 2))


def test_s2_claimant_need_not_lead_the_claimed_suit() -> None:
    state = position(PAIRS, CLAIM_HANDS, "10S AS", leader=1)
    state.apply(3, Claim(4))
    assert Lead(cards("7D 8D")) in state.legal_actions(3)
    state.apply(3, Lead(cards("7D")))
    assert stacks(state) == [[card("7D")]]


def test_s2_claim_needs_four_of_a_suit() -> None:
    state = position(PAIRS, ["6C 7C 8C", "6H 7H 8H 6S 7S 8S", "9H", "9S"], "10S AS")
    assert not any(isinstance(a, Claim) for s in range(4) for a in state.legal_actions(s))
    assert refused(state, 1, Claim(3)) == "no claim"


def test_s2_claim_after_the_lead_takes_it_back_and_restarts() -> None:
    """§2: if the lead was already made it is taken back and the round restarts with the
    claimant (who has not acted yet)."""
    state = position(PAIRS, CLAIM_HANDS, "10S AS", leader=1)
    before = [sorted(map(str, hand(state, s))) for s in range(4)]
    state.apply(1, Lead(cards("6H 7H")))
    assert state.to_act() == (2,)
    state.apply(2, Beat(cards("JH QH")))
    # seat 2 has acted: no claim any more; seat 3 and seat 0 have not
    assert not any(isinstance(a, Claim) for a in state.legal_actions(2))
    assert Claim(4) in state.legal_actions(3)
    assert state.to_act() == (3,)
    state.apply(0, Claim(6))  # out of turn
    assert state.phase is Phase.LEAD and state.to_act() == (0,)
    assert stacks(state) == [] and state.view_for(1).discards == 0
    assert [sorted(map(str, hand(state, s))) for s in range(4)] == before
    assert state.view_for(3).claims == ((0, 6),)
    state.apply(0, Lead(cards("6C")))
    assert state.to_act() == (1,)


def test_s2_claim_by_an_acted_player_refused() -> None:
    state = position(PAIRS, CLAIM_HANDS, "10S AS", leader=1)
    state.apply(1, Lead(cards("6S")))
    state.apply(2, Discard(cards("8S")))
    assert refused(state, 2, Claim(5)) == "no claim"


def test_s2_claim_more_cards_wins_smaller_later_claim_refused() -> None:
    """§2: more cards wins; a later, smaller claim is refused (**Decision**)."""
    state = position(PAIRS, CLAIM_HANDS, "10S AS", leader=1)
    state.apply(2, Claim(5))
    assert not any(isinstance(a, Claim) for a in state.legal_actions(3))
    assert refused(state, 3, Claim(4)) == "no claim"
    state.apply(0, Claim(6))  # larger wins
    assert state.to_act() == (0,)
    assert state.view_for(1).claims == ((2, 5), (0, 6))


def test_s2_claim_tie_goes_nearest_clockwise_from_the_leader() -> None:
    """§2: a tie goes to the claimant nearest clockwise from the (first) leader."""
    hands = [
        "6C 7C 8C 9C 6D 7D",  # seat 0: four clubs
        "6H 7H 8H 9H 6S 7S",  # seat 1: leader
        "JH QH KH 10H 8S 9S",  # seat 2: four hearts
        "JS QS KS AS 8D 9D",  # seat 3: four spades
    ]
    state = position(PAIRS, hands, "10S", leader=1)
    state.apply(0, Claim(4))  # seat 0 is the farthest from seat 1
    assert Claim(4) in state.legal_actions(2)
    assert Claim(4) in state.legal_actions(3)
    state.apply(3, Claim(4))  # nearer than seat 0
    assert state.to_act() == (3,)
    assert Claim(4) in state.legal_actions(2)  # nearer still
    state.apply(2, Claim(4))
    assert state.to_act() == (2,)
    # seat 3 and seat 0 are farther from the first leader: refused
    assert refused(state, 3, Claim(4)) == "no claim"
    assert refused(state, 0, Claim(4)) == "no claim"


# -- scoring --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "loser"),
    [(120, 0), (61, 0), (60, 2), (31, 2), (30, 4), (21, 4), (1, 4), (0, 6)],
)
def test_s2_loser_points_61_0_31_2_1_4_0_6(points: int, loser: int) -> None:
    """§2: 61–120 → 0; 31–60 → 2; 1–30 → 4; 0 → 6 (**Decision** for 0)."""
    assert CoverState("cover", dict(PAIRS)).loser_points(points) == loser


@pytest.mark.parametrize(("points", "loser"), [(61, 0), (60, 2), (21, 2), (20, 4), (1, 4), (0, 6)])
def test_s2_save_21_option(points: int, loser: int) -> None:
    """§2 option: save threshold 31 → 21 for big tables."""
    assert CoverState("cover", {**PAIRS, "save": 21}).loser_points(points) == loser


def test_s2_game_end_each_side_takes_loser_points() -> None:
    """§2: game end when talon and hands are empty; each side counts its card points."""
    state = CoverState("cover", dict(SELF3))
    deal(state)
    events = finish_game(state, [90, 30, 0])
    result = scored(events)
    assert result.outcome == "normal"
    assert result.points == (90, 30, 0)
    assert result.award == (0, 4, 6)
    assert result.score == (0, 4, 6) and state.score == [0, 4, 6]
    assert result.multiplier == 1
    assert state.phase is Phase.DEALING


def test_s2_game_end_save_21_at_the_table() -> None:
    state = CoverState("cover", {"mode": "self", "players": 4, "save": 21})
    deal(state)
    result = scored(finish_game(state, [59, 21, 20, 20]))
    assert result.award == (2, 2, 4, 4)


def test_s2_eggs_double_then_quadruple_then_reset() -> None:
    """§2: eggs (both sides exactly 60): nobody scores; the next game's loser points are
    doubled, ×4 after two eggs in a row; reset after a normal game."""
    state = CoverState("cover", dict(PAIRS))
    deal(state)
    first = scored(finish_game(state, [60, 60]))
    assert first.outcome == "eggs" and first.award == (0, 0) and state.score == [0, 0]
    assert state.multiplier == 2
    deal(state)
    second = scored(finish_game(state, [60, 60]))
    assert second.outcome == "eggs" and state.score == [0, 0]
    assert state.multiplier == 4
    deal(state)
    third = scored(finish_game(state, [80, 40]))
    assert third.outcome == "normal"
    assert third.award == (0, 8) and state.score == [0, 8]
    assert state.multiplier == 1
    deal(state)
    fourth = scored(finish_game(state, [80, 40]))
    assert fourth.award == (0, 2) and fourth.multiplier == 1


def test_s2_eggs_result_reports_the_multiplier_applied() -> None:
    """§2 eggs: the game after eggs is scored ×2; its result says so."""
    state = CoverState("cover", dict(PAIRS))
    deal(state)
    finish_game(state, [60, 60])
    deal(state)
    result = scored(finish_game(state, [80, 40]))
    assert result.award == (0, 4)
    assert result.multiplier == 2


def test_s2_eggs_in_self_with_two_players() -> None:
    state = CoverState("cover", dict(SELF2))
    deal(state)
    assert scored(finish_game(state, [60, 60])).outcome == "eggs"
    deal(state)
    result = scored(finish_game(state, [100, 20]))
    assert result.award == (0, 8)


def test_s2_no_eggs_in_self_with_three_players() -> None:
    """§2: eggs in ``self`` only with two players: 60/60/0 is a normal game."""
    state = CoverState("cover", dict(SELF3))
    deal(state)
    result = scored(finish_game(state, [60, 60, 0]))
    assert result.outcome == "normal"
    assert result.award == (2, 2, 6)
    assert state.eggs == 0


def test_s2_eggs_in_self_when_two_players_are_left() -> None:
    """The engine's reading of "in ``self`` only with two players": two players in play (one
    of three is out) can make eggs."""
    state = CoverState("cover", dict(SELF3))
    state.out = [1]
    state.score = [0, 12, 0]
    state.next_leader = 0
    deal(state)
    result = scored(finish_game(state, [60, 0, 60]))
    assert result.outcome == "eggs"


# -- four aces, four sixes ------------------------------------------------------------------


def test_s2_four_aces_after_the_deal_end_the_match() -> None:
    """§2: four aces in one hand after a deal end the match at once: that player and partner
    win, everyone else gets 12."""
    state = CoverState("cover", dict(PAIRS))
    deck = deal_hands(
        state,
        {
            1: "7C 8C 9C JC QC KC",
            2: "6C 6S 6H 7S 8S 9S",
            3: "AC AS AH AD 10C 10S",
            0: "JS QS KS 7H 8H 9H",
        },
    )
    events = deal(state, deck)
    result = scored(events)
    assert result.outcome == "aces"
    assert result.award == (12, 0)
    assert of_type(events, MatchOver) == [MatchOver(1, (12, 0))]
    assert state.over and state.winner == 1
    assert state.legal_actions(1) == [] and state.to_act() == ()


def test_s2_four_sixes_after_the_deal_end_the_match_self() -> None:
    state = CoverState("cover", dict(SELF3))
    deck = deal_hands(
        state,
        {1: "7C 8C 9C JC QC KC", 2: "6C 6S 6H 6D 8S 9S", 0: "JS QS KS 7H 8H 9H"},
    )
    events = deal(state, deck)
    result = scored(events)
    assert result.outcome == "sixes"
    assert result.award == (12, 12, 0) and state.score == [12, 12, 0]
    assert of_type(events, MatchOver) == [MatchOver(2, (12, 12, 0))]
    assert state.out == [0, 1]


def test_s2_four_aces_beat_four_sixes() -> None:
    """§2: aces beat sixes if both happen."""
    state = CoverState("cover", dict(PAIRS))
    deck = deal_hands(
        state,
        {
            1: "6C 6S 6H 6D QC KC",
            2: "7C 8C 9C JC 8S 9S",
            3: "JS QS KS 7H 8H 9H",
            0: "AC AS AH AD 10C 10S",
        },
    )
    events = deal(state, deck)
    assert scored(events).outcome == "aces"
    assert of_type(events, MatchOver) == [MatchOver(0, (0, 12))]


def test_s2_four_aces_after_a_draw_end_the_match() -> None:
    """§2: four aces (or sixes) after a draw end the match too."""
    state = position(
        PAIRS,
        ["6H 7H 8H 9H JH QH", "AC AS AH 8C 9C 10C", "6S 7S 8S 9S JS QS", "KH 10H KS 10S 6C 7C"],
        "AD 6D 7D 8D 9D 10D",
        leader=1,
    )
    state.apply(1, Lead(cards("9C")))
    state.apply(2, Discard(cards("6S")))
    state.apply(3, Discard(cards("6C")))
    state.apply(0, Discard(cards("6H")))
    assert state.phase is Phase.REBEAT
    events = state.apply(1, Otboy())
    assert card("AD") in hand(state, 1)
    result = scored(events)
    assert result.outcome == "aces" and result.award == (12, 0)
    assert of_type(events, MatchOver) == [MatchOver(1, (12, 0))]


# -- the match ------------------------------------------------------------------------------


def test_s2_pairs_first_side_to_12_loses() -> None:
    state = CoverState("cover", dict(PAIRS))
    deal(state)
    state.score = [8, 10]
    events = finish_game(state, [40, 80])
    assert not of_type(events, MatchOver) and state.score == [10, 10]
    deal(state)
    events = finish_game(state, [40, 80])
    assert of_type(events, MatchOver) == [MatchOver(1, (12, 10))]
    assert state.over and state.winner == 1
    with pytest.raises(IllegalMove):
        deal(state)


def test_s2_self_player_at_12_is_out_and_watches() -> None:
    """§2 self: a player at 12 is out and watches (no cards, no turns)."""
    state = CoverState("cover", {"mode": "self", "players": 4})
    deal(state)
    state.score = [10, 0, 0, 0]
    finish_game(state, [40, 40, 40, 0], leader=1)
    assert state.score == [12, 2, 2, 6] and state.out == [0]
    deal(state)
    assert state.in_play() == [1, 2, 3]
    assert hand(state, 0) == []
    assert state.view_for(0).in_play == (1, 2, 3)
    for seat in (1, 2, 3):
        assert len(hand(state, seat)) == 6
    assert state.legal_actions(0) == []
    assert state.to_act() == (1,)


def test_s2_self_last_one_left_wins() -> None:
    state = CoverState("cover", dict(SELF3))
    deal(state)
    state.score = [11, 4, 10]
    events = finish_game(state, [50, 70, 0])
    assert of_type(events, MatchOver) == [MatchOver(1, (13, 4, 16))]
    assert state.winner == 1 and state.out == [0, 2]


def test_s2_self_all_remaining_reach_12_fewer_loser_points_wins() -> None:
    """§2 self: if every remaining player reaches 12 in the same game, the one with fewer
    loser points wins (even if another took the last trick)."""
    state = CoverState("cover", dict(SELF3))
    deal(state)
    state.score = [10, 9, 10]
    events = finish_game(state, [40, 10, 0], leader=2)
    assert state.score == [12, 13, 16]
    assert of_type(events, MatchOver) == [MatchOver(0, (12, 13, 16))]
    state2 = CoverState("cover", dict(SELF2))
    deal(state2)
    state2.score = [10, 9]
    events = finish_game(state2, [40, 0], leader=1)
    assert of_type(events, MatchOver) == [MatchOver(0, (12, 15))]


def test_s2_self_all_reach_12_tie_among_the_fewest_goes_to_last_trick_taker() -> None:
    state = CoverState("cover", dict(SELF3))
    deal(state)
    state.score = [10, 8, 10]
    events = finish_game(state, [40, 10, 0], leader=1)
    assert state.score == [12, 12, 16]
    assert of_type(events, MatchOver) == [MatchOver(1, (12, 12, 16))]


def test_s2_self_last_one_left_wins_when_the_others_reach_12_together() -> None:
    state = CoverState("cover", dict(SELF3))
    deal(state)
    state.score = [10, 6, 10]
    events = finish_game(state, [40, 70, 0], leader=0)
    assert state.score == [12, 6, 16]
    assert of_type(events, MatchOver) == [MatchOver(1, (12, 6, 16))]


def test_s2_self_all_reach_12_tie_goes_to_last_trick_taker() -> None:
    """§2 self: a tie goes to whoever took the last trick."""
    for taker in (0, 1, 2):
        state = CoverState("cover", dict(SELF3))
        deal(state)
        state.score = [10, 10, 10]
        events = finish_game(state, [40, 40, 40], leader=taker)
        assert state.score == [12, 12, 12]
        assert of_type(events, MatchOver) == [MatchOver(taker, (12, 12, 12))]


# -- poshka ---------------------------------------------------------------------------------


POSHKA = {**PAIRS, "poshka": True}


@pytest.mark.parametrize("top", ["AD", "10D", "AH", "AS", "7S"])
def test_s2_poshka_beats_anything(top: str) -> None:
    """§2 poshka: 6♠ is the highest card of the game and beats anything (even the trump
    ace)."""
    state = position(POSHKA, [f"{top} 6H", "6S 7C", "8C JH", "9C QH"], "JC QC")
    state.apply(0, Lead(cards(top)))
    assert Beat(cards("6S")) in state.legal_actions(1)
    state.apply(1, Beat(cards("6S")))
    assert stacks(state) == [[card(top), card("6S")]]


def test_s2_poshka_joins_a_lead_of_any_suit() -> None:
    state = position(POSHKA, ["6S 7H 8H 9C", "8C 7C 6C 9D", "10C QD KD AD", "JC 6D 7D 8D"])
    leads = {a.cards for a in state.legal_actions(0) if isinstance(a, Lead)}
    assert cards("7H 8H 6S") in leads and cards("9C 6S") in leads and cards("6S") in leads
    assert cards("7H 9C") not in leads
    state.apply(0, Lead(cards("6S 7H 8H")))
    assert stacks(state) == [[card("6S")], [card("7H")], [card("8H")]]
    assert state.to_act() == (1,) and state.view_for(1).surplus == 3


def test_s2_poshka_cannot_be_beaten() -> None:
    state = position(POSHKA, ["6S 7H 8C", "AD AH KD", "KH 10H 9C", "JC QC 8D"], "QH")
    state.apply(0, Lead(cards("6S 7H")))
    # seat 1 could cover 7♥ but never 6♠: no beat, it discards
    assert state.to_act() == (1,)
    assert not any(isinstance(a, Beat) for a in state.legal_actions(1))
    assert refused(state, 1, Beat(cards("AD AH"))) == "does not beat every stack"
    assert not state.beats(card("AD"), card("6S"), Suit.DIAMONDS)


def test_s2_without_poshka_6S_is_a_plain_spade() -> None:
    state = position(PAIRS, ["6S 7H 8H", "7S 6D", "8C", "9C"], "QC")
    assert refused(state, 0, Lead(cards("6S 7H"))) == "one suit"
    state.apply(0, Lead(cards("6S")))
    assert Beat(cards("7S")) in state.legal_actions(1)
    assert Beat(cards("6D")) in state.legal_actions(1)
    assert not state.beats(card("6S"), card("7H"), Suit.DIAMONDS)


# -- the seed 000 opening -----------------------------------------------------------------


SEED000 = {**PAIRS, "opening": "seed000"}


def test_s2_seed000_trump_is_the_cut_cards_suit_shown_to_all() -> None:
    state = CoverState("cover", dict(SEED000))
    deck = deal_hands(
        state,
        {
            1: "7C 8C 9C 6D 7D 8D",
            2: "6C 6S 6H 7S 8S 9S",
            3: "JS QS KS 7H 8H 9H",
            0: "AC AS AH JC QC KC",
        },
        bottom="10H",
    )
    events = deal(state, deck)
    assert of_type(events, GameDealt)[0].trump is Suit.HEARTS
    assert state.current is not None and state.current.trump is Suit.HEARTS
    for seat in (None, 0, 1, 2, 3):
        assert state.view_for(seat).bottom is card("10H")
        assert state.view_for(seat).trump is Suit.HEARTS
    # the dealer (seat 0) leads, though seat 1 holds the lowest diamond
    assert state.to_act() == (0,)


def test_s2_seed000_holder_of_four_trumps_leads() -> None:
    """§2 seed 000: the dealer leads first, unless a player holds four trumps."""
    hands = {
        1: "7C 8C 9C 6D 7D 8D",
        2: "6C 6S 6H 7S 8S 9S",
        3: "JS QS KS 7H 8H 9H",
        0: "AC AS AH JC QC KC",
    }
    state = CoverState("cover", dict(SEED000))
    deal(state, deal_hands(state, hands, bottom="10D"))
    assert state.to_act() == (0,)  # three diamonds at most: the dealer leads
    state = CoverState("cover", dict(SEED000))
    deal(state, deal_hands(state, hands, bottom="10S"))
    assert state.current is not None and state.current.trump is Suit.SPADES
    assert state.to_act() == (2,)  # four spades


def test_s2_seed000_four_trumps_first_clockwise_from_the_dealer() -> None:
    state = CoverState("cover", dict(SEED000))
    state.dealer = 2
    deck = deal_hands(
        state,
        {
            3: "7C 8C 9C 6D 7D 8D",
            0: "6C 6H 7H 8H 9H 6S",
            1: "JH QH KH 10H 7S 8S",
            2: "AC AS AD JC QC KC",
        },
        bottom="AH",
    )
    deal(state, deck)
    # seats 0 and 1 hold four hearts: from the dealer (seat 2) clockwise, seat 0 comes first
    assert state.to_act() == (0,)


def test_s2_seed000_decision_dealer_rotates_and_leads_every_game() -> None:
    """**Decision**: with ``opening=seed000`` every game's trump is the cut card's; the dealer
    (rotating clockwise among the players in play) leads."""
    state = CoverState("cover", {"mode": "self", "players": 3, "opening": "seed000"})
    deal(state)
    assert state.dealer == 0 and state.to_act() == (0,)
    finish_game(state, [60, 60, 0], leader=2)
    assert state.dealer == 1
    deck = deal_hands(
        state,
        {2: "7C 8C 9C 6D 7D 8D", 0: "6C 6S 6H 7S 8S 9S", 1: "JS QS KS 7H 8H 9H"},
        bottom="AD",
    )
    events = deal(state, deck)
    assert of_type(events, GameDealt)[0] == GameDealt(1, 1, Suit.DIAMONDS)


def test_s2_seed000_decision_no_trump_change_at_the_last_draw() -> None:
    """**Decision**: with the seed 000 opening the cut card stays at the bottom of the talon,
    so there is no trump change at the last draw."""
    state = CoverState("cover", dict(SEED000))
    deal(state)
    assert state.current is not None and state.current.trump is Suit.DIAMONDS
    set_position(state, SHORT_HANDS, "JH QH KH 6D 7S")
    state.apply(0, Lead(cards("9H 10H")))
    state.apply(1, Discard(cards("8S 9S")))
    state.apply(2, Discard(cards("KS 10S")))
    state.apply(3, Discard(cards("6H 7H")))
    assert state.current.talon == [] and card("7S") in hand(state, 0)
    assert state.current.trump is Suit.DIAMONDS and state.trump is Suit.DIAMONDS


# -- computer matches, persistence, views -------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        PAIRS,
        QUICK_PAIRS,
        SELF2,
        SELF3,
        {"mode": "self", "players": 4, "save": 21},
        {"mode": "self", "players": 3, "hand": 4},
        {**PAIRS, "poshka": True},
        {**PAIRS, "opening": "seed000"},
        {"mode": "self", "players": 2, "hand": 4, "poshka": True, "opening": "seed000"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
@pytest.mark.parametrize("seed", [1, 2])
def test_s2_seeded_computer_matches_finish(options: dict[str, Any], seed: int) -> None:
    """Seeded computer matches of several settings come to an end, with a loser at 12."""
    results: list[DealScored] = []
    state = play_match(
        CoverState("cover", dict(options)), seed, on_deal=lambda s, r: results.append(r)
    )
    assert isinstance(state, CoverState)
    assert state.over and state.winner is not None
    assert results and results[-1].score == tuple(state.score)
    if state.rules.pairs:
        assert state.score[1 - state.winner] >= 12
    else:
        assert all(state.score[s] >= 12 for s in range(state.players) if s != state.winner)
    again = play_match(CoverState("cover", dict(options)), seed)
    assert again.dump() == state.dump()


def test_s2_json_round_trip_mid_round() -> None:
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C 9C", "8H 9H 10H AH JC QC", "6S 7S 8S 9S JS QS", "KS AS AC 7D KC 10C"],
        "JH QH KH",
    )
    state.apply(2, Claim(6))
    state.apply(2, Lead(cards("6S 7S")))
    state.apply(3, Beat(cards("KS AS")))
    state.apply(0, Discard(cards("6C 7C")))
    data = state.dump()
    loaded = CoverState.load(data)
    assert loaded == state
    assert loaded.dump() == data
    assert loaded.to_act() == state.to_act() == (1,)
    assert loaded.legal_actions(1) == state.legal_actions(1)
    for copy in (state, loaded):
        copy.apply(1, Discard(cards("JC QC")))
    assert loaded == state


def test_s2_view_shows_only_own_hand_and_hand_sizes_and_discard_count() -> None:
    """Others' hands are secret (only sizes); discards are face down (only their count)."""
    state = position(
        PAIRS,
        ["6H 7H 6C 7C 8C 9C", "JC QC KC 10C AC 6D", "8H 9H 6S 7S 8S 9S", "KS AS 7D 8D KH 10H"],
        "JH QH KH",
    )
    state.apply(0, Lead(cards("6H 7H")))
    state.apply(1, Discard(cards("JC QC")))
    state.apply(2, Beat(cards("8H 9H")))
    assert state.to_act() == (3,)
    table = {c for s in stacks(state) for c in s}
    for seat in (None, 0, 1, 2, 3):
        view = state.view_for(seat)
        own = set(hand(state, seat)) if seat is not None else set()
        assert view.hand == tuple(hand(state, seat) if seat is not None else ())
        assert view.hand_sizes == (4, 4, 4, 6)
        assert view.discards == 2
        seen = set(cards_in(view))
        assert seen <= own | table, (seat, seen - own - table)
        assert not seen & set(cards("JC QC"))
    # levelling cards are face down too
    state2 = position(SELF3, ["KH 6C 7C", "7S", "8S 9S AS"])
    state2.apply(0, Lead(cards("KH")))
    state2.apply(2, Discard(cards("8S")))
    assert state2.phase is Phase.LEVEL
    for seat in (None, 0, 1, 2):
        own = set(hand(state2, seat)) if seat is not None else set()
        assert set(cards_in(state2.view_for(seat))) <= own


# -- traces (issue #14: enough to check a game without the engine) --------------------------


def play_round(state: CoverState) -> dict[str, Any]:
    """Let the computer finish the round in progress; its trace object."""
    game = state.current
    assert game is not None
    taken = len(game.rounds)
    while len(game.rounds) == taken:
        seat = state.to_act()[0]
        state.apply(seat, choose(state.view_for(seat), state.legal_actions(seat)))
    return game.rounds[taken]


def test_trace_claims_keep_their_place_in_the_round_and_what_they_took_back() -> None:
    """Issue #14: each claim «У мене N» is traced with its claimant, N, how many of the
    round's moves came before it, and whether it took back a lead already made; the moves
    it took back stay in the round's sequence, marked."""
    state = position(PAIRS, CLAIM_HANDS, "10S AS", leader=1)
    state.apply(2, Claim(5))  # before the lead
    state.apply(2, Lead(cards("JH QH")))
    state.apply(0, Claim(6))  # out of turn, after the lead: takes it back
    state.apply(0, Lead(cards("6C")))
    rnd = play_round(state)
    assert rnd["first_leader"] == 1 and rnd["leader"] == 0
    assert rnd["claims"] == [
        {"seat": 2, "count": 5, "after": 0, "took_back": False},
        {"seat": 0, "count": 6, "after": 2, "took_back": True},
    ]
    assert rnd["sequence"][:4] == [
        {"seat": 2, "type": "claim", "count": 5},
        {"seat": 2, "type": "lead", "cards": ["JH", "QH"], "taken_back": True},
        {"seat": 0, "type": "claim", "count": 6},
        {"seat": 0, "type": "lead", "cards": ["6C"]},
    ]
    assert rnd["lead"] == ["6C"] and rnd["actions"] == rnd["sequence"][4:]
    assert not any("taken_back" in move for move in rnd["sequence"][2:])


def test_trace_a_claim_after_a_beat_takes_back_the_lead_and_the_beat() -> None:
    state = position(PAIRS, CLAIM_HANDS, "10S AS", leader=1)
    state.apply(1, Lead(cards("6H 7H")))
    state.apply(2, Beat(cards("JH QH")))
    state.apply(0, Claim(6))
    state.apply(0, Lead(cards("6C 7C")))
    rnd = play_round(state)
    assert rnd["claims"] == [{"seat": 0, "count": 6, "after": 2, "took_back": True}]
    assert rnd["sequence"][:3] == [
        {"seat": 1, "type": "lead", "cards": ["6H", "7H"], "taken_back": True},
        {"seat": 2, "type": "beat", "cards": ["JH", "QH"], "onto": [0, 1], "taken_back": True},
        {"seat": 0, "type": "claim", "count": 6},
    ]


def test_trace_records_the_deck_top_first_and_the_dealer_who_leads_in_seed000() -> None:
    """Issue #14: the trace names the dealer of the game (the next game's dealer is already
    chosen when the trace is written) beside the shuffled deck, top first."""
    state = CoverState("cover", dict(SEED000))
    state.dealer = 2
    deck = list(DECK_36)  # nobody is dealt four diamonds: the dealer leads
    deal(state, deck)
    assert state.to_act() == (2,)
    result = scored(finish_game(state, [70, 50], leader=2))
    assert state.dealer == 3
    trace = state.deal_trace(result, match=0, players=["a", "b", "c", "d"])
    assert trace["deck"] == [str(c) for c in deck]
    assert trace["dealer"] == 2 and trace["first_leader"] == 2
    assert trace["trump_start"] == Suit(deck[-1].suit).value  # the cut card at the bottom
    dealt: list[list[str]] = [[], [], [], []]
    for k, code in enumerate(trace["deck"][:24]):  # one at a time from the dealer's left
        dealt[(trace["dealer"] + 1 + k) % 4].append(code)
    assert dealt == trace["hands"]


def check_trace(trace: dict[str, Any]) -> int:
    """Check a game's trace as someone without the engine would; the number of claims that
    took a lead back."""
    players = len(trace["hands"])
    in_play = [s for s in range(players) if trace["hands"][s]]
    hand = len(trace["hands"][in_play[0]])
    order = [s for k in range(1, players + 1) if (s := (trace["dealer"] + k) % players) in in_play]
    dealt: dict[int, list[str]] = {s: [] for s in in_play}
    for k, code in enumerate(trace["deck"][: hand * len(in_play)]):
        dealt[order[k % len(in_play)]].append(code)
    assert [dealt.get(s, []) for s in range(players)] == trace["hands"]
    talon = trace["deck"][hand * len(in_play) :]
    if trace["options"]["opening"] == "seed000":
        trump = trace["deck"][-1][-1]
        assert trace["trump_start"] == trump
        holders = [
            s
            for s in order[-1:] + order[:-1]
            if sum(c[-1] == trump for c in trace["hands"][s]) >= 4
        ]
        assert trace["first_leader"] == (holders[0] if holders else trace["dealer"])
    took_back = 0
    drawn = 0
    for number, rnd in enumerate(trace["rounds"]):
        if number == 0:
            assert rnd["first_leader"] == trace["first_leader"]
        sequence = rnd["sequence"]
        claims = [i for i, move in enumerate(sequence) if move["type"] == "claim"]
        assert [c["after"] for c in rnd["claims"]] == claims
        for claim, index in zip(rnd["claims"], claims, strict=True):
            assert sequence[index] == {
                "seat": claim["seat"],
                "type": "claim",
                "count": claim["count"],
            }
            before = max([i for i in claims if i < index], default=-1)
            assert claim["took_back"] == (index - before > 1)
            took_back += claim["took_back"]
        last = claims[-1] if claims else -1
        for i, move in enumerate(sequence):
            assert move.get("taken_back", False) == (i < last and move["type"] != "claim")
        standing = sequence[last + 1 :]
        assert standing[0]["type"] == "lead" and standing[0]["seat"] == rnd["leader"]
        assert rnd["lead"] == standing[0]["cards"] and rnd["actions"] == standing[1:]
        cards_drawn = [c for draw in rnd["draws"] for c in draw["cards"]]
        assert sorted(cards_drawn) == sorted(talon[drawn : drawn + len(cards_drawn)])
        drawn += len(cards_drawn)
    return took_back


@pytest.mark.parametrize(
    "options",
    [
        PAIRS,
        QUICK_PAIRS,
        SELF2,
        {"mode": "self", "players": 4, "hand": 4},
        {**SELF3, "poshka": True},
        SEED000,
        {"mode": "self", "players": 3, "opening": "seed000", "hand": 4},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_trace_of_seeded_matches_checks_without_the_engine(options: dict[str, Any]) -> None:
    """Every game's trace redoes the deal from the deck and the dealer, draws from the talon
    in order, and places each claim in its round's sequence of moves."""
    traces: list[dict[str, Any]] = []
    play_match(
        CoverState("cover", dict(options)),
        3,
        on_deal=lambda s, r: traces.append(
            json.loads(json.dumps(s.deal_trace(r, match=0, players=[])))
        ),
    )
    took_back = sum(check_trace(trace) for trace in traces)
    assert traces and (took_back > 0 or options.get("hand") == 4)  # 4 of 4 cards: rare
