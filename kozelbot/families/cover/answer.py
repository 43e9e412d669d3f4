"""The answers (RULES.md §2): clockwise, each player beats every stack, discards face down
exactly the surplus over the last beater's hand, or passes (не б'ю, "I don't beat") when it
has no surplus; whoever discarded in the round may no longer beat. Until they act, players
may claim the lead (``claim``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kozelbot.core.cards import Card
from kozelbot.families.cover import claim
from kozelbot.families.cover.board import Move
from kozelbot.families.cover.hands import beats_available, face_down_choices, may_beat, surplus
from kozelbot.families.cover.step import refuse
from kozelbot.families.cover.strength import assignment, covers
from kozelbot.families.cover.turns import next_turn
from kozelbot.families.cover.vocabulary import (
    Action,
    Beat,
    Claim,
    Discard,
    Event,
    IllegalMove,
    Pass,
    Phase,
)

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def to_act(state: CoverMatch) -> tuple[int, ...]:
    return (state.game.round.turn,)


def legal(state: CoverMatch, seat: int) -> list[Action]:
    actions: list[Action] = []
    actions += claim.offered(state, seat)
    if seat != state.game.round.turn:
        return actions
    actions += [Beat(c) for c in beats_available(state, seat)]
    need = surplus(state, seat)
    if need:
        actions += [Discard(c) for c in face_down_choices(state.game, seat, need)]
    else:
        actions.append(Pass())
    return actions


def verify(state: CoverMatch, seat: int, action: Action) -> None:
    if isinstance(action, Claim):
        claim.verify(state, seat, action)
    elif isinstance(action, Beat):
        verify_beat(state, seat, action)
    elif isinstance(action, Discard):
        need = surplus(state, seat)
        if not need:
            raise IllegalMove("nothing to discard")
        if len(action.cards) != need:
            raise IllegalMove("discard exactly", need)
    elif isinstance(action, Pass):
        if surplus(state, seat):
            raise IllegalMove("beat or discard exactly", surplus(state, seat))
    else:
        refuse(state, seat, action)


def apply(state: CoverMatch, seat: int, action: Action) -> list[Event]:
    if isinstance(action, Claim):
        return claim.apply(state, seat, action)
    if isinstance(action, Beat):
        return beat(state, seat, action)
    rnd = state.game.round
    if isinstance(action, Discard):
        for card in action.cards:
            state.game.hands[seat].remove(card)
        rnd.discards.extend(action.cards)
        rnd.discarded.append(seat)
        rnd.add(Move(seat, "discard", action.cards))
    else:
        assert isinstance(action, Pass)
        rnd.add(Move(seat, "pass"))
    rnd.answered.append(seat)
    return next_turn(state)


def _onto(state: CoverMatch, cards: tuple[Card, ...]) -> tuple[int, ...] | None:
    """Which stack each card of a beat covers, or ``None`` if they do not cover them all."""
    game = state.game
    tops = [stack[-1] for stack in game.round.stacks]
    return assignment(cards, tops, covers(game.trump, state.rules.poshka))


def verify_beat(state: CoverMatch, seat: int, action: Beat) -> None:
    """Raise unless ``seat`` may beat now, and these cards cover every stack."""
    if not may_beat(state, seat):
        raise IllegalMove("no beat now")
    if _onto(state, action.cards) is None:
        raise IllegalMove("does not beat every stack")


def beat(state: CoverMatch, seat: int, action: Beat) -> list[Event]:
    """Cover every stack (an answer or a re-beat): ``seat`` is the last beater now, and the
    others answer it."""
    game = state.game
    rnd = game.round
    order = _onto(state, action.cards)
    assert order is not None
    for card, index in zip(action.cards, order, strict=True):
        game.hands[seat].remove(card)
        rnd.stacks[index].append(card)
    rnd.add(Move(seat, "beat", action.cards, order))
    rnd.last_beater = seat
    rnd.answered = []
    rnd.turn = seat
    state.phase = Phase.ANSWER
    return next_turn(state)
