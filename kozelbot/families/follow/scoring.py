"""Scoring a finished deal (RULES.md §1.1–§1.4) from named ``Rules`` fields.

One pure function (``settle``) says what a deal's outcome gives; ``score_deal`` writes it
into the match and moves on to the next deal or the end.

How a deal ends (``Outcome``): by its card points (``normal``), 60:60 (eggs), a catch, one
side taking every trick (Lyusya, or kryuk's all eight tricks), a refused redeal demand (sixes)
or a royal kozel (sixes). What each gives is read from ``Rules``: the award tables
(``awards``, and belka's ``defence_awards`` for the side not on obligation), ``catch_award``
and ``catch_first_deal_award``, ``eggs`` and ``eggs_carry``, ``all_tricks`` with
``lyusya_win_award`` and ``all_tricks_nil_award``, ``refused_redeal_award``; no number and no
variant is written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.families.follow.dealing import pass_lead
from kozelbot.families.follow.records import DealState
from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.vocabulary import DEALING, OVER, Event, Outcome

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a finished deal gives: ``award`` per side (eggs carried in included), the eggs
    ``multiplier`` it was scored with, the side whose score is ``zeroed`` first, whether it
    ``ends_match`` whatever the score, the eggs points ``carried`` into the award, and the
    match's ``eggs`` in a row and ``carry`` waiting afterwards."""

    award: tuple[int, int]
    multiplier: int
    zeroed: int | None
    ends_match: bool
    carried: int
    eggs: int
    carry: int


def deal_outcome(rules: Rules, deal: DealState) -> tuple[Outcome, int | None]:
    """How a deal played to its last trick ended, and the side it went to (``outcome_of``)."""
    return outcome_of(rules, deal.points, deal.tricks_won)


def outcome_of(
    rules: Rules, points: Sequence[int], tricks_won: Sequence[int]
) -> tuple[Outcome, int | None]:
    """How a deal played to its last trick ended, from the sides' card ``points`` and
    ``tricks_won``: all tricks (if the preset scores them apart), eggs at equal points, else
    the side with more points. The engine and the search representation both ask it."""
    if rules.all_tricks != "none":
        for side in (0, 1):
            if tricks_won[1 - side] == 0:
                outcome = Outcome.ALL_TRICKS if rules.all_tricks == "reset" else Outcome.LYUSYA
                return outcome, side
    if points[0] == points[1]:
        return Outcome.EGGS, None
    return Outcome.NORMAL, 0 if points[0] > points[1] else 1


def awards_of(rules: Rules, side: int, obligation: int | None) -> tuple[tuple[int, int], ...]:
    """The award table of ``side``: belka's defenders (not on obligation) have their own."""
    defence = rules.defence_awards
    if defence is not None and obligation is not None and side != obligation:
        return defence
    return rules.awards


def table_award(rules: Rules, side: int, obligation: int | None, points: int) -> int:
    """The award for ``points`` card points from the side's table (0 below its lowest row)."""
    return next(
        (award for minimum, award in awards_of(rules, side, obligation) if points >= minimum), 0
    )


def settle(
    rules: Rules,
    outcome: Outcome,
    side: int | None,
    *,
    points: tuple[int, int],
    obligation: int | None,
    score: tuple[int, int],
    eggs: int,
    carry: int,
    first_deal: bool,
) -> Settlement:
    """What ``outcome`` gives ``side`` (``None`` for eggs), given the deal's card ``points``,
    the side on ``obligation``, the match ``score`` before the deal, the ``eggs`` in a row and
    the ``carry`` waiting before it, and whether it is the match's first deal.

    **Decision** (RULES.md §1.1): the eggs multiplier applies to every award of the deal,
    Lyusya's included. Carried eggs go to the winner of the next scored deal whatever its
    outcome (RULES.md §1.2, §1.3) — a refused redeal or a royal kozel aside, which leave
    the eggs waiting."""
    multiplier = eggs + 1 if rules.eggs == "multiply" else 1
    if outcome == Outcome.EGGS:
        if rules.eggs == "multiply":
            return Settlement((0, 0), multiplier, None, False, 0, eggs + 1, carry)
        return Settlement((0, 0), multiplier, None, False, 0, eggs, carry + rules.eggs_carry)
    assert side is not None
    if outcome == Outcome.ROYAL:
        return Settlement((0, 0), 1, None, True, 0, eggs, carry)
    if outcome == Outcome.REFUSED_REDEAL:
        return Settlement(_to(side, rules.refused_redeal_award), 1, None, False, 0, eggs, carry)
    other = 1 - side
    zeroed: int | None = None
    ends_match = False
    base = 0
    if outcome == Outcome.CATCH:
        first = rules.catch_first_deal_award
        base = first if first is not None and first_deal else rules.catch_award
    elif outcome in (Outcome.LYUSYA, Outcome.ALL_TRICKS):
        policy = rules.all_tricks
        if policy == "win":
            base, ends_match = rules.lyusya_win_award, True
        elif policy == "zero":
            zeroed, base = other, awards_of(rules, side, obligation)[0][1]
        elif policy == "reset" and score == (0, 0):
            base = rules.all_tricks_nil_award
        elif policy == "reset" and score[other] == 0:
            ends_match = True  # the side already at 0 loses the match
        else:  # ``reset``, and ``sweep``: the other side goes back to 0, nothing else scored
            zeroed = other
            ends_match = policy == "sweep" and first_deal  # the dry kozel
    else:
        base = table_award(rules, side, obligation, points[side])
    award = _to(side, base * multiplier + carry)
    return Settlement(award, multiplier, zeroed, ends_match, carry, 0, 0)


