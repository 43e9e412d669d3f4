"""Every schema migration, applied to a database that has lived under the first schema.

The database starts empty, gets migration 001 only, and is filled through raw SQL of that
schema with what a bot leaves behind: users, chats, a finished match (moves, deals, result,
players), a stopped game, a running match whose ``data`` is a ``kozelbot.table.Table`` JSON
with engine state and the message-id keys that schema 001/002 kept there, and an open lobby.
Then the remaining migrations run one at a time. After each one: ``integrity_check`` and
``foreign_key_check`` pass, no row of any table that existed before is lost, and
``Storage.open`` (which brings the file to the newest schema) reads every game back.

The tests are parametrised over ``load_migrations()``: a migration added later is covered
without touching this file.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from kozelbot.core.protocol import DealScored, MatchOver, shuffle_rng
from kozelbot.core.ratings import shown
from kozelbot.core.records import DealRecord, MatchPlayer, MatchResult, MoveRecord, MoveSource
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.trace import deal_trace
from kozelbot.families.follow.vocabulary import Phase
from kozelbot.families.registry import DEFAULT_PRESET, preset
from storage import Storage
from storage.migrate import Migration, apply_migrations, load_migrations
from storage.sqlite import SqliteConnection

MIGRATIONS = load_migrations()
VERSIONS = [m.version for m in MIGRATIONS]

NOW = 1_700_000_000.0
CHAT, OTHER_CHAT = -1001234, -1005678
ANNA, BORIS, VERA, GLEB = 101, 102, 103, 104
FINISHED_ID, STOPPED_ID, LIVE_ID, LOBBY_ID = 1, 2, 3, 4
MESSAGE_KEYS = ("lobby_message_id", "table_message_id", "table_message_deal", "hand_messages")
"""Where schema 001/002 kept the ids of the bot's messages: inside each game's JSON."""


def clock() -> float:
    return NOW


def person(user_id: int, name: str) -> Player:
    return Player(user_id=user_id, name=name)


def computer(seat: int) -> Player:
    return Player(user_id=None, name=f"cpu{seat}")


# -- the data a bot on schema 001 leaves behind -------------------------------------------


@dataclass
class Game:
    """One game as stored: its row's JSON document, and what storage should read back."""

    doc: dict[str, Any]
    moves: list[MoveRecord] = field(default_factory=list)
    deals: list[DealRecord] = field(default_factory=list)
    result: MatchResult | None = None

    @property
    def table(self) -> Table:
        """The table storage reads back (the message-id keys are not ``Table`` fields)."""
        return Table.model_validate(self.doc)


def options() -> dict[str, Any]:
    return dict(preset(DEFAULT_PRESET).default_options().model_dump())


def play(
    table: Table, *, max_actions: int | None = None
) -> tuple[MatchState, list[MoveRecord], list[DealRecord], MatchOver | None]:
    """Play the table's match as the service does (computers choosing every action)."""
    state = MatchState(table.variant, table.options)
    moves: list[MoveRecord] = []
    deals: list[DealRecord] = []
    over: MatchOver | None = None
    names = [p.name if p is not None else "" for p in table.seats]
    while state.phase is not Phase.OVER and (max_actions is None or len(moves) < max_actions):
        if state.phase is Phase.DEALING:
            state.deal(shuffle_rng(table.seed, state.shuffles))
            continue
        seat = state.to_act()[0]
        assert state.current is not None
        deal_no = state.current.deal_no
        action = choose_action(state.view_for(seat))
        player = table.seats[seat]
        assert player is not None
        moves.append(
            MoveRecord(
                game_id=table.game_id,
                seq=len(moves) + 1,
                deal_no=deal_no,
                seat=seat,
                action=str(action),
                source=MoveSource.COMPUTER if player.is_computer else MoveSource.HUMAN,
                user_id=player.user_id,
            )
        )
        for event in state.apply(seat, action):
            if isinstance(event, DealScored):
                deals.append(
                    DealRecord(
                        game_id=table.game_id,
                        deal_no=event.deal_no,
                        outcome=event.outcome,
                        points=event.points,
                        award=event.award,
                        multiplier=event.multiplier,
                        score=event.score,
                        trace=deal_trace(state, event, match=table.game_id, players=names),
                    )
                )
            elif isinstance(event, MatchOver):
                over = event
    return state, moves, deals, over


