"""What players see outside a game's own table: lobby, errors, leaderboard, help.

Each family renders its own table, hands and results (its ``Reader`` in ``kozelbot.core.protocol``);
this module holds what is the same for every family, and re-exports the shared small pieces.
"""

from __future__ import annotations

from html import escape

from kozelbot.core.callbacks import LobbyButton, OptionButton
from kozelbot.core.i18n import Translator
from kozelbot.core.options import OptionError
from kozelbot.core.ratings import DISPLAY_BASE
from kozelbot.core.records import LeaderRow, RatingChange
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.texts import (
    NOT_NOW,
    Button,
    Keyboard,
    break_after,
    card_label,
    cards_label,
    figure,
    mention,
    pack_lines,
    seat_name,
)
from kozelbot.families.registry import TABLE_PRESETS, reader_of
from kozelbot.views.boards import rating_label, signed
from kozelbot.views.seals import fair_play_line, seal_keyboard

__all__ = [
    "NOT_NOW",
    "VARIANT",
    "Button",
    "Keyboard",
    "card_label",
    "cards_label",
    "help_text",
    "leaderboard_text",
    "lobby_keyboard",
    "lobby_text",
    "mention",
    "option_error_text",
    "option_labels",
    "options_line",
    "rules_text",
    "seat_name",
    "table_error_text",
]

VARIANT = "variant"
"""The lobby's settings key that cycles the preset itself."""


def option_labels(table: Table, t: Translator) -> dict[str, str]:
    """Each table option in words, as the table's family words them."""
    return reader_of(table.variant).option_labels(table.variant, table.options, t)


def options_line(table: Table, t: Translator) -> str:
    """The lobby's summary of the table options, in as many phone-wide rows as it takes
    (options packed in their order, never split)."""
    labels = [v for k, v in option_labels(table, t).items() if k != "seating"]
    return "\n".join(pack_lines(labels))


def rules_text(variant: str, t: Translator) -> str:
    """/rules [variant]."""
    return reader_of(variant).rules_text(variant, t)


def lobby_text(table: Table, t: Translator, flagged: frozenset[int] = frozenset()) -> str:
    """The lobby message (edited as people join); ``flagged`` users left matches repeatedly."""
    family = reader_of(table.variant)
    head = f"🐐 <b>{escape(family.title(table.variant, t))}</b> — " + t("gathering players")
    lines = [break_after(head, " — ")]
    lines.append(escape(options_line(table, t)))
    if table.tournament is not None:
        lines.insert(
            0,
            "🏆 "
            + t(
                "Tournament · round {n} · table {table}",
                n=table.tournament.round_no,
                table=table.tournament.table_no,
            ),
        )
    for seat, player in enumerate(table.seats):
        name = seat_name(table, seat, t)
        if player is None and table.reserved is not None and table.status is TableStatus.LOBBY:
            name = _awaited(table, seat, t)
        if player is not None and player.user_id in flagged:
            name += " ⚠️ " + t("(leaves matches: a cowardly kozel)")
        lines.append(f"{seat + 1}. {name}")
    if len(table.seats) == 2 or table.options.get("mode") == "self":
        lines.append(t("Each for self"))
    elif table.options.get("seating") == "ordered":
        lines.append(t("Pairs: 1+3 against 2+4"))
    else:
        lines.append(t("Pairs: drawn at random when the game starts"))
    if table.status is TableStatus.LOBBY and table.reserved is not None:
        lines.append(
            t(
                "Each player drawn here takes their seat with the button in my private "
                "message (or the one below); the match starts when all have come, or "
                "in 3 minutes with computers for the rest."
            )
        )
    elif table.status is TableStatus.LOBBY:
        lines.append(t("Join with the button or /join."))
        lines.append(t("The creator may start with bots and change the settings (⚙)."))
    elif table.closed_reason == "expired":
        lines.append(
            t("The table closed: nobody started the game in time. /newgame opens another.")
        )
    elif table.status is TableStatus.STOPPED:
        lines.append(t("The game was stopped."))
    else:
        lines.append(t("The game has started."))
    # Fair play: the secret is sealed before anyone joins (whole behind the 🔒 button).
    fair = fair_play_line(table, t)
    if fair is not None:
        lines.append(fair)
    return "\n".join(lines)


