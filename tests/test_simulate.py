"""``kozelbot simulate``: the summary line, the deal trace and its invariants, options."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import kozelbot.families.follow.trace
from kozelbot.__main__ import main
from kozelbot.core.cards import DECK_36, Card, hand_points

DEAL_KEYS = {
    "match",
    "deal",
    "variant",
    "options",
    "players",
    "trump",
    "first_leader",
    "redeals",
    "tricks",
    "points",
    "tricks_won",
    "outcome",
    "award",
    "multiplier",
    "score",
    "winner",
    "redeal_requests",
    "dealer",
    "deck",
}
"""The keys ``kozelbot/trace.py``'s docstring lists for a deal."""
TRICK_KEYS = {"leader", "hands", "cards", "winner"}
FULL_DECK = sorted(str(card) for card in DECK_36)
SUMMARY_KEYS = {"variant", "options", "matches", "deals", "seconds", "wins"}


ROOT = Path(__file__).resolve().parent.parent


class Simulated:
    """One ``kozelbot simulate`` run: its exit code, its stdout and the trace lines (run in
    this process, or — ``ran`` — read back from a run made elsewhere)."""

    def __init__(self, argv: list[str], trace: Path, ran: tuple[int, str] | None = None) -> None:
        if ran is None:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.code = main(["simulate", *argv, "--trace", str(trace)])
            self.stdout = out.getvalue()
        else:
            self.code, self.stdout = ran
        self.deals: list[dict[str, Any]] = [
            json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()
        ]

    @property
    def summary(self) -> dict[str, Any]:
        lines = self.stdout.splitlines()
        assert len(lines) == 1, self.stdout
        summary: dict[str, Any] = json.loads(lines[0])
        return summary


def simulate_all(runs: dict[str, list[str]], folder: Path) -> dict[str, Simulated]:
    """Run several ``kozelbot simulate`` commands at once, one process per core (the 200-match
    acceptance runs are CPU-bound; the machines here have two cores or more)."""

    def one(key: str, argv: list[str]) -> tuple[str, Simulated]:
        trace = folder / f"{len(key)}-{abs(hash(key))}.jsonl"
        done = subprocess.run(
            [sys.executable, "-m", "kozelbot", "simulate", *argv, "--trace", str(trace)],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
            timeout=300,
        )
        return key, Simulated(argv, trace, (done.returncode, done.stdout + done.stderr))

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return dict(pool.map(lambda item: one(*item), runs.items()))


@pytest.fixture(scope="module")
def run200(tmp_path_factory: pytest.TempPathFactory) -> Simulated:
    """``kozelbot simulate --variant hvalenyi --matches 200 --seed 1 --trace t.jsonl``."""
    trace = tmp_path_factory.mktemp("sim") / "t.jsonl"
    return Simulated(["--variant", "hvalenyi", "--matches", "200", "--seed", "1"], trace)


def test_the_trace_key_list_is_the_one_documented() -> None:
    """Every key the tests expect is named in ``kozelbot/trace.py``'s docstring."""
    doc = kozelbot.families.follow.trace.__doc__ or ""
    for key in DEAL_KEYS | TRICK_KEYS:
        assert f"``{key}``" in doc, key


def test_summary_is_one_json_line(run200: Simulated) -> None:
    """The command prints one JSON line: matches, deals, seconds, wins."""
    assert run200.code == 0
    summary = run200.summary
    assert set(summary) == SUMMARY_KEYS
    assert summary["variant"] == "hvalenyi"
    assert summary["matches"] == 200
    assert summary["deals"] == len(run200.deals) > 200
    assert isinstance(summary["seconds"], int | float) and summary["seconds"] >= 0
    assert len(summary["wins"]) == 2 and sum(summary["wins"]) == 200


