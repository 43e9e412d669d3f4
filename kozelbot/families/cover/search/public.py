"""What one seat knows of a cover game in play (``Public``), and the cards it does not see
(``Hidden``): the two halves a determinized search puts together — it samples a ``Hidden``
consistent with the ``Public`` facts and builds a position of them (``build.from_public``).

``public_facts`` reads a seat's facts from an engine state, as ``view_for`` does (its own
hand, and only what the table saw: cards shown, face-down cards counted, claims by their N);
``hidden_cards`` reads the truth, for tests and for a search that may see everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kozelbot.core.cards import DECK_36, Card, Suit
from kozelbot.families.cover.board import CoverGame, Move
from kozelbot.families.cover.presets import CoverRules
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import Phase

DEALT = frozenset(DECK_36)
"""Every card of the cover game's deck."""


@dataclass(frozen=True, slots=True)
class Public:
    """What ``seat`` knows of the game in play: its hand, and what the whole table saw."""

    rules: CoverRules
    seat: int
    phase: Phase
    """``lead``, ``answer``, ``rebeat`` or ``level``."""
    hand: frozenset[Card]
    out: tuple[int, ...]
    score: tuple[int, ...]
    """The match's loser points before this game."""
    eggs: int
    """Eggs in a row before this game (its loser points count ``2 ** eggs`` times)."""
    hand_sizes: tuple[int, ...]
    talon: int
    """Cards left in the talon."""
    trump: Suit
    bottom: Card | None
    """The talon's bottom card once shown (seed 000's cut card, or drawn at the last draw)."""
    seen: frozenset[Card]
    """The face-up cards of the tricks counted so far this game."""
    open_points: tuple[int, ...]
    """Each side's points of those face-up cards."""
    face_down_taken: tuple[int, ...]
    """How many face-down cards each side's counted tricks hold (their points are secret)."""
    tricks_won: tuple[int, ...]
    last_taker: int
    leader: int
    first_leader: int
    last_beater: int
    turn: int
    tops: frozenset[Card]
    """The stacks' top cards (none during the levelling)."""
    table: frozenset[Card]
    """Every face-up card of the round (during the levelling: of the trick being levelled)."""
    shown: tuple[frozenset[Card], ...]
    """What each seat put face up in the round standing (a claim gives it back)."""
    face_down: tuple[int, ...]
    """How many cards each seat put face down in the round standing (during the levelling:
    in the trick being levelled, levelling included)."""
    answered: tuple[int, ...]
    discarded: tuple[int, ...]
    acted: tuple[int, ...]
    """Seats with a move standing in the round (a lead, an answer, Відбій)."""
    responded: tuple[int, ...]
    """Seats with an answer standing in the round (not the lead)."""
    claim: tuple[int, int] | None
    """The standing claim: its seat and N."""
    level_pending: tuple[int, ...]
    taker: int
    """Who took the trick being levelled (-1 otherwise)."""
    standing: tuple[tuple[int, str, tuple[Card, ...], int], ...] = ()
    """The round's standing moves in order, as the table saw them: the seat, the kind
    (``lead``, ``beat``, ``discard``, ``pass``, ``otboy``), the cards put face up, and how
    many went face down."""

    @property
    def unseen(self) -> frozenset[Card]:
        """The cards this seat has not seen: in other hands, the talon, or face down."""
        return DEALT - self.hand - self.table - self.seen


@dataclass(frozen=True, slots=True)
class Hidden:
    """The cards a seat does not see, placed: what a determinized search samples."""

    hands: tuple[tuple[Card, ...], ...]
    """Every seat's hand (the seat's own too; empty for a seat that is out)."""
    talon: tuple[Card, ...]
    """Top first; the last is the bottom card."""
    face_down: tuple[tuple[Card, ...], ...]
    """What each seat put face down in the round standing (during the levelling: in the
    trick being levelled)."""
    taken: tuple[tuple[Card, ...], ...]
    """Each side's face-down cards in the tricks counted so far."""


def _parse(names: Iterable[str]) -> list[Card]:
    return [Card.parse(name) for name in names]


def _counted(state: CoverState) -> list[dict[str, Any]]:
    """The traces of the rounds whose tricks are counted (not the one being levelled)."""
    rounds = state.game.rounds
    return rounds[:-1] if state.phase is Phase.LEVEL else rounds


