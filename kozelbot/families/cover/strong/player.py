"""The cover game's ``strong`` level (issue #17): determinized search over every decision of
a game in play — the lead's size, beat or shed, re-beat or Відбій, levelling, claims.

Per decision it places the cards the seat cannot see at random (``sampling``: nothing but
the seat's own facts, ``search.public_facts``, is read), weights each placement by how well
it explains the others' moves in the round standing under the normal player's rules
(``likelihood``), and scores each legal move by
playing the game out with the normal player's rules (``policy``) from it; each sample gives
every move the same hidden cards. A move's value is the loser points it saves the seat's
side against the others' (``search.result``: eggs, four of a kind, the multiplier), with a
match won or lost worth ``MATCH`` more. Moves that fall far behind are dropped as samples
come in (successive halving), so the budget goes to the moves that matter, and the search
stops once the best of the rest is clear (``kozelbot.core.tally``).

**Decision**: between games (a new deal's chance step) there is nothing to decide; the
seat's moves outside a game in play are the normal player's.
"""

from __future__ import annotations

import random
from typing import Any

from kozelbot.core.decisions import Budget, Decision
from kozelbot.core.tally import Tally
from kozelbot.families.cover.ai import choose
from kozelbot.families.cover.search import PHASES, from_public, move_of, public_facts, result
from kozelbot.families.cover.search.position import Position
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.strong.likelihood import Likelihood
from kozelbot.families.cover.strong.policy import playout
from kozelbot.families.cover.strong.reasons import reason_for
from kozelbot.families.cover.strong.sampling import sample
from kozelbot.families.cover.vocabulary import Action

MATCH = 6.0
"""What winning (losing) the match with this game is worth beside its loser points; going
out (each for self) counts as losing."""
POINT = 0.01
"""What one card point is worth beside the loser points: they come in steps of two (at
``save`` and ``safe`` points), and points towards the next step are worth having."""
MAX_SAMPLES = 300
KEEP = 3
"""Moves never dropped below this many."""


def value(pos: Position, side: int) -> float:
    """A finished game's worth to ``side``: the others' loser points (their mean) minus its
    own, the match's end, card points breaking ties."""
    game = result(pos)
    sides = len(game.award)
    others = [s for s in range(sides) if s != side]
    worth = sum(game.award[s] for s in others) / len(others) - game.award[side]
    if game.winner is not None:
        worth += MATCH if game.winner == side else -MATCH
    elif side in game.out:
        worth -= MATCH
    spread = game.points[side] - sum(game.points[s] for s in others) / len(others)
    return worth + spread * POINT


def searches(state: CoverState, seat: int) -> bool:
    """The seat has moves to choose between in a game in play (the search's step)."""
    return state.phase in PHASES and len(state.legal_actions(seat)) > 1


def decide(
    state: CoverState,
    seat: int,
    rng: random.Random,
    budget_ms: float,
    keep: Action | None = None,
) -> Decision:
    """The strong player's move for ``seat``, from what ``seat`` may know; ``keep`` is never
    dropped (the analysis needs its value)."""
    legal = state.legal_actions(seat)
    if state.phase not in PHASES or not legal:
        return Decision(choose(state.view_for(seat), legal), reason="rule")
    if len(legal) == 1:
        return Decision(legal[0], ((legal[0], 0.0),), reason="only")
    by_move: dict[int, Any] = {move_of(seat, action): action for action in legal}
    if keep is not None and move_of(seat, keep) in by_move:
        by_move[move_of(seat, keep)] = keep  # the caller's spelling of it (cards in its order)
    public = public_facts(state, seat)
    side = state.rules.side_of(seat)
    candidates = list(by_move)
    tally = Tally(candidates)
    likelihood = Likelihood(public)
    budget = Budget(budget_ms)
    prune_at = 4
    while tally.samples < MAX_SAMPLES and not budget.spent(tally.samples):
        hidden = sample(public, rng)
        pos = from_public(public, hidden)
        for move in candidates:
            pos.make(move)
            made = playout(pos, rng)
            tally.add(move, value(pos, side))
            for _ in range(made):
                pos.unmake()
            pos.unmake()
        tally.close(likelihood.weight(hidden))
        if tally.samples == prune_at and len(candidates) > KEEP:
            candidates = tally.ranked(candidates)
            kept = candidates[: max(KEEP, len(candidates) // 2)]
            candidates = kept + [m for m in candidates[len(kept) :] if by_move[m] == keep]
            prune_at *= 2
        elif tally.settled(candidates):
            break
    considered = tally.ranked(candidates)
    values = tuple((by_move[m], tally.mean(m)) for m in considered)
    best = by_move[considered[0]]
    reason, fields = reason_for(state.view_for(seat), best)
    return Decision(best, values, tally.samples, reason, fields)
