"""Reads over stored matches: leaderboards, boards by rating, personal stats, history,
match summaries and rating changes (what /top, /stats and /history show).

Every read is an index lookup or a small range scan however many matches are stored: the
aggregates it reads are kept in step with each result by ``storage.ranking``, inside the
result's own transaction. Ids too large for SQLite find nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kozelbot.core.ratings import PRIOR, shown
from kozelbot.core.records import (
    ABANDONS_FLAGGED,
    BoardRow,
    HistoryRow,
    LeaderRow,
    RatingChange,
    VariantStats,
)
from storage.core import Database
from storage.ranking import TALLY_COLUMNS, check_scope
from storage.values import INT64_MAX, fits, match_score

_LEADERBOARD = """
WITH per_match AS (
    -- one row per (user, match), even if a user somehow held two seats
    SELECT mp.user_id AS user_id, m.game_id AS game_id, MAX(mp.won) AS won,
           MIN(mp.name) AS name, m.finished_at AS finished_at
    FROM match_players AS mp
    JOIN matches AS m ON m.game_id = mp.game_id
    WHERE m.chat_id = ? AND mp.user_id IS NOT NULL
    GROUP BY mp.user_id, m.game_id
),
totals AS (
    SELECT user_id, COUNT(*) AS played, SUM(won) AS won
    FROM per_match
    GROUP BY user_id
)
SELECT * FROM (
    SELECT t.user_id AS user_id, t.played AS played, t.won AS won,
           COALESCE(
               NULLIF(u.first_name, ''),
               (SELECT p.name FROM per_match AS p WHERE p.user_id = t.user_id
                ORDER BY p.finished_at DESC, p.game_id DESC LIMIT 1)
           ) AS name
    FROM totals AS t
    LEFT JOIN users AS u ON u.user_id = t.user_id
) AS board
-- LOWER: ASCII letters folded, as SQLite's NOCASE did (both engines)
ORDER BY won DESC, CAST(won AS DOUBLE PRECISION) / played DESC, played DESC, LOWER(name),
         user_id
LIMIT ?
"""

_USER_STATS = """
WITH per_match AS (
    SELECT game_id, MAX(won) AS won FROM match_players WHERE user_id = ? GROUP BY game_id
)
SELECT COUNT(*) AS played, COALESCE(SUM(won), 0) AS won FROM per_match
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

_PLAYER_TALLIES = """
SELECT variant, name, count FROM player_tallies WHERE user_id = :user_id AND scope = :scope
"""

