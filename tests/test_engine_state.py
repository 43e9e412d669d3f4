"""The engine as a state machine: refused input, JSON persistence, hidden hands, replays."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kozelbot.core.cards import Card, parse_cards
from kozelbot.core.protocol import DealScored, GameError
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.trace import deal_trace
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import (
    Action,
    AskRedeal,
    CardNotInHand,
    Event,
    KeepHand,
    MustFollow,
    NotYourTurn,
    Phase,
    PlayCard,
    RedealNotAllowed,
    Waiting,
    WrongPhase,
)
from kozelbot.tools.simulate import play_match
from tests.scripted import (
    ROWS_64_56,
    ROWS_LYUSYA,
    deal_and_keep,
    hands_from_rows,
    new_match,
    play_cards,
    play_deal,
    step,
)


def card(text: str) -> Card:
    return Card.parse(text)


def in_play() -> MatchState:
    """ROWS_64_56 dealt; seat 0 led J♣, seat 1 is to answer the trump lead."""
    state = new_match()
    deal_and_keep(state, hands_from_rows(ROWS_64_56))
    play_cards(state, "JC")
    return state


def in_redeal() -> MatchState:
    """ROWS_LYUSYA dealt: seat 3 (4 points) is offered a redeal."""
    state = new_match()
    state.deal_hands(hands_from_rows(ROWS_LYUSYA))
    assert state.phase is Phase.REDEAL and state.to_act() == (3,)
    return state


def over() -> MatchState:
    """A match ended by a Lyusya."""
    state = new_match()
    play_deal(state, ROWS_LYUSYA)
    assert state.phase is Phase.OVER
    return state


def advance_until(state: MatchState, seed: int, done: Callable[[MatchState], bool]) -> None:
    """Play a computer-only match on until ``done(state)`` holds."""
    for _ in range(20_000):
        if done(state):
            return
        step(state, seed)
    raise AssertionError("condition never reached")


def roundtrip(state: MatchState) -> MatchState:
    return MatchState.load(json.loads(json.dumps(state.dump())))


# -- refused input ---------------------------------------------------------------------


def test_not_your_turn_names_the_seat_to_act() -> None:
    """A seat playing out of turn gets ``NotYourTurn`` with the seat that is to act."""
    state = in_play()
    with pytest.raises(NotYourTurn) as error:
        state.apply(2, PlayCard(card("QC")))
    assert error.value.to_act == (1,)
    assert error.value.code == "not_your_turn"


def test_card_not_in_hand() -> None:
    """A card the seat does not hold (here: seat 3's J♥) is refused."""
    state = in_play()
    with pytest.raises(CardNotInHand) as error:
        state.apply(1, PlayCard(card("JH")))
    assert error.value.card == card("JH")


def test_card_already_played_is_no_longer_in_hand() -> None:
    """The card just played cannot be played again."""
    state = in_play()
    play_cards(state, "JS QC JH")
    with pytest.raises(CardNotInHand):
        state.apply(2, PlayCard(card("QC")))


def test_must_follow_lists_the_legal_cards() -> None:
    """``MustFollow`` carries the led suit (``None`` for trump) and every legal card."""
    state = in_play()
    legal = state.legal_cards(1)
    assert set(legal) == set(parse_cards("JS QS 10D 9D"))  # seat 1's trumps
    with pytest.raises(MustFollow) as error:
        state.apply(1, PlayCard(card("10S")))
    assert error.value.led is None
    assert error.value.legal == legal
    for legal_card in legal:
        assert str(legal_card) in str(error.value)


def test_wrong_phase_for_a_card_during_the_redeal_offer() -> None:
    """No card may be played while a redeal is on offer: whoever presses one, the asked
    seat too, is told only that the deal waits (``Waiting``, a ``WrongPhase`` whose phase is
    the ``waiting`` the table shows)."""
    state = in_redeal()
    for seat, pressed in ((0, "JC"), (3, "JH")):
        with pytest.raises(Waiting) as error:
            state.apply(seat, PlayCard(card(pressed)))
        assert error.value.phase is Phase.WAITING and not error.value.started


def test_wrong_phase_for_a_card_before_the_deal() -> None:
    """No card may be played before the cards are dealt."""
    state = new_match()
    with pytest.raises(WrongPhase):
        state.apply(0, PlayCard(card("JC")))


def test_wrong_phase_for_a_card_after_the_match_is_over() -> None:
    """Nothing can be played once the match is over."""
    state = over()
    with pytest.raises(WrongPhase) as error:
        state.apply(0, PlayCard(card("JC")))
    assert error.value.phase is Phase.OVER
    assert state.legal_actions(0) == []
    with pytest.raises(WrongPhase):
        state.deal_hands(hands_from_rows(ROWS_LYUSYA))


@pytest.mark.parametrize(
    ("make", "seat", "action"),
    [
        (in_play, 1, AskRedeal()),
        (in_play, 1, KeepHand()),
        (new_match, 0, AskRedeal()),
        (over, 0, AskRedeal()),
    ],
    ids=["in-play", "keep-in-play", "no-deal", "over"],
)
def test_redeal_not_allowed(make: Callable[[], MatchState], seat: int, action: Action) -> None:
    """A redeal answer outside the offer is refused."""
    state = make()
    with pytest.raises(RedealNotAllowed) as error:
        state.apply(seat, action)
    assert error.value.code == "redeal_not_allowed"


@pytest.mark.parametrize(
    ("seat", "action"), [(0, AskRedeal()), (2, KeepHand())], ids=["strong-hand", "strong-hand-keep"]
)
def test_redeal_answer_of_a_seat_not_offered_one_is_refused_neutrally(
    seat: int, action: Action
) -> None:
    """A redeal answer from a seat not offered one is refused with ``Waiting``, the same
    refusal as any press during the offer: it does not tell whether anyone else may ask."""
    state = in_redeal()
    with pytest.raises(Waiting) as error:
        state.apply(seat, action)
    assert error.value.code == "waiting"


ILLEGAL: list[tuple[Callable[[], MatchState], int, Action, type[GameError]]] = [
    (in_play, 2, PlayCard(Card.parse("QC")), NotYourTurn),
    (in_play, 1, PlayCard(Card.parse("JH")), CardNotInHand),
    (in_play, 1, PlayCard(Card.parse("10S")), MustFollow),
    (in_play, 1, AskRedeal(), RedealNotAllowed),
    (in_redeal, 0, PlayCard(Card.parse("JC")), WrongPhase),
    (in_redeal, 1, AskRedeal(), Waiting),
    (over, 0, PlayCard(Card.parse("JC")), WrongPhase),
    (new_match, 0, PlayCard(Card.parse("JC")), WrongPhase),
]


@pytest.mark.parametrize(("make", "seat", "action", "error"), ILLEGAL)
def test_illegal_actions_change_nothing(
    make: Callable[[], MatchState], seat: int, action: Action, error: type[GameError]
) -> None:
    """An illegal action raises its ``GameError`` and leaves the state exactly as it was."""
    state = make()
    before = state.dump()
    to_act = state.to_act()
    assert not state.can_apply(seat, action)
    with pytest.raises(error):
        state.apply(seat, action)
    assert state.dump() == before
    assert state.to_act() == to_act


# -- persistence -----------------------------------------------------------------------


def test_json_round_trip_of_a_fresh_match() -> None:
    """A match before its first deal survives to_dict → JSON → from_dict unchanged."""
    state = new_match(deck=32, lyusya="zero")
    assert roundtrip(state).dump() == state.dump()


CHECKPOINTS: dict[str, Callable[[MatchState], bool]] = {
    "redeal-offer": lambda s: s.phase is Phase.REDEAL,
    "mid-trick": lambda s: (
        s.phase is Phase.PLAY
        and s.current is not None
        and len(s.current.tricks) == 3
        and len(s.current.trick) == 2
    ),
    "between-deals": lambda s: s.phase is Phase.DEALING and s.deal_no == 2,
    "over": lambda s: s.phase is Phase.OVER,
}


@pytest.mark.parametrize("checkpoint", list(CHECKPOINTS))
def test_json_round_trip_during_a_match(checkpoint: str) -> None:
    """to_dict → json.dumps → json.loads → from_dict → to_dict gives the same data, at
    several points of a seeded match."""
    state = new_match()
    advance_until(state, 5, CHECKPOINTS[checkpoint])
    data = state.dump()
    restored = roundtrip(state)
    assert restored.dump() == data
    assert restored.to_act() == state.to_act()
    for seat in range(4):
        assert restored.view_for(seat) == state.view_for(seat)


def test_play_continues_identically_from_a_restored_state() -> None:
    """A restored state, driven by the same computer players and seed, produces exactly the
    events the original does."""
    original = new_match()
    advance_until(original, 9, CHECKPOINTS["mid-trick"])
    restored = roundtrip(original)
    for _ in range(20_000):
        if original.phase is Phase.OVER:
            break
        assert step(restored, 9) == step(original, 9)
    assert restored.dump() == original.dump()


# -- hidden information ------------------------------------------------------------------


def cards_in(value: Any) -> Iterator[Card]:
    """Every ``Card`` anywhere inside a view (its ``rules`` aside: they list the deck)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            if item.name != "rules":
                yield from cards_in(getattr(value, item.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)


def check_view(state: MatchState, seat: int | None, view: View) -> None:
    deal = state.current
    public: set[Card] = set()
    if deal is not None:
        public = {c for _, c in deal.trick} | {c for t in deal.tricks for _, c in t.cards}
    own: set[Card] = set()
    if seat is not None and deal is not None and view.phase is not Phase.DEALING:
        own = set(deal.hands[seat])
    assert set(view.hand) == own
    assert set(cards_in(view)) <= own | public
    if deal is not None:
        for other in range(4):
            if other != seat:
                assert not set(deal.hands[other]) & set(cards_in(view))


def test_view_for_a_seat_never_holds_another_seats_cards() -> None:
    """``view_for(seat)`` shows its own hand and played cards only; the public view
    (``None``) shows no hand at all."""
    for seed in (1, 2, 3):
        state = new_match()
        while state.phase is not Phase.OVER:
            for seat in (0, 1, 2, 3):
                check_view(state, seat, state.view_for(seat))
            public = state.view_for(None)
            assert public.hand == () and public.legal == () and not public.can_redeal
            check_view(state, None, public)
            step(state, seed)


def test_view_legal_cards_are_those_of_the_engine() -> None:
    """A view's ``legal`` is the engine's ``legal_cards`` for the seat to act, else empty."""
    state = in_play()
    assert state.view_for(1).legal == state.legal_cards(1)
    assert state.view_for(2).legal == ()


# -- reproducibility -----------------------------------------------------------------------


def traced_match(seed: int) -> list[dict[str, Any]]:
    traces: list[dict[str, Any]] = []

    def record(state: MatchState, result: DealScored) -> None:
        traces.append(deal_trace(state, result, match=0, players=["a", "b", "c", "d"]))

    play_match(new_match(), seed, on_deal=record)
    return traces


def test_a_seed_reproduces_the_whole_match() -> None:
    """Same seed → same trace, deal by deal; another seed → another match."""
    first = traced_match(1234)
    assert first == traced_match(1234)
    assert first != traced_match(1235)
    assert first[-1]["winner"] is not None


def test_events_of_a_seeded_match_are_reproducible() -> None:
    """Driving two states with the same seed yields identical event streams."""
    a, b = new_match(), new_match()
    events_a: list[Event] = []
    events_b: list[Event] = []
    while a.phase is not Phase.OVER:
        events_a.extend(step(a, 77))
        events_b.extend(step(b, 77))
    assert events_a == events_b
    assert a.dump() == b.dump()


def test_actions_round_trip_through_the_move_log_notation() -> None:
    """The move log stores ``str(action)``; ``parse_action`` reads it back."""
    from kozelbot.core.cards import Card
    from kozelbot.families.follow.vocabulary import AskRedeal, KeepHand, PlayCard, parse_action

    for action in (PlayCard(Card.parse("10H")), AskRedeal(), KeepHand()):
        assert parse_action(str(action)) == action
    with pytest.raises(ValueError):
        parse_action("jump")
