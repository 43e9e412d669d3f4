"""The Mini App hub's limits (issue #29 item 4): a person's streams over all tables are capped
too, their oldest closed first; a seated person's stream is never closed for an onlooker's."""

from __future__ import annotations

import contextlib

from handlers.webapp.hub import PERSON_TOTAL, Hub


def _open() -> None:
    return None


async def test_a_person_s_streams_over_all_tables_are_capped_oldest_first() -> None:
    hub = Hub()
    with contextlib.ExitStack() as stack:
        readers = [
            stack.enter_context(hub.watch(game, 7, seated=False, check=_open))
            for game in range(1, PERSON_TOTAL + 2)
        ]
        assert readers[0].closing == "replaced"
        assert all(r.closing is None for r in readers[1:])
    hub.stop()


async def test_a_full_table_never_closes_a_seated_person_s_stream() -> None:
    hub = Hub()
    with contextlib.ExitStack() as stack:
        seated = stack.enter_context(hub.watch(1, 1, seated=True, check=_open, per_game=2))
        watcher = stack.enter_context(hub.watch(1, 2, seated=False, check=_open, per_game=2))
        newer = stack.enter_context(hub.watch(1, 3, seated=False, check=_open, per_game=2))
        assert (seated.closing, watcher.closing, newer.closing) == (None, "full", None)
    hub.stop()
