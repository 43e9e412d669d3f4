"""Skill ratings per variant: openskill's Plackett–Luce model over teams, pure (no storage).

**Teams.** Partners (sides 0 and 1: seats 0+2 against 1+3) are one team whose members keep
their own ratings; when each plays for self every seat is a team of one. A team's strength is
the sum of its members', so a strong partner earns less for a win than a weak one does.

**Ranks (decision).** The winning side is ranked first (0) and every other side is tied
second (1). The final score is not used: in the follow games it is the winner's target
reached, and in the cover games it is penalty points (lower is better) whose spread among
the losers says more about one unlucky deal than about skill. A tie for second is the
honest reading of "did not win".

**Computers.** A computer seat is one fixed-strength pseudo-player per level
(``kozelbot.core.options.TableOptions.computer``); it takes part in the update with the strength
of ``COMPUTER_SKILL`` and is never updated nor stored, so playing with or against computers
counts without anyone (the computer included) drifting. ``normal`` plays like an average
newcomer (μ 25, the prior's mean) and ``easy`` (a random legal move) clearly weaker (μ 18);
``strong`` (the search, issue #17) is set from the arena: the model predicts a pair of
strong computers beats a pair of normal ones 9 times in 10, as ``kozelbot arena --a strong
--b normal`` measured across the presets (README, "The arena"): μ 29.5. All with σ 2, a
strength the model is fairly sure of, so one match says more about the person than about
the computer.

**Shown rating.** The conservative ``mu - 3 * sigma`` on a friendly scale:
``DISPLAY_BASE + DISPLAY_SCALE × (mu - 3σ)``, rounded. A newcomer shows 1000 (the prior's
mu − 3σ is 0) and climbs as the model grows sure of a strong player (an established average
player: about 1,350–1,450); a first loss shows a little under 1000, never a negative number in
practice (issue #15: "−1" for a newcomer read as an insult).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
"""The model with openskill's defaults: μ 25, σ 25/3, β 25/6, τ 25/300."""


class Skill(NamedTuple):
    """A rating as the model keeps it: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The rating people see (``shown``)."""
        return shown(self.mu, self.sigma)


DISPLAY_BASE = 1000
"""The shown rating of a newcomer (the prior's mu − 3σ is 0)."""
DISPLAY_SCALE = 20
"""Shown points per point of the model's mu − 3σ."""


def shown(mu: float, sigma: float) -> int:
    """The rating people see: the conservative ``mu - 3 * sigma`` on the display scale
    (storage's migration 008 computes the same)."""
    value = DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma)
    return int(math.copysign(math.floor(abs(value) + 0.5), value))  # halves away from 0, as SQL


PRIOR = Skill(MODEL.mu, MODEL.sigma)
"""A person's rating before their first rated match of a variant (shows as 1000)."""

COMPUTER_SKILL: dict[str, Skill] = {
    "strong": Skill(29.5, 2.0),
    "normal": Skill(25.0, 2.0),
    "easy": Skill(18.0, 2.0),
}
"""The fixed strength of each computer level (see the module docstring)."""

DEFAULT_LEVEL = "normal"
"""The level of a computer seat that names none (or a level no longer known)."""


@dataclass(frozen=True, slots=True)
class Contender:
    """One seat of a rated match: a person (``user_id``, with their current ``skill``, or
    ``None`` for the prior) or, with ``user_id`` ``None``, a computer of ``level``."""

    side: int
    user_id: int | None = None
    skill: Skill | None = None
    level: str | None = None

    def rating(self) -> PlackettLuceRating:
        """The model's rating object for this seat."""
        if self.user_id is None:
            skill = COMPUTER_SKILL.get(self.level or DEFAULT_LEVEL, COMPUTER_SKILL[DEFAULT_LEVEL])
        else:
            skill = self.skill or PRIOR
        return MODEL.rating(mu=skill.mu, sigma=skill.sigma)


def rate_match(contenders: Sequence[Contender], winner_side: int) -> dict[int, Skill]:
    """Every person's new skill after a match ``winner_side`` won (computers are left out).

    Each person may hold one seat only (``ValueError`` otherwise). A match with fewer than
    two sides, or without any person, changes nothing and returns what it was given.
    """
    people = [c.user_id for c in contenders if c.user_id is not None]
    if len(people) != len(set(people)):
        raise ValueError("a person holds two seats of one match")
    sides = sorted({c.side for c in contenders})
    if len(sides) < 2 or not people:
        return {c.user_id: c.skill or PRIOR for c in contenders if c.user_id is not None}
    members = [[c for c in contenders if c.side == side] for side in sides]
    teams = [[c.rating() for c in team] for team in members]
    ranks: list[float] = [0.0 if side == winner_side else 1.0 for side in sides]
    rated = MODEL.rate(teams, ranks=ranks)
    return {
        c.user_id: Skill(new.mu, new.sigma)
        for team, new_team in zip(members, rated, strict=True)
        for c, new in zip(team, new_team, strict=True)
        if c.user_id is not None
    }
