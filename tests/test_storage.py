"""Storage: migrations, games with optimistic versions, atomic saves, users, chats, rankings.

Every test runs on a fresh database file under ``tmp_path`` and closes it in teardown
(aiosqlite's worker thread would otherwise keep pytest from exiting).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import os
import sqlite3
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

import aiosqlite
import pytest

from kozelbot.core.records import (
    DealRecord,
    MatchPlayer,
    MatchResult,
    MessageRef,
    MoveRecord,
    MoveSource,
    OutboxItem,
)
from kozelbot.core.table import Player, Table, TableStatus
from storage import GameAlreadyRunning, SeatTaken, StaleVersion, Storage
from storage.errors import Duplicate
from storage.migrate import Migration, apply_migrations, load_migrations, split_statements
from storage.sqlite import SqliteConnection
from tests.conftest import FakeClock
from tests.engines import look

CHAT = -100
OTHER_CHAT = -200
STORAGE_DIR = Path(__file__).resolve().parents[1] / "storage"


def new_table(chat_id: int = CHAT, **changes: object) -> Table:
    table = Table(
        chat_id=chat_id,
        variant="hvalenyi",
        options={"deck": 36},
        creator_id=1,
        seed=42,
        # One live seat per person: Anna of another chat is another person.
        seats=[Player(user_id=_anna(chat_id), name="Anna"), None, Player(name="Computer 1"), None],
    )
    return table.model_copy(update=changes)


def _anna(chat_id: int) -> int:
    return 1 if chat_id == CHAT else 1_000_000 + abs(chat_id) % 1_000_000


def bumped(table: Table, **changes: object) -> Table:
    """The next version of a table, as the engine would hand it to save_game."""
    return table.model_copy(update={"version": table.version + 1, **changes}, deep=True)


def move(game_id: int, seq: int, action: str = "play:6S") -> MoveRecord:
    return MoveRecord(
        game_id=game_id,
        seq=seq,
        deal_no=1,
        seat=0,
        action=action,
        source=MoveSource.HUMAN,
        user_id=1,
    )


def raw_query(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Look at the file with a plain sqlite3 connection, as another process would."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


# -- schema and connection ---------------------------------------------------------------


async def test_migrations_apply_once_and_reopening_is_idempotent(db_path: Path) -> None:
    async with await Storage.open(db_path) as first:
        await first.people.upsert_chat(CHAT, "Kozel club")
    async with await Storage.open(db_path) as second:
        assert await second.people.chat_language(CHAT) is None
    shipped = [(m.version, m.name) for m in load_migrations()]
    assert shipped[0] == (1, "initial")
    assert raw_query(db_path, "SELECT version, name FROM schema_migrations ORDER BY 1") == shipped


async def test_database_runs_in_wal_mode(db_path: Path) -> None:
    async with await Storage.open(db_path):
        assert raw_query(db_path, "PRAGMA journal_mode") == [("wal",)]


async def test_in_memory_database_opens_and_migrates() -> None:
    async with await Storage.open(":memory:") as memory:
        created = await memory.games.create_game(new_table())
        assert await memory.games.game(created.game_id) == created


async def test_failed_migration_leaves_no_trace(db_path: Path) -> None:
    broken = Migration(1, "broken", "CREATE TABLE t (x);\n-- oops\nCREATE TABLE t (y);\n")
    async with aiosqlite.connect(db_path, isolation_level=None) as db:
        with pytest.raises(sqlite3.OperationalError):
            await apply_migrations(SqliteConnection(db), asyncio.Lock(), FakeClock(), [broken])
    assert raw_query(db_path, "SELECT name FROM sqlite_master WHERE name = 't'") == []
    assert raw_query(db_path, "SELECT * FROM schema_migrations") == []


def test_statement_splitter_keeps_comments_and_rejects_unterminated_sql() -> None:
    script = "-- heading\nCREATE TABLE a (x);\nCREATE TABLE b (y); -- tail\n-- end\n"
    assert len(list(split_statements(script))) == 2
    with pytest.raises(ValueError, match="unterminated"):
        list(split_statements("CREATE TABLE a (x)"))


def test_storage_imports_only_kozelbot_models_aiosqlite_and_stdlib() -> None:
    allowed = {
        "kozelbot.core.records",
        "kozelbot.core.table",
        "kozelbot.core.ratings",
        "kozelbot.core.metrics",  # the Meter it reports transactions to (issue #33)
        "kozelbot.tables.repository",
        "kozelbot.core.tournament.model",
        "aiosqlite",
        "psycopg",
        "storage",
    }
    for source in STORAGE_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                ok = root in sys.stdlib_module_names or any(
                    name == a or name.startswith(a + ".") for a in allowed
                )
                assert ok, f"{source.name} imports {name}"


# -- games -------------------------------------------------------------------------------


async def test_created_game_gets_an_id_and_round_trips(storage: Storage) -> None:
    table = new_table()
    created = await storage.games.create_game(table)
    assert created.game_id > 0
    assert table.game_id == 0, "the caller's table is not mutated"
    assert created.created_at > 0
    assert await storage.games.game(created.game_id) == created
    assert await storage.games.live_game(CHAT) == created
    assert await storage.games.live_games() == [created]


async def test_second_live_game_in_a_chat_is_refused(storage: Storage) -> None:
    await storage.games.create_game(new_table())
    with pytest.raises(GameAlreadyRunning) as refused:
        await storage.games.create_game(new_table(status=TableStatus.PLAYING))
    assert refused.value.chat_id == CHAT
    other = await storage.games.create_game(new_table(OTHER_CHAT))
    assert [t.game_id for t in await storage.games.live_games()] == [1, other.game_id]


@pytest.mark.parametrize("ending", [TableStatus.FINISHED, TableStatus.STOPPED])
async def test_ended_game_frees_its_chat(storage: Storage, ending: TableStatus) -> None:
    first = await storage.games.create_game(new_table())
    await storage.games.save_game(bumped(first, status=ending))
    assert await storage.games.live_game(CHAT) is None
    second = await storage.games.create_game(new_table())
    assert await storage.games.live_game(CHAT) == second
    ended = await storage.games.game(first.game_id)
    assert ended is not None and ended.status is ending
    assert await storage.games.live_games() == [second]


async def test_reviving_an_ended_game_beside_a_live_one_is_refused(storage: Storage) -> None:
    first = await storage.games.create_game(new_table())
    await storage.games.save_game(bumped(first, status=TableStatus.STOPPED))
    await storage.games.create_game(new_table())
    with pytest.raises(GameAlreadyRunning):
        await storage.games.save_game(bumped(first, version=2, status=TableStatus.LOBBY))


async def test_save_bumps_version_and_appends_moves_and_deals(storage: Storage) -> None:
    created = await storage.games.create_game(new_table())
    gid = created.game_id
    playing = bumped(created, status=TableStatus.PLAYING, move_seq=2, deadline=123.5)
    deal = DealRecord(
        game_id=gid,
        deal_no=1,
        outcome="win",
        points=(70, 50),
        award=(1, 0),
        multiplier=1,
        score=(1, 0),
        trace={"tricks": [["6S", "7S", "8S", "9S"]], "trump": "C"},
    )
    await storage.games.save_game(
        playing, moves=[move(gid, 1), move(gid, 2, "play:7S")], deals=[deal]
    )
    assert await storage.games.game(gid) == playing
    assert [m.seq for m in await storage.games.moves(gid)] == [1, 2]
    assert (await storage.games.moves(gid))[1] == move(gid, 2, "play:7S")
    assert await storage.games.deals(gid) == [deal]


async def test_stale_version_is_refused_and_writes_nothing(storage: Storage) -> None:
    created = await storage.games.create_game(new_table())
    gid = created.game_id
    unbumped = created.model_copy(update={"move_seq": 1})
    with pytest.raises(StaleVersion) as refused:
        await storage.games.save_game(unbumped, moves=[move(gid, 1)])
    assert refused.value.game_id == gid
    with pytest.raises(StaleVersion):
        await storage.games.save_game(bumped(bumped(created)), moves=[move(gid, 1)])
    assert await storage.games.game(gid) == created
    assert await storage.games.moves(gid) == []


async def test_saving_an_unknown_game_is_stale(storage: Storage) -> None:
    ghost = new_table(game_id=999, version=1)
    with pytest.raises(StaleVersion):
        await storage.games.save_game(ghost)


async def test_records_of_another_game_are_refused_before_writing(storage: Storage) -> None:
    created = await storage.games.create_game(new_table())
    with pytest.raises(ValueError, match="another game"):
        await storage.games.save_game(bumped(created), moves=[move(created.game_id + 1, 1)])
    assert await storage.games.game(created.game_id) == created


async def test_duplicate_move_seq_rolls_back_the_whole_save(storage: Storage) -> None:
    created = await storage.games.create_game(new_table())
    gid = created.game_id
    v1 = bumped(created, move_seq=2)
    await storage.games.save_game(v1, moves=[move(gid, 1), move(gid, 2)])
    v2 = bumped(v1, move_seq=3, status=TableStatus.PLAYING)
    with pytest.raises(Duplicate):
        await storage.games.save_game(v2, moves=[move(gid, 2, "play:QC"), move(gid, 3)])
    assert await storage.games.game(gid) == v1
    assert [m.action for m in await storage.games.moves(gid)] == ["play:6S", "play:6S"]
    # The failed transaction was rolled back: the connection takes the corrected save.
    await storage.games.save_game(v2, moves=[move(gid, 3)])
    assert [m.seq for m in await storage.games.moves(gid)] == [1, 2, 3]


async def test_concurrent_saves_of_one_version_let_exactly_one_win(storage: Storage) -> None:
    created = await storage.games.create_game(new_table())
    gid = created.game_id
    mine = bumped(created, move_seq=1, deadline=10.0)
    theirs = bumped(created, move_seq=1, deadline=20.0)
    outcomes = await asyncio.gather(
        storage.games.save_game(mine, moves=[move(gid, 1, "play:6S")]),
        storage.games.save_game(theirs, moves=[move(gid, 1, "play:AH")]),
        return_exceptions=True,
    )
    winners = [i for i, outcome in enumerate(outcomes) if outcome is None]
    assert len(winners) == 1
    assert all(isinstance(o, StaleVersion) for o in outcomes if o is not None)
    winner = (mine, theirs)[winners[0]]
    assert await storage.games.game(gid) == winner
    expected_action = "play:6S" if winner is mine else "play:AH"
    assert [m.action for m in await storage.games.moves(gid)] == [expected_action]


async def test_cancelled_saves_are_all_or_nothing_and_leave_storage_usable(
    storage: Storage,
) -> None:
    created = await storage.games.create_game(new_table())
    gid = created.game_id
    for yields in range(30):  # cancel at every point of the transaction, in turn
        current = await storage.games.game(gid)
        assert current is not None
        step = bumped(current, move_seq=current.move_seq + 1)
        task = asyncio.create_task(storage.games.save_game(step, moves=[move(gid, step.move_seq)]))
        for _ in range(yields):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        after = await storage.games.game(gid)
        assert after is not None and after.version in (current.version, step.version)
        assert len(await storage.games.moves(gid)) == after.move_seq
    last = await storage.games.game(gid)
    assert last is not None
    await storage.games.save_game(bumped(last))


async def test_committed_data_survives_a_restart(db_path: Path) -> None:
    async with await Storage.open(db_path) as before:
        created = await before.games.create_game(new_table())
        playing = bumped(created, status=TableStatus.PLAYING, move_seq=1)
        await before.games.save_game(playing, moves=[move(created.game_id, 1)])
        await before.people.upsert_user(1, "Anna", "anna", "ru")
    async with await Storage.open(db_path) as after:
        assert await after.games.live_games() == [playing]
        assert await after.games.moves(created.game_id) == [move(created.game_id, 1)]
        user = await after.people.user(1)
        assert user is not None and user.first_name == "Anna"


# -- results and rankings ----------------------------------------------------------------

Seat = tuple[int | None, str]


async def play_match(
    storage: Storage, seats: Sequence[Seat], winner_side: int, chat_id: int = CHAT
) -> MatchResult:
    """Create a game in the chat and finish it with the given seats (side = seat % 2)."""
    players = [Player(user_id=uid, name=name) for uid, name in seats]
    created = await storage.games.create_game(new_table(chat_id, seats=players))
    result = MatchResult(
        game_id=created.game_id,
        chat_id=chat_id,
        variant="hvalenyi",
        options={"deck": 36},
        winner_side=winner_side,
        score=(12, 7) if winner_side == 0 else (7, 12),
        deals=5,
        players=tuple(
            MatchPlayer(seat=s, user_id=uid, name=name, side=s % 2, won=s % 2 == winner_side)
            for s, (uid, name) in enumerate(seats)
        ),
    )
    await storage.games.save_game(bumped(created, status=TableStatus.FINISHED), result=result)
    return result


BOT: Seat = (None, "Computer")
ANNA: Seat = (1, "Anna")
BORIS: Seat = (2, "Boris")
VERA: Seat = (3, "Vera")
GLEB: Seat = (4, "Gleb")
DIMA: Seat = (5, "Dima")
EGOR: Seat = (6, "Egor")
FEDYA: Seat = (7, "Fedya")


async def test_result_is_saved_with_its_players(storage: Storage) -> None:
    result = await play_match(storage, [ANNA, VERA, BORIS, BOT], winner_side=0)
    assert await storage.games.match_result(result.game_id) == result
    assert await storage.games.match_result(result.game_id + 1) is None
    assert await storage.boards.finished_matches(CHAT) == 1
    assert await storage.games.live_game(CHAT) is None


async def test_leaderboard_ranks_people_by_wins_then_rate_then_played_then_name(
    storage: Storage,
) -> None:
    # seats 0 and 2 are side 0, seats 1 and 3 side 1
    await play_match(storage, [ANNA, VERA, BORIS, DIMA], winner_side=0)
    await play_match(storage, [ANNA, VERA, BORIS, BOT], winner_side=0)
    await play_match(storage, [ANNA, VERA, BOT, GLEB], winner_side=1)
    await play_match(storage, [DIMA, BOT, EGOR, BOT], winner_side=1)
    await play_match(storage, [FEDYA, BOT, BOT, BOT], winner_side=1)
    await play_match(storage, [EGOR, BORIS, BOT, BOT], winner_side=0, chat_id=OTHER_CHAT)
    await storage.people.upsert_user(1, "Anya", None, None)  # a renamed user shows her current name

    board = await storage.boards.leaderboard(CHAT)
    assert [(r.name, r.played, r.won) for r in board] == [
        ("Boris", 2, 2),
        ("Anya", 3, 2),
        ("Gleb", 1, 1),
        ("Vera", 3, 1),
        ("Dima", 2, 0),
        ("Egor", 1, 0),
        ("Fedya", 1, 0),
    ]
    assert all(r.user_id is not None for r in board)
    assert [r.name for r in await storage.boards.leaderboard(CHAT, limit=2)] == ["Boris", "Anya"]
    assert await storage.boards.leaderboard(-999) == []
    assert await storage.boards.user_stats(6) == (2, 1)
    assert await storage.boards.user_stats(2) == (3, 2)
    assert await storage.boards.user_stats(42) == (0, 0)
    assert await storage.boards.finished_matches(CHAT) == 5


# -- users and chats ---------------------------------------------------------------------


async def test_user_upsert_keeps_chosen_language_and_private_flag(storage: Storage) -> None:
    assert await storage.people.user(1) is None
    await storage.people.upsert_user(1, "Anna", "anna", "ru")
    await storage.people.set_user_language(1, "uk")
    await storage.people.set_private_open(1, True)
    await storage.people.upsert_user(1, "Anna K.", None, "en")
    user = await storage.people.user(1)
    assert user is not None
    assert (user.first_name, user.username, user.language_code) == ("Anna K.", None, "en")
    assert (user.language, user.private_open) == ("uk", True)
    await storage.people.set_private_open(1, False)
    await storage.people.set_user_language(1, None)
    user = await storage.people.user(1)
    assert user is not None and (user.language, user.private_open) == (None, False)


async def test_private_flag_for_an_unknown_user_creates_the_row(storage: Storage) -> None:
    await storage.people.set_private_open(9, True)
    user = await storage.people.user(9)
    assert user is not None and user.private_open and user.first_name == ""


async def test_chat_language_round_trips_and_survives_title_changes(storage: Storage) -> None:
    assert await storage.people.chat_language(CHAT) is None
    await storage.people.upsert_chat(CHAT, "Kozel club")
    await storage.people.set_chat_language(CHAT, "ru")
    await storage.people.upsert_chat(CHAT, "Kozel club 2")
    assert await storage.people.chat_language(CHAT) == "ru"
    await storage.people.set_chat_language(OTHER_CHAT, "en")  # no upsert_chat first
    assert await storage.people.chat_language(OTHER_CHAT) == "en"
    await storage.people.set_chat_language(CHAT, None)
    assert await storage.people.chat_language(CHAT) is None


async def test_leaving_a_match_warns_and_finishing_one_clears_a_warning(storage: Storage) -> None:
    """RULES.md §3: abandoning matches repeatedly flags a player; a finished match clears one."""
    await storage.people.upsert_user(1, "Anna", None, "ru")
    for chat in (-1, -2):
        created = await storage.games.create_game(new_table(chat))
        await storage.games.save_game(bumped(created, status=TableStatus.STOPPED), abandoned=[1])
    record = await storage.people.user(1)
    assert record is not None and record.abandons == 2 and record.flagged
    await play_match(storage, [ANNA, BOT, BOT, BOT], winner_side=1)
    record = await storage.people.user(1)
    assert record is not None and record.abandons == 1 and not record.flagged
    await play_match(storage, [ANNA, BOT, BOT, BOT], winner_side=0)
    await play_match(storage, [ANNA, BOT, BOT, BOT], winner_side=0)
    record = await storage.people.user(1)
    assert record is not None and record.abandons == 0


async def test_a_stale_save_gives_no_warning(storage: Storage) -> None:
    created = await storage.games.create_game(new_table())
    with pytest.raises(StaleVersion):
        await storage.games.save_game(bumped(bumped(created)), abandoned=[9])
    assert await storage.people.user(9) is None


async def test_a_migrated_chat_takes_its_game_language_and_results_along(storage: Storage) -> None:
    await storage.people.set_chat_language(CHAT, "en")
    await play_match(storage, [ANNA, BORIS, VERA, GLEB], winner_side=0)
    live = await storage.games.create_game(new_table(CHAT))
    for kind, seat, chat, message_id in (
        ("table", -1, CHAT, 5),
        ("lobby", -1, CHAT, 4),
        ("hand", 0, ANNA[0], 7),
    ):
        await storage.posts.set_message(
            MessageRef(
                game_id=live.game_id,
                kind=kind,
                seat=seat,
                chat_id=chat,
                deal_no=0,
                message_id=message_id,
            )
        )
    await storage.games.save_game(
        bumped(live),
        outbox=[
            OutboxItem(chat_id=CHAT, game_id=live.game_id, kind="deal_result", payload={"n": 1})
        ],
    )
    await storage.games.migrate_chat(CHAT, -100777)
    moved = await storage.games.live_game(-100777)
    assert moved is not None and moved.game_id == live.game_id and moved.chat_id == -100777
    assert moved.version == live.version + 2
    # The group's messages stayed in the old chat; the private hand is still the hand.
    assert [(m.kind, m.message_id) for m in await storage.posts.game_messages(live.game_id)] == [
        ("hand", 7)
    ]
    assert await storage.posts.pending_posts(CHAT) == []
    assert [p.payload for p in await storage.posts.pending_posts(-100777)] == [{"n": 1}]
    assert await storage.games.live_game(CHAT) is None
    assert await storage.people.chat_language(-100777) == "en"
    assert [row.name for row in await storage.boards.leaderboard(-100777)][:1] == ["Anna"]
    await storage.games.save_game(bumped(moved))  # versions stay consistent after the move
    await storage.games.migrate_chat(CHAT, -100777)  # again: nothing left to move
    assert (await storage.games.live_game(-100777)).version == moved.version + 1  # type: ignore[union-attr]


async def test_a_migrated_chat_whose_new_id_already_has_a_game_stops_the_old_one(
    storage: Storage,
) -> None:
    old = await storage.games.create_game(new_table(CHAT))
    new = await storage.games.create_game(new_table(-100777))
    await storage.games.migrate_chat(CHAT, -100777)
    assert (await storage.games.live_game(-100777)).game_id == new.game_id  # type: ignore[union-attr]
    stopped = await storage.games.game(old.game_id)
    assert stopped is not None and stopped.status is TableStatus.STOPPED


# -- ids outside SQLite's 64-bit INTEGER ---------------------------------------------------

TOO_BIG = [2**63, -(2**63) - 1, 10**60, -(10**60)]
"""Ids SQLite cannot bind (``/start join-<60 digits>``, forged callback data)."""


@pytest.mark.parametrize("big", TOO_BIG)
async def test_reads_of_an_out_of_range_id_find_nothing(storage: Storage, big: int) -> None:
    await play_match(storage, [ANNA, VERA, BORIS, BOT], winner_side=0)
    assert await storage.games.game(big) is None
    assert await storage.games.live_game(big) is None
    assert await storage.people.user(big) is None
    assert await storage.people.chat_language(big) is None
    assert await storage.games.moves(big) == []
    assert await storage.games.deals(big) == []
    assert await storage.games.match_result(big) is None
    assert await storage.boards.leaderboard(big) == []
    assert await storage.boards.user_stats(big) == (0, 0)
    assert await storage.boards.finished_matches(big) == 0
    assert len(await storage.boards.leaderboard(CHAT, limit=big)) == 3  # a limit too is clamped


async def test_the_ends_of_the_64_bit_range_are_ordinary_ids(storage: Storage) -> None:
    for edge in (2**63 - 1, -(2**63)):
        assert await storage.games.game(edge) is None
        assert await storage.boards.user_stats(edge) == (0, 0)
        await storage.people.upsert_user(edge, "Edge", None, None)
        user = await storage.people.user(edge)
        assert user is not None and user.user_id == edge
        created = await storage.games.create_game(new_table(edge))
        assert await storage.games.live_game(edge) == created


@pytest.mark.parametrize("big", TOO_BIG)
async def test_writes_of_an_out_of_range_id_raise_value_error_and_write_nothing(
    storage: Storage, database: str, big: int
) -> None:
    live = await storage.games.create_game(new_table())
    await storage.people.upsert_chat(CHAT, "Kozel club")
    before = {t: look(database, f"SELECT * FROM {t}") for t in ("users", "chats", "games")}
    writes = [
        storage.people.upsert_user(big, "Forged", None, None),
        storage.people.set_private_open(big, True),
        storage.people.set_user_language(big, "en"),
        storage.people.upsert_chat(big, "Forged"),
        storage.people.set_chat_language(big, "en"),
        storage.games.migrate_chat(CHAT, big),
        storage.games.migrate_chat(big, CHAT),
        storage.games.create_game(new_table(big)),
        storage.games.save_game(bumped(live, game_id=big)),
        storage.games.save_game(bumped(live), abandoned=[big]),
        storage.games.save_game(
            bumped(live), moves=[move(live.game_id, 1).model_copy(update={"user_id": big})]
        ),
    ]
    for write in writes:
        with pytest.raises(ValueError):
            await write
    after = {t: look(database, f"SELECT * FROM {t}") for t in ("users", "chats", "games")}
    assert after == before
    assert await storage.games.moves(live.game_id) == []
    await storage.games.save_game(bumped(live), abandoned=[1])  # the connection is still usable
    assert await storage.games.game(live.game_id) == bumped(live)


async def test_posts_are_saved_with_the_move_and_read_back_in_order_until_done(
    storage: Storage,
) -> None:
    created = await storage.games.create_game(new_table(CHAT))
    posts = [
        OutboxItem(chat_id=CHAT, game_id=created.game_id, kind=kind, payload={"k": kind})
        for kind in ("final_table", "deal_result", "match_over")
    ]
    await storage.games.save_game(bumped(created), outbox=posts)
    assert await storage.posts.chats_with_posts() == [(CHAT, None)]
    pending = await storage.posts.pending_posts(CHAT)
    assert [p.kind for p in pending] == ["final_table", "deal_result", "match_over"]
    assert [p.payload for p in pending] == [{"k": p.kind} for p in pending]
    await storage.posts.post_done(pending[0].id)
    assert [p.kind for p in await storage.posts.pending_posts(CHAT, limit=1)] == ["deal_result"]
    for post in pending[1:]:
        await storage.posts.post_done(post.id)
    assert (
        await storage.posts.pending_posts(CHAT) == []
        and await storage.posts.chats_with_posts() == []
    )


async def test_a_stale_save_writes_no_post(storage: Storage) -> None:
    created = await storage.games.create_game(new_table(CHAT))
    post = OutboxItem(chat_id=CHAT, game_id=created.game_id, kind="deal_result", payload={})
    with pytest.raises(StaleVersion):
        await storage.games.save_game(bumped(bumped(created)), outbox=[post])
    assert await storage.posts.pending_posts(CHAT) == []


async def test_message_bookkeeping_is_kept_apart_from_the_game(storage: Storage) -> None:
    created = await storage.games.create_game(new_table(CHAT))
    ref = MessageRef(
        game_id=created.game_id, kind="hand", seat=2, chat_id=ANNA[0], deal_no=0, message_id=10
    )
    await storage.posts.set_message(ref)
    await storage.posts.set_message(ref.model_copy(update={"deal_no": 1, "message_id": 11}))
    assert [
        (m.deal_no, m.message_id) for m in await storage.posts.game_messages(created.game_id)
    ] == [(1, 11)]
    game = await storage.games.game(created.game_id)
    assert game is not None and game.version == created.version  # no version bump
    await storage.posts.forget_message(created.game_id, "hand", 2)
    assert await storage.posts.game_messages(created.game_id) == []


async def test_results_of_more_than_two_sides_are_kept_whole(storage: Storage) -> None:
    """Migration 004: a cover game each for self has a side per seat; deals and the match
    keep every side's figures (the two-column fields keep the first two)."""
    players = [Player(user_id=uid, name=name) for uid, name in (ANNA, BORIS, VERA)]
    created = await storage.games.create_game(new_table(CHAT, seats=players))
    gid = created.game_id
    deal = DealRecord(
        game_id=gid,
        deal_no=0,
        outcome="normal",
        points=(61, 30, 29),
        award=(0, 4, 4),
        multiplier=1,
        score=(0, 4, 4),
        trace={"rounds": []},
    )
    result = MatchResult(
        game_id=gid,
        chat_id=CHAT,
        variant="cover",
        options={"mode": "self", "players": 3},
        winner_side=0,
        score=(8, 12, 14),
        deals=4,
        players=tuple(
            MatchPlayer(seat=s, user_id=p.user_id, name=p.name, side=s, won=s == 0)
            for s, p in enumerate(players)
        ),
    )
    await storage.games.save_game(
        bumped(created, status=TableStatus.FINISHED), deals=[deal], result=result
    )
    assert await storage.games.deals(gid) == [deal]
    assert await storage.games.match_result(gid) == result
    two = DealRecord(
        game_id=gid,
        deal_no=1,
        outcome="eggs",
        points=(60, 60),
        award=(0, 0),
        multiplier=2,
        score=(0, 0),
        trace={},
    )
    await storage.games.save_game(bumped(await storage.games.game(gid), version=2), deals=[two])  # type: ignore[arg-type]
    assert (await storage.games.deals(gid))[1] == two