def test_summary_through_capsys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``main([...])`` writes the summary to standard output."""
    code = main(["simulate", "--matches", "2", "--seed", "3", "--trace", str(tmp_path / "t")])
    assert code == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1
    assert json.loads(out)["matches"] == 2


def test_trace_has_exactly_the_documented_keys(run200: Simulated) -> None:
    """Each deal line holds exactly the documented keys (with issue #6's ``obligation``, which
    applies to four-player hvalenyi); each trick its four keys."""
    for deal in run200.deals:
        assert set(deal) == DEAL_KEYS | {"obligation"}
        assert deal["obligation"] == deal["first_leader"] % 2
        assert deal["variant"] == "hvalenyi"
        assert deal["trump"] == "D"
        assert deal["players"] == ["cpu0", "cpu1", "cpu2", "cpu3"]
        for trick in deal["tricks"]:
            assert set(trick) == TRICK_KEYS


def test_every_deal_counts_120_points_unless_caught(run200: Simulated) -> None:
    """Card points of a deal add up to 120, except a deal cut short by the catch."""
    outcomes = set()
    for deal in run200.deals:
        outcomes.add(deal["outcome"])
        if deal["outcome"] == "catch":
            assert sum(deal["points"]) <= 120
            assert len(deal["tricks"]) <= 9
        else:
            assert sum(deal["points"]) == 120
            assert len(deal["tricks"]) == 9
    assert {"normal", "catch"} <= outcomes


def test_trick_hands_shrink_by_the_cards_played(run200: Simulated) -> None:
    """Trick ``k`` shows the hands before it: 9 - k cards, and each card played comes out
    of its player's hand; J♣ leads the first trick, and the winner leads the next."""
    for deal in run200.deals:
        tricks = deal["tricks"]
        first = tricks[0]
        assert first["leader"] == deal["first_leader"]
        assert "JC" in first["hands"][deal["first_leader"]]
        assert sorted(c for hand in first["hands"] for c in hand) == FULL_DECK
        for index, trick in enumerate(tricks):
            assert [len(hand) for hand in trick["hands"]] == [9 - index] * 4
            hands = [list(hand) for hand in trick["hands"]]
            for offset, card in enumerate(trick["cards"]):
                seat = (trick["leader"] + offset) % 4
                hands[seat].remove(card)
            if index + 1 < len(tricks):
                assert tricks[index + 1]["hands"] == hands
                assert tricks[index + 1]["leader"] == trick["winner"]
        points = [0, 0]
        for trick in tricks:
            points[trick["winner"] % 2] += hand_points([Card.parse(c) for c in trick["cards"]])
        assert points == deal["points"]


def test_trace_deck_dealer_and_redeal_requests(run200: Simulated) -> None:
    """Issue #14's keys: ``deck`` is what the first trick's hands were cut from (hvalenyi
    has no hand-off), ``dealer`` the seat before the first leader, and ``redeal_requests``
    one entry per redeal, each a hand under 14 points."""
    requests = 0
    for deal in run200.deals:
        first = deal["tricks"][0]
        assert deal["deck"] == [card for hand in first["hands"] for card in hand]
        assert deal["dealer"] == (deal["first_leader"] - 1) % 4
        assert len(deal["redeal_requests"]) == deal["redeals"]
        assert all(r["points"] < 14 and 0 <= r["seat"] < 4 for r in deal["redeal_requests"])
        requests += len(deal["redeal_requests"])
    assert requests > 0


def test_winner_is_set_only_on_the_last_deal_of_a_match(run200: Simulated) -> None:
    """``winner`` is null on every deal but the one that ends its match."""
    by_match: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for deal in run200.deals:
        by_match[deal["match"]].append(deal)
    assert sorted(by_match) == list(range(200))
    wins = [0, 0]
    for deals in by_match.values():
        assert [d["deal"] for d in deals] == list(range(len(deals)))
        assert all(d["winner"] is None for d in deals[:-1])
        last = deals[-1]
        assert last["winner"] in (0, 1)
        wins[last["winner"]] += 1
        assert last["score"][last["winner"]] >= 12 or last["outcome"] == "lyusya"
        assert all(max(d["score"]) < 12 for d in deals[:-1])
    assert wins == run200.summary["wins"]


def test_scores_accumulate_the_awards(run200: Simulated) -> None:
    """Each deal's score is the previous score plus its award (no Lyusya ``zero`` here)."""
    previous: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for deal in run200.deals:
        before = previous[deal["match"]]
        assert deal["score"] == [before[0] + deal["award"][0], before[1] + deal["award"][1]]
        previous[deal["match"]] = deal["score"]


def test_options_reflect_the_option_overrides(tmp_path: Path) -> None:
    """``--option deck=32 --option lyusya=zero`` reaches the summary, the trace and the deal."""
    run = Simulated(
        ["--matches", "4", "--seed", "2", "--option", "deck=32", "--option", "lyusya=zero"],
        tmp_path / "t.jsonl",
    )
    assert run.code == 0
    assert run.summary["options"]["deck"] == 32
    assert run.summary["options"]["lyusya"] == "zero"
    assert run.summary["options"]["six_clubs"] == "top"
    for deal in run.deals:
        assert deal["options"] == run.summary["options"]
        hands = deal["tricks"][0]["hands"]
        assert [len(hand) for hand in hands] == [8, 8, 8, 8]
        assert not any(card.startswith("6") for hand in hands for card in hand)
        assert deal["outcome"] != "catch"
        assert sum(deal["points"]) == 120