def _round_face_down(state: CoverState) -> list[list[Card]]:
    """What each seat put face down in the round standing (levelling included)."""
    game = state.game
    found: list[list[Card]] = [[] for _ in range(state.players)]
    for move in game.round.moves:
        if move.kind == "discard":
            found[move.seat] += move.cards
    if state.phase is Phase.LEVEL:
        for entry in game.rounds[-1]["levelling"]:
            found[entry["seat"]] += _parse(entry["cards"])
    return found


def _in_play(state: CoverState) -> CoverGame:
    game = state.current
    if game is None or state.phase not in (Phase.LEAD, Phase.ANSWER, Phase.REBEAT, Phase.LEVEL):
        raise ValueError("no game in play")
    return game


def public_facts(state: CoverState, seat: int) -> Public:
    """What ``seat`` knows of the game in play."""
    game = _in_play(state)
    rnd = game.round
    rules = state.rules
    seen: set[Card] = set()
    open_points = [0] * rules.sides
    face_down_taken = [0] * rules.sides
    for trace in _counted(state):
        side = rules.side_of(trace["taker"])
        shown = _parse(trace["lead"])
        shown += [c for a in trace["actions"] if a["type"] == "beat" for c in _parse(a["cards"])]
        seen.update(shown)
        open_points[side] += sum(card.points for card in shown)
        face_down_taken[side] += sum(
            len(a["cards"]) for a in trace["actions"] if a["type"] == "discard"
        )
        face_down_taken[side] += sum(len(entry["cards"]) for entry in trace["levelling"])
    shown_by: list[set[Card]] = [set() for _ in range(state.players)]
    for move in rnd.moves:
        if move.kind in ("lead", "beat"):
            shown_by[move.seat].update(move.cards)
    playing = state.phase is not Phase.LEVEL
    return Public(
        rules=rules,
        seat=seat,
        phase=state.phase,
        hand=frozenset(game.hands[seat]),
        out=tuple(state.out),
        score=tuple(state.score),
        eggs=state.eggs,
        hand_sizes=tuple(len(hand) for hand in game.hands),
        talon=len(game.talon),
        trump=game.trump,
        bottom=game.bottom if game.bottom_shown else None,
        seen=frozenset(seen),
        open_points=tuple(open_points),
        face_down_taken=tuple(face_down_taken),
        tricks_won=tuple(game.tricks_won),
        last_taker=game.last_taker,
        leader=rnd.leader,
        first_leader=rnd.first_leader,
        last_beater=rnd.last_beater,
        turn=rnd.turn,
        tops=frozenset(stack[-1] for stack in rnd.stacks) if playing else frozenset(),
        table=frozenset(card for cards in shown_by for card in cards),
        shown=tuple(frozenset(cards) if playing else frozenset() for cards in shown_by),
        face_down=tuple(len(cards) for cards in _round_face_down(state)),
        answered=tuple(rnd.answered),
        discarded=tuple(rnd.discarded),
        acted=tuple(sorted({move.seat for move in rnd.moves})),
        responded=tuple(sorted({move.seat for move in rnd.moves if move.kind != "lead"})),
        claim=rnd.claims[-1] if rnd.claims else None,
        level_pending=tuple(rnd.level_pending),
        taker=rnd.taker,
        standing=tuple(_as_seen(move) for move in rnd.moves),
    )


def _as_seen(move: Move) -> tuple[int, str, tuple[Card, ...], int]:
    """A standing move as the table saw it: face-up cards shown, face-down ones counted."""
    face_up = move.cards if move.kind in ("lead", "beat") else ()
    return move.seat, move.kind, face_up, len(move.cards) if move.kind == "discard" else 0


def hidden_cards(state: CoverState) -> Hidden:
    """Where every card the seats do not all see lies, in truth."""
    game = _in_play(state)
    rules = state.rules
    taken: list[list[Card]] = [[] for _ in range(rules.sides)]
    for trace in _counted(state):
        side = rules.side_of(trace["taker"])
        for entry in trace["actions"]:
            if entry["type"] == "discard":
                taken[side] += _parse(entry["cards"])
        for entry in trace["levelling"]:
            taken[side] += _parse(entry["cards"])
    return Hidden(
        hands=tuple(tuple(hand) for hand in game.hands),
        talon=tuple(game.talon),
        face_down=tuple(tuple(cards) for cards in _round_face_down(state)),
        taken=tuple(tuple(cards) for cards in taken),
    )
