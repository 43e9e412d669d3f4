"""The strong level's advice in the cover game's words: a move, why it is made (the 💡 hint)
and what a play cost in loser points, whole (the 🔍 analysis). The person's own cards are named:
the advice is theirs alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kozelbot.core.i18n import Translator
from kozelbot.core.texts import cards_label
from kozelbot.families.cover.vocabulary import (
    Action,
    Beat,
    Claim,
    Discard,
    Lead,
    Level,
    Otboy,
    Pass,
)


def move_label(action: Action, t: Translator) -> str:
    """The move advised or made, in a few words."""
    if isinstance(action, Lead):
        return t("lead {cards}", cards=cards_label(action.cards, t))
    if isinstance(action, Beat):
        return t("beat with {cards}", cards=cards_label(action.cards, t))
    if isinstance(action, Discard):
        return t("discard {cards} face down", cards=cards_label(action.cards, t))
    if isinstance(action, Level):
        return t("add {cards} face down", cards=cards_label(action.cards, t))
    if isinstance(action, Claim):
        return t("claim «I have {n}»", n=action.count)
    if isinstance(action, Otboy):
        return t.p("otboy", "Done")
    if isinstance(action, Pass):
        return t("pass")
    return str(action)


def reason_text(reason: str, fields: Mapping[str, Any], t: Translator) -> str:
    """Why the strong level makes its move (``strong.reasons``), a few words."""
    count = int(fields.get("count", 0))
    points = int(fields.get("points", 0))
    texts = {
        "cover_lead": lambda: t.n(
            "leads {count} card of one suit", "leads {count} cards of one suit", count
        ),
        "cover_beat": lambda: t.n(
            "takes the stacks worth {n} point",
            "takes the stacks worth {n} points",
            points,
            n=points,
        ),
        "cover_shed": lambda: t.n(
            "sheds {count} card it can spare", "sheds {count} cards it can spare", count
        ),
        "cover_level": lambda: t("levels with the cards it can spare most"),
        "cover_claim": lambda: t("claims the lead with a long suit"),
        "cover_otboy": lambda: t("takes the round now rather than beat again"),
        "cover_pass": lambda: t("lets the round go"),
        "only": lambda: t("the only move you may make"),
    }
    return texts.get(reason, lambda: t("the best move the search found"))()


def expected_text(variant: str, count: int, t: Translator) -> str:
    """What the better move saves, in whole loser points: ``−2 штрафных очка`` (a real
    minus: fewer loser points is the gain)."""
    return "\N{MINUS SIGN}" + t.n("{count} loser point", "{count} loser points", count)
