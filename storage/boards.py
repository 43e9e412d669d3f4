"""Ratings, leaderboards, personal stats, match history and per-chat settings.

A mixin of ``storage.Storage`` (it uses the connection, lock and helpers ``Storage`` has):
``_after_result`` and ``_after_abandon`` run inside ``save_game``'s transaction and keep the
aggregates of migration 006 (``ratings``, ``player_totals``, ``partners``, ``chat_players``,
``global_players``) in step with the matches, so that every read here is an index lookup or
a small range scan however many matches are stored.

What counts where:

- ``ratings``: rated matches only, per person, variant and scope (``group`` apart from
  ``private``, a person's /play against the computer; a result in a private chat is private
  whatever its ``scope`` says). Computed by ``kozelbot.ratings``.
- a chat's board: the chat's rated group matches; the global board: rated group matches in
  public chats (a chat without settings is public), both ordered by the person's group rating.
- ``player_stats``: every finished match of the scope, rated or not, and the abandons.
- ``board_messages`` (migration 007): the bot's own board messages, the newest
  ``BOARD_MESSAGES_KEPT`` per chat and kind, so a board's button edits only such a message.

A person who somehow held two seats of one match counts once, at their first seat (with the
tallies of both seats).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kozelbot.ratings import PRIOR, Contender, Skill, rate_match, shown
from kozelbot.records import (
    ABANDONS_FLAGGED,
    BoardRow,
    ChatSettings,
    HistoryPlayer,
    HistoryRow,
    MatchPlayer,
    MatchResult,
    Partner,
    RatingChange,
    VariantStats,
)
from kozelbot.table import CORE_TALLIES
from storage.values import fits
from storage.values import to_json as _json

if TYPE_CHECKING:
    import asyncio

    from kozelbot.table import Table

SCOPES = ("group", "private")

BOARD_MESSAGES_KEPT = 50
"""Board messages remembered per chat and kind; the buttons of older ones are refused."""

_INT64_MAX = 2**63 - 1

_TALLY_COLUMNS = ", ".join(CORE_TALLIES)
_TALLY_ADD = ", ".join(f"{key} = {key} + excluded.{key}" for key in CORE_TALLIES)

_UPSERT_TOTALS = f"""
INSERT INTO player_totals (user_id, scope, variant, matches, wins, {_TALLY_COLUMNS},
                           streak, name, updated_at)
VALUES (?, ?, ?, 1, ?, {", ".join("?" for _ in CORE_TALLIES)}, ?, ?, ?)
ON CONFLICT (user_id, scope, variant) DO UPDATE SET
    matches = matches + 1, wins = wins + excluded.wins, {_TALLY_ADD},
    streak = CASE WHEN excluded.wins > 0 THEN MAX(streak, 0) + 1 ELSE MIN(streak, 0) - 1 END,
    name = excluded.name, updated_at = excluded.updated_at
"""

_UPSERT_TALLY = """
INSERT INTO player_tallies (user_id, scope, variant, name, count) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (user_id, scope, variant, name) DO UPDATE SET count = count + excluded.count
"""

_PLAYER_TALLIES = """
SELECT variant, name, count FROM player_tallies WHERE user_id = :user_id AND scope = :scope
"""

_UPSERT_PARTNER = """
INSERT INTO partners (user_id, scope, variant, partner_id, matches, wins, name, updated_at)
VALUES (?, ?, ?, ?, 1, ?, ?, ?)
ON CONFLICT (user_id, scope, variant, partner_id) DO UPDATE SET
    matches = matches + 1, wins = wins + excluded.wins, name = excluded.name,
    updated_at = excluded.updated_at
"""

_UPSERT_RATING = """
INSERT INTO ratings (user_id, variant, scope, mu, sigma, rating, matches, wins, updated_at)
VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)
ON CONFLICT (user_id, variant, scope) DO UPDATE SET
    mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,
    matches = matches + 1, wins = wins + excluded.wins, updated_at = excluded.updated_at
"""

_UPSERT_CHAT_PLAYER = """
INSERT INTO chat_players (chat_id, variant, user_id, matches, wins, name, updated_at)
VALUES (?, ?, ?, 1, ?, ?, ?)
ON CONFLICT (chat_id, variant, user_id) DO UPDATE SET
    matches = matches + 1, wins = wins + excluded.wins, name = excluded.name,
    updated_at = excluded.updated_at