_PLAYER_STATS = f"""
SELECT t.variant AS variant, t.matches AS matches, t.wins AS wins, {TALLY_COLUMNS},
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
SELECT variant, partner_id AS user_id, wins, name FROM (
    SELECT p.variant AS variant, p.partner_id AS partner_id, p.wins AS wins,
           COALESCE(NULLIF(u.first_name, ''), p.name) AS name,
           ROW_NUMBER() OVER (PARTITION BY p.variant
                              ORDER BY p.wins DESC, p.matches, p.partner_id) AS n
    FROM partners AS p
    LEFT JOIN users AS u ON u.user_id = p.partner_id
    WHERE p.user_id = :user_id AND p.scope = :scope AND p.wins > 0
) AS ranked
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


def _clamp(limit: int) -> int:
    return max(0, min(limit, INT64_MAX))


def _history_rows(rows: Iterable[dict[str, Any]]) -> list[HistoryRow]:
    """Group the rows of a match, one per seat (in match order), into a history row."""
    matches: dict[int, dict[str, Any]] = {}
    for row in rows:
        match = matches.get(row["game_id"])
        if match is None:
            match = {**row, "score": match_score(row), "players": []}
            matches[row["game_id"]] = match
        if row["seat"] is not None:
            match["players"].append(row)
    return [HistoryRow.model_validate(match) for match in matches.values()]


def _stats_fields(
    row: dict[str, Any], tallies: dict[str, dict[str, int]], best: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """A ``_PLAYER_STATS`` row with the fields of its record: the variant's own counts and
    best partner, and what is computed."""
    variant = row["variant"]
    row["points_per_deal"] = row["points"] / row["deals"] if row["deals"] else 0.0
    row["tallies"] = tallies.get(variant, {})
    row["flagged"] = row["warnings"] >= ABANDONS_FLAGGED
    row["best_partner"] = best.get(variant)
    return row


class Boards:
    """Queries over stored matches (see the methods)."""

    def __init__(self, database: Database) -> None:
        """Read through the shared connection."""
        self._db = database

    async def leaderboard(self, chat_id: int, limit: int = 10) -> list[LeaderRow]:
        """The chat's best people by matches won, then win rate, then matches played."""
        if not fits(chat_id):
            return []
        limit = INT64_MAX if limit < 0 else min(limit, INT64_MAX)  # a negative limit: none
        rows = await self._db.fetchdicts(_LEADERBOARD, (chat_id, limit))
        return [LeaderRow.model_validate(row) for row in rows]

    async def user_stats(self, user_id: int) -> tuple[int, int]:
        """Matches a user played and won, across all chats."""
        if not fits(user_id):
            return 0, 0
        row = await self._db.fetchone(_USER_STATS, (user_id,))
        assert row is not None
        return int(row["played"]), int(row["won"])

    async def finished_matches(self, chat_id: int) -> int:
        """How many matches the chat has finished."""
        if not fits(chat_id):
            return 0
        row = await self._db.fetchone(
            "SELECT COUNT(*) AS n FROM matches WHERE chat_id = ?", (chat_id,)
        )
        assert row is not None
        return int(row["n"])

    async def board(
        self, variant: str, *, chat_id: int | None, limit: int = 10, min_matches: int = 5
    ) -> list[BoardRow]:
        """The best people of a variant by group rating, then matches, then user id.

        With ``chat_id``: the people with at least ``min_matches`` rated matches of the
        variant in that chat, their matches and wins there. Without: the global board, the
        same over every public chat (``ChatSettings.public``; chats without settings are).
        """
        if chat_id is not None and not fits(chat_id):
            return []
        params = {
            "variant": variant,
            "min_matches": max(1, min(min_matches, INT64_MAX)),
            "limit": _clamp(limit),
            "prior": PRIOR.shown,
            "chat_id": chat_id,
        }
        rows = await self._db.fetchdicts(_GLOBAL_BOARD if chat_id is None else _CHAT_BOARD, params)
        return [BoardRow.model_validate(row) for row in rows]

    async def player_stats(self, user_id: int, *, scope: str = "group") -> list[VariantStats]:
        """A person's record per variant of ``scope`` they played, most played first."""
        check_scope(scope)
        if not fits(user_id):
            return []
        params = {"user_id": user_id, "scope": scope, "prior": PRIOR.shown}
        async with self._db.read() as reader:
            totals = await reader.fetchdicts(_PLAYER_STATS, params)
            partners = await reader.fetchdicts(_BEST_PARTNERS, params)
            named = await reader.fetchall(_PLAYER_TALLIES, params)
        tallies: dict[str, dict[str, int]] = {}
        for r in named:
            tallies.setdefault(r["variant"], {})[r["name"]] = r["count"]
        best = {r["variant"]: r for r in partners}
        return [VariantStats.model_validate(_stats_fields(r, tallies, best)) for r in totals]

    async def history(self, chat_id: int, *, limit: int = 10) -> list[HistoryRow]:
        """The chat's last ``limit`` finished matches, newest first."""
        if not fits(chat_id):
            return []
        return _history_rows(await self._db.fetchdicts(_HISTORY, (chat_id, _clamp(limit))))

    async def match_summary(self, game_id: int) -> HistoryRow | None:
        """A finished match as the history shows it (the heading of its deal-by-deal view)."""
        if not fits(game_id):
            return None
        found = _history_rows(await self._db.fetchdicts(_SUMMARY, (game_id,)))
        return found[0] if found else None

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """Each person's shown rating before and after a rated match, by seat (none for an
        unrated match, for matches stored before ratings, and for computers)."""
        if not fits(game_id):
            return []
        rows = await self._db.fetchall(
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
        check_scope(scope)
        if not fits(user_id):
            return PRIOR.shown
        row = await self._db.fetchone(
            "SELECT rating FROM ratings WHERE user_id = ? AND variant = ? AND scope = ?",
            (user_id, variant, scope),
        )
        return PRIOR.shown if row is None else int(row["rating"])
