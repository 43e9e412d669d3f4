"""What players see outside a game's own table: lobby, errors, leaderboard, help.

Each family renders its own table, hands and results (``Family`` in ``kozelbot.game``); this
module holds what is the same for every family, and re-exports the shared small pieces.
"""

from __future__ import annotations

from html import escape

from kozelbot.callbacks import LobbyButton, OptionButton
from kozelbot.games import TABLE_PRESETS, texts_of
from kozelbot.i18n import Translator
from kozelbot.options import OptionError
from kozelbot.records import LeaderRow
from kozelbot.table import Table, TableStatus
from kozelbot.texts import (
    NOT_NOW,
    Button,
    Keyboard,
    card_label,
    cards_label,
    mention,
    seat_name,
)

__all__ = [
    "NOT_NOW", "VARIANT", "Button", "Keyboard", "card_label", "cards_label", "help_text",
    "leaderboard_text", "lobby_keyboard", "lobby_text", "mention", "option_error_text",
    "option_labels", "options_line", "rules_text", "seat_name", "table_error_text",
]  # fmt: skip

VARIANT = "variant"
"""The lobby's settings key that cycles the preset itself."""


def option_labels(table: Table, t: Translator) -> dict[str, str]:
    """Each table option in words, as the table's family words them."""
    return texts_of(table.variant).option_labels(table.variant, table.options, t)


def options_line(table: Table, t: Translator) -> str:
    """The lobby's one-line summary of the table options."""
    labels = option_labels(table, t)
    return " · ".join(v for k, v in labels.items() if k != "seating")


def rules_text(variant: str, t: Translator) -> str:
    """/rules [variant]."""
    return texts_of(variant).rules_text(variant, t)


def lobby_text(table: Table, t: Translator, flagged: frozenset[int] = frozenset()) -> str:
    """The lobby message (edited as people join); ``flagged`` users left matches repeatedly."""
    family = texts_of(table.variant)
    lines = [f"🐐 <b>{escape(family.title(table.variant, t))}</b> — " + t("gathering players")]
    lines.append(escape(options_line(table, t)))
    for seat, player in enumerate(table.seats):
        name = seat_name(table, seat, t)
        if player is not None and player.user_id in flagged:
            name += " ⚠️ " + t("(leaves matches: a cowardly kozel)")
        lines.append(f"{seat + 1}. {name}")
    if len(table.seats) == 2 or table.options.get("mode") == "self":
        lines.append(t("Each for self"))
    elif table.options.get("seating") == "ordered":
        lines.append(t("Pairs: 1+3 against 2+4"))
    else:
        lines.append(t("Pairs: drawn at random when the game starts"))
    if table.status is TableStatus.LOBBY:
        lines.append(t("Join with the button or /join; the creator may start with bots "
                       "and change the settings (⚙)."))  # fmt: skip
    elif table.closed_reason == "expired":
        lines.append(
            t("The table closed: nobody started the game in time. /newgame opens another.")
        )
    elif table.status is TableStatus.STOPPED:
        lines.append(t("The game was stopped."))
    else:
        lines.append(t("The game has started."))
    return "\n".join(lines)


def lobby_keyboard(table: Table, t: Translator) -> Keyboard:
    """Join / leave / start with bots, while the lobby is open."""
    if table.status is not TableStatus.LOBBY:
        return ()
    gid = table.game_id
    family = texts_of(table.variant)
    settings = [Button("🎲 " + family.title(table.variant, t), OptionButton(gid, VARIANT).pack())]
    settings += [Button("⚙ " + label, OptionButton(gid, key).pack())
                 for key, label in option_labels(table, t).items()]  # fmt: skip
    rows = [
        (
            Button(t("Take a seat"), LobbyButton(gid, "join").pack()),
            Button(t("Leave"), LobbyButton(gid, "leave").pack()),
        ),
        (Button(t("Start with bots"), LobbyButton(gid, "start").pack()),),
    ]
    rows += [tuple(settings[i : i + 2]) for i in range(0, len(settings), 2)]
    return tuple(rows)


# -- table (group) -----------------------------------------------------------------------


def table_error_text(code: str, t: Translator) -> str:
    """A short answer for a refused table operation."""
    texts = {
        "no_game": t("There is no game in this chat. Start one with /newgame."),
        "game_running": t("A game is already running in this chat."),
        "not_lobby": t("The game has already started."),
        "seated": t("You already have a seat."),
        "full": t("All seats are taken."),
        "not_seated": t("You are not playing in this game."),
        "not_creator": t("Only the game's creator can do that."),
        "stale": t("This button is out of date."),
        "finished": t("That game is over."),
        "not_allowed": t("Only the game's creator or a chat admin can do that."),
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


def help_text(t: Translator) -> str:
    """/help."""
    return "\n".join(
        [
            "🐐 <b>KozelBot</b> — " + t("Kozel for group chats."),
            "/newgame — " + t("open a table (options: deck=36|32 six_clubs=top|ordinary "
                              "lyusya=win|zero seating=random|ordered move_time=SECONDS)"),
            "/newgame " + " | ".join(TABLE_PRESETS) + " — " + t(
                "another variant; the lobby's 🎲 button switches it too"),
            "/join — " + t("take a seat"),
            "/leave — " + t("leave the table (a bot takes over during a match)"),
            "/hand — " + t("send your cards again"),
            "/table — " + t("show the table again, at the bottom of the chat"),
            "/stop — " + t("end the game (creator or admin)"),
            "/top — " + t("the chat's leaderboard"),
            "/language — " + t("ru, uk or en"),
            "/rules [" + "|".join(TABLE_PRESETS) + "] — " + t("the rules"),
            t("Open a private chat with me first: that is where your cards arrive."),
        ]
    )  # fmt: skip
