"""The short answers to a cover player's press: why a move was refused (with the count it
asks for), or what the move did."""

from __future__ import annotations

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import GameError
from kozelbot.core.table import Table
from kozelbot.core.texts import cards_label, seat_name
from kozelbot.families.cover.render.lines import and_list
from kozelbot.families.cover.vocabulary import (
    Action,
    Beat,
    Claim,
    Discard,
    IllegalMove,
    Lead,
    Level,
    NotYourTurn,
    Otboy,
    Pass,
)


def error_text(error: GameError, table: Table, t: Translator) -> str:
    """A short alert for a refused move, with its reason."""
    if isinstance(error, NotYourTurn):
        names = [seat_name(table, s, t) for s in error.to_act]
        if not names:
            return t("Not your turn.")
        named = and_list(names, t)
        return t.n(
            "It is {names}'s turn now.", "It is the turn of {names} now.", len(names), names=named
        )
    if isinstance(error, IllegalMove):
        return _refusal(error.reason, error.count, t)
    return t("That move is not allowed.")


def _refusal(reason: str, count: int, t: Translator) -> str:
    """An ``IllegalMove`` reason in words."""
    if reason == "discard exactly":
        return t.n("Discard exactly {count} card.", "Discard exactly {count} cards.", count)
    if reason == "beat or discard exactly":
        return t.n(
            "Beat every stack, or discard {count} card face down.",
            "Beat every stack, or discard {count} cards face down.",
            count,
        )
    if reason == "add exactly":
        return t.n("Add exactly {count} card.", "Add exactly {count} cards.", count)
    texts = {
        "cards not in hand": t("Select cards from your hand."),
        "one suit": t("A lead is of one suit."),
        "lead 1 to 6 cards": t("Select 1 to 6 cards to lead."),
        "does not beat every stack": t("These cards do not beat every stack, one card each."),
        "no beat now": t("You may not beat now."),
        "nothing to discard": t("You have nothing to discard."),
        "no pass now": t("You may not pass now."),
        "no claim": t("You may not claim the lead now."),
        "not a lead now": t("It is not time to lead."),
        "no Відбій now": t("You may not press Done now."),
    }
    return texts.get(reason, t("That move is not allowed."))


def done_text(action: Action, t: Translator) -> str:
    """The short answer to a move that was made."""
    if isinstance(action, Lead):
        return t("You led {cards}.", cards=cards_label(action.cards, t))
    if isinstance(action, Beat):
        cards = cards_label(action.cards, t)
        return t.n(
            "You beat it with {cards}.",
            "You beat them with {cards}.",
            len(action.cards),
            cards=cards,
        )
    if isinstance(action, Discard):
        return t.n(
            "You discarded {count} card face down.",
            "You discarded {count} cards face down.",
            len(action.cards),
        )
    if isinstance(action, Level):
        return t.n(
            "You added {count} card face down.",
            "You added {count} cards face down.",
            len(action.cards),
        )
    if isinstance(action, Pass):
        return t("You pass.")
    if isinstance(action, Otboy):
        return t("Done: the round is over.")
    if isinstance(action, Claim):
        return t("You claimed the lead: «I have {n}».", n=action.count)
    return t("Done.")
