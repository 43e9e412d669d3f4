"""The game service without Telegram: commits before answering, refuses cleanly, stays bounded."""

from __future__ import annotations

import dataclasses
import gc
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kozelbot.core.protocol import GameError
from kozelbot.core.table import Player, TableStatus
from kozelbot.families.follow.vocabulary import PlayCard
from kozelbot.tables.service import ENDED_CACHE, GameService, TableError
from storage import Storage


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    storage = await Storage.open(tmp_path / "s.db")
    try:
        # A seeded entropy: the matches' secrets, and so their deals, are the same every run.
        yield GameService(
            storage.games,
            rng=random.Random(3),
            clock=lambda: 1000.0,
            entropy=random.Random("service").randbytes,
        )
    finally:
        await storage.close()


async def _started(service: GameService, chat_id: int = -1) -> int:
    table = await service.lobby.new_game(chat_id, 1, ["seating=ordered"])
    await service.lobby.join(table.game_id, Player(user_id=1, name="Аня"))
    change = await service.lobby.start(table.game_id, 1)
    assert change.table.status is TableStatus.PLAYING
    return table.game_id


async def test_a_refused_move_changes_nothing_in_storage(service: GameService) -> None:
    game_id = await _started(service)
    before = await service.game(game_id)
    assert before is not None
    state = service.state_of(before)
    assert state is not None and state.current is not None
    someone_elses_card = state.current.hands[1][0]  # never playable by seat 0
    with pytest.raises(GameError):
        await service.act(game_id, 1, state.current.deal_no, PlayCard(someone_elses_card))
    with pytest.raises(TableError) as refused:
        await service.act(game_id, 1, state.current.deal_no + 1, PlayCard(someone_elses_card))
    assert refused.value.code == "stale"
    with pytest.raises(TableError) as refused:
        await service.act(game_id, 99, state.current.deal_no, PlayCard(someone_elses_card))
    assert refused.value.code == "not_seated"
    after = await service.game(game_id)
    assert after is not None and after.version == before.version


async def test_only_the_creator_starts_and_a_full_table_refuses_more(service: GameService) -> None:
    table = await service.lobby.new_game(-2, 1, [])
    for user_id in (1, 2, 3):
        await service.lobby.join(table.game_id, Player(user_id=user_id, name=f"u{user_id}"))
    with pytest.raises(TableError) as refused:
        await service.lobby.start(table.game_id, 2)
    assert refused.value.code == "not_creator"
    change = await service.lobby.join(table.game_id, Player(user_id=4, name="u4"))
    assert change.started and change.table.status is TableStatus.PLAYING
    with pytest.raises(TableError) as refused:
        await service.lobby.join(table.game_id, Player(user_id=5, name="u5"))
    assert refused.value.code == "no_free_seat"  # a running match: only computer-held seats


async def test_memory_stays_bounded_over_many_games(service: GameService) -> None:
    for chat in range(ENDED_CACHE + 20):
        game_id = await _started(service, chat_id=-(chat + 10))
        await service.stop(game_id)
    gc.collect()
    assert len(service.tables.live) == 0
    assert len(service.tables.ended) == ENDED_CACHE
    assert len(service.committing._locks) == 0


async def test_a_lobby_nobody_starts_closes_itself_after_its_time(tmp_path: Path) -> None:
    now = [1000.0]
    storage = await Storage.open(tmp_path / "l.db")
    try:
        service = GameService(
            storage.games, rng=random.Random(1), clock=lambda: now[0], lobby_ttl=60
        )
        table = await service.lobby.new_game(-5, 1, [])
        now[0] += 30
        await service.lobby.join(table.game_id, Player(user_id=1, name="Аня"))  # activity: +60 s
        now[0] += 59
        assert await service.time_out(table.game_id) is None
        now[0] += 2
        change = await service.time_out(table.game_id)
        assert change is not None and change.table.status is TableStatus.STOPPED
        assert change.table.closed_reason == "expired"
        assert await service.live_game(-5) is None
    finally:
        await storage.close()