def _to(side: int, amount: int) -> tuple[int, int]:
    """An award of ``amount`` to ``side`` alone."""
    return (amount, 0) if side == 0 else (0, amount)


def score_deal(state: Match, outcome: Outcome, side: int | None) -> list[Event]:
    """Score the current deal as ``outcome`` for ``side`` (``settle``) and move on to the next
    deal or the end of the match."""
    deal = state.current
    assert deal is not None
    rules = state.rules
    settled = settle(
        rules,
        outcome,
        side,
        points=(deal.points[0], deal.points[1]),
        obligation=deal.obligation,
        score=(state.score[0], state.score[1]),
        eggs=state.eggs,
        carry=state.carry,
        first_deal=state.deal_no == 0,
    )
    if outcome == Outcome.EGGS and rules.eggs == "carry":
        state.had_eggs = True
    state.eggs, state.carry = settled.eggs, settled.carry
    if settled.zeroed is not None:
        state.score[settled.zeroed] = 0
    award = settled.award
    state.score = [state.score[0] + award[0], state.score[1] + award[1]]
    deal.outcome = outcome.value
    over = side is not None and (settled.ends_match or state.score[side] >= rules.target)
    title = _title(state, side, award) if over and rules.titles else None
    result = DealScored(
        deal_no=deal.deal_no,
        outcome=outcome.value,
        points=(deal.points[0], deal.points[1]),
        tricks_won=(deal.tricks_won[0], deal.tricks_won[1]),
        award=award,
        multiplier=settled.multiplier,
        score=(state.score[0], state.score[1]),
        side=side,
        zeroed=settled.zeroed,
        carry=settled.carried,
        title=title,
        details=_details(state, over),
        seeds=tuple(state.seeds),
    )
    state.last_result = result
    if deal.tricks:
        state.last_card = deal.tricks[-1].cards[-1][1]
    pass_lead(state, outcome, side)
    state.deal_no += 1
    state.redeals = 0
    state.dealer = state.seats.after(state.dealer)
    events: list[Event] = [result]
    if over:
        assert side is not None
        state.winner = side
        state.phase = OVER
        events.append(MatchOver(side, result.score, title))
    else:
        state.phase = DEALING
    return events


def _details(state: Match, over: bool) -> dict[str, Any]:
    """The facts a scored deal's texts need beyond the score (``DealScored.details``, JSON
    as it is stored in the outbox): the trump suit and opening; the side on obligation;
    kryuk's and sixes' eggs points or pairs ``waiting`` for the next deal's winner; the
    last trick (``cards`` as [seat, card] pairs in play order, ``winner``,
    ``points``), which the table shows once the deal is over; and, with two players,
    the next deal's trump suit (the last card's) unless the match is over."""
    deal = state.current
    assert deal is not None
    details: dict[str, Any] = {
        "trump": None if deal.trump is None else deal.trump.value,
        "opening": deal.opening,
        "obligation": deal.obligation,
    }
    if state.rules.eggs == "carry":
        details["waiting"] = state.carry  # after eggs: what the next deal's winner gets
    if deal.tricks:
        last = deal.tricks[-1]
        details["last_trick"] = {
            "cards": [[seat, str(card)] for seat, card in last.cards],
            "winner": last.winner,
            "points": last.points,
        }
        if state.rules.trump_rule == "last_card" and not over:
            details["next_trump"] = last.cards[-1][1].suit.value
    return details


def _title(state: Match, side: int | None, award: tuple[int, int]) -> str:
    """The losers' title (``Rules.titles``, RULES.md §1.3): ``kozly``, ``eggs`` if an eggs deal
    happened, ``tails`` if the winners stood one short of the target and won the last deal
    with ``tails_points`` or more."""
    deal = state.current
    assert deal is not None and side is not None
    parts = ["kozly"]
    if state.had_eggs:
        parts.append("eggs")
    before = state.score[side] - award[side]
    if before == state.rules.target - 1 and deal.points[side] >= state.rules.tails_points:
        parts.append("tails")
    return "_".join(parts)