def finished_game() -> Game:
    seats = [person(ANNA, "Anna"), computer(1), person(BORIS, "Boris"), person(VERA, "Vera")]
    table = Table(
        game_id=FINISHED_ID,
        chat_id=CHAT,
        chat_title="Kozel club",
        variant=DEFAULT_PRESET,
        options=options(),
        creator_id=ANNA,
        seed=1234,
        seats=list(seats),
        created_at=NOW - 3600,
    )
    state, moves, deals, over = play(table)
    assert over is not None and len(deals) >= 2
    table = table.model_copy(
        update={
            "status": TableStatus.FINISHED,
            "state": state.dump(),
            "version": len(moves) + 3,
            "move_seq": len(moves),
        }
    )
    result = MatchResult(
        game_id=FINISHED_ID,
        chat_id=CHAT,
        variant=table.variant,
        options=dict(table.options),
        winner_side=over.winner,
        score=over.score,
        deals=state.deal_no,
        players=tuple(
            MatchPlayer(
                seat=s, user_id=p.user_id, name=p.name, side=s % 2, won=s % 2 == over.winner
            )
            for s, p in enumerate(seats)
        ),
    )
    doc = json.loads(table.to_json())
    # An ended game kept the ids of its last messages; no migration may resurrect them.
    doc |= {"table_message_id": 90, "table_message_deal": state.deal_no, "lobby_message_id": 89}
    return Game(doc, moves, deals, result)


def stopped_game() -> Game:
    table = Table(
        game_id=STOPPED_ID,
        chat_id=CHAT,
        variant=DEFAULT_PRESET,
        options=options(),
        creator_id=GLEB,
        seed=99,
        seats=[person(GLEB, "Gleb"), computer(1), computer(2), computer(3)],
        created_at=NOW - 1800,
    )
    state, moves, _, _ = play(table, max_actions=3)
    table = table.model_copy(
        update={
            "status": TableStatus.STOPPED,
            "state": state.dump(),
            "version": 5,
            "move_seq": len(moves),
        }
    )
    return Game(json.loads(table.to_json()), moves)


def live_game() -> Game:
    """A running match in the middle of its first deal, with every kind of message id."""
    seats = [person(ANNA, "Anna"), person(BORIS, "Boris"), computer(2), person(VERA, "Vera")]
    table = Table(
        game_id=LIVE_ID,
        chat_id=CHAT,
        chat_title="Kozel club",
        variant=DEFAULT_PRESET,
        options=options(),
        creator_id=BORIS,
        seed=4242,
        seats=list(seats),
        created_at=NOW - 600,
    )
    state, moves, _, _ = play(table, max_actions=7)
    assert state.current is not None and state.phase is Phase.PLAY
    deal_no = state.current.deal_no
    table = table.model_copy(
        update={
            "status": TableStatus.PLAYING,
            "state": state.dump(),
            "version": 12,
            "move_seq": len(moves),
            "deadline": NOW + 60,
            "timeouts": [0, 1, 0, 0],
        }
    )
    doc = json.loads(table.to_json())
    doc |= {
        "lobby_message_id": 500,
        "table_message_id": 501,
        "table_message_deal": deal_no,
        # seat -> [deal, message id] (JSON object keys are strings); seat 2 is a computer
        "hand_messages": {"0": [deal_no, 7001], "1": [deal_no, 7002], "3": [deal_no, 7004]},
    }
    return Game(doc, moves)


def lobby_game() -> Game:
    table = Table(
        game_id=LOBBY_ID,
        chat_id=OTHER_CHAT,
        variant=DEFAULT_PRESET,
        options=options(),
        creator_id=GLEB,
        seed=7,
        seats=[person(GLEB, "Gleb"), None, person(VERA, "Vera"), None],
        version=3,
        deadline=NOW + 3600,
        created_at=NOW - 60,
    )
    doc = json.loads(table.to_json())
    doc |= {"lobby_message_id": 800, "table_message_id": None, "hand_messages": {}}
    return Game(doc)


@dataclass
class Seed:
    """Everything written under schema 001, by game id."""

    games: dict[int, Game]

    @property
    def finished(self) -> Game:
        return self.games[FINISHED_ID]

    @property
    def live(self) -> Game:
        return self.games[LIVE_ID]


