"""The tournament director (issue #19) against real storage and the real game service: the
registration's refusals, the draw stored before any table opens, a table opened once however
often it is asked (a restart included), results recorded once, rounds one after another, the
clock; and a tournament table's seats and clock decision."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.core.tournament.model import Format, Status, Tournament
from kozelbot.families.registry import new_state
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.change import TableError
from kozelbot.tables.director import Director
from kozelbot.tables.service import GameService
from kozelbot.tables.tournament_words import TournamentError, parse_words
from storage import Storage

CHAT = -100


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Topics:
    """A forum's topics, numbered as the director asks for them."""

    def __init__(self) -> None:
        self.opened: list[tuple[int, int]] = []

    async def open_topic(self, t: Tournament, round_no: int, table_no: int) -> int:
        self.opened.append((round_no, table_no))
        return 100 + len(self.opened)


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[tuple[Director, GameService, Clock, Storage]]:
    storage = await Storage.open(tmp_path / "t.db")
    clock = Clock()
    service = GameService(
        storage.games, rng=random.Random(5), clock=clock, entropy=random.Random(6).randbytes
    )
    director = Director(storage.tournaments, service, clock=clock, rng=random.Random(7))
    try:
        yield director, service, clock, storage
    finally:
        await storage.close()


async def announce(director: Director, *words: str, forum: bool = False) -> Tournament:
    return await director.announce(
        CHAT,
        None,
        forum=forum,
        chat_title="Club",
        creator_id=1,
        words=list(words),
        default_variant="hvalenyi",
    )


async def one_table(director: Director) -> Table:
    """A one-round tournament of four, begun, its one table opened (a plain group)."""
    t = await announce(director, "rounds=1")
    for user in range(1, 5):
        await director.register(t.tournament_id, user, f"P{user}")
    await director.begin(t.tournament_id)
    [opened] = await director.open_due(t.tournament_id, Topics())
    return opened


@pytest.mark.parametrize(
    "word",
    [
        "format=swiss",
        "rounds=0",
        "rounds=16",
        "round_time=4",
        "computer_fill=maybe",
        "start=0",
        "nonsense=1",
        "deck=99",
    ],
)
def test_a_bad_option_is_named(word: str) -> None:
    with pytest.raises(TournamentError) as refused:
        parse_words([word], "hvalenyi")
    assert refused.value.code == "option" and refused.value.word.split("=")[0] in word


@pytest.mark.parametrize("words", [["hvalenyi", "players=2"], ["cover", "mode=self", "players=3"]])
def test_only_games_of_two_pairs_make_tournaments(words: list[str]) -> None:
    with pytest.raises(TournamentError) as refused:
        parse_words(words, "hvalenyi")
    assert refused.value.code == "variant"


def test_the_tournament_s_words_and_the_table_s_options_are_told_apart() -> None:
    fields = parse_words(
        [
            "kryuk",
            "format=pairs",
            "rounds=4",
            "round_time=30",
            "move_time=30",
            "computer_fill=false",
            "start=15",
        ],
        "hvalenyi",
    )
    assert fields["variant"] == "kryuk" and fields["format"] is Format.PAIRS
    assert (fields["rounds"], fields["round_time"], fields["start"]) == (4, 30, 15)
    assert fields["computer_fill"] is False and fields["options"]["move_time"] == 30


async def test_registration_refuses_what_it_must_and_changes_nothing(parts: tuple) -> None:
    director, _service, _clock, storage = parts
    t = await announce(director)
    with pytest.raises(TournamentError, match="running"):
        await announce(director)
    await director.register(t.tournament_id, 1, "Аня")
    with pytest.raises(TournamentError, match="registered"):
        await director.register(t.tournament_id, 1, "Аня")
    with pytest.raises(TournamentError, match="not_registered"):
        await director.withdraw(t.tournament_id, 2)
    with pytest.raises(TournamentError, match="too_few"):
        await director.begin(t.tournament_id)  # one person: computers fill, but not alone
    stored = await storage.tournaments.tournament(t.tournament_id)
    assert stored is not None and [e.user_id for e in stored.entrants] == [1]
    assert stored.status is Status.REGISTRATION and stored.played == []
    await director.register(t.tournament_id, 2, "Борис")
    begun = await director.begin(t.tournament_id)
    assert begun.status is Status.RUNNING and len(begun.played) == 1
    with pytest.raises(TournamentError, match="not_registration"):
        await director.register(t.tournament_id, 3, "Вера")


async def test_pairs_register_by_invitation_and_confirmation(parts: tuple) -> None:
    director, *_ = parts
    t = await announce(director, "format=pairs")
    tid = t.tournament_id
    with pytest.raises(TournamentError, match="partner"):
        await director.register(tid, 1, "Аня")  # no partner named
    with pytest.raises(TournamentError, match="partner"):
        await director.register(tid, 1, "Аня", partner=(1, "Аня"))
    with pytest.raises(TournamentError, match="no_invite"):
        await director.confirm(tid, 2, "Борис")
    await director.register(tid, 1, "Аня", partner=(2, "Борис"))
    with pytest.raises(TournamentError, match="no_invite"):
        await director.confirm(tid, 3, "Вера")  # not the one named
    await director.confirm(tid, 2, "Борис")
    with pytest.raises(TournamentError, match="partner"):
        await director.register(tid, 3, "Вера", partner=(1, "Аня"))  # Аня is paired
    await director.register(tid, 3, "Вера", partner=(4, "Глеб"))
    await director.register(tid, 5, "Дина", partner=(6, "Ева"))
    await director.confirm(tid, 4, "Глеб")
    # Дина's invitation was never confirmed: she does not play
    begun = await director.begin(tid)
    assert begun.pairs == [(1, 2), (3, 4)]
    [table] = begun.played[0].tables
    assert {table.seats[0], table.seats[2]} in ({1, 2}, {3, 4})


