"""Scoring the cover game (RULES.md §2), from the named figures of ``CoverRules``: each
side's loser points for its card points, eggs and their multiplier, four aces or four sixes
ending the match, who is out, and the match winner.

**Decisions** where RULES.md §2 is silent:
- Both pairs reaching the losing total in one game: fewer loser points wins, then the side
  that took the last trick (the tie-break RULES.md gives each for self). Each for self, when
  every remaining player reaches it and the tied ones did not take the last trick: the lowest
  seat wins.
- Eggs each for self count the players still in play: two left can make eggs.
- Four aces or four sixes are checked after the deal and after every draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kozelbot.core.cards import Rank, Suit
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.families.cover.presets import CoverRules
from kozelbot.families.cover.vocabulary import Event, Outcome, Phase, card_names

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch

ALL_FOUR = len(Suit)
"""Cards of one rank in the deck: a hand holding them all has four of a kind."""
FOUR_OF_A_KIND = ((Rank.ACE, Outcome.ACES), (Rank.SIX, Outcome.SIXES))
"""The ranks whose four end the match, the stronger first (aces beat sixes)."""


def loser_points(rules: CoverRules, points: int) -> int:
    """61–120 → 0; save–60 → 2; 1–(save−1) → 4; 0 → 6 (RULES.md §2, the figures ``rules``
    names)."""
    if points >= rules.safe:
        return 0
    if points >= rules.save:
        return rules.saved_loss
    return rules.poor_loss if points > 0 else rules.blank_loss


def multiplier(eggs: int) -> int:
    """Eggs double the next game's loser points: ×2, ×4 after two eggs in a row…"""
    return 1 << eggs


def sides_in_play(state: CoverMatch) -> list[int]:
    """The sides still playing: both pairs, or each seat not out."""
    return playing_sides(state.rules, state.in_play())


def playing_sides(rules: CoverRules, in_play: Sequence[int]) -> list[int]:
    """The sides still playing when these seats are in play: both pairs, or each of them."""
    return list(range(rules.sides)) if rules.pairs else list(in_play)


def instant_award(rules: CoverRules, side: int, sides: Sequence[int]) -> list[int]:
    """Each side's loser points when four of a kind in one of ``side``'s hands ends the
    match: ``four_of_a_kind_loss`` for every other side still playing."""
    return [
        rules.four_of_a_kind_loss if s in sides and s != side else 0 for s in range(rules.sides)
    ]


def game_award(
    rules: CoverRules, sides: Sequence[int], points: Sequence[int], eggs: int
) -> tuple[Outcome, list[int], int]:
    """A game played out (talon and hands empty), from each side's card points: eggs or a
    normal game, each side's loser points (times the eggs multiplier), and the multiplier.
    Eggs need every side at exactly ``rules.eggs``, and two sides (both pairs, or two
    players left each for self)."""
    times = multiplier(eggs)
    eggs_possible = rules.pairs or len(sides) == 2  # eggs split the points between two sides
    if eggs_possible and all(points[s] == rules.eggs for s in sides):
        return Outcome.EGGS, [0] * rules.sides, times
    award = [0] * rules.sides
    for s in sides:
        award[s] = loser_points(rules, points[s]) * times
    return Outcome.NORMAL, award, times


def four_of_a_kind(state: CoverMatch) -> list[Event]:
    """Four aces or four sixes in one hand end the match: that side wins, everyone else
    gets ``four_of_a_kind_loss`` (aces beat sixes)."""
    game = state.game
    found: dict[Rank, int] = {}
    for seat in state.in_play():
        for rank, _ in FOUR_OF_A_KIND:
            if sum(1 for c in game.hands[seat] if c.rank is rank) == ALL_FOUR:
                found.setdefault(rank, seat)
    if not found:
        return []
    rank, outcome = next(kind for kind in FOUR_OF_A_KIND if kind[0] in found)
    side = state.side_of(found[rank])
    rules = state.rules
    sides = sides_in_play(state)
    award = instant_award(rules, side, sides)
    for s in sides:
        state.score[s] += award[s]
    if not rules.pairs:
        state.out = sorted(set(state.out) | {s for s in sides if s != side})
    return _scored(state, outcome, award, side)


