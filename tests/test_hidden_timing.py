"""Issue #29 items 1–2: a hidden step (a redeal offer, kryuk's hand-off) looks the same from
outside whatever happens in it and whoever is asked — in the Mini App's payload (its stream
frames, its timer), in the group's table message and its edits, and in the hands of the
seats not asked.

Item 1, through the service: the same kryuk deal is played twice from its hand-off step,
once handed off (give, then the partner's return: two saves) and once kept (one save); an
opponent's or an onlooker's page must see the same frames and the same timer in both.
Item 2, through ``turns.play_on``: the same dealt hand asked of a person and of a thinking
computer must show others the same payload (the computer's deadline is "now", the
person's the full move time); and through the service, a computer asked waits about as a
person would before it answers (``turns.pace_hidden``).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from kozelbot.computer.thinking import Thinker
from kozelbot.core.i18n import translator
from kozelbot.core.records import MoveSource
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.core.texts import seat_name
from kozelbot.families.registry import new_state
from kozelbot.tables import turns
from kozelbot.tables.change import computer
from kozelbot.tables.service import GameService
from kozelbot.tools.simulate import options_of
from kozelbot.views.page import page
from kozelbot.views.screens import hand_screen, table_screen
from storage import Storage
from tests.e2e import TEST_BUDGET_MS

KRYUK_SEED = 13
"""Entropy with which a four-person kryuk match (``seating=ordered``) opens on a hidden
hand-off step: seat 1 may give its trump (seat 3 is its partner)."""
MOVE_TIME = 30
STEP = 4.0
"""Seconds that pass before each decision."""
READERS = (0, 2, None)
"""Who reads the page without a part in the step: the opponents, an onlooker."""


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two databases, so the same match can be played twice from the same start."""
    first = await Storage.open(tmp_path / "a.db")
    second = await Storage.open(tmp_path / "b.db")
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def frames(payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the Mini App's stream sends of these successive payloads: a frame whenever
    anything but ``seconds_left`` changed (``handlers.webapp.server``)."""
    sent: list[dict[str, Any]] = []
    for payload in payloads:
        shown = {k: v for k, v in payload.items() if k != "seconds_left"}
        if not sent or shown != sent[-1]:
            sent.append(shown)
    return sent


def edits(screens: list[Any]) -> list[Any]:
    """What a message shows over these successive renders: the sender sends an edit only
    when the text or the keyboard changed."""
    shown: list[Any] = []
    for screen in screens:
        if not shown or screen != shown[-1]:
            shown.append(screen)
    return shown


async def kryuk_step(storage: Storage, hand_off: bool) -> dict[str, list[Any]]:
    """The kryuk match of ``KRYUK_SEED`` from its start until its hidden step ends, seat 1
    handing off (the partner returning a card) or keeping: what the outside saw at each
    save of the step — each reader's page payload and the deadline its timer implies, the
    group's table message, the outsiders' hand messages."""
    clock = Clock()
    service = GameService(
        storage.games,
        rng=random.Random(3),
        clock=clock,
        entropy=random.Random(KRYUK_SEED).randbytes,
    )
    table = await service.lobby.new_game(
        -1, 1, ["seating=ordered", f"move_time={MOVE_TIME}"], "kryuk"
    )
    for user_id in (1, 2, 3, 4):
        change = await service.lobby.join(
            table.game_id, Player(user_id=user_id, name=f"u{user_id}")
        )
    seen: dict[str, list[Any]] = {"pages": [], "timers": [], "group": [], "hands": []}
    t = translator("ru")
    while True:
        table, state = change.table, change.state
        assert state is not None
        for reader in READERS:
            payload = page(table, state, reader, clock(), t)
            seen["pages"].append((reader, payload))
            left = payload["seconds_left"]
            seen["timers"].append((reader, None if left is None else clock() + left))
        seen["group"].append(table_screen(table, state, t))
        seen["hands"].append(tuple(hand_screen(table, state, seat, t) for seat in (0, 2)))
        if not state.hidden_turn:
            return seen
        (seat,) = state.to_act()
        legal = [str(action) for action in state.legal_actions(seat)]
        if seat == 1:
            choice = next(a for a in legal if a.startswith("give:")) if hand_off else "keep"
        else:
            assert seat == 3, "the seed asks nobody else in this step"
            choice = legal[0]  # the partner returns a card
        clock.now += STEP
        action = next(a for a in state.legal_actions(seat) if str(a) == choice)
        change = await service.act(table.game_id, seat + 1, state.deal_shown or 0, action)


async def test_kryuks_hand_off_and_keep_look_the_same_from_outside(
    two: tuple[Storage, Storage],
) -> None:
    handed = await kryuk_step(two[0], hand_off=True)
    kept = await kryuk_step(two[1], hand_off=False)
    assert len(handed["pages"]) > len(kept["pages"])  # a hand-off is one save more
    for reader in READERS:
        mine = [p for r, p in handed["pages"] if r == reader]
        theirs = [p for r, p in kept["pages"] if r == reader]
        # The stream: the same frames (the last is play starting), so the same count.
        assert frames(mine[:-1]) == frames(theirs[:-1]), reader
        assert len(frames(mine)) == len(frames(theirs)), reader
        # The timer: one deadline all step long, the same whatever happens in it.
        during = {d for r, d in handed["timers"][: -len(READERS)] if r == reader}
        during |= {d for r, d in kept["timers"][: -len(READERS)] if r == reader}
        assert len(during) == 1, (reader, during)
    # The group's table message and the other seats' hands: the same edits.
    assert edits(handed["group"][:-1]) == edits(kept["group"][:-1])
    assert len(edits(handed["group"])) == len(edits(kept["group"]))
    assert edits(handed["hands"][:-1]) == edits(kept["hands"][:-1])


def dealt_with_one_asked(variant: str) -> tuple[Any, int]:
    """A seeded first deal of ``variant`` that opens on a hidden step asking one seat."""
    options = options_of(variant, [f"move_time={MOVE_TIME}"], None)
    for seed in range(200):
        state = new_state(variant, options)
        state.chance(random.Random(seed))
        if state.hidden_turn and len(state.to_act()) == 1:
            return state, state.to_act()[0]
    raise AssertionError(f"no {variant} deal opens on a hidden step")


def table_of(variant: str, state: Any, machine: int | None) -> Table:
    """A running four-seat table of people, ``machine``'s seat a strong computer."""
    seats: list[Player | None] = [
        computer(seat) if seat == machine else Player(user_id=seat + 1, name=f"u{seat}")
        for seat in range(4)
    ]
    return Table(
        game_id=1,
        chat_id=-1,
        variant=variant,
        seed=1,
        creator_id=1,
        options={**state.options, "computer": "strong"},
        status=TableStatus.PLAYING,
        seats=seats,
    )


@pytest.mark.parametrize("variant", ["hvalenyi", "sixes", "belka", "kryuk"])
def test_a_hidden_step_looks_the_same_asked_of_a_computer_or_a_person(variant: str) -> None:
    dealt, asked = dealt_with_one_asked(variant)
    now = 500.0
    shown: dict[str, list[Any]] = {}
    for who, machine in (("person", None), ("computer", asked)):
        state = type(dealt).load(dealt.dump())
        table = table_of(variant, state, machine)
        turns.play_on(table, state, now, think_later=True, fresh=True)  # computers think later
        assert state.hidden_turn and state.to_act() == (asked,)  # still asked, not answered
        t = translator("ru")
        shown[who] = [
            {k: v for k, v in page(table, state, reader, now + 2.0, t).items() if k != "players"}
            for reader in (*(s for s in range(4) if s != asked), None)
        ]
        # The group's table names who sits where (public): the asked seat's name aside, and
        # where its length breaks a 34-character row (the names differ by construction).
        named = seat_name(table, asked, t)
        screen = table_screen(table, state, t)
        shown[who].append(" ".join(screen.text.replace(named, "ASKED").split()))
    assert shown["computer"] == shown["person"]


COMPUTER_ASKED_SEED = 34
"""Entropy with which three people and a strong computer (seat 3, ``seating=ordered``)
open a hvalenyi match on a redeal offer to the computer alone."""
WAIT = 5.0


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
async def test_a_computer_asked_in_a_hidden_step_waits_like_a_person(
    storage: Storage, level: str
) -> None:
    """Every level waits, not only the searching one: were a computer of another level to
    answer in the same save as the deal, a step that shows at all would name a person."""
    clock = Clock()
    thinker = Thinker(TEST_BUDGET_MS, workers=1)
    try:
        service = GameService(
            storage.games,
            rng=random.Random(3),
            clock=clock,
            entropy=random.Random(COMPUTER_ASKED_SEED).randbytes,
            thinker=thinker,
            hidden_wait=WAIT,
        )
        options = ["seating=ordered", f"move_time={MOVE_TIME}", f"computer={level}"]
        table = await service.lobby.new_game(-1, 1, options, "hvalenyi")
        for user_id in (1, 2, 3):
            await service.lobby.join(table.game_id, Player(user_id=user_id, name=f"u{user_id}"))
        change = await service.lobby.start(table.game_id, 1)
        state = change.state
        assert state is not None and state.hidden_turn and state.to_act() == (3,)
        deadline = change.table.deadline
        assert deadline is not None
        # Not at once (a person takes seconds), nor at a fixed length.
        assert clock.now + WAIT / 2 <= deadline <= clock.now + WAIT * 1.5
        assert await service.time_out(table.game_id) is None  # nothing due yet
        clock.now = deadline
        answered = await service.time_out(table.game_id)
        assert answered is not None and answered.moves
        assert answered.moves[0].seat == 3 and answered.moves[0].source is MoveSource.COMPUTER
    finally:
        thinker.close()


@pytest.mark.parametrize("variant", ["hvalenyi", "belka"])
def test_a_person_asked_beside_a_computer_sees_their_own_full_time(variant: str) -> None:
    options = options_of(variant, [f"move_time={MOVE_TIME}"], None)
    for seed in range(500):
        dealt = new_state(variant, options)
        dealt.chance(random.Random(seed))
        if dealt.hidden_turn and len(dealt.to_act()) == 2:
            break
    else:
        raise AssertionError(f"no {variant} deal asks two seats at once")
    machine, person = dealt.to_act()
    now = 500.0
    shown: dict[str, list[Any]] = {}
    for who, seat in (("people", None), ("with a computer", machine)):
        state = type(dealt).load(dealt.dump())
        table = table_of(variant, state, seat)
        turns.play_on(table, state, now, think_later=True, fresh=True)
        assert state.to_act() == (machine, person)
        payload = page(table, state, person, now, translator("ru"))
        shown[who] = [payload["seconds_left"], payload["view"], payload["legal"]]
    # Whether someone else is asked too, and who, is not this seat's to know.
    assert shown["with a computer"] == shown["people"]