def seed_schema_001(path: Path) -> Seed:
    """Fill a schema-001 database through that schema's SQL, as the bot of that time did."""
    games = {
        FINISHED_ID: finished_game(),
        STOPPED_ID: stopped_game(),
        LIVE_ID: live_game(),
        LOBBY_ID: lobby_game(),
    }
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT INTO users (user_id, first_name, username, language_code, language,"
            " private_open, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (ANNA, "Anna", "anna", "ru", None, 1, NOW - 9000, NOW - 100),
                (BORIS, "Boris", None, "uk", "en", 1, NOW - 8000, NOW - 200),
                (VERA, "Vera", "vera_k", None, None, 0, NOW - 7000, NOW - 300),
                (GLEB, "", None, None, None, 1, NOW - 6000, NOW - 400),  # only /start seen
            ],
        )
        conn.executemany(
            "INSERT INTO chats (chat_id, title, language, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (CHAT, "Kozel club", "uk", NOW - 9000, NOW - 100),
                (OTHER_CHAT, None, None, NOW - 500, NOW - 500),
            ],
        )
        for game_id, game in games.items():
            table = game.table
            conn.execute(
                "INSERT INTO games (game_id, chat_id, status, version, deadline, data,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    table.chat_id,
                    table.status.value,
                    table.version,
                    table.deadline,
                    json.dumps(game.doc, ensure_ascii=False),
                    table.created_at,
                    NOW - 10 * game_id,
                ),
            )
            conn.executemany(
                "INSERT INTO moves (game_id, seq, deal_no, seat, action, source, user_id,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (m.game_id, m.seq, m.deal_no, m.seat, m.action, m.source.value, m.user_id, NOW)
                    for m in game.moves
                ],
            )
            conn.executemany(
                "INSERT INTO deals (game_id, deal_no, outcome, points_0, points_1, award_0,"
                " award_1, multiplier, score_0, score_1, trace, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        d.game_id,
                        d.deal_no,
                        d.outcome,
                        *d.points,
                        *d.award,
                        d.multiplier,
                        *d.score,
                        json.dumps(d.trace),
                        NOW,
                    )
                    for d in game.deals
                ],
            )
            if game.result is not None:
                r = game.result
                conn.execute(
                    "INSERT INTO matches (game_id, chat_id, variant, options, winner_side,"
                    " score_0, score_1, deals, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        r.game_id,
                        r.chat_id,
                        r.variant,
                        json.dumps(r.options),
                        r.winner_side,
                        *r.score,
                        r.deals,
                        NOW - 1000,
                    ),
                )
                conn.executemany(
                    "INSERT INTO match_players (game_id, seat, user_id, name, side, won)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [(r.game_id, p.seat, p.user_id, p.name, p.side, int(p.won)) for p in r.players],
                )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return Seed(games)


# -- applying migrations and looking at the file ------------------------------------------


async def migrate(path: Path, migrations: list[Migration]) -> list[int]:
    """Apply ``migrations`` not yet recorded, the way ``Storage.open`` does; the ones applied."""
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        await db.execute("PRAGMA foreign_keys = ON")
        return await apply_migrations(
            SqliteConnection(db), asyncio.Lock(), clock, migrations=migrations
        )
    finally:
        await db.close()


