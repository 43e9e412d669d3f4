"""Deal traces: one JSON object per scored deal, for ``kozelbot simulate --trace`` and storage.

Keys (issue #2): ``match``, ``deal`` (0-based), ``variant``, ``options``, ``players``,
``trump``, ``first_leader``, ``redeals``, ``tricks`` (``leader``, ``hands`` before the trick,
``cards`` in play order, ``winner``), ``points``, ``tricks_won``, ``outcome``, ``award``,
``multiplier``, ``score``, ``winner`` (the match winner when this deal ends it, else null).

Issue #6 adds, where they apply: ``obligation`` (the side on obligation), ``seat_suits``
(belka), ``handoffs`` (``[{"from", "to", "card", "returned"}]``), ``opening`` (``plain`` |
``hvalyonka`` | ``shtany`` | ``double_shtany`` | ``mirror``), ``"blind": true`` on a trick
played blind, ``carry`` (eggs points or pairs carried into the deal) and ``title`` (the losers'
title on a ``sixes`` match's last deal). With two players, ``points``, ``tricks_won``,
``award`` and ``score`` have one entry per player; hands before a trick include the cards
dealt from the talon.

Fair play (issue #8, ``kozelbot.fairplay.seed_trace``), in games with a secret: ``seed`` and
``commit`` (its SHA-256) of the shuffle played, and ``redealt`` for the deal's earlier shuffles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kozelbot.fairplay import seed_trace
from kozelbot.game import DealScored

if TYPE_CHECKING:
    from kozelbot.follow.state import MatchState


def deal_trace(
    state: MatchState, result: DealScored, *, match: int, players: list[str]
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
                hands[handoff.giver].remove(handoff.card)
                hands[handoff.to].append(handoff.card)
                if handoff.returned is not None:
                    hands[handoff.to].remove(handoff.returned)
                    hands[handoff.giver].append(handoff.returned)
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


def _extras(state: MatchState, result: DealScored) -> dict[str, Any]:
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
            {"from": h.giver, "to": h.to, "card": str(h.card),
             "returned": None if h.returned is None else str(h.returned)}
            for h in deal.handoffs
        ]  # fmt: skip
    if state.rules.opening != "plain":
        extra["opening"] = deal.opening
    if result.carry:
        extra["carry"] = result.carry
    if result.title is not None:
        extra["title"] = result.title
    extra.update(seed_trace(state.seeds))
    return extra
