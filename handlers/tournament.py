"""Tournament commands and buttons (issue #19): ``/tournament``, ``/pair``, ``/notify`` and
the registration post's Join / Leave / Start / Confirm. Thin: the director decides, the
runner (``handlers.tournament_run``) shows and sets in motion."""

from __future__ import annotations

from telegram import Message, Update

from handlers.commands import Command, group_command
from handlers.deps import BotData, Context
from handlers.members import is_admin, is_member
from handlers.notices import tell_subscribers
from handlers.people import player_of, remember
from handlers.press import Press, Refusal, not_valid, on_button, table_of
from handlers.publish import publish
from handlers.refusals import plain
from kozelbot.core import callbacks
from kozelbot.core.i18n import Translator
from kozelbot.core.table import TableStatus
from kozelbot.core.tournament.model import Format, Status
from kozelbot.core.tournament.standings import standings
from kozelbot.families.registry import DEFAULT_PRESET
from kozelbot.tables.service import TableError
from kozelbot.tables.tournament_words import TournamentError
from kozelbot.views.tournament import texts


def error_text(error: TournamentError, t: Translator) -> str:
    """A short answer for a refused tournament operation."""
    texts_ = {
        "running": t("A tournament is already on here: /tournament shows it."),
        "option": t(
            "Unknown tournament option or value: {word}. Allowed: format=rotating|pairs, "
            "rounds=1–15, round_time=5–240 (minutes), computer_fill=true|false, "
            "start=1–1440 (minutes from now), and the game's own options.",
            word=plain(error.word[:40]),
        ),
        "variant": t("Tournaments are for games of two pairs at four seats."),
        "registered": t("You are registered already."),
        "not_registered": t("You are not registered."),
        "not_registration": t("Registration is closed."),
        "too_few": t("Too few entrants to start."),
        "full": t("The tournament is full."),
        "partner": t("Name a partner who is not in a pair yet: reply /pair to their message."),
        "no_invite": t("Nobody has asked you to be their partner."),
        "no_tournament": t("There is no tournament here."),
    }
    return texts_.get(error.code, t("That is not possible now."))


async def tournament(update: Update, context: Context) -> None:
    """/tournament [VARIANT] [KEY=VALUE …] opens registration (chat admins); with nothing
    after it, the running one's standings; ``/tournament stop`` (admins) ends it."""
    data = context.bot_data
    cmd = await group_command(
        update, data, lambda t: t("Send /tournament in the group that plays.")
    )
    if cmd is None:
        return
    runner = data.tournaments
    words = list(context.args or [])
    live = await runner.director.live(cmd.chat.id)
    if words == ["stop"]:
        if live is None:
            cmd.reply(error_text(TournamentError("no_tournament"), cmd.t))
        elif not await is_admin(data, cmd.chat.id, cmd.user.id):
            cmd.reply(cmd.t("Only a chat admin can do that."))
        else:
            await runner.stop(live)
            cmd.reply(cmd.t("The tournament was stopped."))
        return
    if live is not None:
        rows = standings(live)
        text = (
            texts.registration_text(live, cmd.t, runner.director.clock(), runner.director.minute)
            if live.status is Status.REGISTRATION
            else texts.standings_text(live, rows, cmd.t)
        )
        cmd.reply(text, html=True)
        return
    if not await is_admin(data, cmd.chat.id, cmd.user.id):
        cmd.reply(cmd.t("Only a chat admin can open a tournament."))
        return
    if not await _room_for_tables(data, cmd):
        return
    await remember(data, cmd.user)
    chosen = await data.queries.people.chat_settings(cmd.chat.id)
    try:
        tour = await runner.director.announce(
            cmd.chat.id,
            cmd.thread_id,
            forum=bool(cmd.chat.is_forum),
            chat_title=cmd.chat.title,
            creator_id=cmd.user.id,
            words=words,
            default_variant=chosen.variant if chosen is not None else DEFAULT_PRESET,
        )
    except TournamentError as error:
        cmd.reply(error_text(error, cmd.t))
        return
    await runner.step(tour.tournament_id)
    await tell_subscribers(data, cmd.chat.id, cmd.chat.title, cmd.user.id, tournament=True)


async def _room_for_tables(data: BotData, cmd: Command) -> bool:
    """A plain group plays one game at a time: its tournament waits for no other game."""
    if cmd.chat.is_forum:
        return True
    if await data.service.live_game(cmd.chat.id) is not None:
        cmd.reply(cmd.t("Finish the game in play first: the tournament's tables need the group."))
        return False
    return True


