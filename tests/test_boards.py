"""Boards, ratings, personal stats, match history and chat settings (``storage.boards``,
``storage.ranking``, ``storage.people``), through ``Games.save_game`` with results built as
``kozelbot.tables.service`` builds them."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import aiosqlite
import pytest

from kozelbot.core.ratings import PRIOR
from kozelbot.core.records import ABANDONS_FLAGGED, ChatSettings, MatchPlayer, MatchResult
from kozelbot.core.table import Player, Table, TableStatus
from storage import Storage, ranking
from storage.migrate import apply_migrations, load_migrations
from storage.sqlite import SqliteConnection
from tests.conftest import FakeClock

CHAT, OTHER_CHAT = -100, -200
ANNA, BORIS, VERA, GLEB = 1, 2, 3, 4
NAMES = {ANNA: "Anna", BORIS: "Boris", VERA: "Vera", GLEB: "Gleb"}
CPU: int | None = None
HUGE = 2**63
TALLIES = ("catches", "eggs", "lyusyas", "handoffs")
"""The follow-suit family's counts, in the order the match seat's columns had them."""

Seats = Sequence[int | None]


async def finish(
    storage: Storage,
    seats: Seats,
    winner_side: int,
    *,
    chat_id: int = CHAT,
    variant: str = "hvalenyi",
    each_for_self: bool = False,
    rated: bool = True,
    tally: dict[str, int] | None = None,
    level: str | None = None,
    scope: str | None = None,
) -> MatchResult:
    """Create a game with these seats (``None``: a computer) and save its result, as the
    service does: pairs are seats 0+2 against 1+3, each for self a side per seat."""
    players = [Player(user_id=uid, name=NAMES.get(uid or 0, "Computer")) for uid in seats]
    table = Table(
        chat_id=chat_id,
        variant=variant,
        options={},
        creator_id=ANNA,
        seed=1,
        seats=[*players, *[None] * (4 - len(players))],
    )
    created = await storage.games.create_game(table)
    side = [s if each_for_self else s % 2 for s in range(len(seats))]
    result = MatchResult(
        game_id=created.game_id,
        chat_id=chat_id,
        variant=variant,
        options={},
        winner_side=winner_side,
        score=tuple(12 if s == winner_side else 3 for s in sorted(set(side))),
        deals=4,
        players=tuple(
            MatchPlayer(
                seat=s,
                user_id=uid,
                name=players[s].name,
                side=side[s],
                won=side[s] == winner_side,
                tally=dict(tally or {}),
                level=level if uid is None else None,
            )
            for s, uid in enumerate(seats)
        ),
        scope=scope or ("private" if chat_id > 0 else "group"),
        rated=rated,
    )
    finished = created.model_copy(update={"version": 1, "status": TableStatus.FINISHED})
    await storage.games.save_game(finished, result=result)
    return result


async def abandon(storage: Storage, user_id: int, *, chat_id: int = CHAT) -> None:
    table = Table(
        chat_id=chat_id,
        variant="hvalenyi",
        options={},
        creator_id=user_id,
        seed=1,
        seats=[Player(user_id=user_id, name=NAMES[user_id]), None, None, None],
    )
    created = await storage.games.create_game(table)
    stopped = created.model_copy(update={"version": 1, "status": TableStatus.STOPPED})
    await storage.games.save_game(stopped, abandoned=[user_id])


async def rows(storage: Storage, sql: str, *params: object) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await storage.database.fetchall(sql, params)]


# -- ratings ---------------------------------------------------------------------------------


async def test_a_rated_result_moves_the_ratings_and_keeps_the_change(storage: Storage) -> None:
    result = await finish(storage, [ANNA, BORIS, VERA, GLEB], 0)
    changes = {c.user_id: c for c in await storage.boards.rating_changes(result.game_id)}
    assert set(changes) == {ANNA, BORIS, VERA, GLEB}
    assert changes[ANNA].before == PRIOR.shown and changes[ANNA].delta > 0
    assert changes[BORIS].delta < 0
    assert await storage.boards.rating(ANNA, "hvalenyi") == changes[ANNA].after
    assert await storage.boards.rating(ANNA, "kryuk") == PRIOR.shown  # per variant
    second = await finish(storage, [ANNA, BORIS, VERA, GLEB], 0)
    again = {c.user_id: c for c in await storage.boards.rating_changes(second.game_id)}
    assert again[ANNA].before == changes[ANNA].after


async def test_an_unrated_result_counts_in_stats_but_moves_no_rating(storage: Storage) -> None:
    result = await finish(storage, [ANNA, BORIS, VERA, GLEB], 0, rated=False)
    assert await storage.boards.rating_changes(result.game_id) == []
    assert await storage.boards.rating(ANNA, "hvalenyi") == PRIOR.shown
    assert await rows(storage, "SELECT COUNT(*) FROM ratings") == [(0,)]
    [stats] = await storage.boards.player_stats(ANNA)
    assert (stats.matches, stats.wins, stats.rating) == (1, 1, PRIOR.shown)
    assert await storage.boards.board("hvalenyi", chat_id=CHAT, min_matches=1) == []


async def test_a_match_with_computers_rates_only_the_person(storage: Storage) -> None:
    result = await finish(storage, [ANNA, CPU, CPU, CPU], 0, level="easy")
    [change] = await storage.boards.rating_changes(result.game_id)
    assert change.user_id == ANNA and change.delta > 0
    assert await rows(storage, "SELECT user_id FROM ratings") == [(ANNA,)]


async def test_private_matches_are_rated_apart_and_never_on_group_boards(
    storage: Storage,
) -> None:
    for _ in range(5):
        await finish(storage, [ANNA, CPU, CPU, CPU], 0, chat_id=ANNA)
    assert await storage.boards.rating(ANNA, "hvalenyi", scope="private") > PRIOR.shown
    assert await storage.boards.rating(ANNA, "hvalenyi") == PRIOR.shown
    assert await storage.boards.board("hvalenyi", chat_id=ANNA, min_matches=1) == []
    assert await storage.boards.board("hvalenyi", chat_id=None, min_matches=1) == []
    assert await storage.boards.player_stats(ANNA) == []
    [private] = await storage.boards.player_stats(ANNA, scope="private")
    assert (private.matches, private.wins, private.streak) == (5, 5, 5)
    with pytest.raises(ValueError, match="scope"):
        await storage.boards.player_stats(ANNA, scope="secret")


async def test_a_result_in_a_private_chat_is_private_whatever_it_says(storage: Storage) -> None:
    for _ in range(5):
        await finish(storage, [ANNA, CPU, CPU, CPU], 0, chat_id=ANNA, scope="group")
    assert await storage.boards.board("hvalenyi", chat_id=None, min_matches=1) == []
    assert await storage.boards.player_stats(ANNA) == []
    assert await rows(storage, "SELECT DISTINCT scope FROM matches") == [("private",)]


# -- boards ----------------------------------------------------------------------------------


async def test_a_person_shows_on_the_chat_board_from_five_matches(storage: Storage) -> None:
    for _ in range(4):
        await finish(storage, [ANNA, CPU, BORIS, CPU], 0)
    assert await storage.boards.board("hvalenyi", chat_id=CHAT) == []
    assert len(await storage.boards.board("hvalenyi", chat_id=CHAT, min_matches=4)) == 2
    await finish(storage, [ANNA, CPU, VERA, CPU], 1)
    board = await storage.boards.board("hvalenyi", chat_id=CHAT)
    assert [(r.user_id, r.name, r.matches, r.wins) for r in board] == [(ANNA, "Anna", 5, 4)]
    assert board[0].rating == await storage.boards.rating(ANNA, "hvalenyi")
    assert await storage.boards.board("hvalenyi", chat_id=OTHER_CHAT) == []
    assert await storage.boards.board("kryuk", chat_id=CHAT) == []


async def test_the_board_ranks_by_rating_then_matches_then_id_with_known_names(
    storage: Storage,
) -> None:
    for winner in (0, 0, 0, 1, 0):
        await finish(storage, [ANNA, BORIS, VERA, GLEB], winner)
    await storage.people.upsert_user(BORIS, "Борис", None, None)
    board = await storage.boards.board("hvalenyi", chat_id=CHAT)
    assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)
    assert {r.user_id for r in board[:2]} == {ANNA, VERA}
    # equal ratings (partners always together): the smaller id first
    assert [r.user_id for r in board] == [ANNA, VERA, BORIS, GLEB]
    assert board[2].name == "Борис"
    assert [r.user_id for r in await storage.boards.board("hvalenyi", chat_id=CHAT, limit=1)] == [
        ANNA
    ]
    assert await storage.boards.board("hvalenyi", chat_id=CHAT, limit=0) == []


async def test_the_global_board_lists_public_chats_only_and_follows_the_flag(
    storage: Storage,
) -> None:
    for _ in range(3):
        await finish(storage, [ANNA, CPU, BORIS, CPU], 0, chat_id=CHAT)
    for _ in range(3):
        await finish(storage, [ANNA, CPU, VERA, CPU], 1, chat_id=OTHER_CHAT)
    counted = {
        r.user_id: (r.matches, r.wins) for r in await storage.boards.board("hvalenyi", chat_id=None)
    }
    assert counted == {ANNA: (6, 3)}  # Boris and Vera have 3 each
    assert len(await storage.boards.board("hvalenyi", chat_id=None, min_matches=3)) == 3

    settings = ChatSettings(variant="hvalenyi", options={"move_time": 30}, public=False)
    await storage.people.set_chat_settings(OTHER_CHAT, settings)
    board = await storage.boards.board("hvalenyi", chat_id=None, min_matches=1)
    assert {r.user_id: (r.matches, r.wins) for r in board} == {ANNA: (3, 3), BORIS: (3, 3)}
    # a non-public chat keeps its own board, and its matches still move the rating
    assert len(await storage.boards.board("hvalenyi", chat_id=OTHER_CHAT, min_matches=1)) == 2
    await finish(storage, [ANNA, CPU, VERA, CPU], 0, chat_id=OTHER_CHAT)
    [anna] = [
        r
        for r in await storage.boards.board("hvalenyi", chat_id=None, min_matches=1)
        if r.user_id == ANNA
    ]
    assert anna.matches == 3 and anna.rating == await storage.boards.rating(ANNA, "hvalenyi")

    await storage.people.set_chat_settings(OTHER_CHAT, settings.model_copy(update={"public": True}))
    board = await storage.boards.board("hvalenyi", chat_id=None, min_matches=1)
    assert {r.user_id: (r.matches, r.wins) for r in board} == {
        ANNA: (7, 4),
        BORIS: (3, 3),
        VERA: (4, 1),
    }


# -- personal stats ----------------------------------------------------------------------------


async def test_stats_per_variant_add_up_the_tallies(storage: Storage) -> None:
    tally = {"deals": 4, "points": 250, "catches": 1, "eggs": 1, "timeouts": 2}
    await finish(storage, [ANNA, CPU, BORIS, CPU], 0, tally=tally)
    await finish(storage, [ANNA, CPU, BORIS, CPU], 1, tally={**tally, "lyusyas": 1})
    await finish(storage, [ANNA, BORIS, CPU], 0, variant="cover", each_for_self=True)
    hvalenyi, cover = await storage.boards.player_stats(ANNA)
    assert (hvalenyi.variant, cover.variant) == ("hvalenyi", "cover")  # most played first
    assert (hvalenyi.matches, hvalenyi.wins, hvalenyi.deals, hvalenyi.points) == (2, 1, 8, 500)
    assert hvalenyi.points_per_deal == pytest.approx(62.5)
    named = hvalenyi.tallies
    assert (named["catches"], named["eggs"], named["lyusyas"], hvalenyi.timeouts) == (2, 2, 1, 4)
    assert named.get("handoffs", 0) == 0 and hvalenyi.abandons == 0 and not hvalenyi.flagged
    assert (cover.matches, cover.wins, cover.points_per_deal, cover.best_partner) == (
        1,
        1,
        0.0,
        None,
    )
    stored = await rows(
        storage,
        "SELECT seat, deals, points, timeouts, tallies FROM match_players"
        " WHERE game_id = 1 ORDER BY seat",
    )
    seat, deals, points, timeouts, named_json = stored[0]
    named = json.loads(named_json)
    per_seat = [(seat, deals, points, *(named.get(k, 0) for k in TALLIES), timeouts)]
    assert per_seat[0] == (0, 4, 250, 1, 1, 0, 0, 2)


async def test_a_family_counts_anything_by_name_without_a_migration(storage: Storage) -> None:
    """Issue #16: a family's counts are stored by name; one no family had before (a cover
    game's claims, say) is kept and read back as it is, zeros not stored."""
    tally = {"deals": 3, "points": 150, "claims": 2, "eggs": 0}
    await finish(storage, [ANNA, BORIS, CPU], 0, variant="cover", each_for_self=True, tally=tally)
    await finish(
        storage,
        [ANNA, BORIS, CPU],
        1,
        variant="cover",
        each_for_self=True,
        tally={**tally, "claims": 1},
    )
    (cover,) = await storage.boards.player_stats(ANNA)
    assert cover.tallies == {"claims": 3} and (cover.deals, cover.points) == (6, 300)
    assert await rows(
        storage, "SELECT name, count FROM player_tallies WHERE user_id = ?", ANNA
    ) == [("claims", 3)]


