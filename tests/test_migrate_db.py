"""``kozelbot migrate-db SRC DST`` (issue #32): a SQLite database moved to PostgreSQL and back
again holds every row it held, each step; the ids it gave are never given again; the copy
opens as the bot's database and goes on; a target that holds anything, a missing source, a
wrong password or the source named twice is one line and exit code 1, with nothing written.

``storage.transfer.TABLES`` and ``IDENTITIES`` are held equal to each engine's own lists, so a
table added to the schema and not to the copy fails here.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import Awaitable, Callable
from operator import itemgetter
from pathlib import Path
from typing import Any

import psycopg
import pytest

from kozelbot.__main__ import main
from kozelbot.core.records import (
    ChatSettings,
    DealRecord,
    MatchPlayer,
    MatchResult,
    MessageRef,
    MoveRecord,
    MoveSource,
    OutboxItem,
)
from kozelbot.core.table import Player, Table, TableStatus, TournamentTable
from kozelbot.core.tournament.model import Tournament
from storage import Storage, transfer
from storage.transfer import IDENTITIES, NOT_COPIED, TABLES, engine_tables
from tests import postgres
from tests.engines import count, look

CHAT, OTHER_CHAT, CLUB = -100, -200, -300
ANNA, BORIS, VERA, GLEB = 11, 12, 13, 14
NAMES = {ANNA: "Anna", BORIS: "Boris", VERA: "Vera", GLEB: "Gleb ✨"}


def clock() -> Callable[[], float]:
    """A clock that ticks a tenth of a second and a bit per reading: times that are not whole
    numbers, to see floats come through exactly."""
    ticks = itertools.count(1)
    return lambda: 1_700_000_000.123456789 + next(ticks) * 0.1000001


def new_table(chat_id: int, seats: list[Player | None], **changes: object) -> Table:
    table = Table(
        chat_id=chat_id, variant="hvalenyi", options={"deck": 36}, creator_id=ANNA, seed=42
    )
    return table.model_copy(update={"seats": seats, **changes})


def bumped(table: Table, **changes: object) -> Table:
    return table.model_copy(update={"version": table.version + 1, **changes}, deep=True)


def move(game_id: int, seq: int) -> MoveRecord:
    return MoveRecord(
        game_id=game_id,
        seq=seq,
        deal_no=1,
        seat=seq % 4,
        action=f"play:{seq}S",
        source=MoveSource.HUMAN if seq % 2 else MoveSource.COMPUTER,
        user_id=ANNA if seq % 2 else None,
    )


async def finish_match(storage: Storage, chat_id: int, people: list[int], winner: int) -> None:
    """A match played to its end: its deal, its result, ratings, counts and tallies."""
    players = [Player(user_id=uid, name=NAMES[uid]) for uid in people]
    created = await storage.games.create_game(new_table(chat_id, list(players)))
    gid = created.game_id
    deal = DealRecord(
        game_id=gid,
        deal_no=1,
        outcome="normal",
        points=(71, 49),
        award=(2, 0),
        multiplier=1,
        score=(12, 7),
        trace={"rounds": [["6S", "7S"]]},
    )
    result = MatchResult(
        game_id=gid,
        chat_id=chat_id,
        variant="hvalenyi",
        options={"deck": 36},
        winner_side=winner,
        score=(12, 7) if winner == 0 else (7, 12),
        deals=5,
        players=tuple(
            MatchPlayer(
                seat=s, user_id=uid, name=NAMES[uid], side=s % 2, won=s % 2 == winner
            ).model_copy(update={"tally": {"deals": 5, "points": 120 + s, "eggs": s % 2}})
            for s, uid in enumerate(people)
        ),
    )
    await storage.games.save_game(
        bumped(created, status=TableStatus.FINISHED), deals=[deal], result=result
    )


async def fill(storage: Storage, path: str) -> Table:
    """Something in every table: people, groups, finished matches, a tournament with a table,
    notices, boards and a live game with moves, posts and messages; the newest game and
    tournament deleted and a post sent, so each id's high-water mark is above its largest id.
    Returns the live game."""
    for uid, name in NAMES.items():
        await storage.people.upsert_user(uid, name, name.lower(), "ru")
    await storage.people.set_private_open(ANNA, True)
    await storage.people.set_user_language(BORIS, "uk")
    for chat, title in ((CHAT, "Kozel club"), (OTHER_CHAT, None), (CLUB, "Тур")):
        await storage.people.upsert_chat(chat, title)
    await storage.people.set_chat_language(CHAT, "be")
    await storage.people.set_chat_settings(
        CHAT, ChatSettings(variant="hvalenyi", options={"deck": 36, "eyes": 12}, public=True)
    )
    await finish_match(storage, CHAT, [ANNA, BORIS, VERA, GLEB], winner=0)
    await finish_match(storage, CHAT, [GLEB, ANNA, BORIS, VERA], winner=1)
    await finish_match(storage, OTHER_CHAT, [VERA, GLEB, ANNA, BORIS], winner=0)
    await storage.notices.toggle(CLUB, ANNA)
    await storage.notices.toggle(CLUB, VERA)
    await storage.inbox.keep([(7001, '{"update_id":7001}'), (7002, '{"update_id":7002}')], ())
    for message_id, kind in ((5, "history"), (6, "top"), (7, "history")):
        await storage.posts.remember_board_message(CHAT, message_id, kind)

    tournament = await storage.tournaments.create_tournament(
        Tournament(chat_id=CLUB, creator_id=ANNA, variant="hvalenyi", seed=7, chat_title="Тур")
    )
    key = TournamentTable(tournament_id=tournament.tournament_id, round_no=1, table_no=1)
    await storage.games.create_game(
        new_table(CLUB, [Player(user_id=VERA, name="Vera"), None, None, None], tournament=key)
    )
    gone = await storage.tournaments.create_tournament(
        Tournament(chat_id=OTHER_CHAT, creator_id=BORIS, variant="hvalenyi", seed=8)
    )

    live = await storage.games.create_game(
        new_table(CHAT, [Player(user_id=ANNA, name="Anna"), None, Player(name="Computer 1"), None])
    )
    for _ in range(3):
        live = bumped(live, move_seq=live.move_seq + 1, status=TableStatus.PLAYING)
        posts = [
            OutboxItem(chat_id=CHAT, game_id=live.game_id, kind="deal_result", payload={"n": n})
            for n in range(2)
        ]
        await storage.games.save_game(live, moves=[move(live.game_id, live.move_seq)], outbox=posts)
    await storage.games.save_game(live := bumped(live), abandoned=[BORIS])
    for kind, seat, chat in (("table", -1, CHAT), ("hand", 0, ANNA)):
        await storage.posts.set_message(
            MessageRef(
                game_id=live.game_id,
                kind=kind,
                seat=seat,
                chat_id=chat,
                deal_no=1,
                message_id=78 + seat,
            )
        )
    pending = await storage.posts.pending_posts(CHAT)
    await storage.posts.post_done(pending[-1].id)  # the newest post sent: its id is gone
    newest = await storage.games.create_game(new_table(-999, [None, None, None, None]))

    # Nothing the bot does deletes a game or a tournament; an operator might.
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("DELETE FROM games WHERE game_id = ?", (newest.game_id,))
        raw.execute("DELETE FROM tournaments WHERE tournament_id = ?", (gone.tournament_id,))
    raw.close()
    return live


def by_name(database: str) -> dict[str, list[dict[str, Any]]]:
    """Each table's rows as dicts (the engines order a table's columns apart), in primary-key
    order (sorted here: the engines collate text apart)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for table in TABLES:
        if database.startswith("postgresql://"):
            names = [
                str(name)
                for (name,) in look(
                    database,
                    "SELECT column_name FROM information_schema.columns WHERE table_schema ="
                    f" current_schema() AND table_name = '{table.name}' ORDER BY ordinal_position",
                )
            ]
        else:
            names = [str(row[1]) for row in look(database, f"PRAGMA table_info({table.name})")]
        rows = [
            dict(zip(names, row, strict=True))
            for row in look(database, f"SELECT * FROM {table.name}")
        ]
        found[table.name] = sorted(rows, key=itemgetter(*table.key))
    return found