def query(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


@dataclass(frozen=True)
class Rows:
    """A table's rows, named by their primary key (the rowid if it has none)."""

    key: tuple[str, ...]
    keys: frozenset[tuple[Any, ...]]


def tables_of(path: Path) -> dict[str, Rows]:
    """Every table of the file (SQLite's own excepted) with the keys of its rows."""
    names = [
        row[0]
        for row in query(
            path,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
    ]
    found = {}
    for name in names:
        info = query(path, f'PRAGMA table_info("{name}")')
        key = tuple(col[1] for col in sorted(info, key=lambda c: c[5]) if col[5] > 0)
        columns = ", ".join(f'"{c}"' for c in key) if key else "rowid"
        keys = frozenset(query(path, f'SELECT {columns} FROM "{name}"'))
        found[name] = Rows(key or ("rowid",), keys)
    return found


def check_file(path: Path) -> None:
    """The file is intact and every reference resolves."""
    assert query(path, "PRAGMA integrity_check") == [("ok",)]
    assert query(path, "PRAGMA foreign_key_check") == []


def check_nothing_lost(before: dict[str, Rows], after: dict[str, Rows]) -> None:
    """Every table that existed before still exists, with every row it had."""
    for name, rows in before.items():
        assert name in after, f"table {name} disappeared"
        now = after[name]
        if now.key == rows.key:
            missing = rows.keys - now.keys
            assert not missing, f"{name} lost rows {sorted(missing)[:5]}"
        else:  # the migration rebuilt the table with another key: compare counts
            assert len(now.keys) >= len(rows.keys), f"{name} lost rows"


async def check_storage_reads_everything(path: Path, seed: Seed) -> None:
    """``Storage.open`` brings the file to the newest schema and reads every game back."""
    async with await Storage.open(path, clock=clock) as storage:
        for game_id, game in seed.games.items():
            assert await storage.games.game(game_id) == game.table, f"game {game_id}"
            assert await storage.games.moves(game_id) == game.moves, f"moves of game {game_id}"
            assert await storage.games.deals(game_id) == game.deals, f"deals of game {game_id}"
            assert await storage.games.match_result(game_id) == game.result, f"result of {game_id}"
        assert await storage.games.live_game(CHAT) == seed.live.table
        assert [t.game_id for t in await storage.games.live_games()] == [LIVE_ID, LOBBY_ID]

        result = seed.finished.result
        assert result is not None
        people = [p for p in result.players if p.user_id is not None]
        board = await storage.boards.leaderboard(CHAT)
        assert {(r.user_id, r.name, r.played, r.won) for r in board} == {
            (p.user_id, p.name, 1, int(p.won)) for p in people
        }
        assert [r.won for r in board] == sorted((r.won for r in board), reverse=True)
        assert await storage.boards.leaderboard(OTHER_CHAT) == []
        assert await storage.boards.finished_matches(CHAT) == 1
        assert await storage.boards.user_stats(VERA) == (1, int(result.players[3].won))

        anna, boris, gleb = [await storage.people.user(u) for u in (ANNA, BORIS, GLEB)]
        assert anna is not None and (anna.first_name, anna.username) == ("Anna", "anna")
        assert anna.private_open and anna.language_code == "ru" and anna.language is None
        assert boris is not None and boris.language == "en"
        assert gleb is not None and gleb.first_name == "" and gleb.abandons == 0
        assert await storage.people.chat_language(CHAT) == "uk"
        assert await storage.people.chat_language(OTHER_CHAT) is None

        # The upgraded file takes writes: the running match goes on, the lobby can be left.
        live = seed.live.table
        step = live.model_copy(update={"version": live.version + 1, "move_seq": live.move_seq + 1})
        nxt = MoveRecord(
            game_id=LIVE_ID,
            seq=step.move_seq,
            deal_no=seed.live.moves[-1].deal_no,
            seat=0,
            action="play:AS",
            source=MoveSource.TIMEOUT,
            user_id=ANNA,
        )
        await storage.games.save_game(step, moves=[nxt])
        assert await storage.games.moves(LIVE_ID) == [*seed.live.moves, nxt]
        await storage.people.upsert_user(ANNA, "Anna K.", "anna", "ru")
    check_file(path)


@pytest.fixture
async def base(tmp_path: Path) -> tuple[Path, Seed]:
    """A file with schema 001 and data in it."""
    path = tmp_path / "kozel.db"
    assert await migrate(path, MIGRATIONS[:1]) == [VERSIONS[0]]
    return path, seed_schema_001(path)


# -- the tests ------------------------------------------------------------------------------


def test_migrations_are_numbered_from_1_without_gaps() -> None:
    assert list(range(1, len(VERSIONS) + 1)) == VERSIONS


def test_the_seed_is_what_a_schema_001_bot_stored() -> None:
    """The data under test is realistic: a whole match with its deals, a match mid-deal."""
    live, finished = live_game(), finished_game()
    assert live.table.state is not None and len(live.moves) == 7
    assert MatchState.load(live.table.state).current is not None
    assert all(key in live.doc for key in MESSAGE_KEYS)
    assert finished.result is not None and len(finished.deals) >= 2
    assert finished.table.state is not None
    assert MatchState.load(finished.table.state).phase is Phase.OVER
    assert [d.deal_no for d in finished.deals] == sorted({d.deal_no for d in finished.deals})


@pytest.mark.parametrize("version", VERSIONS, ids=lambda v: f"{v:03d}")
async def test_migration_keeps_every_row_and_storage_reads_the_games(
    base: tuple[Path, Seed], tmp_path: Path, version: int
) -> None:
    """Migrations before ``version`` one at a time, then ``version`` itself, checked."""
    path, seed = base
    for step in range(2, version):
        assert await migrate(path, MIGRATIONS[:step]) == [step]
    before = tables_of(path)
    applied = await migrate(path, MIGRATIONS[:version])
    assert applied == ([] if version == 1 else [version])
    check_file(path)
    after = tables_of(path)
    check_nothing_lost(before, after)
    recorded = [row[0] for row in query(path, "SELECT version FROM schema_migrations")]
    assert recorded == VERSIONS[:version]
    # Storage.open on a copy: it applies whatever newer migrations there are, then reads.
    upgraded = tmp_path / f"upgraded-from-{version:03d}.db"
    shutil.copyfile(path, upgraded)
    await check_storage_reads_everything(upgraded, seed)
    assert sorted(r[0] for r in query(upgraded, "SELECT version FROM schema_migrations")) == (
        VERSIONS
    )
    check_nothing_lost(after, tables_of(upgraded))


async def test_reopening_a_migrated_file_applies_nothing(base: tuple[Path, Seed]) -> None:
    path, seed = base
    async with await Storage.open(path, clock=clock):
        pass
    assert await migrate(path, MIGRATIONS) == []
    await check_storage_reads_everything(path, seed)


@pytest.mark.skipif(3 not in VERSIONS, reason="migration 003_presenter not written yet")
async def test_003_moves_the_message_ids_of_live_games_into_messages(
    base: tuple[Path, Seed],
) -> None:
    path, seed = base
    await migrate(path, MIGRATIONS[:2])
    assert await migrate(path, MIGRATIONS[:3]) == [3]
    live, deal = seed.live.doc, seed.live.doc["table_message_deal"]
    updated = {gid: NOW - 10 * gid for gid in seed.games}
    messages = query(
        path,
        "SELECT game_id, kind, seat, chat_id, deal_no, message_id, updated_at FROM messages",
    )
    assert sorted(messages, key=repr) == sorted(
        [
            (LIVE_ID, "lobby", -1, CHAT, None, live["lobby_message_id"], updated[LIVE_ID]),
            (LIVE_ID, "table", -1, CHAT, deal, live["table_message_id"], updated[LIVE_ID]),
            (LIVE_ID, "hand", 0, ANNA, deal, 7001, updated[LIVE_ID]),
            (LIVE_ID, "hand", 1, BORIS, deal, 7002, updated[LIVE_ID]),
            (LIVE_ID, "hand", 3, VERA, deal, 7004, updated[LIVE_ID]),
            (LOBBY_ID, "lobby", -1, OTHER_CHAT, None, 800, updated[LOBBY_ID]),
        ],
        key=repr,
    )  # ended games (finished, stopped) keep no messages
    for (data,) in query(path, "SELECT data FROM games"):
        assert not set(json.loads(data)) & set(MESSAGE_KEYS), "message ids left in the JSON"
    assert query(path, "SELECT COUNT(*) FROM outbox") == [(0,)]
    await check_storage_reads_everything(path, seed)


async def test_005_lists_people_seated_at_live_games_and_keys_live_games_by_topic(
    base: tuple[Path, Seed],
) -> None:
    path, _seed = base
    await migrate(path, MIGRATIONS[:4])
    expected: dict[int, int] = {}
    for game_id, data in query(
        path, "SELECT game_id, data FROM games WHERE status IN ('lobby', 'playing') ORDER BY 1"
    ):
        for player in json.loads(data)["seats"]:
            if player is not None and player.get("user_id") is not None:
                expected.setdefault(player["user_id"], game_id)  # the first seat stays
    assert expected, "the seed has people at live games"
    assert await migrate(path, MIGRATIONS[:5]) == [5]
    assert dict(query(path, "SELECT user_id, game_id FROM live_seats")) == expected
    assert set(query(path, "SELECT DISTINCT thread_id FROM games")) == {(0,)}
    index = query(path, "SELECT sql FROM sqlite_master WHERE name = 'games_one_live_per_place'")
    assert "chat_id, thread_id" in index[0][0]


async def test_007_adds_the_board_messages_the_bot_remembers_per_chat(
    base: tuple[Path, Seed],
) -> None:
    path, seed = base
    await migrate(path, MIGRATIONS[:6])
    assert await migrate(path, MIGRATIONS[:7]) == [7]
    columns = {row[1]: row[5] for row in query(path, "PRAGMA table_info(board_messages)")}
    assert columns == {"chat_id": 1, "message_id": 2, "kind": 0, "created_at": 0}
    assert query(path, "SELECT COUNT(*) FROM board_messages") == [(0,)]
    async with await Storage.open(path, clock=clock) as storage:
        await storage.posts.remember_board_message(CHAT, 900, "history")
        assert await storage.posts.is_board_message(CHAT, 900, "history")
        assert not await storage.posts.is_board_message(OTHER_CHAT, 900, "history")
    assert query(path, "SELECT chat_id, message_id, kind, created_at FROM board_messages") == [
        (CHAT, 900, "history", NOW)
    ]
    await check_storage_reads_everything(path, seed)


async def test_008_moves_shown_ratings_onto_the_display_scale(base: tuple[Path, Seed]) -> None:
    """A rating stored as ``round(mu - 3σ)`` becomes ``1000 + 20 × (mu - 3σ)`` everywhere it
    is copied (issue #15), the model's mu and sigma untouched."""
    path, seed = base
    await migrate(path, MIGRATIONS[:7])
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO ratings (user_id, variant, scope, mu, sigma, rating, matches,"
            " wins, updated_at) VALUES (77, 'kryuk', 'group', 30.0, 2.0, 24, 6, 4, 1.0)"
        )
        db.execute(
            "INSERT INTO global_players (variant, user_id, matches, wins, rating)"
            " VALUES ('kryuk', 77, 6, 4, 24)"
        )
    assert await migrate(path, MIGRATIONS[:8]) == [8]
    assert query(path, "SELECT mu, sigma, rating FROM ratings WHERE user_id = 77") == [
        (30.0, 2.0, shown(30.0, 2.0))
    ]
    assert query(path, "SELECT rating FROM global_players WHERE user_id = 77") == [(1480,)]
    await check_storage_reads_everything(path, seed)


async def test_009_keeps_every_family_count_by_name(base: tuple[Path, Seed]) -> None:
    """The follow-suit counts that 006 made columns move to rows by name (a person's
    totals) and to a JSON object (a match seat's), zeros left out; the counts every family
    has stay columns (issue #16)."""
    path, seed = base
    await migrate(path, MIGRATIONS[:8])
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO player_totals (user_id, scope, variant, matches, wins, deals,"
            " points, catches, eggs, lyusyas, handoffs, timeouts, abandons, streak, name,"
            " updated_at) VALUES (77, 'group', 'kryuk', 3, 2, 20, 900, 2, 1, 0, 4, 5, 0,"
            " 1, 'Ann', 1.0)"
        )
        db.execute(
            "UPDATE match_players SET deals = 6, points = 300, catches = 1, eggs = 0,"
            " lyusyas = 2, handoffs = 0, timeouts = 3 WHERE game_id = ? AND seat = 0",
            (FINISHED_ID,),
        )
    assert await migrate(path, MIGRATIONS[:9]) == [9]
    moved = query(path, "SELECT name, count FROM player_tallies WHERE user_id = 77 ORDER BY name")
    assert moved == [("catches", 2), ("eggs", 1), ("handoffs", 4)]
    assert query(
        path, "SELECT matches, deals, points, timeouts FROM player_totals WHERE user_id = 77"
    ) == [(3, 20, 900, 5)]
    (named,) = query(
        path, "SELECT tallies FROM match_players WHERE game_id = ? AND seat = 0", (FINISHED_ID,)
    )
    assert json.loads(named[0]) == {"catches": 1, "lyusyas": 2}
    columns = {row[1] for row in query(path, "PRAGMA table_info(player_totals)")}
    assert not columns & {"catches", "eggs", "lyusyas", "handoffs"}
    async with await Storage.open(path, clock=clock) as storage:
        (kryuk,) = await storage.boards.player_stats(77)
        assert kryuk.tallies == {"catches": 2, "eggs": 1, "handoffs": 4}
    await check_storage_reads_everything(path, seed)