"""

_UPSERT_GLOBAL_PLAYER = """
INSERT INTO global_players (variant, user_id, matches, wins, rating) VALUES (?, ?, 1, ?, ?)
ON CONFLICT (variant, user_id) DO UPDATE SET
    matches = matches + 1, wins = wins + excluded.wins, rating = excluded.rating
"""

_CHAT_BOARD = """
SELECT cp.user_id AS user_id, cp.matches AS matches, cp.wins AS wins,
       COALESCE(r.rating, :prior) AS rating,
       COALESCE(NULLIF(u.first_name, ''), cp.name) AS name
FROM chat_players AS cp
LEFT JOIN ratings AS r
    ON r.user_id = cp.user_id AND r.variant = cp.variant AND r.scope = 'group'
LEFT JOIN users AS u ON u.user_id = cp.user_id
WHERE cp.chat_id = :chat_id AND cp.variant = :variant AND cp.matches >= :min_matches
ORDER BY rating DESC, cp.matches DESC, cp.user_id
LIMIT :limit
"""

_GLOBAL_BOARD = """
SELECT g.user_id AS user_id, g.matches AS matches, g.wins AS wins, g.rating AS rating,
       COALESCE(NULLIF(u.first_name, ''), t.name, '') AS name
FROM global_players AS g
LEFT JOIN player_totals AS t
    ON t.user_id = g.user_id AND t.scope = 'group' AND t.variant = g.variant
LEFT JOIN users AS u ON u.user_id = g.user_id
WHERE g.variant = :variant AND g.matches >= :min_matches
ORDER BY g.rating DESC, g.matches DESC, g.user_id
LIMIT :limit
"""

_PLAYER_STATS = f"""
SELECT t.variant AS variant, t.matches AS matches, t.wins AS wins, {_TALLY_COLUMNS},
       t.abandons AS abandons, t.streak AS streak,
       COALESCE(r.rating, :prior) AS rating, COALESCE(u.abandons, 0) AS warnings
FROM player_totals AS t
LEFT JOIN ratings AS r
    ON r.user_id = t.user_id AND r.variant = t.variant AND r.scope = t.scope
LEFT JOIN users AS u ON u.user_id = t.user_id
WHERE t.user_id = :user_id AND t.scope = :scope
ORDER BY t.matches DESC, t.variant
"""

# The partner a person won most with; equal wins: fewer matches together (the better
# rate), then the smaller user id.
_BEST_PARTNERS = """
SELECT variant, partner_id, wins, name FROM (
    SELECT p.variant AS variant, p.partner_id AS partner_id, p.wins AS wins,
           COALESCE(NULLIF(u.first_name, ''), p.name) AS name,
           ROW_NUMBER() OVER (PARTITION BY p.variant
                              ORDER BY p.wins DESC, p.matches, p.partner_id) AS n
    FROM partners AS p
    LEFT JOIN users AS u ON u.user_id = p.partner_id
    WHERE p.user_id = :user_id AND p.scope = :scope AND p.wins > 0
)
WHERE n = 1
"""

_MATCH_COLUMNS = """
    m.game_id AS game_id, m.variant AS variant, m.finished_at AS finished_at,
    m.score_0 AS score_0, m.score_1 AS score_1, m.scores AS scores,
    m.winner_side AS winner_side, m.deals AS deals,
    mp.seat AS seat, mp.name AS name, mp.side AS side, mp.user_id AS user_id
"""

_HISTORY = f"""
WITH latest AS (
    SELECT game_id FROM matches WHERE chat_id = ?
    ORDER BY finished_at DESC, game_id DESC LIMIT ?
)
SELECT {_MATCH_COLUMNS}
FROM latest
JOIN matches AS m ON m.game_id = latest.game_id
LEFT JOIN match_players AS mp ON mp.game_id = m.game_id
ORDER BY m.finished_at DESC, m.game_id DESC, mp.seat
"""

_SUMMARY = f"""
SELECT {_MATCH_COLUMNS}
FROM matches AS m
LEFT JOIN match_players AS mp ON mp.game_id = m.game_id
WHERE m.game_id = ?
ORDER BY mp.seat
"""

# Adds (sign +1) or takes away (-1) a chat's people from the global board.
_GLOBAL_ADD = """
INSERT INTO global_players (variant, user_id, matches, wins, rating)
SELECT cp.variant, cp.user_id, cp.matches, cp.wins, COALESCE(r.rating, ?)
FROM chat_players AS cp
LEFT JOIN ratings AS r
    ON r.user_id = cp.user_id AND r.variant = cp.variant AND r.scope = 'group'
