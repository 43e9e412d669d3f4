"""A finished match as the Mini App's replay shows it (issue #18 item 6): one frame after
each move, played again through the engine from the replay file (``replay.check``, so a
file that does not play again shows nothing).

The match is over, so every hand is shown: a frame holds each seat's hand, the table as the
group saw it then (the trick or the stacks, the score), the move with its label in the
reader's words and the deal it belongs to; each deal comes with its shuffle's seed, seal
and ``kozelbot verify`` line.
"""

from __future__ import annotations

from typing import Any

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import AnyState
from kozelbot.core.texts import computer_name
from kozelbot.families.registry import reader_of
from kozelbot.views.page import plain, trumps, words
from kozelbot.views.replay import ReplayFile, ReplayMove, check

LEFT_OUT = frozenset({"last_result", "hand"})
"""Table fields a frame leaves out: the previous deal's result (the deals list has it)
and the table's own empty hand."""


class NotReplayable(ValueError):
    """The file does not play again as it says."""


def frames(replay: ReplayFile, t: Translator) -> dict[str, Any]:
    """The replay for the page: the players, every deal's seals, and the frames."""
    texts = reader_of(replay.variant)
    shown: list[dict[str, Any]] = []

    def visit(state: AnyState, move: ReplayMove, action: Any) -> None:
        table = plain(state.view_for(None))
        shown.append(
            {
                "deal": state.deal_shown,
                "seat": move.seat,
                "action": move.action,
                "label": texts.move_label(action, t),
                "hands": [
                    [str(c) for c in state.view_for(seat).hand] for seat in range(state.players)
                ],
                "table": {k: v for k, v in table.items() if k not in LEFT_OUT},
                "trumps": trumps(state.view_for(None)),
            }
        )

    found = check(replay.model_dump(), visit)
    if not found.ok:
        raise NotReplayable("; ".join(found.problems))
    deals = [
        {
            "deal_no": d.deal_no,
            "seed": d.trace.get("seed"),
            "commit": d.trace.get("commit"),
            "verify": d.verify,
            "score": d.trace.get("score"),
        }
        for d in replay.deals
    ]
    return {
        "game_id": replay.game_id,
        "variant": replay.variant,
        "players": [_player(p.model_dump(), t) for p in replay.players],
        "score": replay.score,
        "winner": replay.winner,
        "deals": deals,
        "frames": shown,
        "words": words(t),
    }


def _player(player: dict[str, Any], t: Translator) -> dict[str, Any]:
    """A replay's player as the page names them: a computer as the chat does (``🤖 Бот 2``),
    not by its file's placeholder (``cpu1``)."""
    if player.get("computer"):
        return {**player, "name": computer_name(int(player["seat"]), t)}
    return player
