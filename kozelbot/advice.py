"""What people read of the strong level's advice (issue #17): the 💡 hint's line, the 🔍
analysis of a deal, and the buttons that ask for them. The family's texts name the moves,
the reasons and the unit (``FamilyTexts.move_label``, ``reason_text``, ``expected_text``)."""

from __future__ import annotations

import html

from kozelbot.callbacks import AnalysisButton, HintButton
from kozelbot.coach import Analysis
from kozelbot.decisions import Decision
from kozelbot.fit import fit_plain
from kozelbot.game import GameState
from kozelbot.games import family_of, texts_of
from kozelbot.i18n import Translator
from kozelbot.table import Table
from kozelbot.texts import Button

ALERT_LIMIT = 200
"""The characters a button's alert may show (Telegram's limit)."""
NOTICEABLE = 0.05
"""A margin below this is not worth a word."""


def hint_text(table: Table, decision: Decision, t: Translator) -> str:
    """``💡 Q♣: takes the trick worth 21 with the cheapest winner.`` — and, when it matters,
    by how much it beats the next best move, in the variant's unit."""
    texts = texts_of(table.variant)
    line = t("💡 {move}: {reason}.", move=texts.move_label(decision.action, t),
             reason=texts.reason_text(decision.reason, decision.fields, t))  # fmt: skip
    if decision.margin >= NOTICEABLE:
        second = decision.values[1][0]
        line += " " + t("Better than {move} by {value}.", move=texts.move_label(second, t),
                        value=texts.expected_text(table.variant, decision.margin, t))  # fmt: skip
    return fit_plain(line, ALERT_LIMIT)


def analysis_text(found: Analysis, t: Translator) -> str:
    """The analysis message (HTML): whose figures it shows, then the costliest plays."""
    table = found.table
    texts = texts_of(table.variant)
    number = found.deal_no + 1
    lines = [t("🔍 <b>Deal {n}</b>: your plays against the strong computer's.", n=number)]
    if not found.reviewed:
        lines.append(t("You had no choice to make in this deal."))
    elif not found.worst:
        lines.append(t.n("Your only play with a choice matched the strong computer's.",
                         "All {count} of your plays with a choice matched the strong "
                         "computer's.", found.reviewed))  # fmt: skip
    else:
        lines.append(t("What each play cost your side on average:"))
        for review in found.worst:
            lines.append(
                html.escape(
                    t(
                        "Play {number}: {played} → better {best}, +{value}",
                        number=review.number,
                        played=texts.move_label(review.played, t),
                        best=texts.move_label(review.best, t),
                        value=texts.expected_text(table.variant, review.loss, t),
                    )
                )
            )
    return "\n".join(lines)


def hint_row(table: Table, state: GameState, seat: int, t: Translator) -> tuple[Button, ...]:
    """The 💡 button of a hand in a match against the computer, on the seat's turn when it
    has a choice; none otherwise."""
    deal_no = state.deal_shown
    if not table.private or deal_no is None or seat not in state.to_act():
        return ()
    if not family_of(table.variant).searches(state, seat):
        return ()
    return (Button(t("💡 Hint"), HintButton(table.game_id, deal_no).pack()),)


def analysis_row(game_id: int, deal_no: int, t: Translator) -> tuple[Button, ...]:
    """The 🔍 button under a scored deal."""
    return (Button(t("🔍 Analysis"), AnalysisButton(game_id, deal_no).pack()),)
