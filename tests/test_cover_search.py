"""The cover game's search representation (``kozelbot.families.cover.search``, issue #17 item 2)
plays exactly as the engine, which stays the one authority.

The differential test plays random matches of every option set through the engine — a
quarter of the games begun from a scrambled position (uneven hands, a short talon, four of a
kind planted), where levelling, the one-by-one last draw and empty hands come up — with a
search position kept in step by ``make``, the moves chosen half from the engine's actions and
half from the search's moves, claims from any seat now and then. At every position: each
seat's legal moves (the same set as ``legal_actions``), whose turn it is, the claims open,
and the position equal to one built afresh from the state and to one built from a seat's
public facts and the hidden cards; at every round's end the taker and what each seat drew;
at every game's end the card points, tricks, outcome, multiplier, loser points, score,
eggs, seats out, match winner and trump. Every 40th position also makes up to 60 random
moves and takes them all back.

    KOZEL_DIFF_POSITIONS=100000 pytest tests/test_cover_search.py -k differential

compares that many positions for every option set (by default 20 000 for the four main
sets and 5 000 for the others: about 20 s of CPU in all).
"""

from __future__ import annotations

import random

import pytest

from kozelbot.core.cards import DECK_36, Card, Suit, parse_cards
from kozelbot.core.protocol import DealScored
from kozelbot.families.cover import FAMILY
from kozelbot.families.cover.search import (
    PHASES,
    Position,
    from_public,
    from_state,
    hidden_cards,
    public_facts,
)
from kozelbot.families.cover.search import cards as bits
from kozelbot.families.cover.search.beats import beat_sets, has_beat
from kozelbot.families.cover.search.moves import BEAT, LEAD, action, kind_of, move_of
from kozelbot.families.cover.search.outcome import result
from kozelbot.families.cover.search.public import Hidden
from kozelbot.families.cover.strength import cover_sets, covers
from kozelbot.families.cover.vocabulary import Claim, Discard, Lead, Otboy, Outcome
from kozelbot.families.follow import FAMILY as FOLLOW
from tests.cover_positions import position
from tests.cover_search_play import MAIN, OPTION_SETS, play, positions_wanted, round_trip

DEFAULT_POSITIONS = 20_000


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_differential_the_search_plays_every_position_as_the_engine(name: str) -> None:
    options = OPTION_SETS[name]
    counts = play(options, positions_wanted(name, DEFAULT_POSITIONS), seed=17, trips=40)
    assert counts["games"] and counts["rounds"] and counts["draws"] and counts["round trips"]
    assert counts["lead:lead"] and counts["beat:answer"] and counts["discard:answer"]
    assert counts["claim:lead"] + counts["claim:answer"]
    if options.get("hand", 6) == 6:
        assert counts["beat:rebeat"] and counts["otboy:rebeat"]
    if name in MAIN:
        assert counts["level:level"] and counts["last draws"]
    if options.get("hand", 6) == 6 and options.get("opening") != "seed000":
        assert counts["trump changes"]


def test_beat_sets_are_the_engines_cover_sets_on_random_piles() -> None:
    """Any tops (several suits, trumps among them), any hand, every trump, with and without
    poshka: the same sets as ``strength.cover_sets``."""
    rng = random.Random(2)
    found = 0
    for _ in range(20_000):
        trump = rng.choice(list(Suit))
        poshka = rng.random() < 0.5
        deck = list(DECK_36)
        rng.shuffle(deck)
        hand, tops = deck[: rng.randint(0, 7)], deck[10 : 10 + rng.randint(1, 6)]
        expected = {bits.mask_of(s) for s in cover_sets(hand, tops, covers(trump, poshka))}
        args = (bits.mask_of(hand), bits.mask_of(tops), bits.SUIT_INDEX[trump], poshka)
        got = beat_sets(*args)
        assert len(got) == len(set(got)) and set(got) == expected
        assert has_beat(*args) == bool(expected)
        found += bool(expected)
    assert found > 2000


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_make_and_unmake_round_trip_through_whole_games(name: str) -> None:
    """From each game's first position, random moves (claims from anyone) to the end of the
    game, then every one taken back: each position on the way back is the one before."""
    rng = random.Random(5)
    state = FAMILY.rules.new_state("cover", OPTION_SETS[name])
    made = 0
    for game in range(40):
        if state.over:
            state = FAMILY.rules.new_state("cover", OPTION_SETS[name])
        state.chance(random.Random(game))
        if state.phase not in PHASES:  # four of a kind dealt
            continue
        pos = from_state(state)
        assert isinstance(pos, Position)
        made += round_trip(pos, rng, 1000)
        assert not pos.over
        advance = rng.choice(pos.legal(pos.to_act()[0]))
        state.apply(advance >> 39, action(advance))  # on to a later game of the match
        while not state.needs_chance and not state.over:
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert made > 40 * 20


def test_a_seats_public_facts_with_the_true_hidden_cards_rebuild_the_position() -> None:
    state = FAMILY.rules.new_state("cover", {})
    state.chance(random.Random(3))
    rng = random.Random(3)
    while len(state.game.rounds) < 3:
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    truth = from_state(state)
    hidden = hidden_cards(state)
    for seat in range(4):
        public = public_facts(state, seat)
        assert from_public(public, hidden).snapshot() == truth.snapshot()
        others = {c for s, hand in enumerate(hidden.hands) if s != seat for c in hand}
        face_down = {c for pile in (*hidden.face_down, *hidden.taken) for c in pile}
        assert public.unseen == others | set(hidden.talon) | face_down
        assert not public.unseen & public.hand