def _awaited(table: Table, seat: int, t: Translator) -> str:
    """A tournament lobby's empty seat: whom it waits for, by name (issue #30 item 12), or
    the computer drawn there."""
    assert table.reserved is not None
    if table.reserved[seat] is None:
        return t("computer")
    names = table.reserved_names
    if seat < len(names) and names[seat]:
        return "⏳ " + t("waiting for {name}", name=escape(names[seat]))
    return t("waiting for someone drawn here")  # a table opened before names were kept


def lobby_keyboard(table: Table, t: Translator) -> Keyboard:
    """Join / leave / start with bots, while the lobby is open."""
    if table.status is not TableStatus.LOBBY:
        return ()
    gid = table.game_id
    if table.reserved is not None:  # a tournament's table: its seats and options are set
        return (
            (Button(t("Take a seat"), LobbyButton(gid, "join").pack()),),
            *seal_keyboard(table, t),
        )
    family = reader_of(table.variant)
    settings = [Button("🎲 " + family.title(table.variant, t), OptionButton(gid, VARIANT).pack())]
    settings += [
        Button("⚙ " + label, OptionButton(gid, key).pack())
        for key, label in option_labels(table, t).items()
    ]
    rows = [
        (
            Button(t("Take a seat"), LobbyButton(gid, "join").pack()),
            Button(t("Leave"), LobbyButton(gid, "leave").pack()),
        ),
        (Button(t("Start with bots"), LobbyButton(gid, "start").pack()),),
    ]
    rows += [tuple(settings[i : i + 2]) for i in range(0, len(settings), 2)]
    return (*rows, *seal_keyboard(table, t))


# -- table (group) -----------------------------------------------------------------------


def table_error_text(code: str, t: Translator) -> str:
    """A short answer for a refused table operation."""
    texts = {
        "no_game": t("There is no game here. Start one with /newgame."),
        "game_running": t("A game is already running here."),
        "not_lobby": t("The game has already started."),
        "seated": t("You already have a seat."),
        "full": t("All seats are taken."),
        "not_seated": t("You are not playing in this game."),
        "not_creator": t("Only the game's creator can do that."),
        "stale": t("This button is out of date."),
        "finished": t("That game is over."),
        "not_allowed": t("Only the game's creator or a chat admin can do that."),
        "stop_running": t(
            "A running match is stopped by a chat admin, or by a vote of the "
            "players at the table (/stop)."
        ),
        "elsewhere": t("You already sit at another table. One table at a time."),
        "no_free_seat": t("Every seat is taken by a person."),
        "not_away": t("You are at the table already."),
        "away": t("A computer plays your seat: press “I'm here” first."),
        "reserved": t("This is a tournament table: only the players drawn to it sit here."),
        "no_consent": t(
            "A tournament table stops only if both sides agree, and a computer "
            "cannot: play on, the round clock decides."
        ),
        "last_at_table": t(
            "You are the last person at this tournament table: it plays on until the round "
            "clock decides it (the timer moves for you if you stop)."
        ),
    }
    return texts.get(code, t("That is not possible now."))


def _shorten(text: str, limit: int = 40) -> str:
    """Echo at most ``limit`` characters of what someone typed (a reply must fit Telegram)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def option_error_text(error: OptionError, t: Translator) -> str:
    """Why ``/newgame KEY=VALUE`` was refused."""
    return t(
        "Unknown option or value: {key}={value}. Allowed: {allowed}",
        key=escape(_shorten(error.key)),
        value=escape(_shorten(error.value)),
        allowed=escape(error.allowed),
    )


# -- leaderboard and help ----------------------------------------------------------------


def leaderboard_text(rows: list[LeaderRow], title: str | None, t: Translator) -> str:
    """The chat's leaderboard: matches played and won per person."""
    head = "🏆 " + (escape(title) if title else t("Leaderboard"))
    if not rows:
        return head + "\n" + t("No finished matches yet.")
    lines = [head]
    for place, row in enumerate(rows, start=1):
        rate = round(100 * row.won / row.played) if row.played else 0
        lines.append(
            f"{place}. {escape(row.name)} — "
            + t.n("{count} match", "{count} matches", row.played)
            + ", "
            + t.n("{count} win", "{count} wins", row.won)
            + f" ({rate}%)"
        )
    return "\n".join(lines)


