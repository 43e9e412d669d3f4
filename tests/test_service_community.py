"""Issue #8 in the service, without Telegram: chat defaults, /play, absent players, take-overs,
the stop vote, one live seat per person, the easy computer and the per-seat tallies."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kozelbot.core.protocol import AnyState
from kozelbot.core.table import CORE_TALLIES, Player, Table, TableStatus
from kozelbot.families.registry import players_of, rules_of
from kozelbot.tables.service import MISSED_TO_AWAY, STOP_VOTE_TIME, GameService, TableError
from storage import Storage


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "s.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(storage: Storage, clock: Clock) -> GameService:
    return GameService(
        storage.games,
        rng=random.Random(3),
        clock=clock,
        entropy=random.Random("community").randbytes,
    )  # a run replays its deals


def person(user_id: int) -> Player:
    return Player(user_id=user_id, name=f"u{user_id}")


async def four(service: GameService, chat_id: int = -1, options: str = "move_time=30") -> int:
    table = await service.lobby.new_game(chat_id, 1, ["seating=ordered", *options.split()])
    for user_id in (1, 2, 3, 4):
        await service.lobby.join(table.game_id, person(user_id + 10 * abs(chat_id) - 10))
    return table.game_id


def state(service: GameService, table: Table) -> AnyState:
    found = service.state_of(table)
    assert found is not None
    return found


async def test_chat_defaults_open_a_lobby_and_typed_words_go_on_top(service: GameService) -> None:
    defaults = {"deck": 32, "move_time": 120, "computer": "easy", "seating": "ordered"}
    table = await service.lobby.new_game(-1, 1, ["move_time=30"], "hvalenyi", defaults=defaults)
    assert table.options["deck"] == 32 and table.options["computer"] == "easy"
    assert table.options["move_time"] == 30
    # Defaults another variant no longer accepts are ignored rather than refused.
    other = await service.lobby.new_game(-2, 2, [], "kryuk", defaults={"deck": 36, "nonsense": 1})
    assert "deck" not in other.options


async def test_a_person_sits_at_one_live_table_at_a_time(service: GameService) -> None:
    first = await service.lobby.new_game(-1, 1, [])
    await service.lobby.join(first.game_id, person(1))
    second = await service.lobby.new_game(-2, 2, [])
    with pytest.raises(TableError) as refused:
        await service.lobby.join(second.game_id, person(1))
    assert refused.value.code == "elsewhere" and refused.value.table is not None
    assert refused.value.table.game_id == first.game_id
    with pytest.raises(TableError) as refused:
        await service.lobby.play_private(person(1), [])
    assert refused.value.code == "elsewhere"
    await service.lobby.leave(first.game_id, 1)
    change = await service.lobby.join(second.game_id, person(1))
    assert change.table.seat_of(1) is not None


async def test_play_private_seats_the_person_with_computers_and_starts(
    service: GameService,
) -> None:
    change = await service.lobby.play_private(person(7), ["seating=ordered"], "kryuk")
    table = change.table
    assert table.private and table.chat_id == 7 and table.status is TableStatus.PLAYING
    assert table.seats[0] == person(7)
    assert all(p is not None and p.is_computer for p in table.seats[1:])
    with pytest.raises(TableError) as refused:
        await service.lobby.join(table.game_id, person(8))
    assert refused.value.code == "full"


async def _time_out_seat(service: GameService, clock: Clock, game_id: int, seat: int) -> Table:
    """Let the others move (the computer's choice) until ``seat`` must act, then time it out."""
    for _ in range(100):
        table = await service.game(game_id)
        assert table is not None and table.deadline is not None
        if seat in state(service, table).to_act():
            clock.now = table.deadline + 1
            change = await service.time_out(game_id)
            assert change is not None
            return change.table
        to_act = state(service, table).to_act()[0]
        player = table.seats[to_act]
        assert player is not None and player.user_id is not None
        action = players_of(table.variant).choose(state(service, table), to_act)
        deal = state(service, table).deal_shown
        assert deal is not None
        await service.act(game_id, player.user_id, deal, action)
    raise AssertionError("the seat never had to act")


async def test_two_time_outs_in_a_row_hand_the_seat_over_and_a_move_resets_the_count(
    service: GameService, clock: Clock
) -> None:
    game_id = await four(service)
    table = await _time_out_seat(service, clock, game_id, 0)
    assert table.missed[0] == 1 and not table.seats[0].away  # type: ignore[union-attr]
    assert table.tally[0]["timeouts"] == 1
    table = await _time_out_seat(service, clock, game_id, 0)
    assert MISSED_TO_AWAY == 2 and table.seats[0].away  # type: ignore[union-attr]
    # A computer plays the seat now: the seat never waits for its owner.
    assert 0 not in state(service, table).to_act()
    # A card press from the owner is refused until they are back.
    with pytest.raises(TableError) as refused:
        await service.act(game_id, 1, state(service, table).deal_shown or 0, object())
    assert refused.value.code == "away"
    change = await service.lobby.come_back(game_id, 1)
    assert change.back == (0,) and not change.table.seats[0].away  # type: ignore[union-attr]
    assert change.table.missed[0] == 0
    with pytest.raises(TableError) as refused:
        await service.lobby.come_back(game_id, 1)
    assert refused.value.code == "not_away"
    with pytest.raises(TableError) as refused:
        await service.lobby.come_back(game_id, 99)
    assert refused.value.code == "not_seated"


async def test_nobody_is_handed_over_when_everyone_else_is_away_or_a_computer(
    service: GameService, clock: Clock
) -> None:
    table = await service.lobby.new_game(-1, 1, ["seating=ordered", "move_time=30"])
    await service.lobby.join(table.game_id, person(1))
    await service.lobby.start(table.game_id, 1)
    for _ in range(3):
        table = await _time_out_seat(service, clock, table.game_id, 0)
        if not table.status.live:
            break
        assert not table.seats[0].away  # type: ignore[union-attr]


async def _play_people(service: GameService, game_id: int, until: int) -> Table:
    """People present make the computer's choice until the deal shown is ``until``."""
    for _ in range(400):
        table = await service.game(game_id)
        assert table is not None
        shown = state(service, table).deal_shown
        if shown == until or not table.status.live:
            return table
        to_act = state(service, table).to_act()[0]
        player = table.seats[to_act]
        assert player is not None and player.user_id is not None and not player.away
        action = players_of(table.variant).choose(state(service, table), to_act)
        assert shown is not None
        await service.act(game_id, player.user_id, shown, action)
    raise AssertionError(f"deal {until} never came")


async def test_join_takes_a_computer_seat_and_an_away_seat_first_when_the_next_deal_starts(
    service: GameService, clock: Clock
) -> None:
    table = await service.lobby.new_game(-1, 1, ["seating=ordered", "move_time=30"])
    await service.lobby.join(table.game_id, person(1))
    await service.lobby.join(table.game_id, person(2))
    await service.lobby.start(table.game_id, 1)  # seats 2 and 3 are computers
    game_id = table.game_id
    for _ in range(MISSED_TO_AWAY):
        table = await _time_out_seat(service, clock, game_id, 1)
    assert table.seats[1].away  # type: ignore[union-attr]
    deal = state(service, table).deal_shown
    # Mid-deal nobody sits down: they wait for the next deal (no hand in play is shown).
    change = await service.lobby.join(game_id, person(5))
    assert change.waiting and change.table.seats[1] == table.seats[1]
    assert [p.user_id for p in change.table.waiting] == [5]
    change = await service.lobby.join(game_id, person(6))
    assert change.waiting
    with pytest.raises(TableError) as refused:
        await service.lobby.join(game_id, person(5))
    assert refused.value.code == "seated"
    change = await service.lobby.join(game_id, person(7))
    with pytest.raises(TableError) as refused:
        await service.lobby.join(game_id, person(8))  # three free seats, three people waiting
    assert refused.value.code == "no_free_seat"
    await service.lobby.leave(game_id, 7)  # one changes their mind
    assert [p.user_id for p in (await service.game(game_id)).waiting] == [5, 6]  # type: ignore[union-attr]
    assert deal is not None
    table = await _play_people(service, game_id, deal + 1)
    assert table.seats[1] == person(5)  # the away seat first
    assert table.seats[2] == person(6)  # then a computer's
    assert table.waiting == []
    assert (await service.repo.live_seat(5)).game_id == game_id  # type: ignore[attr-defined,union-attr]


async def test_someone_waiting_for_a_seat_counts_as_seated_elsewhere(
    service: GameService, clock: Clock
) -> None:
    table = await service.lobby.new_game(-1, 1, ["seating=ordered", "move_time=30"])
    await service.lobby.join(table.game_id, person(1))
    await service.lobby.start(table.game_id, 1)
    await service.lobby.join(table.game_id, person(5))
    other = await service.lobby.new_game(-2, 9, ["seating=ordered"])
    with pytest.raises(TableError) as refused:
        await service.lobby.join(other.game_id, person(5))
    assert refused.value.code == "elsewhere"


async def test_a_stop_vote_needs_a_majority_within_two_minutes(
    service: GameService, clock: Clock
) -> None:
    game_id = await four(service)
    change = await service.vote_stop(game_id, 2)
    assert change.vote == (1, 3) and change.table.status is TableStatus.PLAYING
    with pytest.raises(TableError) as refused:
        await service.vote_stop(game_id, 2)
    assert refused.value.code == "seated"
    with pytest.raises(TableError) as refused:
        await service.vote_stop(game_id, 99)
    assert refused.value.code == "not_seated"
    change = await service.vote_stop(game_id, 3)
    assert change.vote == (2, 3)
    clock.now += STOP_VOTE_TIME + 1  # the vote lapses: it starts over
    change = await service.vote_stop(game_id, 4)
    assert change.vote == (1, 3)
    await service.vote_stop(game_id, 2)
    change = await service.vote_stop(game_id, 3)
    assert change.vote == (3, 3) and change.table.status is TableStatus.STOPPED
    assert change.table.closed_reason == "vote" and change.result is None


async def test_the_easy_computer_plays_random_legal_moves_reproducibly(
    service: GameService,
) -> None:
    async def play(seed: int, level: str) -> list[str]:
        service.lobby.rng = random.Random(seed)
        service.lobby.entropy = random.Random(seed).randbytes  # the secret deals: reproduce it too
        table = await service.lobby.new_game(-seed, seed, ["seating=ordered", f"computer={level}"])
        await service.lobby.join(table.game_id, person(seed))
        change = await service.lobby.start(table.game_id, seed)
        moves = [m.action for m in change.moves]
        await service.stop(table.game_id)
        return moves

    assert await play(11, "easy") == await play(11, "easy")
    normal, easy = [], []
    for seed in range(12, 20):
        normal += await play(seed, "normal")
        easy += await play(seed + 100, "easy")
    assert normal and easy
    # Same seeds, other levels: the moves differ somewhere.
    differ = [s for s in range(30, 40) if await play(s, "easy") != await play(s, "normal")]
    assert differ


async def test_a_finished_match_carries_each_seats_tally_and_the_computer_level(
    service: GameService, storage: Storage
) -> None:
    table = await service.lobby.new_game(-1, 1, ["seating=ordered", "computer=easy"])
    await service.lobby.join(table.game_id, person(1))
    await service.lobby.join(table.game_id, person(2))
    change = await service.lobby.start(table.game_id, 1)
    game_id = table.game_id
    from kozelbot.families.registry import players_of

    results = []
    for _ in range(5000):
        if change.result is not None:
            results.append(change.result)
        table = change.table
        if not table.status.live:
            break
        current = state(service, table)
        seat = current.to_act()[0]
        action = players_of(table.variant).choose(current, seat)
        player = table.seats[seat]
        assert player is not None and player.user_id is not None
        change = await service.act(game_id, player.user_id, current.deal_shown or 0, action)
    assert len(results) == 1
    result = results[0]
    assert result.scope == "group" and result.rated
    deals = result.deals
    for player in result.players:
        assert set(player.tally) <= {*CORE_TALLIES, *rules_of(table.variant).tally_keys}
        assert player.tally["deals"] == deals
        assert player.level == (None if player.user_id is not None else "easy")
    # Partners took the same card points; the two sides' points add up to 120 per deal
    # unless a deal ended early.
    by_seat = {p.seat: p.tally for p in result.players}
    assert by_seat[0]["points"] == by_seat[2]["points"]
    assert by_seat[0]["points"] + by_seat[1]["points"] <= 120 * deals


@pytest.mark.parametrize("variant", ["sixes", "kryuk"])
async def test_hand_offs_are_counted_for_the_seat_that_handed_its_trump_over(
    service: GameService, variant: str
) -> None:
    from kozelbot.families.follow.vocabulary import HandedOff
    from kozelbot.families.registry import players_of

    handed: dict[int, int] = {}
    for attempt in range(6):
        service.lobby.rng = random.Random(attempt)
        table = await service.lobby.new_game(-1 - attempt, 1, ["seating=ordered"], variant)
        await service.lobby.join(table.game_id, person(1))
        change = await service.lobby.start(table.game_id, 1)
        result = None
        for _ in range(5000):
            for event in change.events:
                if isinstance(event, HandedOff):
                    handed[event.seat] = handed.get(event.seat, 0) + 1
            result = change.result or result
            current = change.table
            if not current.status.live:
                break
            now = state(service, current)
            action = players_of(variant).choose(now, now.to_act()[0])
            change = await service.act(current.game_id, 1, now.deal_shown or 0, action)
        assert result is not None
        counted = {p.seat: p.tally.get("handoffs", 0) for p in result.players}
        assert counted == {seat: handed.get(seat, 0) for seat in range(4)}
        if handed:
            return
        handed.clear()
    pytest.fail("no match with a hand-off")


async def test_a_time_out_in_a_secret_step_marks_nobody(storage: Storage, clock: Clock) -> None:
    """A redeal offer's time-out keeps the hand without the ⌛ mark, the count towards a
    hand-over, or a time-out in /stats: each would tell the table who was asked."""
    for attempt in range(200):
        service = GameService(
            storage.games,
            rng=random.Random(attempt),
            clock=clock,
            entropy=random.Random(attempt).randbytes,
        )
        table = await service.lobby.new_game(-100 - attempt, 1, ["seating=ordered", "move_time=30"])
        await service.lobby.join(table.game_id, person(1))
        change = await service.lobby.start(table.game_id, 1)
        state = change.state
        assert state is not None
        if state.hidden_turn and 0 in state.to_act():
            break
        await service.stop(table.game_id)
    else:
        raise AssertionError("no first deal offered seat 0 a redeal")
    assert change.table.deadline is not None
    clock.now = change.table.deadline + 1
    timed_out = await service.time_out(table.game_id)
    assert timed_out is not None and timed_out.moves[0].source == "timeout"
    assert timed_out.table.timeouts[0] == 0 and timed_out.table.missed[0] == 0
    assert "timeouts" not in timed_out.table.tally[0]
