"""Issue #29 item 3: a stop by the people at a tournament table decides nothing in their
favour (the other side must agree), and slow play is marked — against real storage, the
real game service and the real director."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from kozelbot.computer import levels
from kozelbot.core.i18n import translator
from kozelbot.core.protocol import AnyState
from kozelbot.core.table import Player, Table, TableStatus, TournamentTable
from kozelbot.core.tournament.model import Tournament
from kozelbot.core.tournament.standings import standings
from kozelbot.families.follow.state import MatchState
from kozelbot.families.registry import load_state
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.change import TableError
from kozelbot.tables.director import Director
from kozelbot.tables.service import GameService
from kozelbot.views.tournament import texts
from storage import Storage
from tests.scripted import keep_all, playing_table
from tests.test_rules_hvalenyi import HANDS_13_AND_14
from tests.test_tournament_director import CHAT, Clock, Topics

A, B = 0, 1
"""The sides: seats 0+2 and seats 1+3."""


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[tuple[Director, GameService, Clock]]:
    storage = await Storage.open(tmp_path / "t.db")
    clock = Clock()
    service = GameService(
        storage.games, rng=random.Random(5), clock=clock, entropy=random.Random(6).randbytes
    )
    director = Director(storage.tournaments, service, clock=clock, rng=random.Random(7))
    try:
        yield director, service, clock
    finally:
        await storage.close()


async def table_of(
    director: Director, clock: Clock, service: GameService, absent_seats: tuple[int, ...] = ()
) -> Table:
    """A one-round tournament of four whose table started: everyone drawn came except the
    people drawn to ``absent_seats`` (no-shows: a computer plays for them)."""
    t: Tournament = await director.announce(
        CHAT,
        None,
        forum=False,
        chat_title="Club",
        creator_id=1,
        words=["rounds=1", "computer=easy"],
        default_variant="hvalenyi",
    )
    for user in range(1, 5):
        await director.register(t.tournament_id, user, f"P{user}")
    await director.begin(t.tournament_id)
    [opened] = await director.open_due(t.tournament_id, Topics())
    assert opened.reserved is not None
    for seat, user in enumerate(opened.reserved):
        if user is not None and seat not in absent_seats:
            await service.lobby.join(opened.game_id, Player(user_id=user, name=f"P{user}"))
    if absent_seats:
        clock.now += 181  # the no-show wait: a computer sits down for whoever did not come
        await service.time_out(opened.game_id)
    table = await service.game(opened.game_id)
    assert table is not None and table.status is TableStatus.PLAYING
    return table


Hook = Callable[[Table, AnyState, int], None]


async def play_until(
    service: GameService,
    game_id: int,
    done: Callable[[AnyState], bool],
    before_move: Hook = lambda _t, _s, _seat: None,
) -> Table:
    """The people at the table make their moves (the easy computer's choice for them) until
    ``done``; ``before_move`` runs before each (a test moves the clock there)."""
    for n in range(2000):
        table = await service.game(game_id)
        assert table is not None and table.state is not None
        state = load_state(table.state)
        if done(state) or not table.status.live:
            return table
        seat = next(
            s
            for s in state.to_act()
            if table.seats[s] is not None and not table.seats[s].computer_plays
        )  # type: ignore[union-attr]
        user = table.seats[seat].user_id  # type: ignore[union-attr]
        action = levels.choose("easy", state, seat, random.Random(n))
        deal = state.deal_shown
        assert user is not None and deal is not None
        before_move(table, state, seat)
        await service.act(game_id, user, deal, action)
    raise AssertionError("the match never got there")


def someone_leads(side: int) -> Callable[[AnyState], bool]:
    return lambda state: state.deals_scored >= 1 and state.leader() == side


async def test_two_partners_ahead_cannot_stop_a_table_without_the_other_side(
    parts: tuple[Director, GameService, Clock],
) -> None:
    """The exploit: one opponent never came, so the two partners are a majority of the
    three people seated; they lead after a deal, vote, and (on 9394a15) take the round."""
    director, service, clock = parts
    table = await table_of(director, clock, service, absent_seats=(2,))
    assert table.reserved is not None
    partners, opponent = [table.reserved[1], table.reserved[3]], table.reserved[0]
    assert None not in partners and opponent is not None
    table = await play_until(service, table.game_id, someone_leads(B))
    assert table.status is TableStatus.PLAYING
    assert tables.score_of(service.state_of(table)) == (0, 4)  # type: ignore[arg-type]
    first = await service.vote_stop(table.game_id, partners[0])
    second = await service.vote_stop(table.game_id, partners[1])
    # the partners' two votes of three stop nothing: the other side has not agreed
    assert second.table.status is TableStatus.PLAYING, "the partners stopped the table"
    assert (first.vote, second.vote) == ((1, 3), (2, 3))
    assert await director.record(second.table) is None
    # once the opponent agrees too, the table stops and the score decides it, as the clock
    agreed = await service.vote_stop(table.game_id, opponent)
    assert agreed.table.status is TableStatus.FINISHED and agreed.vote == (3, 3)
    recorded = await director.record(agreed.table)
    assert recorded is not None
    result = recorded.played[0].tables[0].result
    assert result is not None and result.winner_side == B and result.by_clock


async def test_a_side_of_computers_never_agrees_to_a_stop(
    parts: tuple[Director, GameService, Clock],
) -> None:
    """Both opponents never came: nobody can agree for their side, so the partners' vote is
    refused (the match plays on until the round clock) and changes nothing."""
    director, service, clock = parts
    table = await table_of(director, clock, service, absent_seats=(0, 2))
    assert table.reserved is not None
    table = await play_until(service, table.game_id, someone_leads(B))
    with pytest.raises(TableError) as refused:
        await service.vote_stop(table.game_id, table.reserved[1])  # type: ignore[arg-type]
    assert refused.value.code == "no_consent"
    again = await service.game(table.game_id)
    assert again is not None and again.status is TableStatus.PLAYING and again.stop_votes == []


async def test_the_last_person_cannot_leave_a_tournament_table_to_stop_it(
    parts: tuple[Director, GameService, Clock],
) -> None:
    """Leaving as the last person would stop the match (and a stopped table is decided on
    its score): partners ahead whose opponents never came would take the round by leaving.
    The first may leave (a computer plays the seat); the last is refused, nothing changes,
    and the match plays on to the round clock."""
    director, service, clock = parts
    table = await table_of(director, clock, service, absent_seats=(0, 2))
    assert table.reserved is not None
    first, last = table.reserved[1], table.reserved[3]
    assert first is not None and last is not None
    table = await play_until(service, table.game_id, someone_leads(B))
    left = await service.lobby.leave(table.game_id, first)
    assert left.table.status is TableStatus.PLAYING
    with pytest.raises(TableError) as refused:
        await service.lobby.leave(table.game_id, last)
    assert refused.value.code == "last_at_table"
    again = await service.game(table.game_id)
    assert again is not None and again.status is TableStatus.PLAYING
    assert again.seat_of(last) is not None
    assert await director.record(again) is None


async def test_an_ordinary_table_still_stops_by_a_majority(
    parts: tuple[Director, GameService, Clock],
) -> None:
    """Outside tournaments the vote is as it was: a majority of the people seated."""
    _director, service, _clock = parts
    lobby = await service.lobby.new_game(CHAT, 1, ["computer=easy"], "hvalenyi")
    for user in (1, 2, 3):
        await service.lobby.join(lobby.game_id, Player(user_id=user, name=f"P{user}"))
    await service.lobby.start(lobby.game_id, 1)
    await service.vote_stop(lobby.game_id, 1)
    stopped = await service.vote_stop(lobby.game_id, 2)
    assert stopped.table.status is TableStatus.STOPPED and stopped.vote == (2, 2)


async def test_a_seat_that_keeps_moving_at_the_last_moment_is_marked_slow(
    parts: tuple[Director, GameService, Clock],
) -> None:
    """Three moves each taking 90 % of the move time mark the person 🐢 in the standings;
    moves at half the time (everyone else's) mark nobody, nor do slow moves in a secret
    step. The round clock still decides on the score."""
    director, service, clock = parts
    table = await table_of(director, clock, service)
    assert table.reserved is not None
    slow_user = table.reserved[0]
    slow_moves: list[int] = []

    def pace(table: Table, state: AnyState, seat: int) -> None:
        assert table.deadline is not None and table.turn_time > 0
        user = table.seats[seat].user_id  # type: ignore[union-attr]
        share = 0.5  # half the move time left
        if user == slow_user and (state.hidden_turn or len(slow_moves) < 3):
            share = 0.1  # 90 % of the move time taken
            slow_moves.append(0 if state.hidden_turn else 1)
        elif user == slow_user:
            share = 0.9
        clock.now = table.deadline - share * table.turn_time

    table = await play_until(service, table.game_id, lambda s: s.deals_scored >= 1, pace)
    assert sum(slow_moves) == 3
    assert [tally.get("slow", 0) for tally in table.tally] == [3, 0, 0, 0]
    decided = await service.change(table.game_id, tables.decide)
    recorded = await director.record(decided.table)
    assert recorded is not None and recorded.played[0].tables[0].slow == [slow_user]
    text = texts.standings_text(recorded, standings(recorded), translator("en"))
    assert f"🐢 Slow play (round):\nP{slow_user} (1)" in text


def test_a_slow_move_in_a_secret_step_is_not_counted() -> None:
    """A redeal offer is secret: a mark for taking long over it would tell everyone who was
    asked (and so whose hand is weak). The same slow move in open play counts."""
    state = MatchState("hvalenyi", {})
    state.deal_hands([list(h) for h in HANDS_13_AND_14])
    assert state.hidden_turn and state.to_act() == (1,)
    table = playing_table(state).model_copy(
        update={
            "tournament": TournamentTable(tournament_id=1, round_no=1, table_no=1),
            "deadline": 1000.0,
            "turn_time": 60.0,
        }
    )
    secret = table.model_copy(deep=True)
    tables.note_pace(secret, state, 1, now=995.0)
    assert secret.tally[1].get("slow") is None
    keep_all(state)
    assert not state.hidden_turn
    seat = state.to_act()[0]
    public = table.model_copy(deep=True)
    tables.note_pace(public, state, seat, now=995.0)
    assert public.tally[seat].get("slow") == 1
    # not at a tournament's table: nothing is counted
    ordinary = table.model_copy(deep=True, update={"tournament": None})
    tables.note_pace(ordinary, state, seat, now=995.0)
    assert ordinary.tally[seat].get("slow") is None