WHERE cp.chat_id = ?
ON CONFLICT (variant, user_id) DO UPDATE SET
    matches = matches + excluded.matches, wins = wins + excluded.wins
"""

_GLOBAL_TAKE = """
UPDATE global_players SET
    matches = global_players.matches - cp.matches, wins = global_players.wins - cp.wins
FROM (SELECT variant, user_id, matches, wins FROM chat_players WHERE chat_id = ?) AS cp
WHERE global_players.variant = cp.variant AND global_players.user_id = cp.user_id
"""


_fits = fits


def _clamp(limit: int) -> int:
    return max(0, min(limit, _INT64_MAX))


def _scope_of(result: MatchResult) -> str:
    """The result's scope; a match in a private chat (Telegram gives those positive ids,
    groups negative ones) is ``private`` whatever the result says, so that it can never
    reach a group board."""
    scope = "private" if result.chat_id > 0 else result.scope
    _check_scope(scope)
    return scope


def _check_scope(scope: str) -> None:
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, not {scope!r}")


@dataclass
class _Person:
    """A person of a finished match, over every seat they held."""

    user_id: int
    seat: int
    side: int
    name: str
    won: bool
    tally: dict[str, int] = field(default_factory=dict)


def _people(players: Iterable[MatchPlayer]) -> dict[int, _Person]:
    found: dict[int, _Person] = {}
    for p in sorted(players, key=lambda p: p.seat):
        if p.user_id is None:
            continue
        person = found.setdefault(p.user_id, _Person(p.user_id, p.seat, p.side, p.name, p.won))
        person.won = person.won or p.won
        for key, count in p.tally.items():
            person.tally[key] = person.tally.get(key, 0) + count
    return found


def _named(tally: dict[str, int]) -> dict[str, int]:
    """A tally's counts by the family's own names (the ones beyond ``CORE_TALLIES``)."""
    return {key: count for key, count in tally.items() if key not in CORE_TALLIES}


def _history_rows(rows: Iterable[sqlite3.Row]) -> list[HistoryRow]:
    """Group the rows of one match per seat (in match order) into history rows."""
    matches: dict[int, sqlite3.Row] = {}
    seats: dict[int, list[HistoryPlayer]] = {}
    for row in rows:
        game_id = row["game_id"]
        matches.setdefault(game_id, row)
        found = seats.setdefault(game_id, [])
        if row["seat"] is not None:
            found.append(
                HistoryPlayer(
                    seat=row["seat"], name=row["name"], side=row["side"], user_id=row["user_id"]
                )
            )
    return [
        HistoryRow(
            game_id=game_id,
            variant=row["variant"],
            finished_at=row["finished_at"],
            score=(
                tuple(json.loads(row["scores"])["score"])
                if row["scores"]
                else (row["score_0"], row["score_1"])
            ),
            winner_side=row["winner_side"],
            deals=row["deals"],
            players=tuple(seats[game_id]),
        )
        for game_id, row in matches.items()
    ]


class BoardsMixin:
    """Queries over stored matches (see the methods)."""

    _db: Any
    _lock: asyncio.Lock
    _clock: Callable[[], float]

    if TYPE_CHECKING:

        def _write(self) -> AbstractAsyncContextManager[None]: ...

        async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]: ...

        async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None: ...

    # -- hooks of save_game's transaction --------------------------------------------------

    async def _after_result(self, table: Table, result: MatchResult, now: float) -> None:
        """A match result was just written (same transaction): rate it and count it."""
        scope = _scope_of(result)
        await self._db.execute(
            "UPDATE matches SET scope = ?, thread_id = ?, rated = ? WHERE game_id = ?",
            (scope, result.thread_id or 0, int(result.rated), result.game_id),
        )
        await self._db.executemany(
            f"UPDATE match_players SET {', '.join(f'{k} = ?' for k in CORE_TALLIES)},"
            " tallies = ? WHERE game_id = ? AND seat = ?",
            [
                (*(p.tally.get(k, 0) for k in CORE_TALLIES), _json(_named(p.tally)),
                 result.game_id, p.seat)
                for p in result.players
            ],
        )  # fmt: skip
        people = _people(result.players)
        if not people:
            return
        variant = result.variant
        await self._db.executemany(
            _UPSERT_TOTALS,
            [
                (
                    p.user_id,
                    scope,
                    variant,
                    int(p.won),
                    *(p.tally.get(k, 0) for k in CORE_TALLIES),
                    1 if p.won else -1,
                    p.name,
                    now,
                )
                for p in people.values()
            ],
        )
        await self._db.executemany(
            _UPSERT_TALLY,
            [
                (p.user_id, scope, variant, name, count)
                for p in people.values()
                for name, count in _named(p.tally).items()
                if count > 0
            ],
        )
        await self._db.executemany(
            _UPSERT_PARTNER,
            [
                (p.user_id, scope, variant, q.user_id, int(p.won), q.name, now)
                for p in people.values()
                for q in people.values()
                if q.user_id != p.user_id and q.side == p.side
            ],
        )
        if result.rated:
            await self._rate(result, scope, people, now)

    async def _rate(
        self, result: MatchResult, scope: str, people: dict[int, _Person], now: float
    ) -> None:
        """Update the ratings of the match's people and what is ranked by them."""
        variant = result.variant
        marks = ", ".join("?" for _ in people)
        rows = await self._db.execute_fetchall(
            "SELECT user_id, mu, sigma FROM ratings"
            f" WHERE variant = ? AND scope = ? AND user_id IN ({marks})",
            (variant, scope, *people),
        )
        before = {row["user_id"]: Skill(row["mu"], row["sigma"]) for row in rows}
        contenders = [
            Contender(side=p.side, user_id=p.user_id, skill=before.get(p.user_id, PRIOR))
            if p.user_id is not None
            else Contender(side=p.side, level=p.level)
            for p in result.players
            # a second seat of one person is left out (see the module docstring)
            if p.user_id is None or people[p.user_id].seat == p.seat
        ]
        after = rate_match(contenders, result.winner_side)
        await self._db.executemany(
            _UPSERT_RATING,
            [
                (uid, variant, scope, s.mu, s.sigma, s.shown, int(people[uid].won), now)
                for uid, s in after.items()
            ],
        )
        await self._db.executemany(
            "UPDATE match_players SET mu_before = ?, sigma_before = ?, mu_after = ?,"
            " sigma_after = ? WHERE game_id = ? AND user_id = ?",
            [(*before.get(uid, PRIOR), *s, result.game_id, uid) for uid, s in after.items()],
        )
        if scope != "group":
            return
        await self._db.executemany(
            _UPSERT_CHAT_PLAYER,
            [
                (result.chat_id, variant, uid, int(people[uid].won), people[uid].name, now)
                for uid in after
            ],
        )
        if await self._is_public(result.chat_id):
            await self._db.executemany(
                _UPSERT_GLOBAL_PLAYER,
                [(variant, uid, int(people[uid].won), s.shown) for uid, s in after.items()],
            )
        else:  # the person's rating changed all the same
            await self._db.executemany(
                "UPDATE global_players SET rating = ? WHERE variant = ? AND user_id = ?",
                [(s.shown, variant, uid) for uid, s in after.items()],
            )

    async def _after_abandon(self, table: Table, user_id: int, now: float) -> None:
        """``user_id`` left ``table``'s running match (same transaction): count it."""
        seat = table.seat_of(user_id)
        player = table.seats[seat] if seat is not None else None
        await self._db.execute(
            "INSERT INTO player_totals (user_id, scope, variant, abandons, name, updated_at)"
            " VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (user_id, scope, variant) DO UPDATE SET"
            " abandons = abandons + 1, updated_at = excluded.updated_at,"
            " name = CASE WHEN name = '' THEN excluded.name ELSE name END",
            (
                user_id,
                "private" if table.private else "group",
                table.variant,
                player.name if player is not None else "",
                now,
            ),
        )

    async def _after_migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group got a new id (``Storage.migrate_chat``, same transaction): its board and
        settings follow it (merged into what the new id already has)."""
        if old_chat_id == new_chat_id:
            return
        # The new id keeps its own settings if it has some, else takes the old ones; the
        # people of both ids are on the global board exactly if the merged chat is public.
        was_public = {c: await self._is_public(c) for c in (old_chat_id, new_chat_id)}
        await self._db.execute(
            "UPDATE OR IGNORE chat_settings SET chat_id = ? WHERE chat_id = ?",
            (new_chat_id, old_chat_id),
        )
        await self._db.execute("DELETE FROM chat_settings WHERE chat_id = ?", (old_chat_id,))
        is_public = await self._is_public(new_chat_id)
        for chat_id, public in was_public.items():
            if public != is_public:
                await self._shift_global(chat_id, add=is_public)
        await self._db.execute(
            "INSERT INTO chat_players (chat_id, variant, user_id, matches, wins, name,"
            " updated_at) SELECT ?, variant, user_id, matches, wins, name, updated_at"
            " FROM chat_players WHERE chat_id = ?"
            " ON CONFLICT (chat_id, variant, user_id) DO UPDATE SET"
            " matches = matches + excluded.matches, wins = wins + excluded.wins,"
            " name = CASE WHEN excluded.updated_at > updated_at THEN excluded.name"
            " ELSE name END, updated_at = MAX(updated_at, excluded.updated_at)",
            (new_chat_id, old_chat_id),
        )
        await self._db.execute("DELETE FROM chat_players WHERE chat_id = ?", (old_chat_id,))

    async def _is_public(self, chat_id: int) -> bool:
        """Whether a chat's results go on the global board (inside a transaction)."""
        rows = list(
            await self._db.execute_fetchall(
                "SELECT public FROM chat_settings WHERE chat_id = ?", (chat_id,)
            )
        )
        return not rows or bool(rows[0]["public"])

    async def _shift_global(self, chat_id: int, *, add: bool) -> None:
        """Put a chat's people on the global board, or take them off (inside a transaction)."""
        if add:
            await self._db.execute(_GLOBAL_ADD, (PRIOR.shown, chat_id))
            return
        await self._db.execute(_GLOBAL_TAKE, (chat_id,))
        await self._db.execute(
            "DELETE FROM global_players WHERE matches <= 0 AND (variant, user_id) IN"
            " (SELECT variant, user_id FROM chat_players WHERE chat_id = ?)",
            (chat_id,),
        )

    # -- reads -----------------------------------------------------------------------------

    async def board(
        self, variant: str, *, chat_id: int | None, limit: int = 10, min_matches: int = 5
    ) -> list[BoardRow]:
        """The best people of a variant by group rating, then matches, then user id.

        With ``chat_id``: the people with at least ``min_matches`` rated matches of the
        variant in that chat, their matches and wins there. Without: the global board, the
        same over every public chat (``ChatSettings.public``; chats without settings are).
        """
        if chat_id is not None and not _fits(chat_id):
            return []
        params = {
            "variant": variant,
            "min_matches": max(1, min(min_matches, _INT64_MAX)),
            "limit": _clamp(limit),
            "prior": PRIOR.shown,
            "chat_id": chat_id,
        }
        rows = await self._fetchall(_GLOBAL_BOARD if chat_id is None else _CHAT_BOARD, params)
        return [
            BoardRow(
                user_id=r["user_id"],
                name=r["name"],
                rating=r["rating"],
                matches=r["matches"],
                wins=r["wins"],
            )
            for r in rows
        ]

    async def player_stats(self, user_id: int, *, scope: str = "group") -> list[VariantStats]:
        """A person's record per variant of ``scope`` they played, most played first."""
        _check_scope(scope)
        if not _fits(user_id):
            return []
        params = {"user_id": user_id, "scope": scope, "prior": PRIOR.shown}
        async with self._lock:
            totals = list(await self._db.execute_fetchall(_PLAYER_STATS, params))
            partners = list(await self._db.execute_fetchall(_BEST_PARTNERS, params))
            named = list(await self._db.execute_fetchall(_PLAYER_TALLIES, params))
        tallies: dict[str, dict[str, int]] = {}
        for r in named:
            tallies.setdefault(r["variant"], {})[r["name"]] = r["count"]
        best = {
            r["variant"]: Partner(user_id=r["partner_id"], name=r["name"], wins=r["wins"])
            for r in partners
        }
        return [
            VariantStats(
                variant=r["variant"],
                matches=r["matches"],
                wins=r["wins"],
                deals=r["deals"],
                points=r["points"],
                points_per_deal=r["points"] / r["deals"] if r["deals"] else 0.0,
                timeouts=r["timeouts"],
                tallies=tallies.get(r["variant"], {}),
                abandons=r["abandons"],
                flagged=r["warnings"] >= ABANDONS_FLAGGED,
                best_partner=best.get(r["variant"]),
                streak=r["streak"],
                rating=r["rating"],
            )
            for r in totals
        ]

    async def history(self, chat_id: int, *, limit: int = 10) -> list[HistoryRow]:
        """The chat's last ``limit`` finished matches, newest first."""
        if not _fits(chat_id):
            return []
        return _history_rows(await self._fetchall(_HISTORY, (chat_id, _clamp(limit))))

    async def match_summary(self, game_id: int) -> HistoryRow | None:
        """A finished match as the history shows it (the heading of its deal-by-deal view)."""
        if not _fits(game_id):
            return None
        found = _history_rows(await self._fetchall(_SUMMARY, (game_id,)))
        return found[0] if found else None

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """Each person's shown rating before and after a rated match, by seat (none for an
        unrated match, for matches stored before ratings, and for computers)."""
        if not _fits(game_id):
            return []
        rows = await self._fetchall(
            "SELECT user_id, mu_before, sigma_before, mu_after, sigma_after FROM match_players"
            " WHERE game_id = ? AND mu_after IS NOT NULL ORDER BY seat",
            (game_id,),
        )
        changes: dict[int, RatingChange] = {}
        for r in rows:
            changes.setdefault(
                r["user_id"],
                RatingChange(
                    user_id=r["user_id"],
                    before=shown(r["mu_before"], r["sigma_before"]),
                    after=shown(r["mu_after"], r["sigma_after"]),
                ),
            )
        return list(changes.values())

    async def rating(self, user_id: int, variant: str, *, scope: str = "group") -> int:
        """A person's shown rating in a variant (the prior's, 1000, before any rated match)."""
        _check_scope(scope)
        if not _fits(user_id):
            return PRIOR.shown
        row = await self._fetchone(
            "SELECT rating FROM ratings WHERE user_id = ? AND variant = ? AND scope = ?",
            (user_id, variant, scope),
        )
        return PRIOR.shown if row is None else int(row["rating"])

    # -- chat settings ---------------------------------------------------------------------

    async def chat_settings(self, chat_id: int) -> ChatSettings | None:
        """What a group chose for its new lobbies and the global board, if it chose."""
        if not _fits(chat_id):
            return None
        row = await self._fetchone(
            "SELECT variant, options, public FROM chat_settings WHERE chat_id = ?", (chat_id,)
        )
        if row is None:
            return None
        return ChatSettings(
            variant=row["variant"], options=json.loads(row["options"]), public=bool(row["public"])
        )

    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        """Store a group's settings; a change of ``public`` changes the global board at once."""
        now = self._clock()
        async with self._write():
            was_public = await self._is_public(chat_id)
            await self._db.execute(
                "INSERT INTO chat_settings (chat_id, variant, options, public, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET"
                " variant = excluded.variant, options = excluded.options,"
                " public = excluded.public, updated_at = excluded.updated_at",
                (chat_id, settings.variant, _json(settings.options), int(settings.public), now),
            )
            if was_public != settings.public:
                await self._shift_global(chat_id, add=settings.public)

    # -- the bot's board messages ------------------------------------------------------------

    async def remember_board_message(self, chat_id: int, message_id: int, kind: str) -> None:
        """Note that the bot sent ``message_id`` in ``chat_id`` as a ``kind`` board (e.g.
        ``"history"``); only the newest ``BOARD_MESSAGES_KEPT`` of a chat and kind are kept."""
        now = self._clock()
        async with self._write():
            await self._db.execute(
                "INSERT INTO board_messages (chat_id, message_id, kind, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat_id, message_id) DO UPDATE SET"
                " kind = excluded.kind, created_at = excluded.created_at",
                (chat_id, message_id, kind, now),
            )
            await self._db.execute(
                "DELETE FROM board_messages WHERE chat_id = ? AND kind = ? AND message_id IN"
                " (SELECT message_id FROM board_messages WHERE chat_id = ? AND kind = ?"
                "  ORDER BY created_at DESC, message_id DESC LIMIT -1 OFFSET ?)",
                (chat_id, kind, chat_id, kind, BOARD_MESSAGES_KEPT),
            )

    async def is_board_message(self, chat_id: int, message_id: int, kind: str) -> bool:
        """Whether the bot sent ``message_id`` in ``chat_id`` as a ``kind`` board (one of the
        newest it remembers)."""
        if not fits(chat_id, message_id):
            return False
        row = await self._fetchone(
            "SELECT 1 FROM board_messages WHERE chat_id = ? AND message_id = ? AND kind = ?",
            (chat_id, message_id, kind),
        )
        return row is not None
