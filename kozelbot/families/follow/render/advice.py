"""The strong level's advice in the follow-suit games' words: a card, why it is played (the
💡 hint) and what a play cost in the preset's unit (the 🔍 analysis)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kozelbot.core.i18n import Translator
from kozelbot.core.texts import card_label, cards_label
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.render.common import opening_name
from kozelbot.families.follow.vocabulary import (
    Action,
    AnswerOffer,
    AskRedeal,
    CallOpening,
    GiveTrump,
    KeepHand,
    OfferHandoff,
    PlayCard,
    ReturnCard,
)


def move_label(action: Action, t: Translator) -> str:
    """The move advised or made: its card, the answer to a redeal offer, a hand-off or a
    sixes call (the buttons' words)."""
    if isinstance(action, PlayCard):
        return card_label(action.card, t)
    if isinstance(action, AskRedeal):
        return t("Redeal")
    if isinstance(action, KeepHand):
        return t("Keep")
    if isinstance(action, GiveTrump):
        return t("give {cards}", cards=cards_label(action.cards, t))
    if isinstance(action, OfferHandoff):
        return t("offer the hand-off")
    if isinstance(action, CallOpening):
        return opening_name(action.kind, t)
    if isinstance(action, AnswerOffer):
        return t("Go ahead") if action.agree else t("No need")
    if isinstance(action, ReturnCard):
        return card_label(action.card, t)
    return str(action)


def reason_text(reason: str, fields: Mapping[str, Any], t: Translator) -> str:
    """Why the strong level plays its card (``strong.reasons``), a few words."""
    points = fields.get("points", 0)
    texts = {
        "take_cheapest": lambda: t.n(
            "takes the trick worth {n} with the cheapest winner",
            "takes the trick worth {n} with the cheapest winner",
            points,
            n=points,
        ),
        "take": lambda: t.n(
            "takes the trick worth {n}", "takes the trick worth {n}", points, n=points
        ),
        "smear": lambda: t.n(
            "gives {n} point to your partner's trick",
            "gives {n} points to your partner's trick",
            points,
            n=points,
        ),
        "duck": lambda: t("gives up the trick with the cheapest card"),
        "lead_trump": lambda: t("leads a trump to draw the trumps out"),
        "lead_winner": lambda: t("leads a card nobody can beat"),
        "lead_cheap": lambda: t("leads a cheap card and keeps the strong ones"),
        "only": lambda: t("the only card you may play"),
        "keep": lambda: t("this hand is worth more than a fresh deal"),
        "handoff_give": lambda: t("your partner makes more of the trump than you"),
        "handoff_keep": lambda: t("the trump is worth more in your hand"),
        "redeal": lambda: t("a fresh deal is worth more than this hand"),
        "call": lambda: t("the deal it starts is worth the most to your pair"),
        "blind": lambda: t("the deal is worth the most with this card face down"),
    }
    return texts.get(reason, lambda: t("the best card the search found"))()


def expected_text(variant: str, count: int, t: Translator) -> str:
    """What the better move gains, in whole units of the preset: ``+2 глаза``, ``+1 очко``,
    ``+3 пары``."""
    scoring = PRESETS[variant].rules({}).scoring if variant in PRESETS else "eyes"
    if scoring == "points":
        return "+" + t.n("{count} point", "{count} points", count)
    if scoring == "pairs":
        return "+" + t.n("{count} pair", "{count} pairs", count)
    return "+" + t.n("{count} eye", "{count} eyes", count)
