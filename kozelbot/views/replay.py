"""A finished match as one JSON file (issue #18 item 6): ``kozelbot export`` writes it from the
database, a replay page reads it, and ``kozelbot replay`` checks one by playing it again
through the rules engine.

The file (``"format": "kozelbot-replay"``, ``"version": 1``) holds:

- ``game_id``, ``variant``, ``options`` (the table's, as it was created), ``status``
  (``finished`` or ``stopped``), ``score`` (the match's last score, by side) and ``winner``
  (the winning side, ``null`` for a stopped match);
- ``players``: ``[{"seat", "name", "computer"}]`` — who held each seat at the end;
- ``fair_play``: ``secret`` (revealed once the match is over), ``match_seal`` (SHA-256 of
  the secret, shown in the lobby) and ``players_seed``; empty strings in a match without fair
  play, which then has ``seed`` (the match's shuffle seed) instead;
- ``deals``: every scored deal in order, each with ``deal_no``, ``trace`` (the stored deal
  trace: the hands, each trick, points, award and score, and its shuffle's ``seed`` and
  ``commit``), ``verify`` (the ``kozelbot verify`` line of its shuffle, or ``null``) and
  ``moves`` (``[{"seat", "action"}]``, the move log of the deal in order, in its notation);
- ``unscored``: the moves after the last scored deal (a match stopped mid-deal).

No user ids are written: a replay is for showing. A match still being played is never
exported — its hands are secret.

``check`` re-plays a file: the shuffles from its fair-play secret (or seed), every move
through the engine (each must be legal), every scored deal's trace made again and compared
with the file's, the seals against the seeds, and the last score.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from kozelbot.core.fairplay import commitment, match_seal
from kozelbot.core.protocol import AnyState, DealScored, GameError, shuffle_for
from kozelbot.core.records import DealRecord, MoveRecord
from kozelbot.core.table import Table
from kozelbot.families.registry import new_state, rules_of

FORMAT = "kozelbot-replay"
VERSION = 1
FAIR_PLAY_KEYS = ("match_seal", "players_seed", "contributions", "match_secret")
"""Keys a stored trace has beside the engine's (what checks the shuffle: ``ledger``)."""


