"""The strong level's advice through buttons (issue #17): 💡 on a hand in a match against the
computer answers with the move and why (an alert only the presser sees); 🔍 under a scored
deal — on the hand once the deal is over, on /history's deal pages — sends the presser their
costliest plays privately. Both change nothing; a press that cannot be advised on is told
why."""

from __future__ import annotations

import asyncio
import logging

from telegram import Message

from handlers.lanes import Outgoing
from handlers.press import Press, Refusal, not_valid, on_button
from kozelbot.computer.coach import AdviceError
from kozelbot.core.callbacks import AnalysisButton, HintButton
from kozelbot.core.i18n import Translator
from kozelbot.views.advice import analysis_text, hint_text

log = logging.getLogger(__name__)


def refusal(code: str, t: Translator) -> str:
    """Why there is no advice (neutral: it names no card)."""
    texts = {
        "no_game": t("This match is over or gone."),
        "not_private": t("Hints are for matches against the computer (/play)."),
        "not_seated": t("You do not sit at this table."),
        "no_choice": t("Nothing to choose now: a hint comes on your turn."),
        "not_scored": t("This deal is not over yet."),
        "not_played": t("You did not play in this deal."),
        "busy": t(
            "🔍 Your other analysis is still being prepared: ask again once it "
            "is in our private chat."
        ),
    }
    return texts.get(code) or not_valid(t).text


@on_button(HintButton)
async def hint_button(pressed: Press, button: HintButton) -> None:
    """💡: the strong level's move for the presser's turn, as an alert."""
    data, t, message = pressed.data, pressed.t, pressed.query.message
    if not isinstance(message, Message) or message.chat.id != pressed.user.id:
        raise not_valid(t)  # a forged button elsewhere
    try:
        hint = await data.coach.hint(button.game_id, pressed.user.id)
    except AdviceError as error:
        raise Refusal(refusal(error.code, t)) from error
    await pressed.answer(hint_text(hint.table, hint.decision, t), alert=True)


@on_button(AnalysisButton)
async def analysis_button(pressed: Press, button: AnalysisButton) -> None:
    """🔍: the presser's plays in a scored deal against the strong level's, sent privately.
    The press is answered at once: the search takes a moment, longer while the tables'
    computers think (they come first, issue #29); a second press joins the first, and
    another analysis pressed meanwhile is refused (``busy``)."""
    data, t, user = pressed.data, pressed.t, pressed.user
    if not await data.queries.private_open(user.id):
        raise Refusal(
            t("Open our private chat first (press Start there): the analysis is sent there.")
        )
    table = await data.service.game(button.game_id)
    message = pressed.query.message
    if (
        table is None
        or not isinstance(message, Message)
        or message.chat.id not in (table.chat_id, user.id)
    ):
        raise not_valid(t)  # a match of another chat
    try:
        preparing = await data.coach.prepare(button.game_id, button.deal_no, user.id)
    except AdviceError as error:
        raise Refusal(refusal(error.code, t)) from error
    in_private = message.chat.id == user.id
    answered = False
    if not preparing.done():  # answered at once; the reviews wait for the tables' computers
        await pressed.answer(t("🔍 Preparing your analysis: it will arrive in our private chat."))
        answered = True
    found = await asyncio.shield(preparing)
    if not data.coach.first_sending(found, user.id):
        if not answered:
            await pressed.answer(t("🔍 The analysis is in our private chat."))  # sent already
        return
    if not answered:
        await pressed.answer(None if in_private else t("🔍 The analysis is in our private chat."))
    data.presenter.note(
        user.id,
        lambda gt: Outgoing(analysis_text(found, gt)),
        key=f"analysis:{button.game_id}:{button.deal_no}",
    )


__all__ = ["analysis_button", "hint_button"]
