"""The ledger: what a game's events owe the records — the move log, deal and match records,
each seat's tallies for /stats, and the group posts of results — returned as ``Logged`` for
the service to put in its ``Change``, so that storage commits them with the table, in one
transaction. The tallies and the move number are the table's own (the operation's copy)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kozelbot.core.fairplay import match_seal
from kozelbot.core.protocol import Action, AnyState, DealScored, Event, MatchOver
from kozelbot.core.records import (
    DealRecord,
    MatchPlayer,
    MatchResult,
    MoveRecord,
    MoveSource,
    OutboxItem,
)
from kozelbot.core.table import Table
from kozelbot.families.registry import rules_of
from kozelbot.tables.posts import posts_for


@dataclass(frozen=True, slots=True)
class Logged:
    """What some events owed the records: the events themselves, the moves logged, the deals
    scored, the match's result, the group posts. ``a + b``: ``a``'s, then ``b``'s."""

    events: tuple[Event, ...] = ()
    moves: tuple[MoveRecord, ...] = ()
    deals: tuple[DealRecord, ...] = ()
    result: MatchResult | None = None
    outbox: tuple[OutboxItem, ...] = ()

    def __add__(self, later: Logged) -> Logged:
        return Logged(
            self.events + later.events,
            self.moves + later.moves,
            self.deals + later.deals,
            self.result if later.result is None else later.result,
            self.outbox + later.outbox,
        )


NOTHING = Logged()
"""Nothing logged."""


def record_move(
    table: Table,
    state: AnyState,
    seat: int,
    action: Action,
    events: Sequence[Event],
    source: MoveSource,
    deal_no: int,
) -> Logged:
    """Log an applied move and what its events owe."""
    table.move_seq += 1
    player = table.seats[seat]
    move = MoveRecord(
        game_id=table.game_id,
        seq=table.move_seq,
        deal_no=deal_no,
        seat=seat,
        action=str(action),
        source=source,
        user_id=None if player is None else player.user_id,
    )
    return Logged(moves=(move,)) + owe(table, state, events)


def owe(table: Table, state: AnyState, events: Sequence[Event]) -> Logged:
    """What events owe, whether a move or a chance step made them (a royal kozel is dealt,
    not played): tallies (counted on the table), deal records, the match result, group posts."""
    family = rules_of(table.variant)
    deals: list[DealRecord] = []
    result = None
    outbox: list[OutboxItem] = []
    for event in events:
        for seat, key in family.tallies(event, state):
            count(table, seat, key)
        if isinstance(event, DealScored):
            _count_deal(table, state, event)
            deals.append(deal_record(table, state, event))
        elif isinstance(event, MatchOver):
            result = match_result(table, state, event)
        if isinstance(event, DealScored | MatchOver):
            outbox.extend(posts_for(table, event))
    return Logged(tuple(events), (), tuple(deals), result, tuple(outbox))


def count(table: Table, seat: int, key: str, by: int = 1) -> None:
    """Add to a seat's match tally (by name: ``kozelbot.core.table.CORE_TALLIES`` and the
    family's ``tally_keys``)."""
    tally = table.tally[seat]
    tally[key] = tally.get(key, 0) + by


def _count_deal(table: Table, state: AnyState, result: DealScored) -> None:
    """Each seat's deal figures every family has (``CORE_TALLIES``): a deal played, and the
    card points its side took (the family counts the rest by name)."""
    for seat, player in enumerate(table.seats):
        if player is None:
            continue
        side = state.side_of(seat)
        count(table, seat, "deals")
        if side < len(result.points):
            count(table, seat, "points", result.points[side])


def deal_record(table: Table, state: AnyState, result: DealScored) -> DealRecord:
    """The scored deal as storage keeps it, with its trace (and what checks its shuffle)."""
    names = [p.name if p is not None else "" for p in table.seats]
    trace = state.deal_trace(result, match=table.game_id, players=names)
    if table.secret and table.client_seed:
        # What checks the deal's key: the lobby's seal and the players' seed (public
        # already), and on the match's last deal the secret itself.
        trace["match_seal"] = match_seal(table.secret)
        trace["players_seed"] = table.client_seed
        trace["contributions"] = list(table.contributions)
        if state.over:
            trace["match_secret"] = table.secret
    return DealRecord(
        game_id=table.game_id,
        deal_no=result.deal_no,
        outcome=result.outcome,
        points=result.points,
        award=result.award,
        multiplier=result.multiplier,
        score=result.score,
        trace=trace,
    )


def match_result(table: Table, state: AnyState, over: MatchOver) -> MatchResult:
    """The finished match as storage keeps it: sides, score, every seat's tallies."""
    level = str(table.options.get("computer", "normal"))
    return MatchResult(
        game_id=table.game_id,
        chat_id=table.chat_id,
        thread_id=table.thread_id,
        scope="private" if table.private else "group",
        variant=table.variant,
        options=dict(table.options),
        winner_side=over.winner,
        score=over.score,
        deals=state.deals_scored,
        players=tuple(
            MatchPlayer(
                seat=seat,
                user_id=p.user_id,
                name=p.name,
                side=state.side_of(seat),
                won=state.side_of(seat) == over.winner,
                tally=dict(table.tally[seat]),
                level=level if p.is_computer else None,
            )
            for seat, p in enumerate(table.seats)
            if p is not None
        ),
    )