async def test_a_person_holds_one_live_seat_and_a_refused_save_writes_nothing(
    storage: Storage,
) -> None:
    first = await storage.games.create_game(new_table())  # Anna (user 1) sits here
    other = await storage.games.create_game(new_table(OTHER_CHAT))
    anna = Player(user_id=1, name="Anna")
    with pytest.raises(SeatTaken) as refused:
        await storage.games.save_game(bumped(other, seats=[anna, None, None, None]))
    assert refused.value.user_id == 1
    assert (await storage.games.game(other.game_id)) == other  # nothing written
    seated = await storage.games.live_seat(1)
    assert seated is not None and seated.game_id == first.game_id
    # The first game ends: its seats are free, and the second may seat her.
    await storage.games.save_game(bumped(first, status=TableStatus.FINISHED))
    assert await storage.games.live_seat(1) is None
    await storage.games.save_game(bumped(other, seats=[anna, None, None, None]))
    seated = await storage.games.live_seat(1)
    assert seated is not None and seated.game_id == other.game_id
    assert await storage.games.live_seat(2**70) is None


# -- file modes and durability (issue #14) --------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.usefixtures("loose_umask")
async def test_the_database_and_its_wal_and_shm_files_are_readable_by_the_owner_only(
    db_path: Path,
) -> None:
    async with await Storage.open(db_path) as opened:
        await opened.games.create_game(new_table())
        # SQLite gives the -wal and -shm files the database file's own mode.
        for path in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm")):
            assert _mode(path) == 0o600, f"{path.name}: {_mode(path):o}"
    assert umask_now() == 0o022, "the process-wide umask is left alone"