async def test_abandons_are_counted_per_variant_and_flag_the_person(storage: Storage) -> None:
    await finish(storage, [ANNA, CPU, CPU, CPU], 0)
    for _ in range(ABANDONS_FLAGGED):
        await abandon(storage, ANNA)
    [stats] = await storage.boards.player_stats(ANNA)
    assert (stats.matches, stats.abandons, stats.flagged) == (1, ABANDONS_FLAGGED, True)
    await finish(storage, [ANNA, CPU, CPU, CPU], 0)  # finishing a match clears one warning
    [stats] = await storage.boards.player_stats(ANNA)
    assert (stats.matches, stats.abandons, stats.flagged) == (2, ABANDONS_FLAGGED, False)
    await abandon(storage, BORIS, chat_id=BORIS)  # a private match is another scope
    [boris] = await storage.boards.player_stats(BORIS, scope="private")
    assert (boris.matches, boris.abandons) == (0, 1)
    assert await storage.boards.player_stats(BORIS) == []


async def test_the_best_partner_is_the_one_won_with_most(storage: Storage) -> None:
    await finish(storage, [ANNA, GLEB, BORIS, CPU], 0)
    for _ in range(2):
        await finish(storage, [ANNA, GLEB, VERA, CPU], 0)
    await finish(storage, [ANNA, GLEB, VERA, CPU], 1)
    for _ in range(3):  # computers are never partners
        await finish(storage, [ANNA, GLEB, CPU, CPU], 0)
    [anna] = await storage.boards.player_stats(ANNA)
    assert anna.best_partner is not None
    assert (anna.best_partner.user_id, anna.best_partner.name, anna.best_partner.wins) == (
        VERA,
        "Vera",
        2,
    )
    [gleb] = await storage.boards.player_stats(GLEB)  # a computer partner, and one loss with none
    assert gleb.best_partner is None


