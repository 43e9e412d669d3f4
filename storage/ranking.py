"""Ratings and the counts the boards read, kept in step with every result inside its write.

Each step here runs inside the transaction of another part of storage (it takes that
``Transaction``): ``count_result`` and ``count_abandon`` inside ``Games.save_game``,
``move_chat`` inside ``Games.migrate_chat``, ``shift_global`` inside
``People.set_chat_settings``. They keep the aggregates of migration 006 (``ratings``,
``player_totals``, ``player_tallies``, ``partners``, ``chat_players``, ``global_players``) in
step with the matches, so that every read of ``storage.boards`` is an index lookup or a small
range scan however many matches are stored.

What counts where:

- ``ratings``: rated matches only, per person, variant and scope (``group`` apart from
  ``private``, a person's /play against the computer; a result in a private chat is private
  whatever its ``scope`` says). Computed by ``kozelbot.core.ratings``.
- a chat's board: the chat's rated group matches; the global board: rated group matches in
  public chats (a chat without settings is public), both ordered by the person's group rating.
- ``player_stats``: every finished match of the scope, rated or not, and the abandons.

A person who somehow held two seats of one match counts once, at their first seat (with the
tallies of both seats).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kozelbot.core.ratings import PRIOR, Contender, Skill, rate_match
from kozelbot.core.records import MatchPlayer, MatchResult
from kozelbot.core.table import CORE_TALLIES, Table
from storage.core import Transaction
from storage.values import to_json

SCOPES = ("group", "private")

TALLY_COLUMNS = ", ".join(CORE_TALLIES)
_TALLY_ADD = ", ".join(f"{key} = player_totals.{key} + excluded.{key}" for key in CORE_TALLIES)

_UPSERT_TOTALS = f"""
INSERT INTO player_totals (user_id, scope, variant, matches, wins, {TALLY_COLUMNS},
                           streak, name, updated_at)
VALUES (?, ?, ?, 1, ?, {", ".join("?" for _ in CORE_TALLIES)}, ?, ?, ?)
ON CONFLICT (user_id, scope, variant) DO UPDATE SET
    matches = player_totals.matches + 1, wins = player_totals.wins + excluded.wins, {_TALLY_ADD},
    streak = CASE WHEN excluded.wins > 0 THEN (CASE WHEN player_totals.streak > 0
        THEN player_totals.streak ELSE 0 END) + 1
        ELSE (CASE WHEN player_totals.streak < 0 THEN player_totals.streak ELSE 0 END) - 1 END,
    name = excluded.name, updated_at = excluded.updated_at
"""

_UPSERT_TALLY = """
INSERT INTO player_tallies (user_id, scope, variant, name, count) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (user_id, scope, variant, name) DO UPDATE SET
    count = player_tallies.count + excluded.count
"""

_UPSERT_PARTNER = """
INSERT INTO partners (user_id, scope, variant, partner_id, matches, wins, name, updated_at)
VALUES (?, ?, ?, ?, 1, ?, ?, ?)
ON CONFLICT (user_id, scope, variant, partner_id) DO UPDATE SET
    matches = partners.matches + 1, wins = partners.wins + excluded.wins, name = excluded.name,
    updated_at = excluded.updated_at
"""

_UPSERT_RATING = """
INSERT INTO ratings (user_id, variant, scope, mu, sigma, rating, matches, wins, updated_at)
VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)
ON CONFLICT (user_id, variant, scope) DO UPDATE SET
    mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,
    matches = ratings.matches + 1, wins = ratings.wins + excluded.wins,
    updated_at = excluded.updated_at
"""

_UPSERT_CHAT_PLAYER = """
INSERT INTO chat_players (chat_id, variant, user_id, matches, wins, name, updated_at)
VALUES (?, ?, ?, 1, ?, ?, ?)
ON CONFLICT (chat_id, variant, user_id) DO UPDATE SET
    matches = chat_players.matches + 1, wins = chat_players.wins + excluded.wins,
    name = excluded.name, updated_at = excluded.updated_at