@pytest.mark.parametrize("bad", ["deck=33", "nonsense=1", "deck", "lyusya=maybe", "move_time=5"])
def test_bad_option_exits_with_code_2(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown option or value is an argparse error: exit code 2, a message on stderr."""
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--matches", "1", "--option", bad, "--trace", str(tmp_path / "t")])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert "option" in captured.err
    assert captured.out == ""
    assert not (tmp_path / "t").exists()


EVERY_SETUP = [
    ("hvalenyi", []),
    ("hvalenyi", ["deck=32", "six_clubs=ordinary", "lyusya=zero"]),
    ("hvalenyi", ["players=2"]),
    ("hvalenyi", ["players=2", "deck=32"]),
    ("kryuk", []),
    ("sixes", []),
    ("sixes", ["no_shamok=true", "ace_discard_ban=true", "royal=true"]),
    ("belka", []),
    ("belka", ["deck=36", "ace_discard_ban=true"]),
]
"""Every preset, and the options that change what the engine does."""
NOT_CONSERVED = {"catch", "royal", "refusedRedeal", "aces", "sixes"}
"""Outcomes that end a deal before its cards are all played (issue #6 acceptance)."""


def _argv(variant: str, words: list[str]) -> list[str]:
    args = ["--variant", variant, "--matches", "200", "--seed", "5"]
    for word in words:
        args += ["--option", word]
    return args


@pytest.fixture(scope="module")
def acceptance(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Simulated]:
    """The 200-match runs of every follow-suit setup and every cover setup, made at once."""
    runs = {f"{v} {' '.join(w)}": _argv(v, w) for v, w in EVERY_SETUP}
    runs |= {f"cover {' '.join(w)}": _argv("cover", w) for w in COVER_SETUPS}
    return simulate_all(runs, tmp_path_factory.mktemp("acceptance"))


@pytest.mark.parametrize(("variant", "words"), EVERY_SETUP, ids=lambda v: str(v))
def test_200_seeded_matches_of_every_preset_finish_and_conserve_120_points(
    acceptance: dict[str, Simulated], variant: str, words: list[str]
) -> None:
    """Issue #6 acceptance: ``simulate --variant V [--option …] --matches 200`` finishes,
    and every deal holds 120 card points unless a catch or a royal kozel ended it."""
    run = acceptance[f"{variant} {' '.join(words)}"]
    assert run.code == 0
    assert run.summary["matches"] == 200 and sum(run.summary["wins"]) == 200
    seats = 2 if "players=2" in words else 4
    for deal in run.deals:
        assert deal["variant"] == variant
        assert len(deal["players"]) == seats
        if deal["outcome"] not in NOT_CONSERVED:
            assert sum(deal["points"]) == 120, deal
        assert len(deal["points"]) == len(deal["score"]) == len(deal["award"]) == 2
        assert (
            len(set(deal["deck"]))
            == len(deal["deck"])
            == (
                36
                if "deck=36" in words or (variant == "hvalenyi" and "deck=32" not in words)
                else 32
            )
        )
        if deal["tricks"]:
            assert {c for hand in deal["tricks"][0]["hands"] for c in hand} <= set(deal["deck"])
        if deal.get("opening", "plain") != "plain":
            assert [d["seat"] for d in deal["opening_draws"]] == [
                (deal["first_leader"] + k) % 4 for k in range(4)
            ]
        for handoff in deal.get("handoffs", []):
            assert len(handoff["returned"]) == len(handoff["cards"])
    finals = [d for d in run.deals if d["winner"] is not None]
    assert len(finals) == 200
    if variant == "sixes":
        assert all(d["title"].startswith("kozly") for d in finals)
        assert all(max(d["score"]) >= 6 or d["outcome"] in ("lyusya", "royal") for d in finals)


def test_players_flag_seats_two(tmp_path: Path) -> None:
    """``--players 2`` is ``--option players=2``: two names in every trace line."""
    trace = tmp_path / "t.jsonl"
    run = Simulated(["--variant", "hvalenyi", "--players", "2", "--matches", "3"], trace)
    assert run.code == 0
    assert all(d["players"] == ["cpu0", "cpu1"] for d in run.deals)


COVER_SETUPS = [
    ["hand=6"],
    ["hand=4"],
    ["mode=self", "players=2"],
    ["mode=self", "players=3"],
    ["mode=self", "players=4"],
    ["mode=self", "players=3", "hand=4"],
    ["poshka=true"],
    ["opening=seed000"],
]
"""Issue #7 acceptance: classic and quick pairs, classic self with 2–4, quick self with 3,
poshka, the seed-000 opening."""


@pytest.mark.parametrize("words", COVER_SETUPS, ids=lambda w: " ".join(w))
def test_200_cover_matches_use_every_card_once_and_conserve_120_points(
    acceptance: dict[str, Simulated], words: list[str]
) -> None:
    """Every game of 200 seeded cover matches plays each of the 36 cards exactly once (lead,
    beats, discards, levelling) and its sides' points add up to 120; four aces or sixes end
    a match at once."""
    run = acceptance[f"cover {' '.join(words)}"]
    assert run.code == 0 and sum(run.summary["wins"]) == 200
    deck = sorted(str(c) for c in DECK_36)
    for game in run.deals:
        assert sorted(game["deck"]) == deck
        if game["outcome"] in ("aces", "sixes"):
            assert game["winner"] is not None
            continue
        played = [c for r in game["rounds"] for c in r["lead"]]
        played += [c for r in game["rounds"] for a in r["actions"] for c in a["cards"]]
        played += [c for r in game["rounds"] for lv in r["levelling"] for c in lv["cards"]]
        assert sorted(played) == deck
        assert sum(game["points"]) == 120
    assert len([g for g in run.deals if g["winner"] is not None]) == 200
