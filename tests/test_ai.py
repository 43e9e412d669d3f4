"""The computer player: always legal, and sensible in scripted positions (no lucky seeds)."""

from __future__ import annotations

import pytest

from kozelbot.core.cards import Card, parse_cards
from kozelbot.families.follow.ai import choose_action, choose_card
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import (
    AnswerOffer,
    GiveTrump,
    KeepHand,
    OfferHandoff,
    Phase,
    PlayCard,
    ReturnCard,
)
from tests.scripted import deal_and_keep, new_match, play_cards, step


def position(hands: list[str], played: str) -> MatchState:
    """Deal these four hands, keep them, and play ``played`` from the first lead on."""
    state = new_match()
    deal_and_keep(state, [parse_cards(hand) for hand in hands])
    play_cards(state, played)
    return state


def ai_card(state: MatchState) -> Card:
    seat = state.to_act()[0]
    chosen = choose_card(state.view_for(seat))
    assert chosen in state.legal_cards(seat)
    return chosen


@pytest.mark.parametrize("options", [{}, {"deck": 32}, {"six_clubs": "ordinary", "lyusya": "zero"}])
def test_computer_always_picks_a_legal_action(options: dict[str, object]) -> None:
    """Over every state of several seeded matches, the chosen action is a legal one."""
    decisions = 0
    for seed in range(8):
        state = MatchState("hvalenyi", options)
        while state.phase is not Phase.OVER:
            if state.phase is not Phase.DEALING:
                seat = state.to_act()[0]
                action = choose_action(state.view_for(seat))
                assert action in state.legal_actions(seat)
                assert state.can_apply(seat, action)
                decisions += 1
            step(state, seed)
    assert decisions > 1000


def test_computer_refuses_to_move_when_it_cannot() -> None:
    """Asked to move for a seat that is not to act, the computer says so."""
    state = position(
        [
            "JC AH KH AS 10S KS AC 10C KC",
            "6H 9H 8S 7S 6S 9C 9D 7D QH",
            "10H 8H 7H QC QD JS JH 6C 9S",
            "6D 8D JD QS AD 10D KD 8C 7C",
        ],
        "",
    )
    with pytest.raises(ValueError):
        choose_action(state.view_for(2))


def test_follows_cheaply_when_it_cannot_beat() -> None:
    """Seat 1 must follow A♠ and cannot beat it: it plays 7♠, not the 10♠ or K♠."""
    state = position(
        [
            "JC AS 9S 8S AH KH AC KC 9C",
            "10S KS 7S 10H 9H 7H 10C 8C 7C",
            "6C QC QS QH QD JS JH JD 6S",
            "AD 10D KD 9D 8D 7D 6D 8H 6H",
        ],
        "AS",
    )
    assert state.to_act() == (1,)
    assert ai_card(state) == Card.parse("7S")


def test_discards_a_zero_card_when_it_cannot_win() -> None:
    """Seat 1 has no spade and no trump on the A♠ lead: it throws a zero-point card, not
    an ace or a ten."""
    state = position(
        [
            "JC AS 9S 8S 7S KS 6S 10S 9C",
            "AH 10H 9H 7H AC 10C 8C 7C KH",
            "6C QC QS QH QD JS JH JD KC",
            "AD 10D KD 9D 8D 7D 6D 8H 6H",
        ],
        "AS",
    )
    assert state.to_act() == (1,)
    chosen = ai_card(state)
    assert chosen.points == 0
    assert chosen in parse_cards("9H 7H 8C 7C")


def test_last_to_play_wins_a_valuable_trick_with_its_cheapest_winning_card() -> None:
    """Seat 3, last, out of hearts, sees 21 points going to the opponents: it trumps with
    its lowest trump (6♦), neither a valuable trump nor a useless discard."""
    state = position(
        [
            "JC AH KH AS 10S KS AC 10C KC",
            "6H 9H 8S 7S 6S 9C 9D 7D QH",
            "10H 8H 7H QC QD JS JH 6C 9S",
            "6D 8D JD QS AD 10D KD 8C 7C",
        ],
        "AH 6H 10H",
    )
    assert state.to_act() == (3,)
    assert ai_card(state) == Card.parse("6D")


