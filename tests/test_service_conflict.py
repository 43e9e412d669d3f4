"""Issue #32: two processes on one database (a worker that held a table, and the one that
holds it now). A change made on a copy another process has since changed is refused as out
of date, writes nothing, and the copy is forgotten: the next press starts from the stored
game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kozelbot.core.protocol import GameError
from kozelbot.core.table import Player, TableStatus
from kozelbot.tables.service import GameService, TableError
from storage import Storage


def _service(storage: Storage) -> GameService:
    return GameService(
        storage.games,
        rng=random.Random(3),
        clock=lambda: 1000.0,
        entropy=random.Random(1).randbytes,
    )


async def test_a_move_made_on_a_copy_another_process_changed_is_refused_then_read_again(
    tmp_path: Path,
) -> None:
    first_db, second_db = (
        await Storage.open(tmp_path / "k.db"),
        await Storage.open(tmp_path / "k.db"),
    )
    try:
        first, second = _service(first_db), _service(second_db)
        lobby = await first.lobby.new_game(-1, 1, ["seating=ordered"])
        await first.lobby.join(lobby.game_id, Player(user_id=1, name="Аня"))
        started = await first.lobby.start(lobby.game_id, 1)
        assert started.table.status is TableStatus.PLAYING
        game_id = lobby.game_id
        table = await second.game(game_id)  # the second process remembers this version
        assert table is not None
        state = second.state_of(table)
        assert state is not None and state.to_act() == (0,)
        card = state.legal_actions(0)[0]
        deal_no = state.current.deal_no  # type: ignore[attr-defined]
        await first.act(game_id, 1, deal_no, card)  # the first plays it meanwhile
        stored = await first_db.games.game(game_id)
        assert stored is not None
        with pytest.raises(TableError) as refused:
            await second.act(game_id, 1, deal_no, card)  # on its old copy: legal there
        assert refused.value.code == "stale"
        assert (await second_db.games.game(game_id)) == stored  # nothing written
        assert second.snapshot(game_id) is None  # forgotten
        with pytest.raises(GameError):  # read again: that card was played already
            await second.act(game_id, 1, deal_no, card)
    finally:
        await first_db.close()
        await second_db.close()