def kinds(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[list[str]]]:
    """The type of each value (``==`` alone would take 1.0 for 1)."""
    return {
        t: [[type(v).__name__ for v in row.values()] for row in found] for t, found in rows.items()
    }


def marks(database: str) -> dict[str, int]:
    """Each identity's high-water mark, read as the engine keeps it."""
    if database.startswith("postgresql://"):
        found = {}
        for table, column in IDENTITIES:
            [(sequence,)] = look(database, f"SELECT pg_get_serial_sequence('{table}', '{column}')")
            [(last, called)] = look(database, f"SELECT last_value, is_called FROM {sequence}")
            found[table] = int(str(last)) - (0 if called else 1)
        return found
    return {str(n): int(str(s)) for n, s in look(database, "SELECT name, seq FROM sqlite_sequence")}


def migrate(source: str, target: str) -> int:
    """``kozelbot migrate-db SOURCE TARGET``, as the console script runs it (its own loop)."""
    return main(["migrate-db", source, target])


def with_storage(database: str, use: Callable[[Storage], Awaitable[Any]]) -> Any:
    """``use`` the database opened as the bot opens it (with ``clock``), then closed."""

    async def run() -> Any:
        async with await Storage.open(database, clock=clock()) as storage:
            return await use(storage)

    return asyncio.run(run())