"""

_UPSERT_GLOBAL_PLAYER = """
INSERT INTO global_players (variant, user_id, matches, wins, rating) VALUES (?, ?, 1, ?, ?)
ON CONFLICT (variant, user_id) DO UPDATE SET
    matches = global_players.matches + 1, wins = global_players.wins + excluded.wins,
    rating = excluded.rating
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
    matches = global_players.matches + excluded.matches,
    wins = global_players.wins + excluded.wins
"""

_GLOBAL_TAKE = """
UPDATE global_players SET
    matches = global_players.matches - cp.matches, wins = global_players.wins - cp.wins
FROM (SELECT variant, user_id, matches, wins FROM chat_players WHERE chat_id = ?) AS cp
WHERE global_players.variant = cp.variant AND global_players.user_id = cp.user_id
"""


def _scope_of(result: MatchResult) -> str:
    """The result's scope; a match in a private chat (Telegram gives those positive ids,
    groups negative ones) is ``private`` whatever the result says, so that it can never
    reach a group board."""
    scope = "private" if result.chat_id > 0 else result.scope
    check_scope(scope)
    return scope


def check_scope(scope: str) -> None:
    """Refuse a scope that is neither ``group`` nor ``private``."""
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


async def count_result(tx: Transaction, result: MatchResult, now: float) -> None:
    """A match result was just written (same transaction): rate it and count it."""
    scope = _scope_of(result)
    await tx.execute(
        "UPDATE matches SET scope = ?, thread_id = ?, rated = ? WHERE game_id = ?",
        (scope, result.thread_id or 0, int(result.rated), result.game_id),
    )
    await tx.executemany(
        f"UPDATE match_players SET {', '.join(f'{k} = ?' for k in CORE_TALLIES)},"
        " tallies = ? WHERE game_id = ? AND seat = ?",
        [
            (
                *(p.tally.get(k, 0) for k in CORE_TALLIES),
                to_json(_named(p.tally)),
                result.game_id,
                p.seat,
            )
            for p in result.players
        ],
    )
    people = _people(result.players)
    if not people:
        return
    variant = result.variant
    await tx.executemany(
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
    await tx.executemany(
        _UPSERT_TALLY,
        [
            (p.user_id, scope, variant, name, count)
            for p in people.values()
            for name, count in _named(p.tally).items()
            if count > 0
        ],
    )
    await tx.executemany(
        _UPSERT_PARTNER,
        [
            (p.user_id, scope, variant, q.user_id, int(p.won), q.name, now)
            for p in people.values()
            for q in people.values()
            if q.user_id != p.user_id and q.side == p.side
        ],
    )
    if result.rated:
        await _rate(tx, result, scope, people, now)


async def _rate(
    tx: Transaction, result: MatchResult, scope: str, people: dict[int, _Person], now: float
) -> None:
    """Update the ratings of the match's people and what is ranked by them."""
    variant = result.variant
    marks = ", ".join("?" for _ in people)
    rows = await tx.fetchall(
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
    await tx.executemany(
        _UPSERT_RATING,
        [
            (uid, variant, scope, s.mu, s.sigma, s.shown, int(people[uid].won), now)
            for uid, s in after.items()
        ],
    )
    await tx.executemany(
        "UPDATE match_players SET mu_before = ?, sigma_before = ?, mu_after = ?,"
        " sigma_after = ? WHERE game_id = ? AND user_id = ?",
        [(*before.get(uid, PRIOR), *s, result.game_id, uid) for uid, s in after.items()],
    )
    if scope != "group":
        return
    await tx.executemany(
        _UPSERT_CHAT_PLAYER,
        [
            (result.chat_id, variant, uid, int(people[uid].won), people[uid].name, now)
            for uid in after
        ],
    )
    if await is_public(tx, result.chat_id):
        await tx.executemany(
            _UPSERT_GLOBAL_PLAYER,
            [(variant, uid, int(people[uid].won), s.shown) for uid, s in after.items()],
        )
    else:  # the person's rating changed all the same
        await tx.executemany(
            "UPDATE global_players SET rating = ? WHERE variant = ? AND user_id = ?",
            [(s.shown, variant, uid) for uid, s in after.items()],
        )


async def count_abandon(tx: Transaction, table: Table, user_id: int, now: float) -> None:
    """``user_id`` left ``table``'s running match (same transaction): count it."""
    seat = table.seat_of(user_id)
    player = table.seats[seat] if seat is not None else None
    await tx.execute(
        "INSERT INTO player_totals (user_id, scope, variant, abandons, name, updated_at)"
        " VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (user_id, scope, variant) DO UPDATE SET"
        " abandons = player_totals.abandons + 1, updated_at = excluded.updated_at,"
        " name = CASE WHEN player_totals.name = '' THEN excluded.name"
        " ELSE player_totals.name END",
        (
            user_id,
            "private" if table.private else "group",
            table.variant,
            player.name if player is not None else "",
            now,
        ),
    )


async def move_chat(tx: Transaction, old_chat_id: int, new_chat_id: int) -> None:
    """A group got a new id (``Games.migrate_chat``, same transaction): its board and
    settings follow it (merged into what the new id already has)."""
    if old_chat_id == new_chat_id:
        return
    # The new id keeps its own settings if it has some, else takes the old ones; the
    # people of both ids are on the global board exactly if the merged chat is public.
    was_public = {c: await is_public(tx, c) for c in (old_chat_id, new_chat_id)}
    await tx.execute(
        "UPDATE chat_settings SET chat_id = ? WHERE chat_id = ?"
        " AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat_id = ?)",
        (new_chat_id, old_chat_id, new_chat_id),
    )
    await tx.execute("DELETE FROM chat_settings WHERE chat_id = ?", (old_chat_id,))
    now_public = await is_public(tx, new_chat_id)
    for chat_id, public in was_public.items():
        if public != now_public:
            await shift_global(tx, chat_id, add=now_public)
    await tx.execute(
        "INSERT INTO chat_players (chat_id, variant, user_id, matches, wins, name,"
        " updated_at) SELECT ?, variant, user_id, matches, wins, name, updated_at"
        " FROM chat_players WHERE chat_id = ?"
        " ON CONFLICT (chat_id, variant, user_id) DO UPDATE SET"
        " matches = chat_players.matches + excluded.matches,"
        " wins = chat_players.wins + excluded.wins,"
        " name = CASE WHEN excluded.updated_at > chat_players.updated_at THEN excluded.name"
        " ELSE chat_players.name END,"
        " updated_at = CASE WHEN excluded.updated_at > chat_players.updated_at"
        " THEN excluded.updated_at ELSE chat_players.updated_at END",
        (new_chat_id, old_chat_id),
    )
    await tx.execute("DELETE FROM chat_players WHERE chat_id = ?", (old_chat_id,))


async def is_public(tx: Transaction, chat_id: int) -> bool:
    """Whether a chat's results go on the global board (inside a transaction)."""
    row = await tx.fetchone("SELECT public FROM chat_settings WHERE chat_id = ?", (chat_id,))
    return row is None or bool(row["public"])


async def shift_global(tx: Transaction, chat_id: int, *, add: bool) -> None:
    """Put a chat's people on the global board, or take them off (inside a transaction)."""
    if add:
        await tx.execute(_GLOBAL_ADD, (PRIOR.shown, chat_id))
        return
    await tx.execute(_GLOBAL_TAKE, (chat_id,))
    await tx.execute(
        "DELETE FROM global_players WHERE matches <= 0 AND (variant, user_id) IN"
        " (SELECT variant, user_id FROM chat_players WHERE chat_id = ?)",
        (chat_id,),
    )
