"""The cover game as the lobby and /rules tell it: its title, its table options in words, and
its rules in a few lines."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from kozelbot.core.i18n import Translator
from kozelbot.core.texts import common_option_label


def title(t: Translator) -> str:
    return t("Cover kozel")


def option_labels(options: Mapping[str, Any], t: Translator) -> dict[str, str]:
    """Each table option in words (``players`` only when each plays for self)."""
    labels = {
        "hand": t("Classic, 6 cards") if options.get("hand") == 6 else t("Quick, 4 cards"),
        "mode": t("Pairs") if options.get("mode") == "pairs" else t("Each for self"),
    }
    if options.get("mode") == "self":
        labels["players"] = _common("players", options, t)
    labels["poshka"] = t("Poshka 6♠: on") if options.get("poshka") else t("Poshka 6♠: off")
    labels["opening"] = (
        t("Trump by the cut") if options.get("opening") == "seed000" else t("First trump ♦")
    )
    labels["save"] = t("Saved from {n} points", n=options.get("save"))
    labels["seating"] = _common("seating", options, t)
    labels["move_time"] = _common("move_time", options, t)
    return labels


def _common(key: str, options: Mapping[str, Any], t: Translator) -> str:
    label = common_option_label(key, options.get(key), t)
    assert label is not None
    return label


def rules_text(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(title(t)) + "</b>",
            t(
                "2 to 4 players, in pairs or each for self; 36 cards; 6 (classic) or 4 (quick) "
                "in hand, refilled from the talon. Order: 6 7 8 9 J Q K 10 A."
            ),
            t(
                "Lead 1–6 cards of one suit. To beat, put a higher card on every stack (a higher "
                "one of the suit, or a trump). Whoever holds more cards than the last beater "
                "beats or discards the difference face down."
            ),
            t(
                "Classic: the last beater may beat again or end the round (Done). Quick: one "
                "answer each."
            ),
            t(
                "The last beater takes the trick; players above the smallest hand add cards to "
                "it; then everyone draws. The last card of the talon shows the next trump."
            ),
            t("With 4+ cards of a suit, claim the lead («I have N») before you act."),
            t(
                "Loser points: 61+ → 0, 31–60 → 2, 1–30 → 4, 0 → 6; eggs double them. Four aces "
                "or four sixes win at once. Pairs: the first side to 12 loses; each for self: at "
                "12 you are out, the last one left wins."
            ),
        ]
    )


def variant_title(variant: str, t: Translator) -> str:
    """The title of a cover preset: one for them all (``title``)."""
    return title(t)


def variant_rules_text(variant: str, t: Translator) -> str:
    """The rules of a cover preset: one text for them all, its options told apart by the
    table's settings (``rules_text``)."""
    return rules_text(t)


def variant_option_labels(
    variant: str, options: Mapping[str, Any], t: Translator
) -> dict[str, str]:
    """A cover preset's options in words (``option_labels``)."""
    return option_labels(options, t)