async def test_the_streak_counts_the_latest_run_of_wins_or_losses(storage: Storage) -> None:
    for winner in (0, 0, 1, 1, 1):
        await finish(storage, [ANNA, BORIS], winner)
    [anna] = await storage.boards.player_stats(ANNA)
    [boris] = await storage.boards.player_stats(BORIS)
    assert (anna.streak, boris.streak) == (-3, 3)
    await finish(storage, [ANNA, BORIS], 0)
    [anna] = await storage.boards.player_stats(ANNA)
    assert anna.streak == 1
    await finish(storage, [ANNA, BORIS], 0, variant="kryuk")  # its own streak
    assert [(s.variant, s.streak) for s in await storage.boards.player_stats(ANNA)] == [
        ("hvalenyi", 1),
        ("kryuk", 1),
    ]


# -- history ------------------------------------------------------------------------------------


async def test_history_is_newest_first_and_limited(storage: Storage) -> None:
    results = [await finish(storage, [ANNA, CPU, BORIS, CPU], n % 2) for n in range(4)]
    await finish(storage, [VERA, GLEB], 0, chat_id=OTHER_CHAT)
    await finish(storage, [ANNA, BORIS, VERA], 2, variant="cover", each_for_self=True)
    history = await storage.boards.history(CHAT, limit=3)
    assert [h.game_id for h in history] == [6, results[3].game_id, results[2].game_id]
    cover = history[0]
    assert (cover.variant, cover.score, cover.winner_side, cover.deals) == (
        "cover",
        (3, 3, 12),
        2,
        4,
    )
    assert [(p.seat, p.name, p.side, p.user_id) for p in cover.players] == [
        (0, "Anna", 0, ANNA),
        (1, "Boris", 1, BORIS),
        (2, "Vera", 2, VERA),
    ]
    assert history[1].players[1].user_id is None and history[1].score == (3, 12)
    assert len(await storage.boards.history(CHAT)) == 5
    assert await storage.boards.history(CHAT, limit=0) == []
    assert await storage.boards.history(-999) == []
    assert (
        await storage.boards.match_summary(results[0].game_id)
        == (await storage.boards.history(CHAT))[-1]
    )
    assert await storage.boards.match_summary(999) is None