def test_last_to_play_wins_with_the_cheapest_card_by_points() -> None:
    """With only point-bearing trumps (Q♠ 3, K♦ 4, 10♦ 10, A♦ 11) the card spent to win is
    the one worth least, Q♠."""
    state = position(
        [
            "JC AH KH AS 10S KS AC 10C KC",
            "6H 9H JD 7S 6S 9D 7D QH 6D",
            "10H 8H 7H QC QD JS JH 6C 8D",
            "QS AD 10D KD 9S 9C 8C 7C 8S",
        ],
        "AH 6H 10H",
    )
    assert state.to_act() == (3,)
    hand = state.current.hands[3] if state.current else []
    assert not any(c.suit.value == "H" and not state.strength.is_trump(c) for c in hand)
    assert ai_card(state) == Card.parse("QS")


def test_smears_points_to_the_partner_when_last_and_the_partner_wins() -> None:
    """Seat 1's A♠ takes the trick; seat 3, last and out of spades, gives it the A♣ (the
    most points that are not a permanent trump)."""
    state = position(
        [
            "JC 6S 10S KS AH KH 8H 6H 7C",
            "AS 9S 8S 10C KC QC QS 6C AD",
            "7S QH JS JH 10D KD 9D 8D 7D",
            "AC 10H 7H 8C JD QD 6D 9H 9C",
        ],
        "6S AS 7S",
    )
    assert state.to_act() == (3,)
    assert ai_card(state) == Card.parse("AC")


def test_the_redeal_answer_is_a_legal_one() -> None:
    """In the redeal offer the computer answers redeal or keep, never a card."""
    state = new_match()
    state.deal_hands(
        [
            parse_cards(h)
            for h in (
                "JC AD 10D KD QS QH AH 10H KH",
                "AS JS 6C 9D 8D 7D 6D 9S 8S",
                "10S KS 7S 6S 9H 8H 7H 6H 9C",
                "QC QD JH JD AC 10C KC 8C 7C",
            )
        ]
    )
    assert state.to_act() == (1,)
    action = choose_action(state.view_for(1))
    assert action in state.legal_actions(1)
    assert not isinstance(action, PlayCard)


def test_the_computer_decides_each_handoff_step_from_its_view_alone() -> None:
    """Sixes' hand-off: the computer holding its last trumps with points offers, agrees to
    its partner's offer, passes every trump, and returns its cheapest plain cards; a seat not
    asked during the hidden decision has nothing to decide (its view waits)."""
    state = MatchState("sixes", {})
    state.deal_hands(
        [
            parse_cards(h)
            for h in (
                "QS JD AS 10S AH 9H AD 9D",
                "7C QC QH QD JC JS JH AC",
                "10C KC 9C 8C KS KH KD 9S",
                "8S 7S 10H 8H 7H 10D 8D 7D",
            )
        ]
    )
    assert state.to_act() == (0,) and state.view_for(2).phase is Phase.WAITING
    with pytest.raises(ValueError):
        choose_action(state.view_for(2))
    assert choose_action(state.view_for(0)) == OfferHandoff()
    state.apply(0, OfferHandoff())
    assert choose_action(state.view_for(2)) == AnswerOffer(True)
    state.apply(2, AnswerOffer(True))
    given = choose_action(state.view_for(0))
    assert isinstance(given, GiveTrump) and set(given.cards) == {Card.parse("QS"), Card.parse("JD")}
    state.apply(0, given)
    returned = choose_action(state.view_for(2))
    assert returned == ReturnCard(Card.parse("9S"))


def test_the_computer_keeps_a_lone_trump_without_points_in_sixes() -> None:
    """Sixes' hand-off: a lone 8♣ may be handed off, but it is worth nothing to the partner:
    the computer keeps it."""
    state = MatchState("sixes", {})
    state.deal_hands(
        [
            parse_cards(h)
            for h in (
                "QS JD AS 10S AH 9H AD 9D",
                "7C QC QH QD JC JS JH AC",
                "8C KS KH KD 9S 10H 8H 10D",
                "10C KC 9C 8S 7S 7H 8D 7D",
            )
        ]
    )
    assert state.to_act() == (2,)
    assert choose_action(state.view_for(2)) == KeepHand()