GROUP_COMMANDS = (
    "newgame",
    "join",
    "leave",
    "seed",
    "hand",
    "table",
    "stop",
    "top",
    "stats",
    "history",
    "tournament",
    "pair",
    "notify",
    "settings",
    "rules",
    "language",
    "help",
)
"""The commands that work in a group (its command menu and /help there)."""
PRIVATE_COMMANDS = ("play", "hand", "stop", "stats", "top", "rules", "language", "help")
"""The commands that work in the bot's private chat."""


def command_descriptions(t: Translator) -> dict[str, str]:
    """Each command in a few words (the command menu; /help adds details)."""
    return {
        "newgame": t("open a table"),
        "join": t("take a seat"),
        "leave": t("leave the table"),
        "seed": t("add a word to the shuffle"),
        "hand": t("send your cards again"),
        "table": t("show the table again"),
        "stop": t("end the game"),
        "top": t("leaderboard"),
        "stats": t("your stats"),
        "history": t("the last matches"),
        "tournament": t("a tournament: register, standings"),
        "pair": t("enter a pairs tournament with a partner"),
        "notify": t("tell me privately when a game opens here"),
        "settings": t("the chat's defaults"),
        "play": t("play against the computer"),
        "rules": t("the rules"),
        "language": t("language"),
        "help": t("help"),
    }


def rating_changes_text(changes: list[RatingChange], table: Table, t: Translator) -> str:
    """The lines under a match result: what the rating is (a newcomer's is 1000), then each
    person's new rating and how the match moved it, one person a line (a phone's width)."""
    names = {p.user_id: p.name for _s, p in table.humans}
    lines = ["📈 " + t("Rating (a newcomer has {base}):", base=rating_label(DISPLAY_BASE))]
    for change in changes:
        name = escape(names.get(change.user_id, "?"))
        lines.append(f"{figure(name, rating_label(change.after))} ({signed(change.delta)})")
    return "\n".join(lines)


def help_text(t: Translator, private: bool = False, *, heading: bool = True) -> str:
    """/help: the commands that work where it is asked (``heading``: under the bot's name,
    which the private welcome already says)."""
    variants = "|".join(TABLE_PRESETS)
    details = {
        "newgame": t(
            "open a table: /newgame VARIANT KEY=VALUE… (the lobby's buttons change them too)"
        ),
        "leave": t("leave the table (a bot takes over during a match)"),
        "tournament": t(
            "a tournament (admins): /tournament VARIANT format=rotating|pairs "
            "rounds=N round_time=MIN; alone: the standings; /tournament stop"
        ),
        "pair": t("reply /pair to your partner's message to enter a pairs tournament"),
        "seed": t(
            "/seed WORD in the lobby: your word goes into the players' seed that every "
            "shuffle mixes with the sealed secret (fair play)"
        ),
        "table": t("show the table again, at the bottom of the chat"),
        "stop": (
            t("end your match against the computer")
            if private
            else t(
                "end the game: an admin at once, the players at the table by vote (the "
                "creator closes a lobby)"
            )
        ),
        "top": (
            t("the leaderboard of all public groups: /top [VARIANT]; ratings start at 1000")
            if private
            else t(
                "this group's leaderboard, of the variant last played here: /top [VARIANT]; "
                "/top global: all public groups; ratings start at 1000"
            )
        ),
        "stats": (
            t("your stats")
            if private
            else t("your stats, or someone's: reply to their message with /stats")
        ),
        "settings": t("the chat's defaults (admins change them)"),
        "play": t("a match against the computer: /play [VARIANT]"),
        "language": t("ru, uk or en"),
        "rules": t("the rules: /rules [{variants}]", variants=variants),
    }
    names = PRIVATE_COMMANDS if private else GROUP_COMMANDS
    short = command_descriptions(t)
    lines = ["🐐 <b>KozelBot</b> — " + t("Kozel for group chats.")] if heading else []
    lines += [
        f"/{name} — " + escape(details.get(name, short[name])) for name in names if name != "help"
    ]
    if private:
        lines.append(t("In a group, /help lists the group's commands."))
    else:
        lines.append(t("Open a private chat with me first: that is where your cards arrive."))
    return "\n".join(lines)