async def test_a_table_opens_once_and_its_result_is_recorded_once(parts: tuple) -> None:
    director, service, clock, storage = parts
    t = await announce(director, "rounds=2", "round_time=10", forum=True)
    for user in range(1, 5):
        await director.register(t.tournament_id, user, f"P{user}")
    await director.begin(t.tournament_id)
    topics = Topics()
    [opened] = await director.open_due(t.tournament_id, topics)
    assert await director.open_due(t.tournament_id, topics) == []  # asked again: nothing new
    assert topics.opened == [(1, 1)] and opened.thread_id == 101
    # as if the bot died before keeping the game's id: the same game comes back
    again = await service.lobby.new_game(
        CHAT,
        1,
        [],
        "hvalenyi",
        thread_id=101,
        tournament=opened.tournament,
        reserved=opened.reserved,
    )
    assert again.game_id == opened.game_id
    stored = await storage.tournaments.tournament(t.tournament_id)
    assert stored is not None
    draw = stored.played[0].tables[0]
    assert draw.deadline == pytest.approx(clock.now + 600)
    # only the people drawn sit; the options stay the tournament's
    with pytest.raises(TableError, match="reserved"):
        await service.lobby.join(opened.game_id, Player(user_id=99, name="Чужой"))
    for user in draw.seats:
        assert user is not None
        await service.lobby.join(opened.game_id, Player(user_id=user, name=f"P{user}"))
    table = await service.game(opened.game_id)
    assert table is not None and table.status is TableStatus.PLAYING
    assert [p.user_id for p in table.seats if p is not None] == draw.seats
    # the clock: overdue once the round's time ran out, decided on the score
    assert director.overdue(stored) == []
    clock.now += 601
    assert director.overdue(stored) == [opened.game_id]
    decided = await service.change(opened.game_id, tables.decide)
    assert not decided.table.status.live and decided.table.closed_reason == "round_time"
    recorded = await director.record(decided.table)
    assert recorded is not None and recorded.played[0].tables[0].result is not None
    assert await director.record(decided.table) is None  # recorded once
    assert len(recorded.played) == 2  # round 2 is drawn at once, stored before it opens


async def test_the_last_result_names_the_tournament_finished(parts: tuple) -> None:
    director, service, _clock, _storage = parts
    opened = await one_table(director)
    stopped = await service.stop(opened.game_id)
    done = await director.record(stopped.table)
    assert done is not None and done.status is Status.FINISHED and done.finished_at is not None
    result = done.played[0].tables[0].result
    assert result is not None and result.winner_side is None and result.by_clock


async def test_no_shows_are_the_people_whose_seat_a_computer_took(parts: tuple) -> None:
    director, service, clock, _storage = parts
    opened = await one_table(director)
    assert opened.reserved is not None
    came = [u for u in opened.reserved if u is not None][:3]
    for user in came:
        await service.lobby.join(opened.game_id, Player(user_id=user, name=f"P{user}"))
    clock.now += 181  # the no-show wait: the match starts, a computer for the fourth
    started = await service.time_out(opened.game_id)
    assert started is not None and started.table.status is TableStatus.PLAYING
    missing = set(opened.reserved) - set(came) - {None}
    assert tables.no_shows(started.table) == sorted(missing)
    with pytest.raises(TableError, match="reserved"):  # too late to sit down now
        await service.lobby.join(opened.game_id, Player(user_id=missing.pop(), name="late"))


def test_the_leader_is_whoever_the_variant_ranks_ahead() -> None:
    follow = new_state("hvalenyi", {})
    follow.score = [5, 3]  # type: ignore[attr-defined]
    assert follow.leader() == 0
    follow.score = [4, 4]  # type: ignore[attr-defined]
    assert follow.leader() is None
    cover = new_state("cover", {})
    cover.score = [7, 2]  # type: ignore[attr-defined]  # loser points: fewer is better
    assert cover.leader() == 1


def test_a_level_match_stops_without_a_result_and_a_leader_wins() -> None:
    table = Table(
        chat_id=CHAT,
        variant="hvalenyi",
        options={},
        creator_id=1,
        seed=1,
        seats=[Player(user_id=u, name=str(u)) for u in (1, 2, 3, 4)],
        status=TableStatus.PLAYING,
    )
    state = new_state("hvalenyi", {})
    level = table.model_copy(deep=True)
    assert tables.decide(level, state).result is None
    assert level.status is TableStatus.STOPPED
    state.score = [3, 1]  # type: ignore[attr-defined]
    ahead = table.model_copy(deep=True)
    result = tables.decide(ahead, state).result
    assert ahead.status is TableStatus.FINISHED
    assert result is not None and result.winner_side == 0
