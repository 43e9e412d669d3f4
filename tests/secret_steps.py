"""The leak scan's checks of what the group sees during secret steps (issue #14, items 1–3).

Pure functions over what the scan reads (the group's table texts with their times, the
move log, the deal traces), so each can be tested on a made-up log:

- ``secret_step_leaks``: while a deal waits on a secret decision — a redeal offer or the
  sixes/kryuk choice to hand off answered "keep", kryuk's hand-off and return — every table
  text of that deal shows the neutral "Waiting …" line, and no such decision changes it (a
  text that changes as someone keeps tells the group who was asked).
- ``open_points_leaks``: the cover game's running figure counts face-up cards only: every
  "Open card points" figure the table showed is one that the face-up cards of the tricks
  taken so far add up to (a face-down discard or levelling card would show in it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kozelbot.core.cards import Card
from kozelbot.core.i18n import LANGUAGES, translator

SLACK = 0.3
"""Seconds after a move during which a text may still show the state before it (rendered
just before the move was committed, sent just after)."""
WAITING = frozenset(
    translator(language)(text)
    for language in LANGUAGES
    for text in ("Waiting for the deal to start…", "Waiting for play to go on…")
)
OPEN_LABELS = tuple(
    translator(language)("Open card points: {points}").split("{points}")[0].rstrip()
    for language in LANGUAGES
)


@dataclass(frozen=True)
class Shown:
    """A table text the group was sent (or an edit to it) about one deal, and when."""

    when: float
    deal: int
    text: str


@dataclass(frozen=True)
class Logged:
    """A move of the log: when it was committed, its deal and its notation."""

    when: float
    deal: int
    action: str


def secret(variant: str, action: str) -> bool:
    """Whether a logged move is a secret decision: declining a redeal or a hand-off
    ("keep"), and kryuk's whole hand-off (RULES.md §1.2: opponents are not told)."""
    if action == "keep":
        return True
    return variant == "kryuk" and action.startswith(("give:", "return:"))


def secret_step_leaks(variant: str, moves: Sequence[Logged], shown: Sequence[Shown]) -> list[str]:
    """Why the texts shown during each run of secret decisions leak (empty: they do not)."""
    found: list[str] = []
    run: list[Logged] = []
    before: Logged | None = None
    for move in [*moves, None]:
        if (
            move is not None
            and secret(variant, move.action)
            and (not run or run[-1].deal == move.deal)
        ):
            run.append(move)
            continue
        if run:
            found += _run_leaks(run, before, shown)
            run = []
        if move is not None:
            if secret(variant, move.action):
                run = [move]
                continue
            before = move
    return found


def _run_leaks(run: list[Logged], before: Logged | None, shown: Sequence[Shown]) -> list[str]:
    """A run's texts: those of its deal sent before its last decision and after the public
    move before it — right after, when that move was of an earlier deal (the deal's first
    text shows the step), else after ``SLACK``."""
    deal, last = run[0].deal, run[-1].when
    start = float("-inf")
    if before is not None:
        start = before.when + (SLACK if before.deal == deal else 0.0)
    during = [s for s in shown if s.deal == deal and start < s.when <= last]
    found = [
        f"deal {deal + 1}: the table shows a secret step without the neutral line: {s.text!r}"
        for s in during
        if not any(line in s.text for line in WAITING)
    ]
    if len({s.text for s in during}) > 1:
        found.append(
            f"deal {deal + 1}: the table changed as a secret decision was made "
            f"({', '.join(m.action for m in run)})"
        )
    return found


def open_points_shown(text: str, sides: Sequence[Sequence[str]]) -> list[int | None] | None:
    """The "open card points" figures a table text shows, per side, read by the sides' names
    (``sides[i]``: side i's name in each language, as the text writes it); ``None`` for a side
    not listed (a player out), and ``None`` for a text without the line."""
    label = next((label for label in OPEN_LABELS if label in text), None)
    if label is None:
        return None
    after = text.split(label, 1)[1]
    figures: list[int | None] = []
    for names in sides:
        found = None
        for name in names:
            match = re.search(rf"(?<![\w+]){re.escape(name)}:? (\d+)", after)
            if match is not None:
                found = int(match.group(1))
                break
        figures.append(found)
    return figures


def open_points_leaks(
    trace: dict[str, Any], shown: Sequence[Shown], sides: Sequence[Sequence[str]]
) -> list[str]:
    """The cover game's "open card points" figures that its face-up cards cannot make."""
    pairs = trace["options"].get("mode", "pairs") == "pairs"
    count = 2 if pairs else len(trace["hands"])
    totals = [0] * count
    possible = [tuple(totals)]
    for rnd in trace["rounds"]:
        face_up = [
            *rnd["lead"],
            *(
                code
                for move in rnd["actions"]
                if move.get("type") == "beat"
                for code in move["cards"]
            ),
        ]
        taker = rnd["taker"] if rnd["taker"] is not None else rnd["leader"]
        totals[taker % 2 if pairs else taker] += sum(Card.parse(c).points for c in face_up)
        possible.append(tuple(totals))
    found = []
    for text in shown:
        figures = open_points_shown(text.text, sides) if text.deal == trace["deal"] else None
        if figures is None:
            continue
        if not any(
            all(f is None or f == p for f, p in zip(figures, vector, strict=True))
            for vector in possible
        ):
            found.append(
                f"game {trace['deal'] + 1}: open points {figures} are not the face-up cards'"
            )
    return found
