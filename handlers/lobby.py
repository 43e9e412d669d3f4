"""The lobby: /newgame, /join, /leave, the lobby's buttons, and deep-linked /start."""

from __future__ import annotations

import hmac

from telegram import Update, User
from telegram.error import BadRequest, Forbidden, TelegramError

from handlers.commands import Command, command, group_command, variant_and_options
from handlers.delivery import deliver
from handlers.deps import BotData, Context
from handlers.members import TelegramUnavailable, is_member
from handlers.notices import tell_subscribers
from handlers.people import player_of, remember
from handlers.press import Press, Refusal, not_valid, on_button, table_here
from handlers.publish import publish
from handlers.refusals import plain, refusal_text, refuse_in_group
from kozelbot.core import callbacks
from kozelbot.core.i18n import Translator
from kozelbot.core.options import OptionError
from kozelbot.core.table import GameAlreadyRunning, Table, TableStatus
from kozelbot.core.texts import Button, Keyboard
from kozelbot.core.tournament.model import Status as TournamentStatus
from kozelbot.families.registry import DEFAULT_PRESET
from kozelbot.tables.service import Change, TableError
from kozelbot.views.general import help_text, option_error_text, table_error_text
from kozelbot.views.screens import deep_link

JOIN_PREFIX = "join-"
HAND_PREFIX = "hand-"
PROBE_PATIENCE = 5.0
"""Seconds to keep trying the message that checks whether someone opened the private chat:
with a membership look-up's (``members.LOOKUP_PATIENCE``) a press is still answered within
Telegram's ~15 s."""
MAX_GAME_ID = 2**53
"""Larger numbers in a deep link are not ours (and would not fit SQLite's integers)."""


async def new_game(update: Update, context: Context) -> None:
    """/newgame [VARIANT] [KEY=VALUE ...]: open a table in this group."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Add me to a group and send /newgame there.")
    )
    if cmd is None:
        return
    chat, user, t = cmd.chat, cmd.user, cmd.t
    if not chat.is_forum and await _tournament_on(data, chat.id):
        cmd.reply(t("A tournament is on here: its tables use the group. /tournament shows it."))
        return
    await data.queries.people.upsert_chat(chat.id, chat.title)
    await remember(data, user)
    chosen = await data.queries.people.chat_settings(chat.id)
    try:
        variant, words = variant_and_options(
            context.args, chosen.variant if chosen is not None else DEFAULT_PRESET
        )
        defaults = chosen.options if chosen is not None and chosen.variant == variant else None
        table = await data.service.lobby.new_game(
            chat.id, user.id, words, variant, chat.title, thread_id=cmd.thread_id, defaults=defaults
        )
    except (TableError, GameAlreadyRunning):
        cmd.reply(t("A game is already running here. /stop ends it."))
        return
    except OptionError as error:
        cmd.reply(html=True, text=option_error_text(error, t))
        return
    publish(data, Change(table))
    await seat(data, cmd, table.game_id)
    await tell_subscribers(data, chat.id, chat.title, user.id)


async def _tournament_on(data: BotData, chat_id: int) -> bool:
    """Whether the group's tournament is playing (a plain group's tables need the chat)."""
    live = await data.queries.tournaments.live_tournament(chat_id)
    return live is not None and live.status is TournamentStatus.RUNNING


async def join(update: Update, context: Context) -> None:
    """/join: take a seat at this group's table."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /join in the group where the game is.")
    )
    if cmd is None:
        return
    user = cmd.user
    table = await cmd.live_game()
    if table is None:
        cmd.reply(table_error_text("no_game", cmd.t))
        return
    await remember(data, user)
    await seat(data, cmd, table.game_id)


async def seat(data: BotData, cmd: Command, game_id: int) -> None:
    """Seat the sender of a group command if the bot can reach them privately.

    A person who never opened the private chat is asked to, in the group, with a deep-link
    button that seats them once they press Start there.
    """
    user = cmd.user
    if not await can_message(data, user):
        table = data.service.snapshot(game_id) or await data.service.game(game_id)
        if table is None:
            return
        data.presenter.private_asks.ask(
            cmd.chat.id,
            game_id,
            user.id,
            user.first_name,
            join_payload(table),
            thread_id=cmd.thread_id,
        )
        return
    try:
        change = await data.service.lobby.join(
            game_id, player_of(user), token=f"m{cmd.message.message_id}"
        )
    except TableError as error:
        await refuse_in_group(cmd, error)
        return
    publish(data, change)
    if change.waiting:
        cmd.reply(
            cmd.t(
                "{name} takes over a seat held by the computer when the next deal starts.",
                name=user.first_name,
            )
        )


