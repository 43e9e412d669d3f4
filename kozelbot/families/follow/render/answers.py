"""The answer to a press: what an accepted move did, or why a refused one was refused.

A refusal is a short alert that never names who a hidden step waits for.
"""

from __future__ import annotations

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import GameError
from kozelbot.core.table import Table
from kozelbot.core.texts import card_label, cards_label, seat_name
from kozelbot.families.follow.render.common import opening_name
from kozelbot.families.follow.vocabulary import (
    Action,
    AnswerOffer,
    AskRedeal,
    CallOpening,
    CardNotInHand,
    GiveTrump,
    KeepHand,
    MustFollow,
    NotAllowed,
    NotYourTurn,
    OfferHandoff,
    Phase,
    PlayCard,
    RedealNotAllowed,
    ReturnCard,
    TrumpLeadBanned,
    Waiting,
    WrongPhase,
)


def done_text(action: Action, t: Translator) -> str:
    """The answer to an accepted press."""
    if isinstance(action, PlayCard):
        return t("You played {card}.", card=card_label(action.card, t))
    if isinstance(action, AskRedeal):
        return t("Redeal!")
    if isinstance(action, KeepHand):
        return t("You keep your cards.")
    if isinstance(action, OfferHandoff):
        return t("You announced: “I give my last trump!”")
    if isinstance(action, AnswerOffer):
        return t("You said “go ahead”.") if action.agree else t("You said “no need”.")
    if isinstance(action, GiveTrump):
        return t("You handed {card} to your partner.", card=cards_label(action.cards, t))
    if isinstance(action, ReturnCard):
        return t("You returned {card}.", card=card_label(action.card, t))
    if isinstance(action, CallOpening):
        return t("You called {kind}.", kind=opening_name(action.kind, t))
    return t("Done.")


def game_error_text(error: GameError, table: Table, t: Translator) -> str:
    """A short alert for a refused move (at most 200 characters)."""
    if isinstance(error, Waiting):  # a hidden step: no seat, no reason (RULES.md §1.2)
        if error.started:
            return t("Play goes on in a moment — please wait.")
        return t("The deal has not started yet — wait a moment.")
    if isinstance(error, NotYourTurn):
        names = ", ".join(seat_name(table, s, t) for s in error.to_act)
        if not names:
            return t("Not your turn.")
        if error.step is Phase.CALL:
            return t("{name} is calling the deal now.", name=names)
        if error.step is Phase.HANDOFF:
            return t("{name} decides in the hand-off now.", name=names)
        return t("It is {name}'s turn now.", name=names)
    if isinstance(error, MustFollow):
        legal = cards_label(error.legal, t)
        if error.led is None:
            return t("A trump was led — play a trump: {cards}", cards=legal)
        return t("Follow suit {suit}: {cards}", suit=error.led.symbol, cards=legal)
    if isinstance(error, TrumpLeadBanned):
        return t(
            "Your pair may not lead a trump now; you may lead: {cards}",
            cards=cards_label(error.legal, t),
        )
    if isinstance(error, NotAllowed):
        if error.legal:
            return t("Not that card now: {cards}", cards=cards_label(error.legal, t))
        return t("That move is not allowed.")
    if isinstance(error, CardNotInHand):
        return t("That card is no longer in your hand.")
    if isinstance(error, RedealNotAllowed):
        return t("No redeal is possible now.")
    if isinstance(error, WrongPhase):
        return _wrong_phase_text(error.phase, t)
    return t("That move is not allowed.")


def _wrong_phase_text(phase: Phase, t: Translator) -> str:
    """What the table is waiting for when a press does not fit the step — never who, and
    nothing that depends on hidden cards: a redeal offer is answered like any hidden step."""
    if phase is Phase.CALL:
        return t("The deal is being called first: a plain deal or a hvalyonka.")
    if phase is Phase.HANDOFF:
        return t("A hand-off is under way — wait a moment.")
    if phase is Phase.DEALING:
        return t("The cards are being dealt — wait a moment.")
    if phase is Phase.REDEAL or phase is Phase.WAITING:
        return t("The deal has not started yet — wait a moment.")
    if phase is Phase.PLAY or phase is Phase.BLIND:
        return t("Play is under way — play a card.")
    if phase is Phase.OVER:
        return t("The match is over.")
    return t("Not possible right now.")
