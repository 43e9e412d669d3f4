"""What one seat of a cover table may know (``view_for``): its own hand and the public table,
nothing hidden. The computer player sees only this (and the moves it may make); the texts are
made from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card, Suit
from kozelbot.core.protocol import DealScored
from kozelbot.families.cover.hands import level_count, may_beat, surplus
from kozelbot.families.cover.presets import CoverRules
from kozelbot.families.cover.scoring import multiplier
from kozelbot.families.cover.vocabulary import CARD_POINTS, Phase

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch

PLAYING = (Phase.LEAD, Phase.ANSWER, Phase.REBEAT)
"""The phases a round is played in: only then are its stacks on the table."""


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or the table, ``seat=None``) may know."""

    seat: int | None
    phase: Phase
    game_no: int
    players: int
    in_play: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    talon: int
    trump: Suit
    trump_start: Suit
    """The trump this game was dealt with (``trump`` differs once the drawn bottom card
    changed it)."""
    bottom: Card | None
    """The talon's bottom card once shown (seed 000 cut card, or drawn at the last draw)."""
    stacks: tuple[tuple[Card, ...], ...]
    """The round's stacks while it is played (empty during the levelling and after the last
    trick: the trick then holds face-down cards too)."""
    discards: int
    to_act: tuple[int, ...]
    leader: int | None
    last_beater: int | None
    claims: tuple[tuple[int, int], ...]
    surplus: int
    """Cards this seat must shed now (beat or discard), if it is answering."""
    may_beat: bool
    level_count: int
    """Cards this seat must add to the trick now (levelling)."""
    score: tuple[int, ...]
    multiplier: int
    out: tuple[int, ...]
    open_points: tuple[int, ...]
    """Each side's points of the face-up cards in the tricks it took this game
    (``open_points``); the true totals, which count the face-down cards too, are nobody's
    to see until the game is scored (``last_result``)."""
    last_result: DealScored | None
    winner: int | None
    rules: CoverRules


def open_points(state: CoverMatch) -> list[int]:
    """Each side's points of the face-up cards (leads and beats) in the tricks it took this
    game: what everyone at the table saw. Face-down discards and levelling count only in
    ``CoverGame.points``, secret until the game is scored."""
    game = state.current
    if game is None:
        return []
    sides = [0] * state.rules.sides
    for rnd in game.rounds:
        beats = [c for a in rnd["actions"] if a["type"] == "beat" for c in a["cards"]]
        shown = [*rnd["lead"], *beats]
        sides[state.side_of(rnd["taker"])] += sum(CARD_POINTS[c] for c in shown)
    return sides


def view_for(state: CoverMatch, seat: int | None) -> View:
    """What ``seat`` may know (``None``: what the whole table sees)."""
    game = state.current
    rnd = game.round if game is not None else None
    hand = tuple(game.hands[seat]) if game is not None and seat is not None else ()
    level = (
        level_count(state, seat)
        if (
            seat is not None
            and state.phase is Phase.LEVEL
            and rnd is not None
            and seat in rnd.level_pending
        )
        else 0
    )
    return View(
        seat=seat,
        phase=state.phase,
        game_no=game.game_no if game is not None else state.game_no,
        players=state.players,
        in_play=tuple(state.in_play()),
        hand=hand,
        hand_sizes=tuple(len(h) for h in game.hands) if game is not None else (),
        talon=len(game.talon) if game is not None else 0,
        trump=game.trump if game is not None else state.trump,
        trump_start=game.trump_start if game is not None else state.trump,
        bottom=game.bottom if game is not None else None,
        stacks=tuple(tuple(s) for s in rnd.stacks)
        if rnd is not None and state.phase in PLAYING
        else (),
        discards=len(rnd.discards) if rnd is not None else 0,
        to_act=state.to_act(),
        leader=rnd.leader if rnd is not None else None,
        last_beater=rnd.last_beater if rnd is not None else None,
        claims=tuple(rnd.claims) if rnd is not None else (),
        surplus=surplus(state, seat) if seat is not None else 0,
        may_beat=may_beat(state, seat) if seat is not None else False,
        level_count=level,
        score=tuple(state.score),
        multiplier=multiplier(state.eggs),
        out=tuple(state.out),
        open_points=tuple(open_points(state)),
        last_result=state.last_result,
        winner=state.winner,
        rules=state.rules,
    )
