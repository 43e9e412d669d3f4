"""Play: the private hand's buttons (cards, redeal answers, every special phase), and /hand."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.constants import ChatType

from handlers.commands import command, group_command, variant_and_options
from handlers.deps import BotData, Context
from handlers.people import player_of, remember
from handlers.press import (
    Press,
    Refusal,
    act,
    deal_shown,
    not_valid,
    on_button,
    seat_at,
    table_of,
)
from handlers.publish import publish
from handlers.refusals import refusal_text
from kozelbot.core import callbacks
from kozelbot.core.i18n import Translator
from kozelbot.core.options import OptionError
from kozelbot.core.table import GameAlreadyRunning, Table
from kozelbot.families.registry import DEFAULT_PRESET, reader_of, rules_of
from kozelbot.tables.service import TableError
from kozelbot.views.general import option_error_text, table_error_text
from kozelbot.views.screens import deep_link


@on_button(callbacks.HandButton)
async def hand_button(pressed: Press, button: callbacks.HandButton) -> None:
    """A button of a private hand message: a card, an answer, a move, or — in games whose
    moves take several cards — a card toggled in the selection or a verb acting on it."""
    data, t, query = pressed.data, pressed.t, pressed.query
    table = await table_of(data, button.game_id)
    seat = seat_at(table, pressed.user.id, t)
    assert table is not None
    known = await data.messages.message(button.game_id, "hand", seat)
    message_id = query.message.message_id if query.message is not None else None
    if message_id is None or (
        known is not None and (button.deal_no, message_id) < (known.deal_no or 0, known.message_id)
    ):
        # An older deal's hand, or a copy replaced by /hand. (A newer message than the one
        # recorded is the hand just sent, pressed before the bot read Telegram's answer;
        # act() checks its deal.)
        raise Refusal(t("This hand message is out of date; use the latest one (/hand)."))
    reader = reader_of(table.variant)
    if not isinstance(button, callbacks.ActButton) and type(button) not in reader.hand_buttons:
        raise not_valid(t)  # another family's button
    if not isinstance(button, callbacks.MoveButton):
        await _selection_button(pressed, table, seat, button)
        return
    try:
        # typed: only ActButton's notation is read
        action = button.move(rules_of(table.variant).parse_action)
    except ValueError:
        raise not_valid(t) from None
    await _act(pressed, table, seat, button.deal_no, action)


async def _selection_button(
    pressed: Press, table: Table, seat: int, button: callbacks.HandButton
) -> None:
    """A card toggled in the selection of a hand whose moves take several cards, or a verb
    acting on the selected cards (a button of the deal shown, from the latest committed
    state)."""
    data, t, texts = pressed.data, pressed.t, reader_of(table.variant)
    if not texts.multi_select:
        raise not_valid(t)
    deal_shown(data, table, button.deal_no, t)
    state = data.service.state_of(table)
    assert state is not None
    hand = frozenset(state.view_for(seat).hand)
    if isinstance(button, callbacks.ToggleButton):
        if button.card not in hand:
            raise Refusal(t("That card is no longer in your hand."))
        chosen = data.selections.toggle(table.game_id, seat, button.card)
        data.presenter.show_hand(table.game_id, seat)
        await pressed.answer(t("Selected: {n}", n=len(chosen & hand)))
        return
    chosen = data.selections.of(table.game_id, seat) & hand
    if not isinstance(button, callbacks.VerbButton):
        raise not_valid(t)
    if not chosen:
        raise Refusal(t("Select cards first, then press the action."))
    try:
        action = texts.from_selection(button.verb, chosen)
    except ValueError:
        raise not_valid(t) from None
    await _act(pressed, table, seat, button.deal_no, action)


async def _act(pressed: Press, table: Table, seat: int, deal_no: int, action: Any) -> None:
    """Make the move (``press.act``), show it and answer with what was done."""
    data, t = pressed.data, pressed.t
    change = await act(data, table, pressed.user.id, deal_no, action, t)
    data.selections.clear(table.game_id, seat)
    publish(data, change)
    await pressed.answer(reader_of(table.variant).done_text(change.acted, t))


async def hand(update: Update, context: Context) -> None:
    """/hand: send your cards again as a new private message (someone away is back)."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    chat, user = cmd.chat, cmd.user
    t = await data.user_translator(user.id, user.language_code)
    if chat.type == ChatType.PRIVATE:
        table = await data.queries.records.live_seat(user.id)
    else:
        table = await cmd.live_game()
    seat = None if table is None else table.seat_of(user.id)
    if table is None or seat is None:
        cmd.reply(table_error_text("not_seated", t))
        return
    if table.state is None:
        cmd.reply(t("The game has not started yet."))
        return
    player = table.seats[seat]
    if player is not None and player.away:
        await come_back(data, table.game_id, user.id, t)
    await data.presenter.resend_hand(table.game_id, seat)
    if chat.type == ChatType.PRIVATE:
        return
    cmd.reply(t("Your cards are in our private chat."))


async def table(update: Update, context: Context) -> None:
    """/table: send the game's table message again at the bottom of the group."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /table in the group where the game is.")
    )
    if cmd is None:
        return
    current = await cmd.live_game()
    if current is None or current.state is None:
        cmd.reply(table_error_text("no_game", cmd.t))
        return
    await data.presenter.repost_table(current)


async def come_back(data: BotData, game_id: int, user_id: int, t: Translator) -> str | None:
    """Give a person away their seat back; ``None`` when done, else why not."""
    try:
        change = await data.service.lobby.come_back(game_id, user_id)
    except TableError as error:
        return table_error_text(error.code, t)
    publish(data, change)
    return None


@on_button(callbacks.BackButton)
async def back_button(pressed: Press, button: callbacks.BackButton) -> None:
    """ "I'm here": the person away takes their seat back from the computer."""
    refused = await come_back(pressed.data, button.game_id, pressed.user.id, pressed.t)
    if refused is not None:
        raise Refusal(refused)
    # The same message turns back into the hand (the presenter edits it in place).
    await pressed.answer(pressed.t("Welcome back!"))


async def play(update: Update, context: Context) -> None:
    """/play [VARIANT] [KEY=VALUE ...] in the private chat: a match against the computer —
    a computer partner and computer opponents, the table and the hand both here."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    t, user = cmd.t, cmd.user
    if not cmd.private:
        link = deep_link(data.bot.username, "play")
        text = t(
            'Matches against the computer are played in <a href="{link}">our private '
            "chat</a>: send /play there.",
            link=link,
        )
        cmd.reply(html=True, text=text)
        return
    await remember(data, user)
    await data.queries.people.set_private_open(user.id, True)
    try:
        variant, words = variant_and_options(context.args, DEFAULT_PRESET)
        change = await data.service.lobby.play_private(
            player_of(user), words, variant, token=f"m{cmd.message.message_id}"
        )
    except OptionError as error:
        cmd.reply(html=True, text=option_error_text(error, t))
        return
    except TableError as error:
        cmd.reply(html=True, text=await refusal_text(data, error, t))
        return
    except GameAlreadyRunning:
        cmd.reply(table_error_text("game_running", t))
        return
    publish(data, change)
