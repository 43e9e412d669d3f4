"""Who sits where at a table: lobby seats, the seating draw, take-overs between deals, the
players' seed lines, option cycling and the stop vote — pure changes of a ``Table`` that the
service makes under the game's lock and then commits."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kozelbot.core.fairplay import players_seed, seating_seed
from kozelbot.core.options import OptionError
from kozelbot.core.table import Player, Table
from kozelbot.families.registry import TABLE_PRESETS, preset, seats_of
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.change import Change, TableError, computer

STOP_VOTE_TIME = 120.0
"""Seconds a vote to stop a match stays open (issue #8: two minutes)."""
CONTRIBUTIONS = 32
"""Lines of a lobby's players' seed at most (joins and /seed words)."""


PRIVATE_DEFAULTS: Mapping[str, Any] = {"move_time": 0}
"""A match against the computer's (/play) defaults under the typed words.

**Decision** (issue #30 item 10): such a match waits for its only person — no timer moves
for them unless they chose one, typed (``/play move_time=60``) or in the defaults given
(a chat's own settings; /settings is a group's, so a private chat has none today). There a
timer would only play their cards while they read a hint; the computers' own deadlines
(thinking, the waits of hidden steps) do not depend on it. The "⏰ your move" reminder
comes at half a chosen move time, so without a timer there is none either."""


def lobby_options(
    variant: str, words: Sequence[str], defaults: Mapping[str, Any] | None
) -> dict[str, Any]:
    """A new lobby's options: the chat's defaults for the variant (/settings; any the preset
    no longer accepts are ignored) with the typed ``KEY=VALUE`` words on top
    (``OptionError`` for a bad word)."""
    chosen = preset(variant)
    base = None
    if defaults:
        with contextlib.suppress(OptionError):
            base = chosen.options_from(defaults)
    return chosen.parse(words, base).model_dump()


def lobby_table(
    chat_id: int,
    thread_id: int | None,
    variant: str,
    options: dict[str, Any],
    creator_id: int,
    chat_title: str | None,
    *,
    seed: int,
    secret: str,
    invite: str,
    created_at: float,
    deadline: float,
) -> Table:
    """A new lobby's table: its seats all empty, its seed, secret and invite drawn."""
    return Table(
        chat_id=chat_id,
        thread_id=thread_id,
        variant=variant,
        options=options,
        seats=[None] * seats_of(variant, options),
        creator_id=creator_id,
        seed=seed,
        secret=secret,
        invite=invite,
        created_at=created_at,
        deadline=deadline,
        chat_title=chat_title,
    )


def contribute(table: Table, line: str) -> bool:
    """Add a line to the players' seed (bounded: a lobby is small)."""
    if len(table.contributions) >= CONTRIBUTIONS:
        return False
    table.contributions.append(line)
    return True


def sit_down(table: Table, player: Player, token: str | None) -> bool:
    """Seat a person at a lobby's first free seat (``full`` if none); ``token``, the id
    Telegram gave the join, goes into the players' seed. True when that was the last free
    seat: the match starts."""
    if table.reserved is not None:  # a tournament's table: one's own seat (issue #19)
        assert player.user_id is not None
        table.seats[tables.check_may_sit(table, player.user_id)] = player
        contribute(table, f"join:{player.user_id}:{token or ''}")
        return tables.all_came(table)
    free = [s for s, p in enumerate(table.seats) if p is None]
    if not free:
        raise TableError("full", table)
    table.seats[free[0]] = player
    contribute(table, f"join:{player.user_id}:{token or ''}")
    return len(free) == 1


def draw_seats(table: Table) -> None:
    """The match starts: computers fill the empty seats, the players' seed is fixed (after
    the seal was shown, before the first shuffle) and, with random seating, the seats are
    drawn from it; computers are named after their final seat."""
    seats = [p if p is not None else computer(s) for s, p in enumerate(table.seats)]
    if table.secret:
        table.client_seed = players_seed(table.contributions)
    if table.options.get("seating", "random") == "random":
        draw = seating_seed(table.secret, table.client_seed) if table.secret else table.seed
        random.Random(draw).shuffle(seats)
    table.seats = [p if not p.is_computer else computer(s) for s, p in enumerate(seats)]


def free_seats(table: Table) -> list[int]:
    """Seats a newcomer may take over, best first: a person's who is away, then a computer
    player's."""
    seats = [s for s, p in enumerate(table.seats) if p is not None and p.away]
    return seats + [s for s, p in enumerate(table.seats) if p is None or p.is_computer]


def wait_for_seat(table: Table, player: Player) -> Change:
    """A newcomer asks for a computer-held seat: they sit down at the next deal (never at
    a tournament's table, whose seats are the draw's)."""
    if table.reserved is not None:
        raise TableError("reserved", table)
    if len(free_seats(table)) <= len(table.waiting):
        raise TableError("no_free_seat", table)
    table.waiting.append(player)
    return Change(table, waiting=True)


@dataclass(frozen=True, slots=True)
class Seated:
    """Who sat down between deals (``seat_waiting``): the seats people who were waiting took
    over (``back`` with them: a person holds each again) and ``(person, seat)`` of whoever
    lost their seat while away. ``a + b``: ``a``'s, then ``b``'s."""

    taken_over: tuple[int, ...] = ()
    abandoned: tuple[tuple[int, int], ...] = ()

    def __add__(self, later: Seated) -> Seated:
        return Seated(self.taken_over + later.taken_over, self.abandoned + later.abandoned)


NOBODY = Seated()
"""Nobody sat down."""


def seat_waiting(table: Table) -> Seated:
    """Between deals: the people waiting take the seats computers hold, in the order they
    asked; whoever finds none free any more (someone away came back) waits on."""
    still: list[Player] = []
    taken_over: list[int] = []
    abandoned: list[tuple[int, int]] = []
    for player in table.waiting:
        free = free_seats(table)
        if not free:
            still.append(player)
            continue
        seat = free[0]
        gone = table.seats[seat]
        table.seats[seat] = player
        table.missed[seat] = 0
        taken_over.append(seat)
        if gone is not None and gone.user_id is not None:
            abandoned.append((gone.user_id, seat))
    table.waiting = still
    return Seated(tuple(taken_over), tuple(abandoned))


def come_back(table: Table, seat: int) -> None:
    """Someone away takes their seat back from the computer (``not_away`` if not away)."""
    player = table.seats[seat]
    assert player is not None
    if not player.away:
        raise TableError("not_away", table)
    table.seats[seat] = player.model_copy(update={"away": False})
    table.missed[seat] = 0


def cycle_option(table: Table, key: str) -> None:
    """Move a lobby's option (``key="variant"``: the variant) to its next value.

    A change of the number of seats keeps the people seated, in join order; it is refused
    (``full``) when more people sit than the new table has seats."""
    if table.tournament is not None:
        raise TableError("reserved", table)  # a tournament's tables keep its options
    if key == "variant":
        names = list(TABLE_PRESETS)
        table.variant = names[(names.index(table.variant) + 1) % len(names)]
        table.options = preset(table.variant).default_options().model_dump()
    else:
        chosen = preset(table.variant)
        table.options = chosen.cycle(chosen.options_from(table.options), key).model_dump()
    seats = seats_of(table.variant, table.options)
    people = [p for p in table.seats if p is not None]
    if len(people) > seats:
        raise TableError("full", table)
    if seats != len(table.seats):
        table.seats = [*people, *([None] * (seats - len(people)))]


def vote(table: Table, user_id: int, now: float) -> tuple[int, int]:
    """A seated person's vote to stop: (votes, needed) of the vote running since its first
    vote (``STOP_VOTE_TIME``); ``seated`` if they voted already in it.

    A majority of the people seated stops a match; a tournament's table needs everyone at
    it, both sides (``tables.consent_needed``; ``no_consent`` when a side has nobody to
    agree, and the vote changes nothing)."""
    seated = {p.user_id for _s, p in table.humans}
    needed = len(seated) // 2 + 1
    if table.tournament is not None:
        needed = tables.consent_needed(table)
    if table.stop_vote_until is None or table.stop_vote_until < now:
        table.stop_votes, table.stop_vote_until = [], now + STOP_VOTE_TIME
    if user_id in table.stop_votes:
        raise TableError("seated", table)
    table.stop_votes.append(user_id)
    return len(seated.intersection(table.stop_votes)), needed
