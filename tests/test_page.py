"""The Mini App's payload (``kozelbot.views.page``): a seat's page is its own view of the game —
in random positions of every preset no payload names a card its reader cannot see (another
hand, the talon or stock, a face-down card), a spectator's names none of anyone's hand, and
the legal moves are the seat's own."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from kozelbot.core.i18n import translator
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.registry import new_state
from kozelbot.tools.simulate import options_of
from kozelbot.views.page import page
from tests.matches import CONFIGS

CARD = re.compile(r'"((?:10|[6-9JQKA])[CDHS])"')


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """The cards ``seat`` cannot see now (``None``: the table's)."""
    hidden: set[str] = set()
    if hasattr(state, "game"):  # the cover game
        game = state.current
        if game is None:
            return hidden
        for other, hand in enumerate(game.hands):
            if other != seat:
                hidden |= {str(c) for c in hand}
        hidden |= {str(c) for c in game.talon}
        mine = {c for m in game.round.moves if m.seat == seat for c in m.cards}
        hidden |= {str(c) for c in game.round.discards if c not in mine}
        if game.bottom_shown and game.bottom is not None:  # shown to all, wherever it went
            hidden.discard(str(game.bottom))
        return hidden
    deal = state.current
    if deal is None:
        return hidden
    shared: set[str] = set()
    for handoff in deal.handoffs:
        if seat in (handoff.giver, handoff.to):
            shared |= {str(c) for c in (*handoff.cards, *handoff.returned)}
    for other, hand in enumerate(deal.hands):
        if other != seat:
            hidden |= {str(c) for c in hand} - shared
    hidden |= {str(c) for c in (*deal.stock, *deal.talon)}
    if str(state.phase.value) == "blind":
        hidden |= {str(c) for s, c in deal.trick if s != seat}
    return hidden


@pytest.mark.parametrize("name", list(CONFIGS))
def test_no_page_names_a_card_its_reader_cannot_see(name: str) -> None:
    variant, words = CONFIGS[name]
    options = options_of(variant, words, None)
    rng = random.Random(4)
    checked = 0
    for _ in range(6):
        state = new_state(variant, options)
        table = Table(
            game_id=1,
            chat_id=-1,
            variant=variant,
            options=options,
            creator_id=1,
            seed=1,
            status=TableStatus.PLAYING,
            seats=[Player(user_id=i + 1, name=f"P{i}") for i in range(state.players)]
            + [None] * (4 - state.players),
        )
        while not state.over:
            if state.needs_chance:
                state.chance(random.Random(rng.getrandbits(32)))
                continue
            for seat in [None, *range(state.players)]:
                payload = page(table, state, seat, 0.0)
                view = dict(payload["view"] or {})
                earlier = view.pop("last_result", None)  # the deal before: its cards are out
                assert (
                    earlier is None or earlier["deal_no"] != payload["deal"] or not (state.to_act())
                )
                # Which cards are trumps is the preset's and the trump suit's, not a hand's.
                deck_facts = payload["trumps"]
                assert deck_facts == page(table, state, None, 0.0)["trumps"]
                text = json.dumps({**payload, "view": view, "trumps": []})
                named = set(CARD.findall(text))
                leaked = named & hidden_from(state, seat)
                assert not leaked, (seat, leaked)
                legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
                assert payload["legal"] == legal
                checked += 1
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 1000


def test_a_seat_sees_its_own_hand_and_the_table_none() -> None:
    state = new_state("hvalenyi", options_of("hvalenyi", [], None))
    state.chance(random.Random(1))
    table = Table(
        game_id=3,
        chat_id=-1,
        variant="hvalenyi",
        options={},
        creator_id=1,
        seed=1,
        status=TableStatus.PLAYING,
        deadline=130.0,
        seats=[Player(user_id=1, name="Anna"), Player(name="Computer"), None, None],
    )
    mine = page(table, state, 0, 100.0)
    hand = [str(c) for c in state.current.hands[0]]  # type: ignore[attr-defined]
    assert mine["view"]["hand"] == hand and mine["seat"] == 0
    assert mine["players"] == [
        {"seat": 0, "name": "Anna", "computer": False, "away": False},
        {"seat": 1, "name": "Computer", "computer": True, "away": False},
    ]
    assert mine["seconds_left"] == 30.0 and mine["deal"] == 0
    assert "rules" not in mine["view"] and "strength" not in mine["view"]
    watcher = page(table, state, None, 100.0)
    assert watcher["view"]["hand"] == [] and watcher["legal"] == []


def test_the_cover_game_s_page_says_what_to_do_in_the_chat_s_words() -> None:
    """Issue #30 item 1: a seat answering a lead reads what the chat's hand says
    («Побейте … или скиньте N … рубашкой вверх»), the buttons' verbs are the chat's."""
    options = options_of("cover", [], None)
    rng = random.Random(2)
    state = new_state("cover", options)
    table = Table(
        game_id=1,
        chat_id=-1,
        variant="cover",
        options=options,
        creator_id=1,
        seed=1,
        status=TableStatus.PLAYING,
        seats=[Player(user_id=i + 1, name=f"P{i}") for i in range(4)],
    )
    seen = set()
    while not state.over and len(seen) < 2:
        if state.needs_chance:
            state.chance(random.Random(rng.getrandbits(32)))
            continue
        seat = state.to_act()[0]
        view = state.view_for(seat)
        mine = page(table, state, seat, 0.0, translator("ru"))
        other = page(table, state, (seat + 1) % 4, 0.0, translator("ru"))
        assert other["prompt"] is None or (seat + 1) % 4 in state.to_act()
        if str(view.phase.value) == "answer" and view.surplus:
            assert mine["prompt"].startswith(("Побейте", "Скиньте")), mine["prompt"]
            assert "рубашкой вверх" in mine["prompt"]
            seen.add("answer")
        if str(view.phase.value) == "lead":
            assert mine["prompt"].startswith("Ваш заход") or "Зайти" in mine["prompt"]
            seen.add("lead")
        assert mine["words"]["verbs"]["beat"] == "Бить"
        assert mine["words"]["verbs"]["discard"] == "Скинуть"
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen == {"answer", "lead"}
