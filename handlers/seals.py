"""The fair-play button: 🔒 under a lobby, «🔑 Check the deals» under a match's result.

While the match is live (``deal`` -1) the press answers with an alert: the match's seal and,
once started, the players' contribution, whole. Once the match is over or stopped the same
callback sends the presser, privately, everything ``kozelbot verify`` needs
(``kozelbot.views.seals.verify_texts``): the secret may be shown then. A 🔒 button of a table sent
before issue #30 (``deal`` ≥ 0) still answers with that deal's seal. Only for the game the
message belongs to; nothing secret is shown before the match ends.
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import Message

from handlers.deps import BotData
from handlers.lanes import Outgoing
from handlers.press import Press, Refusal, not_valid, on_button, table_here
from kozelbot.core.callbacks import SealButton
from kozelbot.core.fairplay import commitment
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table
from kozelbot.views.seals import seals_in_full, verify_texts


@on_button(SealButton)
async def seal_button(pressed: Press, button: SealButton) -> None:
    """🔒 / 🔑: the seals of this message's game, whole; or, once it is over, its check."""
    data, t, message = pressed.data, pressed.t, pressed.query.message
    if not isinstance(message, Message):
        raise not_valid(t)
    table = await table_here(pressed, button.game_id)
    if not table.secret:
        raise not_valid(t)
    deal_seal = None
    if button.deal_no >= 0:
        deal_seal = await _deal_seal(data, table, button.deal_no)
        if deal_seal is None:
            raise not_valid(t)
    elif not table.status.live:
        await _send_check(data, pressed, table, message)
        return
    await pressed.answer(seals_in_full(table, deal_seal, t), alert=True)


async def _send_check(data: BotData, pressed: Press, table: Table, message: Message) -> None:
    """Send the presser the finished (or stopped) match's ``kozelbot verify`` lines."""
    t, user = pressed.t, pressed.user
    in_private = message.chat.id == user.id
    if not in_private and not await data.queries.private_open(user.id):
        raise Refusal(
            t(
                "Open our private chat first (press Start there): the check "
                "of the deals is sent there."
            )
        )
    texts = verify_texts(table, await data.queries.records.deals(table.game_id), t)
    await pressed.answer(None if in_private else t("🔑 The check is in our private chat."))
    # Sent in the language the press was answered in: the parts are cut to fit in it.
    for n, text in enumerate(texts):
        data.presenter.note(user.id, _already(text), key=f"verify:{table.game_id}:{n}")


def _already(text: str) -> Callable[[Translator], Outgoing]:
    """A note whose text is written already (in the language the press was answered in)."""
    return lambda _t: Outgoing(text)


async def _deal_seal(data: BotData, table: Table, deal_no: int) -> str | None:
    """The seal of a deal's cards in play: the live state's while it is shown, else the
    scored deal's trace."""
    state = data.service.state_of(table)
    if state is not None and state.deal_shown == deal_no and state.seeds:
        return commitment(state.seeds[-1])
    for deal in await data.queries.records.deals(table.game_id):
        if deal.deal_no == deal_no and isinstance(deal.trace.get("commit"), str):
            return str(deal.trace["commit"])
    return None