# -- chat settings --------------------------------------------------------------------------------


async def test_chat_settings_round_trip(storage: Storage) -> None:
    assert await storage.people.chat_settings(CHAT) is None
    settings = ChatSettings(
        variant="cover",
        options={"mode": "pairs", "move_time": 30, "seating": "ordered", "computer": "easy"},
    )
    await storage.people.set_chat_settings(CHAT, settings)
    assert await storage.people.chat_settings(CHAT) == settings
    assert settings.public
    changed = settings.model_copy(update={"variant": "kryuk", "options": {}, "public": False})
    await storage.people.set_chat_settings(CHAT, changed)
    assert await storage.people.chat_settings(CHAT) == changed
    assert await storage.people.chat_settings(OTHER_CHAT) is None


async def test_ids_too_large_for_sqlite_find_nothing(storage: Storage) -> None:
    assert await storage.boards.board("hvalenyi", chat_id=HUGE) == []
    assert await storage.boards.player_stats(HUGE) == []
    assert await storage.boards.player_stats(-HUGE - 1) == []
    assert await storage.boards.history(HUGE) == []
    assert await storage.boards.match_summary(HUGE) is None
    assert await storage.boards.rating_changes(HUGE) == []
    assert await storage.boards.rating(HUGE, "hvalenyi") == PRIOR.shown
    assert await storage.people.chat_settings(HUGE) is None
    with pytest.raises(ValueError):
        await storage.people.set_chat_settings(HUGE, ChatSettings(variant="hvalenyi", options={}))
    assert await rows(storage, "SELECT COUNT(*) FROM chat_settings") == [(0,)]


