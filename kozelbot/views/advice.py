"""What people read of the strong level's advice (issue #17): the 💡 hint's line, the 🔍
analysis of a deal, and the buttons that ask for them. The family's texts name the moves,
the reasons and the unit (``Reader.move_label``, ``reason_text``, ``expected_text``).

**Decision** (issue #30 item 11): no fraction of an eye is ever shown. The search's values
are means over sampled deals, so a move is "0.1 eye" better only on average — nobody wins a
tenth of an eye. A difference under half the unit (``HALF``) is said in words, «чуть
лучше»; a larger one is rounded to whole eyes (points, pairs, loser points) and said as an
estimate, «примерно +1 глаз» (the cover game: «примерно −1 штрафное очко», fewer loser points
being the gain). Under ``NOTICEABLE`` it is not said at all. A chance («в 60 %
сдач») was considered, but the search keeps means, not how often each outcome came.
"""

from __future__ import annotations

import html

from kozelbot.computer.analysis import Review
from kozelbot.computer.coach import Analysis
from kozelbot.core.callbacks import AnalysisButton, HintButton
from kozelbot.core.decisions import Decision
from kozelbot.core.fit import fit_plain
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import AnyState
from kozelbot.core.table import Table
from kozelbot.core.texts import Button
from kozelbot.families.registry import players_of, reader_of

ALERT_LIMIT = 200
"""The characters a button's alert may show (Telegram's limit)."""
NOTICEABLE = 0.05
"""A margin below this is not worth a word."""
HALF = 0.5
"""A margin below this (half the variant's unit) is "slightly better"; from it, whole units."""


def capital(text: str) -> str:
    """``text`` with its first letter a capital (a move's words start a sentence)."""
    return text[:1].upper() + text[1:]


def whole(value: float) -> int:
    """A margin as whole units, half up (``round`` would make 2.5 two)."""
    return int(value + 0.5)


def hint_text(table: Table, decision: Decision, t: Translator) -> str:
    """``💡 Q♣: takes the trick worth 21 with the cheapest winner.`` — and, when it matters,
    how much it beats the next best move: «Чуть лучше, чем 7♠.» or «Лучше, чем 7♠: примерно
    +1 глаз.» (whole units, see the module's decision). The move starts the sentence with a
    capital («💡 Зайти К♠: …»)."""
    texts = reader_of(table.variant)
    line = t(
        "💡 {move}: {reason}.",
        move=capital(texts.move_label(decision.action, t)),
        reason=texts.reason_text(decision.reason, decision.fields, t),
    )
    margin = decision.margin
    if margin >= NOTICEABLE:
        second = texts.move_label(decision.values[1][0], t)
        if margin < HALF:
            line += " " + t("Slightly better than {move}.", move=second)
        else:
            value = texts.expected_text(table.variant, whole(margin), t)
            line += " " + t("Better than {move}: about {value}.", move=second, value=value)
    return fit_plain(line, ALERT_LIMIT)


def review_text(review: Review, variant: str, t: Translator) -> str:
    """One costly play of the 🔍 analysis (plain text): the trick and the card played, the
    better move and what it was worth — «Взятка 4: К♠ → лучше 7♠, примерно +1 глаз», or
    «… → 7♠ чуть лучше» under half a unit."""
    texts = reader_of(variant)
    played, best = texts.move_label(review.played, t), texts.move_label(review.best, t)
    if review.trick:
        place = t("Trick {n}: {played}", n=review.trick, played=played)
    else:
        place = t("Before the first trick: {played}", played=played)
    if review.loss < HALF:
        return t("{place} → {best} was slightly better", place=place, best=best)
    value = texts.expected_text(variant, whole(review.loss), t)
    return t("{place} → better {best}, about {value}", place=place, best=best, value=value)


def analysis_text(found: Analysis, t: Translator) -> str:
    """The analysis message (HTML): whose figures it shows, then the costliest plays."""
    table = found.table
    deal = html.escape(reader_of(table.variant).deal_name(found.deal_no, t))
    lines = [t("🔍 <b>{deal}</b>: your plays against the strong computer's.", deal=deal)]
    if not found.reviewed:
        lines.append(t("You had no choice to make in this deal."))
    elif not found.worst:
        lines.append(
            t.n(
                "Your only play with a choice matched the strong computer's.",
                "All {count} of your plays with a choice matched the strong computer's.",
                found.reviewed,
            )
        )
    else:
        lines.append(t("What each play cost your side on average:"))
        lines += [html.escape(review_text(review, table.variant, t)) for review in found.worst]
    return "\n".join(lines)


def hint_row(table: Table, state: AnyState, seat: int, t: Translator) -> tuple[Button, ...]:
    """The 💡 button of a hand in a match against the computer, on the seat's turn when it
    has a choice; none otherwise."""
    deal_no = state.deal_shown
    if not table.private or deal_no is None or seat not in state.to_act():
        return ()
    if not players_of(table.variant).searches(state, seat):
        return ()
    return (Button(t("💡 Hint"), HintButton(table.game_id, deal_no).pack()),)


def analysis_row(game_id: int, deal_no: int, t: Translator) -> tuple[Button, ...]:
    """The 🔍 button under a scored deal."""
    return (Button(t("🔍 Analysis"), AnalysisButton(game_id, deal_no).pack()),)
