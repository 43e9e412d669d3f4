"""Matches for tests: every preset's configuration, and a finished match kept as storage
keeps one (played by the normal computer at every seat), in memory or saved."""

from __future__ import annotations

from typing import Any

from kozelbot.core.fairplay import players_seed
from kozelbot.core.protocol import DealScored, shuffle_for
from kozelbot.core.records import DealRecord, MoveRecord, MoveSource
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.registry import new_state, players_of
from kozelbot.tables.ledger import deal_record
from kozelbot.tools.simulate import options_of
from storage.games import Games

CONFIGS = {
    "hvalenyi": ("hvalenyi", []),
    "hvalenyi players=2": ("hvalenyi", ["players=2"]),
    "kryuk": ("kryuk", []),
    "sixes": ("sixes", []),
    "belka": ("belka", []),
    "cover": ("cover", []),
    "cover self-3": ("cover", ["mode=self", "players=3"]),
}


def finished_match(
    name: str, seed: int, *, fair: bool = True
) -> tuple[Table, list[DealRecord], list[MoveRecord]]:
    """A match the normal computer plays at every seat, kept as storage keeps one: the
    table, a record per scored deal (``ledger.deal_record``) and the move log."""
    variant, words = CONFIGS[name]
    options = options_of(variant, words, None)
    family = players_of(variant)
    state = new_state(variant, options)
    names = ["Anna", "Борис", "Вика", "Дмитро"][: state.players]
    contributions = ["ab", "cd"] if fair else []
    table = Table(
        game_id=7,
        chat_id=-100,
        variant=variant,
        options=options,
        creator_id=1,
        seed=seed,
        secret=f"{seed:064x}" if fair else "",
        contributions=contributions,
        client_seed=players_seed(contributions) if fair else "",
        seats=[Player(user_id=i + 1, name=n) for i, n in enumerate(names)],
        status=TableStatus.PLAYING,
    )
    deals: list[DealRecord] = []
    moves: list[MoveRecord] = []

    def keep(events: list[Any]) -> None:
        deals.extend(deal_record(table, state, e) for e in events if isinstance(e, DealScored))

    while not state.over:
        while state.needs_chance and not state.over:
            keep(state.chance(shuffle_for(table, state)))
        if state.over:
            break
        seat = state.to_act()[0]
        action = family.choose(state, seat)
        deal_no = state.deal_shown or 0
        events = state.apply(seat, action)
        moves.append(
            MoveRecord(
                game_id=7,
                seq=len(moves) + 1,
                deal_no=deal_no,
                seat=seat,
                action=str(action),
                source=MoveSource.COMPUTER,
            )
        )
        keep(events)
    return table.model_copy(update={"status": TableStatus.FINISHED}), deals, moves


async def store_finished(games: Games, name: str, seed: int, chat_id: int = -777) -> int:
    """``finished_match`` saved in a database as the bot would have left it; its game id."""
    table, deals, moves = finished_match(name, seed)
    created = await games.create_game(
        table.model_copy(update={"status": TableStatus.LOBBY, "game_id": 0, "chat_id": chat_id})
    )
    game_id = created.game_id
    await games.save_game(
        created.model_copy(update={"status": TableStatus.FINISHED, "version": created.version + 1}),
        moves=[m.model_copy(update={"game_id": game_id}) for m in moves],
        deals=[d.model_copy(update={"game_id": game_id}) for d in deals],
    )
    return game_id
