"""Replay files (issue #18 item 6): ``replay.export`` writes a finished match as the
database keeps it, ``replay.check`` plays it again through the engine — and finds any change
to a move, a hand, a seed or a score; ``kozelbot export`` / ``kozelbot replay`` do both from
the command line."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kozelbot.core.i18n import translator
from kozelbot.core.table import Player, TableStatus
from kozelbot.views.frames import NotReplayable, frames
from kozelbot.views.replay import NotExportable, ReplayFile, check, export
from storage import Storage
from tests.matches import CONFIGS, finished_match
from tests.transcripts import bot

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", list(CONFIGS))
def test_an_exported_match_plays_again_exactly(name: str) -> None:
    table, deals, moves = finished_match(name, 11)
    replay = export(table, deals, moves)
    data = json.loads(replay.model_dump_json())
    assert data["format"] == "kozelbot-replay" and data["version"] == 1
    assert len(data["deals"]) == len(deals) and sum(len(d["moves"]) for d in data["deals"]) + len(
        data["unscored"]
    ) == len(moves)
    assert data["winner"] in (0, 1, 2) and data["score"] == list(deals[-1].score)
    assert all(d["verify"].startswith("kozelbot verify ") for d in data["deals"])
    assert "user_id" not in json.dumps(data)
    found = check(data)
    assert found.ok, found.problems
    assert (found.deals, found.moves) == (len(deals), len(moves))


def test_a_match_without_fair_play_plays_again_from_its_seed() -> None:
    table, deals, moves = finished_match("hvalenyi", 5, fair=False)
    data = json.loads(export(table, deals, moves).model_dump_json())
    assert data["seed"] == 5 and data["fair_play"]["secret"] == ""
    assert all(d["verify"] is None for d in data["deals"])
    assert check(data).ok


def _tampered(change: str) -> list[str]:
    table, deals, moves = finished_match("hvalenyi", 11)
    data = json.loads(export(table, deals, moves).model_dump_json())
    first = data["deals"][0]
    if change == "move":  # another legal-looking card in the first trick
        first["moves"][0], first["moves"][1] = first["moves"][1], first["moves"][0]
    elif change == "hand":
        first["trace"]["tricks"][0]["hands"][0][0] = "6S"
    elif change == "seed":
        data["fair_play"]["secret"] = "0" * 64
    elif change == "score":
        data["deals"][-1]["trace"]["score"] = [0, 0]
    elif change == "commit":
        first["trace"]["commit"] = "0" * 64
    return check(data).problems


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("move", "refused"),
        ("hand", "differs"),
        ("seed", "match seal"),
        ("score", "score differs"),
        ("commit", "seal"),
    ],
)
def test_any_change_to_a_replay_is_found(change: str, words: str) -> None:
    problems = _tampered(change)
    assert problems and any(words in p for p in problems), problems


def test_a_match_still_being_played_is_not_exported() -> None:
    table, deals, moves = finished_match("hvalenyi", 3)
    live = table.model_copy(update={"status": TableStatus.PLAYING})
    with pytest.raises(NotExportable):
        export(live, deals, moves)


def test_not_a_replay_file_is_refused() -> None:
    assert not check({"format": "kozelbot-replay"}).ok
    table, deals, moves = finished_match("hvalenyi", 3)
    data = json.loads(export(table, deals, moves).model_dump_json())
    assert not check({**data, "version": 2}).ok


def _cli(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kozelbot", *args],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "KOZEL_DB_PATH": str(db)},
    )


def test_kozelbot_export_and_replay_from_the_command_line(tmp_path: Path) -> None:
    """A finished match saved in a database: ``kozelbot export`` writes its file (or prints
    it), ``kozelbot replay`` checks it (0) and refuses an altered one (1); a live match, an
    unknown one and bad usage are refused."""
    table, deals, moves = finished_match("kryuk", 8)
    db = tmp_path / "kozel.db"

    async def save() -> tuple[int, int]:
        storage = await Storage.open(db)
        try:
            finished = await storage.games.create_game(
                table.model_copy(update={"status": TableStatus.LOBBY, "game_id": 0})
            )
            game_id = finished.game_id
            await storage.games.save_game(
                finished.model_copy(
                    update={"status": TableStatus.FINISHED, "version": finished.version + 1}
                ),
                moves=[m.model_copy(update={"game_id": game_id}) for m in moves],
                deals=[d.model_copy(update={"game_id": game_id}) for d in deals],
            )
            live = await storage.games.create_game(
                table.model_copy(
                    update={
                        "status": TableStatus.LOBBY,
                        "game_id": 0,
                        "chat_id": -200,
                        "seats": [Player(user_id=99, name="Zoe"), None, None, None],
                    }
                )
            )
            return game_id, live.game_id
        finally:
            await storage.close()

    game_id, live_id = asyncio.run(save())
    out = tmp_path / "match.json"
    done = _cli("export", str(game_id), str(out), db=db)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["game_id"] == game_id
    printed = _cli("export", str(game_id), db=db)
    assert printed.returncode == 0 and json.loads(printed.stdout) == json.loads(out.read_text())
    checked = _cli("replay", str(out), db=db)
    assert checked.returncode == 0 and "every trace, seal and score matches" in checked.stdout
    data = json.loads(out.read_text())
    data["deals"][0]["moves"].pop()
    (tmp_path / "bad.json").write_text(json.dumps(data))
    bad = _cli("replay", str(tmp_path / "bad.json"), db=db)
    assert bad.returncode == 1 and "kozelbot replay: deal 1" in bad.stderr
    assert _cli("export", str(live_id), db=db).returncode == 1
    assert _cli("export", "999", db=db).returncode == 1
    assert _cli("export", "x", db=db).returncode == 2
    assert _cli("replay", db=db).returncode == 2
    assert _cli("replay", str(tmp_path / "none.json"), db=db).returncode == 1


@pytest.mark.parametrize("name", ["hvalenyi", "kryuk", "cover self-3"])
def test_the_replay_s_frames_show_every_move_with_every_hand(name: str) -> None:
    """One frame after each move, naming it, with every seat's hand (the match is over) and
    a label in the reader's language; every deal with its verify line; a changed file draws
    nothing."""
    table, deals, moves = finished_match(name, 4)
    replay = export(table, deals, moves)
    drawn = frames(replay, translator("uk"))
    assert len(drawn["frames"]) == len(moves)
    assert [d["deal_no"] for d in drawn["deals"]] == [d.deal_no for d in deals]
    assert all(d["verify"] for d in drawn["deals"])
    for frame, move in zip(drawn["frames"], moves, strict=True):
        assert (frame["seat"], frame["action"]) == (move.seat, move.action)
        assert frame["label"] and len(frame["hands"]) == len(table.seats) - table.seats.count(None)
    data = json.loads(replay.model_dump_json())
    data["deals"][0]["moves"].reverse()
    with pytest.raises(NotReplayable):
        frames(ReplayFile.model_validate(data), translator("uk"))


def test_the_replay_names_a_computer_as_the_chat_does_in_one_piece() -> None:
    """A computer's seat in the replay page reads «🤖 Бот 2» with no-break spaces (issue #30:
    a name the phone may not break), never its file's placeholder ``cpu1``."""
    table, deals, moves = finished_match("hvalenyi", 4)
    replay = export(table, deals, moves)
    replay = replay.model_copy(
        update={
            "players": [
                p.model_copy(update={"computer": True, "name": f"cpu{p.seat}"})
                if p.seat == 1
                else p
                for p in replay.players
            ]
        }
    )
    names = [p["name"] for p in frames(replay, translator("ru"))["players"]]
    assert names == ["Anna", bot(2), "Вика", "Дмитро"]
