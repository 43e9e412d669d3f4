"""Hidden steps (``MatchState.hidden_turn``: redeal offers, kryuk's hand-off, sixes' decision
whether to offer one) tell nobody outside them who is asked, or why.

Property, over seeded computer matches of every follow-suit preset: at every state where
``hidden_turn`` holds, the same state with the hidden facts altered — another seat asked,
a redeal offer instead of a hand-off or the other way round, no trump passed yet — looks
exactly the same to everyone it does not involve: the group's table text (ru, en, uk), the
views, hand texts and keyboards of the other seats, and the refusal of any press they make.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kozelbot.core.i18n import translator
from kozelbot.core.protocol import GameError, advance
from kozelbot.families.follow import FAMILY, render
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import (
    HANDOFF,
    REDEAL,
    Action,
    AnswerOffer,
    AskRedeal,
    GiveTrump,
    KeepHand,
    OfferHandoff,
    PlayCard,
    ReturnCard,
)
from kozelbot.families.registry import preset
from tests.scripted import playing_table

SETUPS: list[tuple[str, tuple[str, ...]]] = [
    ("hvalenyi", ()),
    ("hvalenyi", ("deck=32",)),
    ("kryuk", ()),
    ("sixes", ()),
    ("sixes", ("no_shamok=true", "ace_discard_ban=true")),
    ("belka", ()),
    ("belka", ("deck=36",)),
]
"""Every four-player follow-suit preset (two-player hvalenyi has no redeal nor hand-off)."""
LANGUAGES = ("ru", "en", "uk")


def involved(state: MatchState) -> set[int]:
    """The seats a hidden step asks, and the pair of a kryuk hand-off under way."""
    deal = state.current
    assert deal is not None
    seats = set(state.to_act())
    active = deal.active_handoff
    if active is not None:
        seats |= {active.giver, active.to}
    return seats


def alternatives(state: MatchState) -> Iterator[tuple[MatchState, int]]:
    """States differing from ``state`` only in what its hidden step hides, each with the
    seat it asks instead."""
    deal = state.current
    assert deal is not None
    redeal_possible = (
        state.rules.redeal_below is not None
        and not deal.tricks
        and deal.opening == "plain"
        and not deal.handoffs
    )
    for seat in range(state.players):
        steps = [HANDOFF] if state.rules.handoff != "none" else []
        steps += [REDEAL] if redeal_possible else []
        for step in steps:
            other = MatchState.load(state.dump())
            current = other.current
            assert current is not None
            active = current.active_handoff
            if active is not None:  # kryuk: no trump passed yet
                current.handoffs.pop()
                for card in active.cards:
                    current.hands[active.to].remove(card)
                    current.hands[active.giver].append(card)
                for card in active.returned:
                    current.hands[active.giver].remove(card)
                    current.hands[active.to].append(card)
            other.phase = step
            current.redeal_pending = [seat] if step is REDEAL else []
            current.handoff_pending = [seat] if step is HANDOFF else []
            assert other.hidden_turn
            yield other, seat


def presses(state: MatchState, seat: int) -> list[Action]:
    """Every kind of press a seat could make (real cards of its hand, forged answers)."""
    deal = state.current
    assert deal is not None
    hand = deal.hands[seat]
    return [
        PlayCard(hand[0]),
        PlayCard(hand[-1]),
        KeepHand(),
        AskRedeal(),
        OfferHandoff(),
        AnswerOffer(True),
        AnswerOffer(False),
        GiveTrump((hand[0],)),
        ReturnCard(hand[-1]),
    ]


def refusal(state: MatchState, seat: int, action: Action) -> str:
    with pytest.raises(GameError) as error:
        state.verify(seat, action)
    return render.game_error_text(error.value, playing_table(state), translator("en"))


def check(state: MatchState) -> int:
    """Compare ``state`` with each alternative from the outside; the comparisons made."""
    table = playing_table(state)
    asked = involved(state)
    checks = 0
    for other, seat in alternatives(state):
        for language in LANGUAGES:
            t = translator(language)
            assert render.table_text(table, other, t) == render.table_text(table, state, t)
        assert other.view_for(None) == state.view_for(None)
        for observer in set(range(state.players)) - asked - {seat}:
            assert other.view_for(observer) == state.view_for(observer), observer
            t = translator("ru")
            assert render.hand_text(table, other, observer, t) == render.hand_text(
                table, state, observer, t
            )
            assert render.hand_keyboard(table, other, observer, t) == render.hand_keyboard(
                table, state, observer, t
            )
            for action in presses(state, observer):
                assert refusal(other, observer, action) == refusal(state, observer, action)
        checks += 1
    return checks


@pytest.mark.parametrize(("variant", "words"), SETUPS, ids=lambda v: str(v))
def test_hidden_steps_look_the_same_whoever_is_asked_and_why(
    variant: str, words: tuple[str, ...]
) -> None:
    checks = 0
    for match in range(5):
        state = MatchState(variant, preset(variant).parse(words).model_dump())

        def look(*_: Any, state: MatchState = state) -> None:
            nonlocal checks
            if state.hidden_turn:
                checks += check(state)

        advance(
            state,
            500 + match,
            lambda seat: True,
            FAMILY.players.choose,
            on_move=look,
            on_events=look,
        )
        assert state.over
    assert checks > 0, "no hidden step was reached"