async def test_a_migrated_chat_takes_its_board_and_settings_along(storage: Storage) -> None:
    """``ranking.move_chat``, as ``Games.migrate_chat`` runs it in its transaction."""
    for _ in range(5):
        await finish(storage, [ANNA, CPU, BORIS, CPU], 0, chat_id=CHAT)
    await finish(storage, [ANNA, CPU, VERA, CPU], 0, chat_id=OTHER_CHAT)
    settings = ChatSettings(variant="hvalenyi", options={}, public=False)
    await storage.people.set_chat_settings(CHAT, settings)
    async with storage.database.write() as tx:
        await ranking.move_chat(tx, CHAT, OTHER_CHAT)
    assert await storage.people.chat_settings(OTHER_CHAT) == settings
    assert await storage.people.chat_settings(CHAT) is None
    board = await storage.boards.board("hvalenyi", chat_id=OTHER_CHAT, min_matches=1)
    assert {(r.user_id, r.matches) for r in board} == {(ANNA, 6), (BORIS, 5), (VERA, 1)}
    assert await storage.boards.board("hvalenyi", chat_id=CHAT, min_matches=1) == []
    assert await storage.boards.board("hvalenyi", chat_id=None, min_matches=1) == []  # not public


# -- migration ----------------------------------------------------------------------------------