def test_hidden_cards_that_do_not_fit_the_public_facts_are_refused() -> None:
    state = FAMILY.rules.new_state("cover", {})
    state.chance(random.Random(4))
    public = public_facts(state, 0)
    hidden = hidden_cards(state)
    swapped = (hidden.hands[0][:-1] + hidden.talon[:1], *hidden.hands[1:])
    with pytest.raises(ValueError, match="own hand"):
        from_public(public, Hidden(swapped, hidden.talon, hidden.face_down, hidden.taken))
    twice = (hidden.hands[0], hidden.hands[0], *hidden.hands[2:])
    with pytest.raises(ValueError, match="exactly once"):
        from_public(public, Hidden(twice, hidden.talon, hidden.face_down, hidden.taken))
    with pytest.raises(ValueError, match="talon size"):
        from_public(public, Hidden(hidden.hands, hidden.talon[1:], hidden.face_down, hidden.taken))


def test_a_move_is_one_int_and_converts_to_the_engines_action_and_back() -> None:
    lead = Lead(tuple(parse_cards("7H AH")))
    move = move_of(2, lead)
    assert kind_of(move) == LEAD and move >> 39 == 2
    assert move & bits.ALL == bits.mask_of(lead.cards)
    assert action(move) == lead and action(move_of(1, Otboy())) == Otboy()
    assert kind_of(move_of(0, Discard(tuple(parse_cards("6C"))))) != BEAT


def test_four_aces_drawn_end_the_match_in_the_search_as_in_the_engine() -> None:
    """§2: four aces in one hand after a draw end the match at once; that side wins."""
    state = position(
        {},
        ["AC AS AH 7C 8C 9C", "6S 7S 8S 9S JS QS", "6H 7H 8H 9H JH QH", "KS KH 10S 10H 6C 7D"],
        "AD 8D 9D JD",
    )
    pos = from_state(state)
    moves = [
        (0, Lead((Card.parse("7C"),))),
        (1, Discard((Card.parse("6S"),))),
        (2, Discard((Card.parse("6H"),))),
        (3, Discard((Card.parse("KS"),))),
        (0, Otboy()),
    ]
    for seat, move in moves:
        assert move_of(seat, move) in pos.legal(seat)
        events = state.apply(seat, move)
        pos.make(move_of(seat, move))
    scored = next(e for e in events if isinstance(e, DealScored))
    got = result(pos)
    assert pos.over and pos.four == (Outcome.ACES, 0) and got.outcome is Outcome.ACES
    assert (got.award, got.score, got.winner) == (scored.award, scored.score, 0)
    for _ in moves:
        pos.unmake()
    assert (
        pos.snapshot()
        == from_state(
            position(
                {},
                [
                    "AC AS AH 7C 8C 9C",
                    "6S 7S 8S 9S JS QS",
                    "6H 7H 8H 9H JH QH",
                    "KS KH 10S 10H 6C 7D",
                ],
                "AD 8D 9D JD",
            )
        ).snapshot()
    )


def test_the_families_play_random_deals_through_their_search_representations() -> None:
    rng = random.Random(2)
    setups = (
        (FAMILY, "cover", []),
        (FAMILY, "cover", ["mode=self", "players=3"]),
        (FOLLOW, "hvalenyi", []),
        (FOLLOW, "belka", []),
    )
    for family, variant, words in setups:
        options = family.rules.presets[variant].parse(words).model_dump()
        playout = family.players.search_playout(variant, options)
        assert all(playout(rng) > 0 for _ in range(20))


def test_claims_outbid_by_count_then_by_nearness_to_the_first_leader_as_in_the_engine() -> None:
    """§2 **Decision**: a later claim needs more cards, or as many and a seat nearer
    clockwise to the round's first leader; a claim after the lead takes it back."""
    state = position(
        {},
        ["6C 7C 8H 9D JD QD", "6S 7S 8S 9S AC KC", "6H 7H 9H JH AS KS", "QH KH AH 10H 10S 10C"],
        "6D 7D 8D 10D",
    )
    pos = from_state(state)

    def same() -> set[int]:
        for seat in range(4):
            assert set(pos.legal(seat)) == {move_of(seat, a) for a in state.legal_actions(seat)}
        assert pos.snapshot() == from_state(state).snapshot()
        return {move >> 39 for move in pos.claims()}

    assert same() == {1, 2, 3}
    for seat, move in [
        (0, Lead(tuple(parse_cards("6C")))),
        (3, Claim(4)),
        (2, Claim(4)),
        (1, Claim(4)),
    ]:
        state.apply(seat, move)
        pos.make(move_of(seat, move))
        claimants = same()
        assert claimants == {0: {1, 2, 3}, 3: {1, 2}, 2: {1}, 1: set()}[seat]
    assert (
        pos.leader == 1
        and pos.first_leader == 0
        and pos.hands[0] == bits.mask_of(parse_cards("6C 7C 8H 9D JD QD"))
    )