@pytest.mark.usefixtures("loose_umask")
async def test_a_database_left_readable_by_others_is_tightened_at_open(db_path: Path) -> None:
    async with await Storage.open(db_path) as opened:
        await opened.games.create_game(new_table())
        wal, shm = Path(f"{db_path}-wal"), Path(f"{db_path}-shm")
        # An older release made these (and a copy kept the files open meanwhile).
        keeper = sqlite3.connect(db_path)
        keeper.execute("SELECT COUNT(*) FROM games").fetchall()
    for path in (db_path, wal, shm):
        if path.exists():
            os.chmod(path, 0o664)
    async with await Storage.open(db_path) as reopened:
        assert len(await reopened.games.live_games()) == 1
        for path in (db_path, wal, shm):
            assert _mode(path) == 0o600, f"{path.name}: {_mode(path):o}"
    keeper.close()


def umask_now() -> int:
    """The current umask (read by setting it and putting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


async def test_a_commit_is_synced_to_disk_before_it_returns(storage: Storage) -> None:
    """``synchronous=FULL``: an accepted move survives a power cut, not just a process kill."""
    if storage.database.dialect != "sqlite":
        pytest.skip("SQLite's own setting (PostgreSQL's is the server's synchronous_commit)")
    rows = await storage.database.fetchall("PRAGMA synchronous")
    assert rows[0][0] == 2  # FULL (NORMAL is 1)
    rows = await storage.database.fetchall("PRAGMA journal_mode")
    assert rows[0][0] == "wal"


# -- the live games of one chat -------------------------------------------------------------


async def test_live_games_in_a_chat_are_its_lobbies_and_matches_by_topic_only(
    storage: Storage,
) -> None:
    seats = [Player(user_id=uid, name=f"P{uid}") for uid in (51, 52)]
    in_topic = await storage.games.create_game(new_table(CHAT, thread_id=7, seats=[seats[0]]))
    outside = await storage.games.create_game(new_table(CHAT))
    ended = await storage.games.create_game(new_table(CHAT, thread_id=9, seats=[seats[1]]))
    await storage.games.save_game(bumped(ended, status=TableStatus.FINISHED))
    other = await storage.games.create_game(new_table(OTHER_CHAT))
    playing = bumped(in_topic, status=TableStatus.PLAYING)
    await storage.games.save_game(playing)
    assert [t.game_id for t in await storage.games.live_games_in(CHAT)] == [
        outside.game_id,
        in_topic.game_id,
    ]
    assert await storage.games.live_games_in(CHAT) == [outside, playing]
    assert [t.game_id for t in await storage.games.live_games_in(OTHER_CHAT)] == [other.game_id]
    assert await storage.games.live_games_in(-999) == []
    assert await storage.games.live_games_in(2**70) == []


async def test_live_games_in_a_chat_read_only_its_live_games_index(storage: Storage) -> None:
    """The query is an index lookup of the chat's live games (the partial index holds only
    those), not a scan of every game the chat ever played."""
    if storage.database.dialect != "sqlite":
        pytest.skip("SQLite's query plan (PostgreSQL plans by its statistics)")
    statements: list[str] = []
    connection = storage.database.connection
    assert isinstance(connection, SqliteConnection)
    await connection.raw.set_trace_callback(statements.append)
    try:
        await storage.games.live_games_in(CHAT)
    finally:
        await connection.raw.set_trace_callback(None)
    (sql,) = [s for s in statements if "FROM games" in s]
    plan = " ".join(row[3] for row in await storage.database.fetchall(f"EXPLAIN QUERY PLAN {sql}"))
    assert "USING INDEX games_one_live_per_place (chat_id=?)" in plan
    assert "TEMP B-TREE" not in plan


# -- the bot's board messages (migration 007) -----------------------------------------------


async def test_a_board_button_edits_only_a_message_the_bot_sent_as_that_board(
    storage: Storage,
) -> None:
    await storage.posts.remember_board_message(CHAT, 10, "history")
    assert await storage.posts.is_board_message(CHAT, 10, "history")
    assert not await storage.posts.is_board_message(CHAT, 11, "history"), "another message"
    assert not await storage.posts.is_board_message(OTHER_CHAT, 10, "history"), "another chat"
    assert not await storage.posts.is_board_message(CHAT, 10, "top"), "another board"
    assert not await storage.posts.is_board_message(2**70, 10, "history")
    assert not await storage.posts.is_board_message(CHAT, -(2**70), "history")


async def test_only_the_newest_fifty_boards_of_a_chat_and_kind_are_remembered(
    storage: Storage,
) -> None:
    for message_id in range(1, 56):
        await storage.posts.remember_board_message(CHAT, message_id, "history")
    await storage.posts.remember_board_message(CHAT, 1000, "top")
    await storage.posts.remember_board_message(OTHER_CHAT, 1, "history")
    kept = [m for m in range(1, 56) if await storage.posts.is_board_message(CHAT, m, "history")]
    assert kept == list(range(6, 56))
    assert await storage.posts.is_board_message(CHAT, 1000, "top"), "another kind keeps its own"
    assert await storage.posts.is_board_message(OTHER_CHAT, 1, "history"), "another chat too"
    # Sent again (the same id), a board counts as new.
    await storage.posts.remember_board_message(CHAT, 6, "history")
    await storage.posts.remember_board_message(CHAT, 56, "history")
    assert await storage.posts.is_board_message(CHAT, 6, "history")
    assert not await storage.posts.is_board_message(CHAT, 7, "history")


async def test_a_folder_named_as_the_database_keeps_its_mode(tmp_path: Path) -> None:
    """``KOZEL_DB_PATH`` naming a folder (``/tmp``, say) is refused by SQLite, and the
    folder is left as it was: only regular files are made private (a shared 1777 folder
    once became 1700, locking everyone else out of it)."""
    folder = tmp_path / "shared"
    folder.mkdir()
    os.chmod(folder, 0o1777)
    with pytest.raises(Exception):  # noqa: B017 (SQLite's own error: not a database file)
        await Storage.open(folder)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o1777
