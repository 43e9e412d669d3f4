"""The cover game's trace: one JSON object per game, enough to check it without the engine
(``deal_trace`` gives the format), built round by round as the rounds are taken."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kozelbot.core.cards import Card
from kozelbot.core.fairplay import seed_trace
from kozelbot.core.protocol import DealScored
from kozelbot.families.cover.board import CoverGame, Move, Round
from kozelbot.families.cover.vocabulary import card_names

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch


def move_trace(move: Move) -> dict[str, Any]:
    """A move as a trace object."""
    if move.kind == "claim":
        return {"seat": move.seat, "type": "claim", "count": move.count}
    entry: dict[str, Any] = {"seat": move.seat, "type": move.kind, "cards": card_names(move.cards)}
    if move.kind == "beat":
        entry["onto"] = list(move.onto)
    return entry


def round_trace(rnd: Round) -> dict[str, Any]:
    """A round just taken, as a trace object; its ``levelling``, ``draws`` and ``trump`` are
    filled in as they happen (``add_levelling``, ``add_draws``)."""
    lead = next((m for m in rnd.moves if m.kind == "lead"), None)
    return {
        "leader": rnd.leader,
        "first_leader": rnd.first_leader,
        "claims": _claims_trace(rnd),
        "sequence": _sequence_trace(rnd),
        "lead": card_names(lead.cards) if lead else [],
        "actions": [move_trace(m) for m in rnd.moves if m.kind != "lead"],
        "taker": rnd.last_beater,
        "levelling": [],
        "draws": [],
        "trump": None,
    }


def add_levelling(game: CoverGame, seat: int, cards: tuple[Card, ...]) -> None:
    """Record cards a seat added face down to the trick just taken."""
    game.rounds[-1]["levelling"].append({"seat": seat, "cards": card_names(cards)})


def add_draws(game: CoverGame, drawn: dict[int, list[Card]]) -> None:
    """Record the draw after the trick just taken (in drawing order) and the trump after it."""
    game.rounds[-1]["draws"] = [
        {"seat": s, "cards": card_names(cards)} for s, cards in drawn.items() if cards
    ]
    game.rounds[-1]["trump"] = game.trump.value


def _log(rnd: Round) -> list[Move] | None:
    """The round's whole log, or ``None`` if it began before the log was kept (stored by an
    older version): then its standing moves are not all in it."""
    last_claim = max((i for i, m in enumerate(rnd.log) if m.kind == "claim"), default=-1)
    return rnd.log if len(rnd.log) - last_claim - 1 == len(rnd.moves) else None


def _claims_trace(rnd: Round) -> list[dict[str, Any]]:
    """Each claim with its place in the round: ``after`` moves of the round's ``sequence``
    (claims included), and whether it ``took_back`` a lead already made. A round begun
    before the log was kept gives ``None`` for both."""
    if _log(rnd) is None:
        return [{"seat": s, "count": n, "after": None, "took_back": None} for s, n in rnd.claims]
    found: list[dict[str, Any]] = []
    standing = 0
    for index, move in enumerate(rnd.log):
        if move.kind != "claim":
            standing += 1
            continue
        found.append(
            {"seat": move.seat, "count": move.count, "after": index, "took_back": standing > 0}
        )
        standing = 0
    return found


def _sequence_trace(rnd: Round) -> list[dict[str, Any]]:
    """Every move of the round in order, claims included; a move that a later claim took
    back is marked ``taken_back`` (a round begun before the log was kept: the moves that
    stood)."""
    log = _log(rnd) or rnd.moves
    last_claim = max((i for i, m in enumerate(log) if m.kind == "claim"), default=-1)
    return [
        {**move_trace(m), **({"taken_back": True} if i < last_claim and m.kind != "claim" else {})}
        for i, m in enumerate(log)
    ]


def deal_trace(
    state: CoverMatch, result: DealScored, *, match: int, players: list[str]
) -> dict[str, Any]:
    """One JSON object per game: enough to check the game without the engine.

    - ``match``, ``deal`` (0-based game number), ``variant``, ``options``, ``players``.
    - ``deck``: the shuffled deck, top first; ``dealer``: the seat that dealt (one card
      at a time, clockwise from the dealer's left, to the seats in play; ``null`` for a
      game stored before the dealer was kept); ``hands``: what each seat was dealt
      (empty for a seat that is out); the rest of the deck is the talon, its last card
      the bottom one (``opening=seed000``: the cut card, shown, whose suit is trump).
    - ``trump_start``: the trump at the deal; ``first_leader``: who led first (the
      default opening: the lowest diamond (none dealt: the lowest seat in play), in
      later games the previous game's last taker (or the next in play); seed000: the
      dealer, or the first holder of four trumps clockwise from the dealer).
    - ``rounds``, in order, each: ``first_leader`` (whose lead it was before any claim),
      ``leader`` (who led, the last claimant if any), ``claims`` (``seat``, ``count`` N
      of «У мене N», ``after``: how many entries of ``sequence`` came before it, and
      ``took_back``: whether a lead already made was taken back), ``sequence`` (every
      move in order: ``seat``, ``type`` lead | beat | discard | pass | otboy | claim,
      ``cards``, ``onto`` for a beat — the stack index each card covers — ``count`` for
      a claim, ``taken_back: true`` for a move a later claim took back), ``lead`` and
      ``actions`` (the moves that stood: the lead's cards, then the answers as in
      ``sequence``), ``taker``, ``levelling`` (``seat``, ``cards`` added face down),
      ``draws`` (``seat``, ``cards``, in drawing order) and ``trump`` after the draw.
    - ``points`` (every card of the tricks taken, face down too), ``tricks_won``,
      ``outcome`` (normal | eggs | aces | sixes), ``multiplier``, ``loser_points``,
      ``score``, ``out``, ``winner`` (the match winner when this game ends it), and the
      fair-play ``seed`` / ``commit`` (``kozelbot.core.fairplay.seed_trace``).
    """
    game = state.game
    return {
        "match": match,
        "deal": result.deal_no,
        "variant": state.variant,
        "options": dict(state.options),
        "players": list(players),
        "deck": card_names(game.deck),
        "dealer": game.dealer,
        "hands": [card_names(hand) for hand in game.dealt],
        "trump_start": game.trump_start.value,
        "first_leader": game.first_leader,
        "rounds": game.rounds,
        "points": list(result.points),
        "tricks_won": list(result.tricks_won),
        "outcome": result.outcome,
        "multiplier": result.multiplier,
        "loser_points": list(result.award),
        "score": list(result.score),
        "out": sorted(state.out),
        "winner": state.winner,
        **seed_trace(state.seeds),
    }
