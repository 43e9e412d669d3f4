"""A scored deal's result and the match's end, as posted to the group.

What happened, the award and how it was made up, the running score, and the losers' title.
"""

from __future__ import annotations

from kozelbot.core.cards import Card
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.core.table import Table
from kozelbot.core.texts import NBSP, figure, fit, pair_name, versus
from kozelbot.families.follow.render.common import rules_of, side_size, units
from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.vocabulary import Outcome


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's result, posted as a new message: what happened, the winners' figures first,
    how the award was made up, and the running score with both sides named."""
    rules = rules_of(table)
    n = result.deal_no + 1
    outcome, size = result.outcome, side_size(table)
    if outcome == Outcome.EGGS:
        a, b = result.points
        lines = [t("Deal {n}: eggs, {a} : {b}.", n=n, a=a, b=b)]
        if rules.eggs == "multiply":
            lines.append(t("The next deal counts ×{m}.", m=result.multiplier + 1))
        else:
            waiting = int(result.details.get("waiting") or rules.eggs_carry)
            lines.append(
                t("+{amount} to the next deal's winner.", amount=units(rules.scoring, waiting, t))
            )
        lines.append(_score_summary(table, result.score, 0, t))
        return "\n".join(lines)
    side = result.side
    assert side is not None
    other = 1 - side
    winners, losers = pair_name(table, side, t), pair_name(table, other, t)
    total = result.award[side]
    gained = units(rules.scoring, total, t)
    if outcome == Outcome.CATCH and rules.catch is not None:
        if rules.catch[0] == Card.parse("6C"):
            lines = [t("Deal {n}: the 6♣ caught the Q♣!", n=n)]
        else:
            lines = [t("Deal {n}: the Hook caught Pelotka!", n=n)]
        lines.append(t("{pair}: +{amount}.", pair=winners, amount=gained))
        first_award = rules.catch_first_deal_award
        if result.deal_no == 0 and first_award is not None and first_award != rules.catch_award:
            lines.append(
                t(
                    "In the first deal a catch is worth {amount}.",
                    amount=units(rules.scoring, first_award, t),
                )
            )
        lines += _award_lines(result, rules, t)
    elif outcome in (Outcome.LYUSYA, Outcome.ALL_TRICKS):
        if outcome == Outcome.LYUSYA:
            lines = [
                t.n(
                    "Deal {n}: Lyusya! {pair} took every trick.",
                    "Deal {n}: Lyusya! {pair} took every trick.",
                    size,
                    n=n,
                    pair=winners,
                )
            ]
        else:
            lines = [
                t.n(
                    "Deal {n}: {pair} took all 8 tricks.",
                    "Deal {n}: {pair} took all 8 tricks.",
                    size,
                    n=n,
                    pair=winners,
                )
            ]
        if total and total > result.carry:
            lines.append("→ " + t("+{amount}.", amount=gained))
            lines += _award_lines(result, rules, t)
            if result.zeroed is not None:  # Lyusya ``zero``: the winners' 90+ award
                lines += _belka_line(result, rules, t)
        elif total:  # the carried eggs alone (kryuk's reset, sixes' Lyusya)
            lines.append("→ " + t("+{amount} from eggs", amount=gained))
        if result.zeroed is not None and rules.scoring == "eyes":
            lines.append(
                t.n("{pair} loses all the eyes.", "{pair} lose all the eyes.", size, pair=losers)
            )
        elif result.zeroed is not None:
            lines.append(t.n("{pair} goes back to 0.", "{pair} go back to 0.", size, pair=losers))
        elif outcome == Outcome.ALL_TRICKS and not total:
            lines.append(t("{pair} had no points: the match is lost.", pair=losers))
        if outcome == Outcome.LYUSYA and rules.all_tricks == "sweep" and result.deal_no == 0:
            lines.append(t("A dry kozel: the match is won at once!"))
    elif outcome == Outcome.REFUSED_REDEAL:
        lines = [
            t("Deal {n}: a third redeal in a row is refused.", n=n),
            t("The dealing pair loses a pair: {pair} +{amount}.", pair=winners, amount=gained),
        ]
    elif outcome == Outcome.ROYAL:
        lines = [
            t("Deal {n}: four aces in one hand — a royal kozel!", n=n),
            t.n("{pair} wins the match.", "{pair} win the match.", size, pair=winners),
        ]
    else:
        points = versus(result.points[side], result.points[other])
        lines = [
            t("Deal {n}: {pair} — {score}.", n=n, pair=winners, score=points),
            "→ " + t("+{amount}.", amount=gained),
        ]
        lines += _award_lines(result, rules, t)
        lines += _belka_line(result, rules, t)
    lines.append(_score_summary(table, result.score, side, t))
    return "\n".join(lines)


def _score_summary(table: Table, score: tuple[int, ...], first: int, t: Translator) -> str:
    """The running score with both sides named, ``first`` first, each with its figure after
    a colon (``Счёт: Аня+Вера: 2 — Борис+Глеб: 0``); too wide for a phone, each side on a
    line of its own under ``Счёт:``."""
    sides = [figure(pair_name(table, side, t), score[side]) for side in (first, 1 - first)]
    return fit(lambda joined: t("Score: {score}", score=joined), sides, " — ")


def _award_lines(result: DealScored, rules: Rules, t: Translator) -> list[str]:
    """How the award was made up: the eggs multiplier (``2 глаза ×2 за яйца = 4``) or the
    carried eggs (``2 очка + 2 за яйца = 4``)."""
    assert result.side is not None
    total = result.award[result.side]
    if result.multiplier > 1 and total:
        base = units(rules.scoring, total // result.multiplier, t)
        return [t("{base} ×{m} for eggs = {total}", base=base, m=result.multiplier, total=total)]
    if result.carry and total > result.carry:
        base = units(rules.scoring, total - result.carry, t)
        return [
            t("{base} + {carry} for eggs = {total}", base=base, carry=result.carry, total=total)
        ]
    return []


def _belka_line(result: DealScored, rules: Rules, t: Translator) -> list[str]:
    """Belka: why the award is what it is — the pair on obligation scores less than the
    defending pair (RULES.md §1.4)."""
    defence, obligation = rules.defence_awards, result.details.get("obligation")
    if defence is None or obligation is None or result.side is None:
        return []
    awards = rules.awards if result.side == obligation else defence
    high, low = awards[0][1], units(rules.scoring, awards[1][1], t)
    if result.side == obligation:
        line = t("On obligation: 61–89 → {low}, 90+ → {high}.", low=low, high=high)
    else:
        line = t("Defending: 61–89 → {low}, 90+ → {high}.", low=low, high=high)
    return [line.replace(" → ", f"{NBSP}→{NBSP}")]  # an award never parts from its range


def match_over_text(table: Table, over: MatchOver, t: Translator) -> str:
    """The match result: the winners and the score, then the losers' title (sixes adds с
    яйцами, с хвостами), in the plural forms of the players on a side (one in a duel)."""
    winner, score, size = over.winner, over.score, side_size(table)
    names = {"winners": pair_name(table, winner, t), "losers": pair_name(table, 1 - winner, t)}
    won = t.n(
        "{winners} won {score}.",
        "{winners} won {score}.",
        size,
        score=versus(score[winner], score[1 - winner]),
        **names,
    )
    return "🏆 " + won + "\n" + _title(over.title or "kozly", size, names["losers"], t)


def _title(key: str, size: int, losers: str, t: Translator) -> str:
    """The losers' title in words (each message written out, for the catalogs)."""
    if key == "kozly_eggs":
        return t.n(
            "{losers} is the kozel with eggs 🐐",
            "{losers} are the kozly with eggs 🐐",
            size,
            losers=losers,
        )
    if key == "kozly_tails":
        return t.n(
            "{losers} is the kozel with tails 🐐",
            "{losers} are the kozly with tails 🐐",
            size,
            losers=losers,
        )
    if key == "kozly_eggs_tails":
        return t.n(
            "{losers} is the kozel with eggs and tails 🐐",
            "{losers} are the kozly with eggs and tails 🐐",
            size,
            losers=losers,
        )
    return t.n("{losers} is the kozel 🐐", "{losers} are the kozly 🐐", size, losers=losers)