async def nothing(storage: Storage) -> None:
    """Only open (and migrate) the database."""


# -- the schema's tables and the copy's list -------------------------------------------------


def test_the_copy_lists_every_table_and_identity_of_each_engine(
    tmp_path: Path, pg_cluster: postgres.Cluster
) -> None:
    names = {table.name for table in TABLES}
    assert len(names) == len(TABLES)
    for target in (str(tmp_path / "kozel.db"), pg_cluster.new_database()):

        async def tables(storage: Storage) -> set[str]:
            async with storage.database.read() as reader:
                return await engine_tables(reader, storage.database.dialect)

        assert with_storage(target, tables) - NOT_COPIED == names, target
        if target.startswith("postgresql://"):
            sql = (
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND is_identity = 'YES'"
            )
        else:
            sql = (
                "SELECT name, (SELECT name FROM pragma_table_info(m.name) WHERE pk)"
                " FROM sqlite_master AS m WHERE sql LIKE '%AUTOINCREMENT%'"
            )
        assert set(look(target, sql)) == set(IDENTITIES), target


def test_each_table_is_copied_by_its_primary_key_after_the_tables_it_refers_to(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "kozel.db")
    with_storage(path, nothing)
    seen: set[str] = set()
    for table in TABLES:
        info = look(path, f"PRAGMA table_info({table.name})")
        key = [row[1] for row in sorted(info, key=lambda row: int(str(row[5]))) if row[5]]
        assert tuple(key) == table.key, table.name
        refers = {str(row[2]) for row in look(path, f"PRAGMA foreign_key_list({table.name})")}
        assert refers <= seen, f"{table.name} is copied before {refers - seen}"
        seen.add(table.name)


# -- SQLite → PostgreSQL → SQLite ------------------------------------------------------------