async def can_message(data: BotData, user: User) -> bool:
    """Whether the bot may write to ``user`` privately (probing once if unknown).

    Only Telegram's word decides: a 403 (never opened, or blocked) or a 400 is "no"; a probe
    that gets no answer through the retries raises :class:`TelegramUnavailable` — the person
    is asked to try again and nothing changes (issue #29 item 7), rather than sent to open a
    chat they may well have opened."""
    if await data.queries.private_open(user.id):
        return True
    t = await data.user_translator(user.id, user.language_code)
    text = t("You are joining a game. Your cards will arrive here.")
    try:
        await deliver(
            lambda: data.sender.send(user.id, text),
            backoff=data.sender.backoff,
            what=f"probe:{user.id}",
            give_up_after=PROBE_PATIENCE,
        )
    except (Forbidden, BadRequest):
        return False
    except TelegramError as error:  # no answer: no decision
        raise TelegramUnavailable(f"probe:{user.id}") from error
    await data.queries.people.set_private_open(user.id, True)
    return True


async def leave(update: Update, context: Context) -> None:
    """/leave: free your seat (during a match a bot takes it over)."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /leave in the group where the game is.")
    )
    if cmd is None:
        return
    user, t = cmd.user, cmd.t
    table = await cmd.live_game()
    if table is None:
        cmd.reply(table_error_text("no_game", t))
        return
    try:
        change = await data.service.lobby.leave(table.game_id, user.id)
    except TableError as error:
        cmd.reply(table_error_text(error.code, t))
        return
    publish(data, change)
    if table.status is TableStatus.PLAYING:
        if change.table.status is TableStatus.STOPPED:
            cmd.reply(t("The last player left; the game is stopped."))
        else:
            cmd.reply(
                t("{name} has left the table: a computer plays the seat.", name=user.first_name)
            )


async def seed(update: Update, context: Context) -> None:
    """/seed WORD: a seated person adds a word to the players' seed while the lobby is open
    (``kozelbot.core.fairplay``: every shuffle mixes it with the secret sealed in the lobby)."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /seed WORD in the group, at the table's lobby.")
    )
    if cmd is None:
        return
    words = context.args or []
    table = await cmd.live_game()
    if table is None:
        cmd.reply(table_error_text("no_game", cmd.t))
        return
    if not words:
        cmd.reply(cmd.t("Send /seed WORD: any word of yours goes into the players' seed."))
        return
    try:
        await data.service.lobby.add_seed(table.game_id, cmd.user.id, " ".join(words))
    except TableError as error:
        text = {
            "not_lobby": cmd.t("The cards are dealt already: /seed works while the lobby is open."),
            "full": cmd.t("The players' seed is full."),
        }.get(error.code) or table_error_text(error.code, cmd.t)
        cmd.reply(text)
        return
    cmd.reply(cmd.t("🎲 {name} added a word to the players' seed.", name=cmd.user.first_name))


@on_button(callbacks.LobbyButton)
async def lobby_button(pressed: Press, button: callbacks.LobbyButton) -> None:
    """The lobby's buttons: take a seat, leave, start with bots."""
    data, user, t = pressed.data, pressed.user, pressed.t
    table = await table_here(pressed, button.game_id)
    await remember(data, user)
    if button.verb == "join":
        if not await is_member(data, table.chat_id, user.id):
            raise Refusal(t("Only members of this group may sit at its table."))
        if not await can_message(data, user):
            await pressed.answer(url=deep_link(data.bot.username, join_payload(table)))
            return
        try:
            change = await data.service.lobby.join(
                button.game_id, player_of(user), token=f"q{pressed.query.id}"
            )
        except TableError as error:
            raise Refusal(plain(await refusal_text(data, error, t))) from error
        publish(data, change)
        await pressed.answer(t("You have a seat."))
        return
    try:
        if button.verb == "leave":
            change = await data.service.lobby.leave(button.game_id, user.id)
        else:
            change = await data.service.lobby.start(button.game_id, user.id)
    except TableError as error:
        raise Refusal(table_error_text(error.code, t)) from error
    publish(data, change)
    await pressed.answer(t("Done."))