class ReplayMove(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    action: str


class ReplayDeal(BaseModel):
    model_config = ConfigDict(frozen=True)

    deal_no: int
    trace: dict[str, Any]
    verify: str | None = None
    moves: list[ReplayMove]


class ReplayPlayer(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    name: str
    computer: bool


class FairPlay(BaseModel):
    model_config = ConfigDict(frozen=True)

    secret: str = ""
    match_seal: str = ""
    players_seed: str = ""


class ReplayFile(BaseModel):
    """The file, as ``export`` writes it and ``check`` reads it."""

    model_config = ConfigDict(frozen=True)

    format: str = FORMAT
    version: int = VERSION
    game_id: int
    variant: str
    options: dict[str, Any]
    status: str
    score: list[int]
    winner: int | None
    players: list[ReplayPlayer]
    fair_play: FairPlay
    seed: int | None = None
    deals: list[ReplayDeal]
    unscored: list[ReplayMove] = []


class NotExportable(ValueError):
    """The match cannot be exported (it is still being played)."""


def export(table: Table, deals: Sequence[DealRecord], moves: Sequence[MoveRecord]) -> ReplayFile:
    """The replay of a finished (or stopped) match from its table, scored deals and move log."""
    if table.status.live:
        raise NotExportable("the match is still being played")
    secret = table.secret
    seal = match_seal(secret) if secret else ""
    by_deal: dict[int, list[ReplayMove]] = {}
    for move in sorted(moves, key=lambda m: m.seq):
        by_deal.setdefault(move.deal_no, []).append(ReplayMove(seat=move.seat, action=move.action))
    scored = sorted(deals, key=lambda d: d.deal_no)
    last = scored[-1] if scored else None
    return ReplayFile(
        game_id=table.game_id,
        variant=table.variant,
        options=dict(table.options),
        status=str(table.status),
        score=list(last.score) if last else [],
        winner=last.trace.get("winner") if last else None,
        players=[
            ReplayPlayer(seat=seat, name=player.name, computer=player.is_computer)
            for seat, player in enumerate(table.seats)
            if player is not None
        ],
        fair_play=FairPlay(secret=secret, match_seal=seal, players_seed=table.client_seed),
        seed=None if secret else table.seed,
        deals=[
            ReplayDeal(
                deal_no=deal.deal_no,
                trace=deal.trace,
                verify=verify_line(deal.trace, secret, seal, table.client_seed),
                moves=by_deal.get(deal.deal_no, []),
            )
            for deal in scored
        ],
        unscored=[
            m
            for deal_no, ms in sorted(by_deal.items())
            for m in ms
            if last is None or deal_no > last.deal_no
        ],
    )


def verify_line(trace: Mapping[str, Any], secret: str, seal: str, client: str) -> str | None:
    """The ``kozelbot verify`` command that checks the deal's shuffle (``None`` without fair
    play)."""
    seed, commit = trace.get("seed"), trace.get("commit")
    if not seed or not commit:
        return None
    line = f"kozelbot verify {seed} {commit}"
    if secret and client:
        line += f" --secret {secret} --seal {seal} --client {client}"
    return line


@dataclass(frozen=True, slots=True)
class _Seeds:
    """The file's shuffle source (``game.SeedSource``)."""

    seed: int
    secret: str
    client_seed: str


@dataclass
class ReplayCheck:
    """What ``check`` found: the deals and moves re-played, and every disagreement."""

    deals: int = 0
    moves: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


Visit = Callable[[AnyState, ReplayMove, Any], None]
"""Called after each move played again: the state after it, the move, its action."""


def check(data: Mapping[str, Any], visit: Visit | None = None) -> ReplayCheck:
    """Play the file's match again through the engine and compare it with the file;
    ``visit`` sees the state after each move (``frames`` draws the replay from it)."""
    found = ReplayCheck()
    try:
        replay = ReplayFile.model_validate(data)
    except ValueError as error:
        found.problems.append(f"not a replay file: {error}")
        return found
    if replay.format != FORMAT or replay.version != VERSION:
        found.problems.append(f"unknown format {replay.format!r} version {replay.version}")
        return found
    fair = replay.fair_play
    if fair.secret and match_seal(fair.secret) != fair.match_seal:
        found.problems.append("the secret does not have the match seal")
    family = rules_of(replay.variant)
    state = new_state(replay.variant, replay.options)
    seeds = _Seeds(replay.seed or 0, fair.secret, fair.players_seed)
    by_no = {deal.deal_no: deal for deal in replay.deals}
    made: dict[int, dict[str, Any]] = {}

    def scored(events: list[Any]) -> None:
        """Each deal's trace made again as it is scored (before the next deal is dealt)."""
        for event in events:
            if isinstance(event, DealScored):
                # The file's own names and match number: what was shown, not what is checked.
                trace = by_no[event.deal_no].trace if event.deal_no in by_no else {}
                again = state.deal_trace(
                    event,
                    match=int(trace.get("match", replay.game_id)),
                    players=trace.get("players", []),
                )
                made[event.deal_no] = _plain(again)

    def chance() -> None:
        while state.needs_chance:
            scored(state.chance(shuffle_for(seeds, state)))

    def play(move: ReplayMove, where: str) -> bool:
        chance()
        try:
            action = family.parse_action(move.action)
            events = state.apply(move.seat, action)
        except (GameError, ValueError) as error:
            found.problems.append(f"{where}: {move.action} by seat {move.seat} refused ({error})")
            return False
        found.moves += 1
        scored(events)
        if visit is not None:
            visit(state, move, action)
        return True

    for deal in replay.deals:
        where = f"deal {deal.deal_no + 1}"
        for number, move in enumerate(deal.moves, 1):
            if not play(move, f"{where}, move {number}"):
                return found
        if deal.deal_no not in made:
            chance()  # a deal scored as it is dealt (a royal kozel, four of a kind)
        if deal.deal_no not in made:
            found.problems.append(f"{where}: its moves do not end it")
            return found
        found.problems += _compare(made[deal.deal_no], deal, where)
        found.deals += 1
    for number, move in enumerate(replay.unscored, 1):
        if not play(move, f"after the last deal, move {number}"):
            return found
    if replay.deals and list(replay.deals[-1].trace.get("score", [])) != replay.score:
        found.problems.append("the last deal's score is not the match's")
    return found


def _compare(again: dict[str, Any], deal: ReplayDeal, where: str) -> list[str]:
    """The keys where the deal's trace made again differs from the file's, and its seal."""
    stored = {k: v for k, v in _plain(deal.trace).items() if k not in FAIR_PLAY_KEYS}
    problems = [
        f"{where}: {key} differs"
        for key in sorted(set(again) | set(stored))
        if again.get(key) != stored.get(key)
    ]
    seed, commit = deal.trace.get("seed"), deal.trace.get("commit")
    if seed and commitment(str(seed)) != commit:
        problems.append(f"{where}: the seed does not have its seal")
    return problems


def _plain(value: Mapping[str, Any]) -> dict[str, Any]:
    """As JSON has it (tuples as lists, keys as strings)."""
    plain: dict[str, Any] = json.loads(json.dumps(value, default=str))
    return plain