def score_game(state: CoverMatch) -> list[Event]:
    """Talon and hands are empty: eggs, or each side's loser points (times the eggs
    multiplier)."""
    sides = sides_in_play(state)
    outcome, award, times = game_award(state.rules, sides, state.game.points, state.eggs)
    if outcome is Outcome.EGGS:
        state.eggs += 1
        return _scored(state, outcome, award, None, times)
    state.eggs = 0
    for s in sides:
        state.score[s] += award[s]
    return _scored(state, outcome, award, None, times)


def _scored(
    state: CoverMatch, outcome: Outcome, award: list[int], instant: int | None, times: int = 1
) -> list[Event]:
    """Record a finished game (``times``: what its loser points were multiplied by) and move
    on to the next game or the end of the match (at once for ``instant``, the side that
    won it)."""
    game = state.game
    winner = instant if instant is not None else _match_winner(state)
    result = DealScored(
        deal_no=game.game_no,
        outcome=outcome.value,
        points=tuple(game.points),
        tricks_won=tuple(game.tricks_won),
        award=tuple(award),
        multiplier=times,
        score=tuple(state.score),
        side=None,
        details={
            "trump": game.trump.value,
            "out": sorted(state.out),
            "last_taker": game.last_taker,
            "last_stacks": [card_names(stack) for stack in game.last_stacks],
            "last_face_down": game.last_face_down,
        },
        seeds=tuple(state.seeds),
    )
    state.last_result = result
    state.game_no += 1
    in_play = state.in_play()
    if in_play:
        seats = state.rules.seats
        state.dealer = seats.clockwise(seats.after(state.dealer), in_play)[0]
    state.next_leader = game.last_taker if game.last_taker >= 0 else None
    events: list[Event] = [result]
    if winner is not None:
        state.winner = winner
        state.phase = Phase.OVER
        events.append(MatchOver(winner, result.score))
    else:
        state.phase = Phase.DEALING
    return events


def _match_winner(state: CoverMatch) -> int | None:
    """The match's winner after a game, if it is over (``match_end``); the seats it puts
    out are out."""
    winner, out = match_end(state.rules, state.score, state.in_play(), state.game.last_taker)
    if out:
        state.out = sorted(set(state.out) | set(out))
    return winner


def match_end(
    rules: CoverRules, score: Sequence[int], in_play: Sequence[int], last_taker: int
) -> tuple[int | None, list[int]]:
    """After a game, with loser points ``score``: the match winner (a side, or ``None`` to
    play on) and the seats that go out. Pairs: the first side to ``lose_at`` loses. Self:
    a player at ``lose_at`` is out; the last one left wins; if all remaining reach it
    together, fewer loser points wins, then whoever took the last trick (RULES.md §2
    Match)."""
    if rules.pairs:
        sides = range(rules.sides)
        losers = [s for s in sides if score[s] >= rules.lose_at]
        if not losers:
            return None, []
        if len(losers) == len(sides):
            best = min(score[s] for s in sides)
            tied = [s for s in sides if score[s] == best]
            if len(tied) == 1:
                return tied[0], []
            return rules.side_of(last_taker), []  # as in self: the last trick decides
        return next(s for s in sides if s not in losers), []
    remaining = list(in_play)
    reached = [s for s in remaining if score[s] >= rules.lose_at]
    if len(reached) == len(remaining):
        best = min(score[s] for s in remaining)
        tied = [s for s in remaining if score[s] == best]
        winner = last_taker if last_taker in tied else tied[0]
        return winner, [s for s in remaining if s != winner]
    left = [s for s in remaining if s not in reached]
    return (left[0] if len(left) == 1 else None), reached