async def start(update: Update, context: Context) -> None:
    """/start in the private chat, possibly deep-linked (``join-<game>``, ``hand-<game>``)."""
    data = context.bot_data
    cmd = await command(update, data)
    if cmd is None:
        return
    user = cmd.user
    await remember(data, user)
    await data.queries.people.set_private_open(user.id, True)
    t = cmd.t
    payload = context.args[0] if context.args else ""
    link = link_in(payload)
    if link is None:
        cmd.reply(html=True, text=welcome_text(t), markup=welcome_keyboard(data, t))
        return
    prefix, game_id, invite = link
    table = await data.service.game(game_id)
    if table is None or not table.status.live:
        cmd.reply(table_error_text("finished", t))
        return
    data.presenter.private_asks.opened(game_id, user.id)
    if prefix == JOIN_PREFIX:
        if (
            table.private
            or not table.invite
            or not hmac.compare_digest(
                invite.encode(),
                table.invite.encode(),  # bytes: any text may be typed here
            )
        ):
            cmd.reply(t("This link does not seat anyone: press the lobby's button in the group."))
            return
        if not await is_member(data, table.chat_id, user.id):
            cmd.reply(
                t(
                    "Join {title} first: only its members may sit at its table.",
                    title=table.chat_title,
                )
                if table.chat_title
                else t("Join the group first: only its members may sit at its table.")
            )
            return
        try:
            change = await data.service.lobby.join(
                game_id, player_of(user), token=f"m{cmd.message.message_id}"
            )
        except TableError as error:
            cmd.reply(html=True, text=await refusal_text(data, error, t))
            return
        publish(data, change)
        if change.waiting:
            cmd.reply(
                t(
                    "You take over a seat held by the computer when the next deal starts; "
                    "your cards will arrive here."
                )
            )
        else:
            cmd.reply(t("You have a seat. Your cards will arrive here."))
        return
    seat_no = table.seat_of(user.id)
    if seat_no is None:
        cmd.reply(table_error_text("not_seated", t))
        return
    await data.presenter.resend_hand(game_id, seat_no)


def welcome_text(t: Translator) -> str:
    """/start in private: what the bot is and how to use it."""
    return "\n".join(
        [
            "🐐 <b>KozelBot</b> — " + t("Kozel (Козёл), the card game, for group chats."),
            "",
            t("1. Add me to a group (the button below)."),
            t("2. Send /newgame there; everyone joins with /join or the lobby's button."),
            t("3. Your cards arrive here, in our private chat; the table stays in the group."),
            "",
            t("No group at hand? /play starts a match against the computer right here."),
            "",
            help_text(t, private=True, heading=False),
        ]
    )


def welcome_keyboard(data: BotData, t: Translator) -> Keyboard:
    """The "add to a group" deep link and a quick match."""
    add = f"https://t.me/{data.bot.username}?startgroup=kozel"
    return ((Button(t("➕ Add to a group"), url=add),),)


def join_payload(table: Table) -> str:
    """The deep link's payload that seats someone at ``table`` once they press Start:
    the game and its invite, which nobody can guess (a game's number alone seats nobody)."""
    return f"{JOIN_PREFIX}{table.game_id}-{table.invite}"


def link_in(payload: str) -> tuple[str, int, str] | None:
    """(prefix, game, invite) of a deep link's payload (``join-<game>-<invite>``,
    ``hand-<game>``), or ``None`` for anything else."""
    for prefix in (JOIN_PREFIX, HAND_PREFIX):
        if not payload.startswith(prefix):
            continue
        digits, _, invite = payload[len(prefix) :].partition("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 16:
            return None
        game_id = int(digits)
        return (prefix, game_id, invite) if game_id <= MAX_GAME_ID else None
    return None


@on_button(callbacks.OptionButton)
async def option_button(pressed: Press, button: callbacks.OptionButton) -> None:
    """A lobby settings button (⚙): the creator moves an option to its next value."""
    data = pressed.data
    await table_here(pressed, button.game_id)
    try:
        change = await data.service.lobby.cycle_option(button.game_id, pressed.user.id, button.key)
    except TableError as error:
        raise Refusal(table_error_text(error.code, pressed.t)) from error
    except OptionError:
        raise not_valid(pressed.t) from None
    publish(data, change)
    await pressed.answer()