async def pair(update: Update, context: Context) -> None:
    """/pair as a reply to someone's message: join a ``pairs`` tournament with them as
    partner; they confirm with the button under the invitation."""
    data = context.bot_data
    cmd = await group_command(update, data, lambda t: t("Send /pair in the group."))
    if cmd is None:
        return
    live = await data.tournaments.director.live(cmd.chat.id)
    if live is None or live.format is not Format.PAIRS:
        cmd.reply(cmd.t("There is no pairs tournament to join here."))
        return
    replied = cmd.message.reply_to_message
    partner = None if replied is None else replied.from_user
    if partner is None or partner.is_bot:
        cmd.reply(error_text(TournamentError("partner"), cmd.t))
        return
    await remember(data, cmd.user)
    try:
        tour = await data.tournaments.director.register(
            live.tournament_id,
            cmd.user.id,
            cmd.user.first_name,
            partner=(partner.id, partner.first_name),
        )
    except TournamentError as error:
        cmd.reply(error_text(error, cmd.t))
        return
    cmd.reply(
        cmd.t(
            "{name} asks {partner} to play as a pair. {partner}, press Confirm.",
            name=plain(cmd.user.first_name),
            partner=plain(partner.first_name),
        ),
        html=True,
        markup=texts.confirm_keyboard(tour, cmd.t),
    )
    await data.tournaments.step(tour.tournament_id)


async def notify(update: Update, context: Context) -> None:
    """/notify in a group: toggle a private message when a table or tournament opens here."""
    data = context.bot_data
    cmd = await group_command(update, data, lambda t: t("Send /notify in the group."))
    if cmd is None:
        return
    await remember(data, cmd.user)
    on = await data.queries.notices.toggle(cmd.chat.id, cmd.user.id)
    cmd.reply(
        cmd.t("I will write to you privately when a new table or tournament opens here.")
        if on
        else cmd.t("No more messages about new tables here.")
    )


@on_button(callbacks.TournamentButton)
async def tournament_button(pressed: Press, button: callbacks.TournamentButton) -> None:
    """Join, Leave, Start and Confirm under the registration post or an invitation."""
    data, user, t = pressed.data, pressed.user, pressed.t
    director = data.tournaments.director
    tour = await data.queries.tournaments.tournament(button.tournament_id)
    if tour is None or not tour.status.live:
        raise Refusal(error_text(TournamentError("not_registration"), t))
    if not await is_member(data, tour.chat_id, user.id):
        raise Refusal(t("Only members of this group may enter its tournament."))
    await remember(data, user)
    try:
        if button.verb == "join":
            if tour.format is Format.PAIRS:
                raise Refusal(error_text(TournamentError("partner"), t))
            tour = await director.register(tour.tournament_id, user.id, user.first_name)
        elif button.verb == "leave":
            await director.withdraw(tour.tournament_id, user.id)
        elif button.verb == "confirm":
            tour = await director.confirm(tour.tournament_id, user.id, user.first_name)
        else:
            if user.id != tour.creator_id and not await is_admin(data, tour.chat_id, user.id):
                raise Refusal(t("Only the tournament's creator or a chat admin can start it."))
            await data.tournaments.begin(tour)
    except TournamentError as error:
        raise Refusal(error_text(error, t)) from error
    # issue #30 item 12: say what happens next, not «Готово.»
    if button.verb in ("join", "confirm"):
        # what the bot knows (a /start seen), no probe: a look-up here could fail the press
        reachable = await data.queries.private_open(user.id)
        await pressed.answer(
            texts.registered_text(
                tour, t, reachable=reachable, now=director.clock(), minute=director.minute
            )
        )
    elif button.verb == "leave":
        await pressed.answer(t("You left the tournament."))
    else:
        await pressed.answer(
            t(
                "The tournament begins: the draw is posted here, and each "
                "player gets their table privately."
            )
        )
    await data.tournaments.step(tour.tournament_id)


@on_button(callbacks.SeatButton)
async def take_seat(pressed: Press, button: callbacks.SeatButton) -> None:
    """The invitation's one button (issue #30 item 12): the presser takes the seat the draw
    kept for them. Pressed again, or after the match began without them, or once it is
    over, it says so — nothing is done twice."""
    data, user, t, game_id = pressed.data, pressed.user, pressed.t, button.game_id
    table = await table_of(data, game_id)
    if (
        table is None
        or table.tournament is None
        or table.reserved is None
        or user.id not in table.reserved
    ):
        raise not_valid(t)
    number = table.tournament.table_no
    if table.seat_of(user.id) is not None:
        await pressed.answer(texts.seat_answer("seated", number, t))
        return
    if not table.status.live or table.status is not TableStatus.LOBBY:
        raise Refusal(texts.seat_answer("late" if table.status.live else "over", number, t))
    if not await is_member(data, table.chat_id, user.id):
        raise Refusal(t("Only members of this group may sit at its table."))
    await remember(data, user)
    try:
        change = await data.service.lobby.join(
            game_id, player_of(user), token=f"q{pressed.query.id}"
        )
    except TableError as error:  # a second press that raced the first, or the clock
        code = {"seated": "seated", "reserved": "late"}.get(error.code, "over")
        raise Refusal(texts.seat_answer(code, number, t)) from error
    publish(data, change)
    await pressed.answer(texts.seat_answer("done", number, t))
    message, key = pressed.query.message, table.tournament
    tour = await data.queries.tournaments.tournament(key.tournament_id)
    if isinstance(message, Message) and tour is not None:  # seated, its button gone
        text = "\n\n".join(
            [
                texts.table_invite_text(tour, key.round_no, number, table.reserved, user.id, t),
                texts.seated_text(key.round_no, number, t),
            ]
        )
        sender = data.sender
        await sender.deliver(
            lambda: sender.edit(message.chat.id, message.message_id, text), f"seated:{user.id}"
        )
