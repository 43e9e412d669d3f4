"""Storage of tournaments, of their tables' matches and of /notify (issue #19; migration 010).

Every test runs on a temporary file: a tournament is saved whole with an optimistic version
and read back equal; a group has one live tournament; a tournament's table gets one match
however often its opening is tried; subscriptions toggle in one write; a group's new id
takes its tournaments and subscribers along; migration 010 applies to a schema-009 file.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from kozelbot.core.table import Player, Table, TableStatus, TournamentTable
from kozelbot.core.tournament.model import (
    Entrant,
    Format,
    Round,
    Status,
    TableDraw,
    TableResult,
    Tournament,
)
from kozelbot.tables.repository import NoticeRepository, TournamentRepository
from storage import (
    GameAlreadyRunning,
    StaleTournament,
    Storage,
    TableAlreadyOpen,
    TournamentAlreadyRunning,
)
from storage.errors import Refused
from storage.migrate import apply_migrations, load_migrations
from storage.sqlite import SqliteConnection
from tests.conftest import FakeClock
from tests.engines import count

CHAT, OTHER_CHAT, NEW_CHAT = -100, -200, -100777
ANNA, BORIS, VERA, GLEB, DARYA, EGOR = 11, 12, 13, 14, 15, 16
TOO_BIG = 2**63


def new_tournament(chat_id: int = CHAT, **changes: Any) -> Tournament:
    """A tournament in registration, as the director creates it."""
    tournament = Tournament(
        chat_id=chat_id, creator_id=ANNA, variant="hvalenyi", seed=7, chat_title="Kozel club"
    )
    return tournament.model_copy(update=changes)


def bumped(tournament: Tournament, **changes: Any) -> Tournament:
    """The next version of a tournament, as the director hands it to save_tournament."""
    return tournament.model_copy(update={"version": tournament.version + 1, **changes}, deep=True)


def ended(tournament: Tournament, status: Status = Status.FINISHED) -> Tournament:
    """The next version, finished (or stopped)."""
    return bumped(tournament, status=status, finished_at=1_800_000_000.0)


def full_document(base: Tournament) -> Tournament:
    """A pairs tournament two rounds in: entrants, confirmed pairs, a finished round with a
    bye and a clock-decided draw, and a round in play with a no-show."""
    entrants = [
        Entrant(user_id=ANNA, name="Anna", partner_id=BORIS, confirmed=True),
        Entrant(user_id=BORIS, name="Boris", partner_id=ANNA, confirmed=True),
        Entrant(user_id=VERA, name="Vera", partner_id=GLEB, confirmed=True),
        Entrant(user_id=GLEB, name="Gleb", partner_id=VERA, confirmed=True),
        Entrant(user_id=DARYA, name="Darya", partner_id=EGOR, confirmed=True),
        Entrant(user_id=EGOR, name="Egor ✨"),
    ]
    draw = TableResult(winner_side=None, score=(9, 9), points=(610, 590), by_clock=True)
    first = Round(
        number=1,
        byes=[2],
        tables=[
            TableDraw(
                number=1,
                seats=[ANNA, VERA, BORIS, GLEB],
                game_id=41,
                thread_id=901,
                opened_at=1_700_000_100.5,
                deadline=1_700_003_700.5,
                result=draw,
            )
        ],
    )
    second = Round(
        number=2,
        tables=[
            TableDraw(
                number=1,
                seats=[ANNA, DARYA, BORIS, None],
                game_id=42,
                opened_at=1_700_004_000.0,
                deadline=1_700_007_600.0,
                no_shows=[EGOR],
            ),
            TableDraw(number=2, seats=[VERA, None, GLEB, None]),
        ],
    )
    return bumped(
        base,
        format=Format.PAIRS,
        forum=True,
        thread_id=900,
        options={"deck": 36, "eyes": 12},
        rounds=4,
        round_time=45,
        computer_fill=False,
        status=Status.RUNNING,
        starts_at=1_700_000_000.0,
        entrants=entrants,
        pairs=[(ANNA, BORIS), (VERA, GLEB), (DARYA, EGOR)],
        played=[first, second],
    )


def new_table(chat_id: int = CHAT, key: TournamentTable | None = None, **changes: Any) -> Table:
    """A lobby of computers (nobody's live seat is at stake), a tournament's table if keyed."""
    table = Table(
        chat_id=chat_id,
        variant="hvalenyi",
        options={"deck": 36},
        creator_id=ANNA,
        seed=42,
        seats=[Player(name=f"Computer {seat}") for seat in range(4)],
        tournament=key,
    )
    return table.model_copy(update=changes)


def test_storage_parts_are_the_protocols_the_director_is_typed_against(
    storage: Storage,
) -> None:
    """mypy checks these assignments; at run time the parts have every method."""
    tournaments: TournamentRepository = storage.tournaments
    notices: NoticeRepository = storage.notices
    for part, protocol in ((tournaments, TournamentRepository), (notices, NoticeRepository)):
        names = [n for n in vars(protocol) if not n.startswith("_")]
        assert names and all(callable(getattr(part, n)) for n in names)


# -- a tournament, whole -------------------------------------------------------------------


async def test_a_created_tournament_gets_an_id_and_its_full_document_round_trips(
    storage: Storage,
) -> None:
    draft = new_tournament()
    created = await storage.tournaments.create_tournament(draft)
    assert created.tournament_id > 0 and created.created_at > 0
    assert draft.tournament_id == 0, "the caller's tournament is not mutated"
    assert await storage.tournaments.tournament(created.tournament_id) == created
    running = full_document(created)
    await storage.tournaments.save_tournament(running)
    stored = await storage.tournaments.tournament(created.tournament_id)
    assert stored == running
    assert stored is not None and stored.current is not None and stored.current.number == 2
    assert stored.played[0].tables[0].result == running.played[0].tables[0].result
    assert await storage.tournaments.live_tournament(CHAT) == running


async def test_a_group_has_one_live_tournament_until_it_ends(
    storage: Storage, database: str
) -> None:
    first = await storage.tournaments.create_tournament(new_tournament())
    with pytest.raises(TournamentAlreadyRunning) as refused:
        await storage.tournaments.create_tournament(new_tournament(status=Status.RUNNING))
    assert refused.value.chat_id == CHAT
    assert count(database, "tournaments") == 1, "the refused one left no row"
    elsewhere = await storage.tournaments.create_tournament(new_tournament(OTHER_CHAT))
    await storage.tournaments.save_tournament(ended(first))
    assert await storage.tournaments.live_tournament(CHAT) is None
    second = await storage.tournaments.create_tournament(new_tournament())
    assert await storage.tournaments.live_tournament(CHAT) == second
    assert await storage.tournaments.live_tournament(OTHER_CHAT) == elsewhere


async def test_an_ended_tournament_cannot_come_back_beside_a_live_one(storage: Storage) -> None:
    first = await storage.tournaments.create_tournament(new_tournament())
    stopped = ended(first, Status.STOPPED)
    await storage.tournaments.save_tournament(stopped)
    await storage.tournaments.create_tournament(new_tournament())
    with pytest.raises(TournamentAlreadyRunning):
        await storage.tournaments.save_tournament(bumped(stopped, status=Status.RUNNING))
    assert await storage.tournaments.tournament(first.tournament_id) == stopped


async def test_a_stale_save_is_refused_and_writes_nothing(storage: Storage) -> None:
    created = await storage.tournaments.create_tournament(new_tournament())
    with pytest.raises(StaleTournament) as refused:
        await storage.tournaments.save_tournament(created.model_copy(update={"rounds": 5}))
    assert refused.value.tournament_id == created.tournament_id
    with pytest.raises(StaleTournament):
        await storage.tournaments.save_tournament(bumped(bumped(created), rounds=5))
    with pytest.raises(StaleTournament):
        await storage.tournaments.save_tournament(bumped(created, tournament_id=999))
    with pytest.raises(ValueError, match="create_tournament"):
        await storage.tournaments.save_tournament(bumped(new_tournament()))
    assert await storage.tournaments.tournament(created.tournament_id) == created


async def test_concurrent_saves_of_one_version_let_exactly_one_win(storage: Storage) -> None:
    created = await storage.tournaments.create_tournament(new_tournament())
    mine, theirs = bumped(created, rounds=4), bumped(created, rounds=5)
    outcomes = await asyncio.gather(
        storage.tournaments.save_tournament(mine),
        storage.tournaments.save_tournament(theirs),
        return_exceptions=True,
    )
    winners = [i for i, outcome in enumerate(outcomes) if outcome is None]
    assert len(winners) == 1
    assert all(isinstance(o, StaleTournament) for o in outcomes if o is not None)
    assert await storage.tournaments.tournament(created.tournament_id) == (mine, theirs)[winners[0]]


async def test_live_tournaments_are_found_again_after_a_restart(db_path: Path) -> None:
    async with await Storage.open(db_path, clock=FakeClock()) as before:
        done = await before.tournaments.create_tournament(new_tournament())
        await before.tournaments.save_tournament(ended(done))
        open_ = await before.tournaments.create_tournament(new_tournament())
        running = full_document(await before.tournaments.create_tournament(new_tournament(-300)))
        await before.tournaments.save_tournament(running)
    async with await Storage.open(db_path) as after:
        assert await after.tournaments.live_tournaments() == [open_, running]


async def test_a_groups_tournaments_are_listed_newest_first_a_page_at_a_time(
    storage: Storage,
) -> None:
    ids = []
    for _ in range(5):
        created = await storage.tournaments.create_tournament(new_tournament())
        await storage.tournaments.save_tournament(ended(created))
        ids.append(created.tournament_id)
    await storage.tournaments.create_tournament(new_tournament(OTHER_CHAT))
    live = await storage.tournaments.create_tournament(new_tournament())
    newest = [live.tournament_id, *reversed(ids)]

    async def page(limit: int = 10, before_id: int | None = None) -> list[int]:
        found = await storage.tournaments.tournaments_in(CHAT, limit, before_id)
        return [t.tournament_id for t in found]

    assert await page() == newest
    assert await page(limit=2) == newest[:2]
    assert await page(limit=2, before_id=newest[1]) == newest[2:4]
    assert await page(limit=2, before_id=newest[3]) == newest[4:]
    assert await page(before_id=ids[0]) == []
    assert await page(limit=0) == []
    assert await page(limit=TOO_BIG) == newest
    assert await storage.tournaments.tournaments_in(-999) == []


# -- a tournament's tables ------------------------------------------------------------------


async def test_a_tournament_table_opens_one_match_however_often_it_is_tried(
    storage: Storage, database: str
) -> None:
    tournament = await storage.tournaments.create_tournament(new_tournament())
    key = TournamentTable(tournament_id=tournament.tournament_id, round_no=1, table_no=1)
    first = await storage.games.create_game(new_table(key=key, thread_id=901))
    assert await storage.tournaments.game_of_table(tournament.tournament_id, 1, 1) == (
        first.game_id
    )
    # Again in another topic (a retried opening made a new one), then in the match's own
    # topic, still live there: both times the table names its match.
    for thread_id in (902, 901):
        with pytest.raises(TableAlreadyOpen) as refused:
            await storage.games.create_game(new_table(key=key, thread_id=thread_id))
        assert refused.value.game_id == first.game_id
    assert count(database, "games") == 1 and count(database, "tournament_tables") == 1
    second = await storage.games.create_game(
        new_table(key=key.model_copy(update={"table_no": 2}), thread_id=902)
    )
    assert await storage.tournaments.game_of_table(tournament.tournament_id, 1, 2) == (
        second.game_id
    )
    assert await storage.tournaments.game_of_table(tournament.tournament_id, 2, 1) is None
    assert await storage.tournaments.game_of_table(TOO_BIG, 1, 1) is None
    assert (await storage.games.game(first.game_id)) == first


async def test_a_refused_match_leaves_its_table_unopened(storage: Storage) -> None:
    tournament = await storage.tournaments.create_tournament(new_tournament())
    await storage.games.create_game(new_table())  # an ordinary lobby holds the group
    key = TournamentTable(tournament_id=tournament.tournament_id, round_no=1, table_no=1)
    with pytest.raises(GameAlreadyRunning):
        await storage.games.create_game(new_table(key=key))
    assert await storage.tournaments.game_of_table(tournament.tournament_id, 1, 1) is None


async def test_a_table_of_no_stored_tournament_is_refused_and_writes_nothing(
    storage: Storage, database: str
) -> None:
    key = TournamentTable(tournament_id=404, round_no=1, table_no=1)
    with pytest.raises(Refused):
        await storage.games.create_game(new_table(key=key))
    assert count(database, "games") == 0
    assert await storage.games.live_game(CHAT) is None


async def test_a_finished_tables_match_still_blocks_its_table(storage: Storage) -> None:
    tournament = await storage.tournaments.create_tournament(new_tournament())
    key = TournamentTable(tournament_id=tournament.tournament_id, round_no=1, table_no=1)
    first = await storage.games.create_game(new_table(key=key))
    done = first.model_copy(update={"version": first.version + 1, "status": TableStatus.FINISHED})
    await storage.games.save_game(done)
    with pytest.raises(TableAlreadyOpen) as refused:
        await storage.games.create_game(new_table(key=key))
    assert refused.value.game_id == first.game_id


# -- notices ---------------------------------------------------------------------------------


async def test_notify_toggles_a_subscription_on_and_off(storage: Storage) -> None:
    assert not await storage.notices.subscribed(CHAT, ANNA)
    assert await storage.notices.toggle(CHAT, ANNA) is True
    assert await storage.notices.toggle(CHAT, VERA) is True
    assert await storage.notices.toggle(OTHER_CHAT, BORIS) is True
    assert await storage.notices.subscribed(CHAT, ANNA)
    assert not await storage.notices.subscribed(OTHER_CHAT, ANNA)
    assert await storage.notices.subscribers(CHAT) == [ANNA, VERA]
    assert await storage.notices.toggle(CHAT, ANNA) is False
    assert not await storage.notices.subscribed(CHAT, ANNA)
    assert await storage.notices.subscribers(CHAT) == [VERA]
    assert await storage.notices.subscribers(TOO_BIG) == []
    assert not await storage.notices.subscribed(CHAT, TOO_BIG)


async def test_two_presses_at_once_end_where_they_started(storage: Storage) -> None:
    states = await asyncio.gather(
        storage.notices.toggle(CHAT, ANNA), storage.notices.toggle(CHAT, ANNA)
    )
    assert sorted(states) == [False, True]
    assert not await storage.notices.subscribed(CHAT, ANNA)


async def test_a_group_the_bot_left_notifies_nobody(storage: Storage) -> None:
    for user_id in (ANNA, BORIS):
        await storage.notices.toggle(CHAT, user_id)
    await storage.notices.toggle(OTHER_CHAT, ANNA)
    await storage.notices.forget_chat(CHAT)
    assert await storage.notices.subscribers(CHAT) == []
    assert await storage.notices.subscribers(OTHER_CHAT) == [ANNA]


# -- a group's new id --------------------------------------------------------------------------


async def test_a_migrated_group_takes_its_tournaments_along(storage: Storage) -> None:
    old = await storage.tournaments.create_tournament(new_tournament())
    await storage.tournaments.save_tournament(ended(old))
    live = full_document(await storage.tournaments.create_tournament(new_tournament()))
    await storage.tournaments.save_tournament(live)
    await storage.tournaments.migrate_chat(CHAT, NEW_CHAT)
    moved = await storage.tournaments.live_tournament(NEW_CHAT)
    assert moved == live.model_copy(update={"chat_id": NEW_CHAT, "version": live.version + 1})
    assert await storage.tournaments.live_tournament(CHAT) is None
    assert await storage.tournaments.tournaments_in(CHAT) == []
    history = await storage.tournaments.tournaments_in(NEW_CHAT)
    assert [t.tournament_id for t in history] == [live.tournament_id, old.tournament_id]
    with pytest.raises(StaleTournament):  # a copy read before the move is stale
        await storage.tournaments.save_tournament(bumped(live))
    assert moved is not None
    await storage.tournaments.save_tournament(bumped(moved))
    await storage.tournaments.migrate_chat(CHAT, NEW_CHAT)  # again: nothing left to move
    again = await storage.tournaments.live_tournament(NEW_CHAT)
    assert again is not None and again.version == moved.version + 1


async def test_a_migrated_group_whose_new_id_has_a_live_tournament_stops_the_old_one(
    storage: Storage,
) -> None:
    old = await storage.tournaments.create_tournament(new_tournament())
    new = await storage.tournaments.create_tournament(new_tournament(NEW_CHAT))
    await storage.tournaments.migrate_chat(CHAT, NEW_CHAT)
    assert await storage.tournaments.live_tournament(NEW_CHAT) == new
    stopped = await storage.tournaments.tournament(old.tournament_id)
    assert stopped is not None and stopped.status is Status.STOPPED
    assert stopped.chat_id == NEW_CHAT and stopped.finished_at is not None
    await storage.tournaments.save_tournament(bumped(stopped))  # column and document agree


async def test_a_migrated_group_takes_its_subscribers_along(storage: Storage) -> None:
    for user_id in (ANNA, BORIS):
        await storage.notices.toggle(CHAT, user_id)
    await storage.notices.toggle(NEW_CHAT, BORIS)  # subscribed under the new id already
    await storage.notices.migrate_chat(CHAT, NEW_CHAT)
    assert await storage.notices.subscribers(NEW_CHAT) == [ANNA, BORIS]
    assert await storage.notices.subscribers(CHAT) == []
    await storage.notices.migrate_chat(CHAT, NEW_CHAT)
    assert await storage.notices.subscribers(NEW_CHAT) == [ANNA, BORIS]


async def test_writes_of_an_out_of_range_id_raise_value_error_and_write_nothing(
    storage: Storage, database: str
) -> None:
    writes = [
        storage.tournaments.create_tournament(new_tournament(TOO_BIG)),
        storage.tournaments.migrate_chat(CHAT, TOO_BIG),
        storage.notices.toggle(CHAT, TOO_BIG),
        storage.notices.migrate_chat(TOO_BIG, CHAT),
    ]
    for write in writes:
        with pytest.raises(ValueError):
            await write
    assert count(database, "tournaments") == 0 and count(database, "notices") == 0
    assert await storage.tournaments.tournament(TOO_BIG) is None
    assert await storage.tournaments.live_tournament(TOO_BIG) is None
    assert await storage.tournaments.tournaments_in(CHAT, before_id=TOO_BIG) == []


# -- migration 010 ---------------------------------------------------------------------------


async def test_010_applies_to_a_file_of_schema_009_and_keeps_its_games(db_path: Path) -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations][-1] >= 10
    upto_009 = [m for m in migrations if m.version <= 9]
    lobby = new_table()
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        await db.execute("PRAGMA foreign_keys = ON")
        await apply_migrations(SqliteConnection(db), asyncio.Lock(), FakeClock(), upto_009)
        await db.execute(
            "INSERT INTO games (game_id, chat_id, status, version, data, created_at, updated_at)"
            " VALUES (1, ?, 'lobby', 0, ?, 1.0, 1.0)",
            (CHAT, lobby.model_copy(update={"game_id": 1}).to_json()),
        )
        applied = await apply_migrations(
            SqliteConnection(db),
            asyncio.Lock(),
            FakeClock(),
            [m for m in migrations if m.version <= 10],
        )
    assert applied == [10]
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        index = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'tournaments_one_live_per_chat'"
        ).fetchone()[0]
    conn.close()
    assert "WHERE status IN ('registration', 'running')" in index
    async with await Storage.open(db_path, clock=FakeClock()) as storage:
        assert await storage.games.live_games() == [lobby.model_copy(update={"game_id": 1})]
        created = await storage.tournaments.create_tournament(new_tournament(OTHER_CHAT))
        key = TournamentTable(tournament_id=created.tournament_id, round_no=1, table_no=1)
        game = await storage.games.create_game(new_table(OTHER_CHAT, key=key))
        assert await storage.tournaments.game_of_table(created.tournament_id, 1, 1) == (
            game.game_id
        )
        assert await storage.notices.toggle(OTHER_CHAT, ANNA) is True
