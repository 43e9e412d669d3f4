"""A finished search position scored as the engine scores the game (``scoring``'s rules,
reused): each side's card points, four aces or sixes, eggs, loser points times the eggs
multiplier, the match's loser points after the game, who is out, and the match winner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kozelbot.core.cards import Suit
from kozelbot.families.cover.scoring import game_award, instant_award, match_end, playing_sides
from kozelbot.families.cover.search.cards import SUITS
from kozelbot.families.cover.vocabulary import Outcome

if TYPE_CHECKING:
    from kozelbot.families.cover.search.fields import Fields


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, with the figures of the engine's ``DealScored`` and the match's
    state after it."""

    outcome: Outcome
    points: tuple[int, ...]
    """Each side's card points, face-down cards included."""
    tricks_won: tuple[int, ...]
    award: tuple[int, ...]
    """Each side's loser points for this game."""
    multiplier: int
    score: tuple[int, ...]
    """The match's loser points after this game."""
    eggs: int
    """Eggs in a row after this game."""
    out: tuple[int, ...]
    """Seats out after this game (each for self)."""
    winner: int | None
    """The side that won the match, if this game ended it."""
    last_taker: int
    trump: Suit
    """The trump at the game's end (the bottom card may have changed it; the default
    opening's next game keeps it)."""


def result(pos: Fields) -> GameResult:
    """The result of a finished position (``ValueError`` while it is in play)."""
    if not pos.over:
        raise ValueError("the game is still in play")
    rules = pos.rules
    sides = playing_sides(rules, pos.seats)
    out = set(pos.out)
    eggs = pos.eggs
    if pos.four is not None:
        outcome, seat = pos.four
        side = pos.side[seat]
        award = instant_award(rules, side, sides)
        times = 1
        winner: int | None = side
        if not rules.pairs:
            out |= {s for s in sides if s != side}
    else:
        outcome, award, times = game_award(rules, sides, pos.points, eggs)
        eggs = eggs + 1 if outcome is Outcome.EGGS else 0
    score = tuple(before + add for before, add in zip(pos.score, award, strict=True))
    if pos.four is None:
        winner, newly_out = match_end(rules, score, pos.seats, pos.last_taker)
        out |= set(newly_out)
    return GameResult(
        outcome=outcome,
        points=tuple(pos.points),
        tricks_won=tuple(pos.tricks),
        award=tuple(award),
        multiplier=times,
        score=score,
        eggs=eggs,
        out=tuple(sorted(out)),
        winner=winner,
        last_taker=pos.last_taker,
        trump=SUITS[pos.trump],
    )
