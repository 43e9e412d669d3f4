"""The 🔒 button under a lobby or a table: the seals it shows short, whole, in an alert.

A table shows the first digits of a seal (one phone row); the button answers with the
whole value — the match's seal and players' seed (``deal`` -1), or a deal's seal — only
for the game the message belongs to. No text depends on anything secret: a seal is public.
"""

from __future__ import annotations

from telegram import Update

from handlers.deps import BotData, Context
from handlers.flow import press
from kozelbot.callbacks import SealButton
from kozelbot.fairplay import commitment
from kozelbot.seals import seals_in_full
from kozelbot.table import Table


async def seal_button(update: Update, context: Context) -> None:
    """🔒: the seals of this message's game, whole."""
    data = context.bot_data
    pressed = await press(update, data)
    if pressed is None:
        return
    button, t, message = pressed.button, pressed.t, pressed.query.message
    if not isinstance(button, SealButton) or message is None:
        await pressed.refuse(t("This button is not valid."))
        return
    table = data.service.snapshot(button.game_id) or await data.service.game(button.game_id)
    if table is None or table.chat_id != message.chat.id or not table.secret:
        await pressed.refuse(t("This button is not valid."))
        return
    deal_seal = None
    if button.deal_no >= 0:
        deal_seal = await _deal_seal(data, table, button.deal_no)
        if deal_seal is None:
            await pressed.refuse(t("This button is not valid."))
            return
    await pressed.answer(seals_in_full(table, deal_seal, t), alert=True)


async def _deal_seal(data: BotData, table: Table, deal_no: int) -> str | None:
    """The seal of a deal's cards in play: the live state's while it is shown, else the
    scored deal's trace."""
    state = data.service.state_of(table)
    if state is not None and state.deal_shown == deal_no and state.seeds:
        return commitment(state.seeds[-1])
    for deal in await data.storage.games.deals(table.game_id):
        if deal.deal_no == deal_no and isinstance(deal.trace.get("commit"), str):
            return str(deal.trace["commit"])
    return None