async def test_a_lobby_refuses_two_seats_while_three_people_sit(service: GameService) -> None:
    """Cycling ``players`` to 2 with three people seated is refused (``full``) and changes
    nothing; with two seated it keeps them, in join order."""
    table = await service.lobby.new_game(-5, 1, [])
    for user_id in (1, 2, 3):
        await service.lobby.join(table.game_id, Player(user_id=user_id, name=f"u{user_id}"))
    with pytest.raises(TableError) as refused:
        await service.lobby.cycle_option(table.game_id, 1, "players")
    assert refused.value.code == "full"
    await service.lobby.leave(table.game_id, 2)
    change = await service.lobby.cycle_option(table.game_id, 1, "players")
    assert change.table.options["players"] == 2
    assert [p.user_id if p else None for p in change.table.seats] == [1, 3]
    change = await service.lobby.cycle_option(table.game_id, 1, "variant")
    assert change.table.variant == "kryuk" and len(change.table.seats) == 4
    assert change.table.options == {"seating": "random", "move_time": 10, "computer": "strong"}


async def _kryuk_with_one_person(service: GameService) -> tuple[int, object]:
    """A kryuk match with seat 0 a person (A♦ may be anyone's) and a clear timer."""
    table = await service.lobby.new_game(-6, 1, ["seating=ordered"], "kryuk")
    await service.lobby.join(table.game_id, Player(user_id=1, name="Аня"))
    change = await service.lobby.start(table.game_id, 1)
    return table.game_id, change


async def test_kryuk_plays_the_only_legal_card_at_once_after_an_illegal_press(
    service: GameService,
) -> None:
    """RULES.md §1.2: an illegal card with exactly one legal card plays that card; with
    several legal cards the press is refused (and nothing changes)."""
    from kozelbot.families.follow.state import MatchState

    for seed in range(40):
        service.lobby.rng = random.Random(seed)
        game_id, _ = await _kryuk_with_one_person(service)
        table = await service.game(game_id)
        assert table is not None
        state = service.state_of(table)
        assert isinstance(state, MatchState) and state.current is not None
        legal = state.legal_cards(0)
        wrong = [c for c in state.current.hands[0] if c not in legal]
        if state.to_act() == (0,) and len(legal) == 1 and wrong:
            change = await service.act(game_id, 1, state.current.deal_no, PlayCard(wrong[0]))
            assert change.moves[0].action == f"play:{legal[0]}"
            return
        await service.stop(game_id)
    pytest.fail("no seed gave a single legal card to the person")


async def test_kryuk_time_out_plays_a_random_legal_card(service: GameService) -> None:
    """RULES.md §1.2/§3: on time-out kryuk plays a random legal card, marked as a time-out."""
    game_id, change = await _kryuk_with_one_person(service)
    table = await service.game(game_id)
    assert table is not None and table.deadline is not None
    service.clock = lambda: table.deadline + 1  # type: ignore[operator]
    change = await service.time_out(game_id)
    assert change is not None and change.moves[0].source.value == "timeout"
    assert change.moves[0].action.startswith("play:")  # a card, not a secret step's decision
    assert change.table.timeouts[0] == 1


async def test_a_change_cannot_be_written_into_once_built(service: GameService) -> None:
    """Issue #31 item 4: the operation builds its ``Change`` once; no field can be set or
    grown afterwards (presenters, storage and the tournament read the same record)."""
    table = await service.lobby.new_game(-3, 1, ["seating=ordered"])
    await service.lobby.join(table.game_id, Player(user_id=1, name="Аня"))
    change = await service.lobby.start(table.game_id, 1)
    assert change.started and change.events  # the first deal was dealt
    with pytest.raises(dataclasses.FrozenInstanceError):
        change.acted = "play:AS"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        change.moves = ()  # type: ignore[misc]
    many = ("events", "moves", "deals", "outbox", "away", "back", "abandoned", "taken_over")
    assert all(isinstance(getattr(change, name), tuple) for name in many)