@pytest.mark.parametrize("batch", [transfer.BATCH, 2])
def test_sqlite_to_postgresql_and_back_keeps_every_row_and_every_id_given(
    batch: int,
    tmp_path: Path,
    pg_cluster: postgres.Cluster,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once as it runs, once two rows a batch (each batch read after the last key seen,
    composite and text keys too)."""
    monkeypatch.setattr(transfer, "BATCH", batch)
    source, middle, back = str(tmp_path / "a.db"), pg_cluster.new_database(), str(tmp_path / "b.db")
    live: Table = with_storage(source, lambda storage: fill(storage, source))
    playing = with_storage(source, lambda storage: storage.games.live_games())
    assert live in playing and len(playing) == 2  # and the tournament's table
    rows = by_name(source)
    assert all(rows.values()), [name for name, found in rows.items() if not found]
    mark = marks(source)
    largest = {t: max(row[c] for row in rows[t]) for t, c in IDENTITIES}
    assert all(mark[t] > largest[t] for t, _ in IDENTITIES), (mark, largest)

    assert migrate(source, middle) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    lines = printed.out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == [table.name for table in TABLES]
    assert [int(line.split()[1].replace(",", "")) for line in lines[:-1]] == [
        len(rows[table.name]) for table in TABLES
    ]
    total = sum(len(found) for found in rows.values())
    assert f"{total:,} rows in {len(TABLES)} tables" in lines[-1]
    assert postgres.PASSWORD not in printed.out
    assert migrate(middle, back) == 0
    for target in (middle, back):
        assert by_name(target) == rows and kinds(by_name(target)) == kinds(rows), target
        assert marks(target) == mark, target

    async def goes_on(storage: Storage) -> None:
        assert await storage.games.live_games() == playing
        assert await storage.games.moves(live.game_id) == [
            move(live.game_id, seq) for seq in (1, 2, 3)
        ]
        going = bumped(live, move_seq=4)
        post = OutboxItem(chat_id=CHAT, game_id=live.game_id, kind="deal_result", payload={})
        await storage.games.save_game(going, moves=[move(live.game_id, 4)], outbox=[post])
        assert await storage.games.game(live.game_id) == going
        assert [m.seq for m in await storage.games.moves(live.game_id)] == [1, 2, 3, 4]
        assert (await storage.posts.pending_posts(CHAT))[-1].id == mark["outbox"] + 1
        new = await storage.games.create_game(new_table(-999, [None, None, None, None]))
        assert new.game_id == mark["games"] + 1
        tournament = await storage.tournaments.create_tournament(
            Tournament(chat_id=OTHER_CHAT, creator_id=BORIS, variant="hvalenyi", seed=9)
        )
        assert tournament.tournament_id == mark["tournaments"] + 1

    for target in (middle, back):
        with_storage(target, goes_on)


def test_an_empty_database_copies_and_its_ids_start_at_one(
    tmp_path: Path, pg_cluster: postgres.Cluster
) -> None:
    source, middle, back = str(tmp_path / "a.db"), pg_cluster.new_database(), tmp_path / "b.db"
    with_storage(source, nothing)
    assert migrate(source, middle) == 0
    assert migrate(middle, str(back)) == 0
    assert marks(middle) == dict.fromkeys(("games", "outbox", "tournaments"), 0)
    assert marks(str(back)) == {}

    async def first_game(storage: Storage) -> int:
        created = await storage.games.create_game(new_table(CHAT, [None, None, None, None]))
        return created.game_id

    for target in (middle, str(back)):
        assert with_storage(target, first_game) == 1


# -- refusals --------------------------------------------------------------------------------


def test_a_target_that_holds_anything_is_refused_and_nothing_is_written(
    tmp_path: Path, pg_cluster: postgres.Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source = str(tmp_path / "old.db")
    with_storage(source, lambda storage: fill(storage, source))

    async def some_people(storage: Storage) -> None:
        await storage.people.upsert_user(GLEB, "Gleb", None, None)
        await storage.people.upsert_chat(CHAT, "Kozel club")
        await storage.people.upsert_chat(OTHER_CHAT, None)

    for target in (pg_cluster.new_database(), str(tmp_path / "held.db")):
        with_storage(target, some_people)
        before = by_name(target)
        assert migrate(source, target) == 1
        err = capsys.readouterr().err
        assert err.splitlines() == [
            "kozelbot migrate-db: the target database is not empty: 1 users, 2 chats"
        ]
        assert by_name(target) == before
        assert count(target, "games") == 0


def test_a_copy_that_fails_half_way_writes_nothing(
    tmp_path: Path, pg_cluster: postgres.Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = str(tmp_path / "old.db"), pg_cluster.new_database()
    with_storage(source, lambda storage: fill(storage, source))
    with sqlite3.connect(source) as raw:  # SQLite keeps what PostgreSQL's BIGINT refuses
        raw.execute("INSERT INTO notices (chat_id, user_id) VALUES (?, 'Anna')", (CHAT,))
    raw.close()
    assert migrate(source, target) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "invalid input syntax for type bigint" in err[0], err
    assert all(not rows for rows in by_name(target).values())


def test_the_same_database_named_twice_is_refused(
    tmp_path: Path, pg_cluster: postgres.Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kozel.db"
    url = pg_cluster.new_database()
    for database in (str(path), url):
        with_storage(database, nothing)
    (tmp_path / "sub").mkdir()
    for source, target in (
        (str(path), str(tmp_path / "sub" / ".." / "kozel.db")),
        (url, url.replace("127.0.0.1", "localhost")),
    ):
        assert migrate(source, target) == 1
        err = capsys.readouterr().err
        assert err.splitlines() == [
            "kozelbot migrate-db: the source and the target are the same database"
        ]


def test_a_missing_source_file_or_a_wrong_password_is_one_line_without_it(
    tmp_path: Path, pg_cluster: postgres.Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target, nowhere = str(tmp_path / "old.db"), tmp_path / "new.db", tmp_path / "no.db"
    assert migrate(str(nowhere), str(target)) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"kozelbot migrate-db: no database at {nowhere}"
    ]
    with_storage(source, nothing)
    name = pg_cluster.new_database().rsplit("/", 1)[1]
    wrong = pg_cluster.url(name, password="not-the-s3cret")
    for pair in ((source, wrong), (wrong, str(target))):
        assert migrate(*pair) == 1
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1, err
        assert err.startswith("kozelbot migrate-db: cannot connect to the database")
        assert "not-the-s3cret" not in err and "password authentication failed" in err
    assert not target.exists() and not nowhere.exists()


def test_a_failed_copy_into_a_new_file_leaves_no_file(
    tmp_path: Path, pg_cluster: postgres.Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    source = pg_cluster.new_database()
    with_storage(source, nothing)
    with psycopg.connect(source, autocommit=True) as raw:
        raw.execute("CREATE TABLE leftovers (id BIGINT PRIMARY KEY)")
    target = tmp_path / "new.db"
    assert migrate(source, str(target)) == 1
    assert capsys.readouterr().err.splitlines() == [
        "kozelbot migrate-db: the source database has tables this release does not copy: leftovers"
    ]
    assert list(tmp_path.iterdir()) == []


def test_bad_usage_is_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in ([], ["a.db"], ["a.db", "b.db", "c.db"], ["--x", "b.db"]):
        assert main(["migrate-db", *args]) == 2
        assert "kozelbot migrate-db SRC DST" in capsys.readouterr().err
