"""The cover game's texts and multi-select keyboard, rendered from views."""

from __future__ import annotations

from kozelbot.callbacks import ChosenButton, SelectButton, parse
from kozelbot.cards import DECK_36, Card
from kozelbot.cover import render
from kozelbot.cover.state import Beat, CoverState, IllegalMove, Lead, Phase
from kozelbot.i18n import translator
from kozelbot.table import Player, Table, TableStatus

EN = translator("en")


def _table(state: CoverState) -> Table:
    seats = [Player(user_id=100 + s, name=f"P{s}") for s in range(state.players)]
    return Table(game_id=7, chat_id=-1, variant="cover", options=state.options, creator_id=100,
                 seed=1, seats=seats, status=TableStatus.PLAYING)  # fmt: skip


def _dealt() -> CoverState:
    state = CoverState("cover", {"mode": "self", "players": 3})
    state.deal_deck(list(DECK_36))
    return state


def test_the_leader_sees_card_toggles_and_a_lead_verb_others_do_not() -> None:
    state = _dealt()
    table = _table(state)
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    keyboard = render.hand_keyboard(table, state, leader, EN, frozenset(hand[:1]))
    toggles = [b for row in keyboard for b in row if b.data and b.data.startswith("x:")]
    assert len(toggles) == len(hand)
    assert sum(b.text.startswith(render.SELECTED) for b in toggles) == 1
    assert all(isinstance(parse(b.data), SelectButton) for b in toggles)
    verbs = [parse(b.data) for row in keyboard for b in row if b.data and b.data.startswith("y:")]
    assert ChosenButton(7, 0, "lead") in verbs
    other = (leader + 1) % 3
    assert not [b for row in render.hand_keyboard(table, state, other, EN) for b in row
                if b.data and b.data.startswith("y:")]  # fmt: skip


def test_a_selection_becomes_the_move_and_the_engine_finds_the_stacks() -> None:
    state = _dealt()
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    suit = max({c.suit for c in hand}, key=lambda s: sum(c.suit is s for c in hand))
    chosen = frozenset(c for c in hand if c.suit is suit)
    action = render.from_selection("lead", chosen)
    assert isinstance(action, Lead) and set(action.cards) == chosen
    state.apply(leader, action)
    assert state.phase is Phase.ANSWER
    assert sorted(len(s) for s in state.view_for(None).stacks) == [1] * len(chosen)


def test_an_impossible_selection_is_refused_with_its_reason() -> None:
    state = _dealt()
    table = _table(state)
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    mixed = (hand[0], next(c for c in hand if c.suit is not hand[0].suit))
    try:
        state.verify(leader, Lead(mixed))
    except IllegalMove as error:
        assert render.error_text(error, table, EN) == "A lead is of one suit."
    else:
        raise AssertionError("a lead of two suits was accepted")
    error = IllegalMove("does not beat every stack")
    assert "every stack" in render.error_text(error, table, EN)
    assert render.error_text(IllegalMove("discard exactly", 2), table, EN) == (
        "Discard exactly 2 cards.")  # fmt: skip
    assert render.done_text(Beat((Card.parse("10H"),)), EN) == "You beat with 10♥."


def test_the_table_shows_stacks_discards_talon_trump_and_who_acts() -> None:
    state = _dealt()
    table = _table(state)
    leader = state.to_act()[0]
    hand = state.view_for(leader).hand
    state.apply(leader, Lead((hand[0],)))
    text = render.table_text(table, state, EN)
    assert "trump ♦" in text and "Talon: 18 cards" in text
    assert "On the table:" in text and "answers" in text
    assert "loser points" in text
