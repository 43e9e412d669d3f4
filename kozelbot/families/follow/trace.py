"""Deal traces: one JSON object per scored deal, for ``kozelbot simulate --trace`` and storage.

Keys (issue #2): ``match``, ``deal`` (0-based), ``variant``, ``options``, ``players``,
``trump``, ``first_leader``, ``redeals``, ``tricks`` (``leader``, ``hands`` before the trick,
``cards`` in play order, ``winner``), ``points``, ``tricks_won``, ``outcome``, ``award``,
``multiplier``, ``score``, ``winner`` (the match winner when this deal ends it, else null).

Issue #6 adds, where they apply: ``obligation`` (the side on obligation), ``seat_suits``
(belka), ``handoffs`` (``[{"from", "to", "cards", "returned", "answer"}]``: the trumps passed
and the cards returned, in order; ``answer`` is sixes' answer to the offer, ``agree`` or
``decline`` — a declined offer passes no cards — and null in kryuk, where nobody is asked;
traces written before issue #14 have ``card`` and ``returned`` as single cards instead),
``opening`` (``plain`` |
``hvalyonka`` | ``shtany`` | ``double_shtany`` | ``mirror``), ``"blind": true`` on a trick
played blind, ``carry`` (eggs points or pairs carried into the deal) and ``title`` (the losers'
title on a ``sixes`` match's last deal). With two players, ``points``, ``tricks_won``,
``award`` and ``score`` have one entry per player; hands before a trick include the cards
dealt from the talon.

Issue #14 adds, for every deal: ``redeal_requests`` (``[{"seat", "points"}]``: each redeal
asked for or demanded in this deal, in order, with that hand's card points), ``dealer`` (two
players: the dealer; four players, where RULES.md names no dealer: the seat before the first
leader as dealt — **Decision**, the seat sixes' refused redeal already counts as the dealing
pair's), ``deck`` (the shuffled deck, top first, that the chance step dealt from — the hands
and then the talon of a plain deal, the stock of an opening; for scripted ``deal_hands`` the
hands one after another, then the talon; empty for a deal begun before the key existed); and
for an opening ``opening_draws`` (``[{"seat", "cards"}]``: the cards each seat drew, blind or
face up, in dealing order).

Fair play (issue #8, ``kozelbot.core.fairplay.seed_trace``), in games with a secret: ``seed`` and
``commit`` (its SHA-256) of the shuffle played, and ``redealt`` for the deal's earlier shuffles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kozelbot.core.fairplay import seed_trace
from kozelbot.core.protocol import DealScored

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


def deal_trace(
    state: Match, result: DealScored, *, match: int, players: list[str]
) -> dict[str, Any]:
    """The trace of the deal ``result`` just scored (call before the next deal is dealt)."""
    deal = state.current
    assert deal is not None and deal.deal_no == result.deal_no
    hands = [list(hand) for hand in deal.initial_hands]
    refills = {refill.before_trick: refill.hands for refill in deal.refills}
    tricks = []
    first_open = 0 if deal.opening == "plain" else 1  # hand-offs follow an opening trick
    for number, trick in enumerate(deal.tricks):
        if number in refills:
            hands = [list(hand) for hand in refills[number]]
        if number == first_open:
            for handoff in deal.handoffs:  # hand-offs come just before the first open lead
                for card in handoff.cards:
                    hands[handoff.giver].remove(card)
                    hands[handoff.to].append(card)
                for card in handoff.returned:
                    hands[handoff.to].remove(card)
                    hands[handoff.giver].append(card)
        entry: dict[str, Any] = {
            "leader": trick.leader,
            "hands": [[str(c) for c in hand] for hand in hands],
            "cards": [str(card) for _, card in trick.cards],
            "winner": trick.winner,
        }
        if trick.blind:
            entry["blind"] = True
        tricks.append(entry)
        for seat, card in trick.cards:
            hands[seat].remove(card)
    trump = deal.trump
    return {
        "match": match,
        "deal": result.deal_no,
        "variant": state.variant,
        "options": dict(state.options),
        "players": list(players),
        "trump": None if trump is None else trump.value,
        "first_leader": deal.first_leader,
        "redeals": deal.redeals,
        "redeal_requests": [{"seat": r.seat, "points": r.points} for r in state.redeal_requests],
        "dealer": _dealer(state),
        "deck": [str(card) for card in deal.deck],
        "tricks": tricks,
        "points": list(result.points),
        "tricks_won": list(result.tricks_won),
        "outcome": result.outcome,
        "award": list(result.award),
        "multiplier": result.multiplier,
        "score": list(result.score),
        "winner": state.winner,
        **_extras(state, result),
    }


def _dealer(state: Match) -> int:
    """The deal's dealer (see the module docstring)."""
    deal = state.current
    assert deal is not None
    if deal.dealer is not None:
        return deal.dealer
    if state.rules.first_lead == "non_dealer":  # two players: the non-dealer leads first
        return state.seats.after(deal.first_leader)
    return state.seats.before(deal.first_leader)


def _extras(state: Match, result: DealScored) -> dict[str, Any]:
    """The keys of issue #6 that apply to this preset and deal."""
    deal = state.current
    assert deal is not None
    extra: dict[str, Any] = {}
    if deal.obligation is not None:
        extra["obligation"] = deal.obligation
    if state.seat_suits is not None:
        extra["seat_suits"] = [suit.value for suit in state.seat_suits]
    if deal.handoffs:
        extra["handoffs"] = [
            {
                "from": h.giver,
                "to": h.to,
                "cards": [str(c) for c in h.cards],
                "returned": [str(c) for c in h.returned],
                "answer": h.answer,
            }
            for h in deal.handoffs
        ]
    if state.rules.opening != "plain":
        extra["opening"] = deal.opening
    if deal.draws:
        extra["opening_draws"] = [
            {"seat": d.seat, "cards": [str(c) for c in d.cards]} for d in deal.draws
        ]
    if result.carry:
        extra["carry"] = result.carry
    if result.title is not None:
        extra["title"] = result.title
    extra.update(seed_trace(state.seeds))
    return extra