def seed_schema_004(path: Path) -> None:
    """Two group matches and a private one, written with schema 004's SQL."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO users (user_id, first_name, created_at, updated_at, abandons)"
            " VALUES (?, 'Anna K.', 0, 0, 3)",
            (ANNA,),
        )
        matches = [
            # game, chat, variant, winner, finished, seats (user, side, won)
            (1, CHAT, "hvalenyi", 0, 100.0, [(ANNA, 0), (BORIS, 1), (VERA, 0), (None, 1)]),
            (2, CHAT, "hvalenyi", 1, 200.0, [(ANNA, 0), (BORIS, 1), (VERA, 0), (None, 1)]),
            (3, CHAT, "hvalenyi", 1, 300.0, [(ANNA, 0), (BORIS, 1), (VERA, 0), (None, 1)]),
            (4, ANNA, "hvalenyi", 0, 400.0, [(ANNA, 0), (None, 1), (None, 2)]),
        ]
        for game_id, chat_id, variant, winner, finished, seats in matches:
            conn.execute(
                "INSERT INTO games (game_id, chat_id, status, version, data, created_at,"
                " updated_at) VALUES (?, ?, 'finished', 3, '{}', 0, 0)",
                (game_id, chat_id),
            )
            sides = sorted({side for _, side in seats})
            scores = json.dumps({"score": [12 if s == winner else 3 for s in sides]})
            conn.execute(
                "INSERT INTO matches (game_id, chat_id, variant, options, winner_side, score_0,"
                " score_1, deals, finished_at, scores) VALUES (?, ?, ?, '{}', ?, 0, 0, 3, ?, ?)",
                (game_id, chat_id, variant, winner, finished, scores if len(sides) > 2 else None),
            )
            conn.executemany(
                "INSERT INTO match_players (game_id, seat, user_id, name, side, won)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, seat, uid, NAMES.get(uid or 0, "cpu"), side, int(side == winner))
                    for seat, (uid, side) in enumerate(seats)
                ],
            )
        conn.execute("COMMIT")
    finally:
        conn.close()


async def test_matches_stored_at_schema_004_are_counted_after_migrating(tmp_path: Path) -> None:
    path = tmp_path / "kozel.db"
    migrations = load_migrations()
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await apply_migrations(SqliteConnection(db), asyncio.Lock(), FakeClock(), migrations[:4])
    seed_schema_004(path)
    async with await Storage.open(path, clock=FakeClock()) as storage:
        board = await storage.boards.board("hvalenyi", chat_id=CHAT, min_matches=3)
        assert [(r.user_id, r.name, r.rating, r.matches, r.wins) for r in board] == [
            (ANNA, "Anna K.", PRIOR.shown, 3, 1),
            (BORIS, "Boris", PRIOR.shown, 3, 2),
            (VERA, "Vera", PRIOR.shown, 3, 1),
        ]
        assert await storage.boards.board("hvalenyi", chat_id=None, min_matches=3) == board
        [anna] = await storage.boards.player_stats(ANNA)
        assert (anna.matches, anna.wins, anna.streak, anna.flagged) == (3, 1, -2, True)
        assert anna.best_partner is not None and anna.best_partner.user_id == VERA
        assert anna.best_partner.wins == 1
        [private] = await storage.boards.player_stats(ANNA, scope="private")
        assert (private.matches, private.wins, private.streak) == (1, 1, 1)
        assert [h.game_id for h in await storage.boards.history(CHAT)] == [3, 2, 1]
        assert await storage.boards.rating_changes(3) == []
        # the next match is rated from the prior and adds to the old counts
        await finish(storage, [ANNA, BORIS, VERA, GLEB], 0)
        [anna] = await storage.boards.player_stats(ANNA)
        assert (anna.matches, anna.wins, anna.streak) == (4, 2, 1)
        assert (await storage.boards.rating_changes(5))[0].before == PRIOR.shown
