"""Screens: every message the bot keeps about a game, as a pure function of what it shows.

A ``Screen`` is a message's text (HTML) and its keyboard (``kozelbot.core.texts.Button`` rows);
nothing here touches Telegram, so any front end — the Telegram presenter, a Mini App, a test —
renders a lobby, a table, a hand or a notice by calling the same function with the same table, state
and translator. Each family's own texts come through its ``kozelbot.core.protocol.Reader``
(``kozelbot.families.registry.reader_of``); this module adds what every family shares: the fair-play
seals and seeds, the rating lines, the waiting list, the notices. Which message a screen goes to,
and when, is the front end's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from kozelbot.core.callbacks import BackButton
from kozelbot.core.cards import Card
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import AnyState, DealScored, MatchOver
from kozelbot.core.records import RatingChange
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.texts import Button, Keyboard, mention
from kozelbot.families.registry import reader_of
from kozelbot.views.advice import analysis_row, hint_row
from kozelbot.views.general import lobby_keyboard, lobby_text, rating_changes_text
from kozelbot.views.seals import check_keyboard, seal_keyboard


@dataclass(frozen=True, slots=True)
class Screen:
    """What one message shows: HTML text and its buttons (none: ``()``)."""

    text: str
    keyboard: Keyboard = ()


# -- the group's messages --------------------------------------------------------------------


def lobby_screen(table: Table, t: Translator, flagged: frozenset[int] = frozenset()) -> Screen:
    """The lobby while people gather (``flagged``: people who left matches repeatedly)."""
    return Screen(lobby_text(table, t, flagged), lobby_keyboard(table, t))


def closed_lobby_screen(table: Table, t: Translator) -> Screen:
    """The lobby once its match has started: who sat down, and the 🔒 button with the
    match's seal and the players' contribution."""
    return Screen(lobby_text(table, t), seal_keyboard(table, t))


def table_screen(table: Table, state: AnyState, t: Translator) -> Screen:
    """The table of the deal the state shows: its turn (sealed, with who waits for the next
    deal), or its outcome once the match's last deal is scored."""
    family = reader_of(table.variant)
    deal_no = state.deal_shown
    result = state.last_result
    if state.over and result is not None and result.deal_no == deal_no:
        text = family.final_table_text(table, result, t)
    else:
        text = family.table_text(table, state, t)
        if table.waiting:
            names = ", ".join(escape(p.name) for p in table.waiting)
            text += "\n🪑 " + t("Next deal: {names}", names=names)
    # A stopped match has no result post: its table carries «🔑 Check the deals».
    stopped = table.status is TableStatus.STOPPED
    return Screen(text, check_keyboard(table, t) if stopped else ())


def final_table_screen(table: Table, result: DealScored, t: Translator) -> Screen:
    """A scored deal's table: its outcome instead of whose turn it was."""
    text = reader_of(table.variant).final_table_text(table, result, t)
    return Screen(text)


def deal_result_screen(table: Table, result: DealScored, t: Translator) -> Screen:
    """A deal's result post (no key: the whole check is the match's, at its end)."""
    text = reader_of(table.variant).result_text(table, result, t)
    return Screen(text)


def match_over_screen(
    table: Table, over: MatchOver, t: Translator, changes: list[RatingChange] | None = None
) -> Screen:
    """The match result post: who won, how the ratings moved (``changes``), and the
    «🔑 Check the deals» button (the secret, in the private answer: the match is over)."""
    text = reader_of(table.variant).match_over_text(table, over, t)
    if changes:
        text += "\n" + rating_changes_text(changes, table, t)
    return Screen(text, check_keyboard(table, t))


def table_moved_screen(t: Translator) -> Screen:
    """What an old table message says once /table sent it again below."""
    return Screen(t("⬇️ The table moved down."))


# -- a seat's private hand -------------------------------------------------------------------


def hand_screen(
    table: Table,
    state: AnyState,
    seat: int,
    t: Translator,
    selected: frozenset[Card] = frozenset(),
) -> Screen:
    """A seat's hand and its buttons (``selected``: the cards picked in games whose moves take
    several cards); for someone away, the button that takes the seat back."""
    player = table.seats[seat]
    if player is not None and player.away:
        text = t(
            "⏸ You missed two moves, so a computer plays for you. Press “I'm here” "
            "(or send /hand) to take your seat back."
        )
        return Screen(text, ((Button(t("🙋 I'm here"), BackButton(table.game_id).pack()),),))
    family = reader_of(table.variant)
    keyboard = family.hand_keyboard(table, state, seat, t, selected)
    hint = hint_row(table, state, seat, t)
    scored = state.last_result
    if hint:
        keyboard = (*keyboard, hint)
    elif scored is not None and scored.deal_no == state.deal_shown and not state.to_act():
        keyboard = (*keyboard, analysis_row(table.game_id, scored.deal_no, t))
    return Screen(family.hand_text(table, state, seat, t), keyboard)


def deal_over_screen(table: Table, deal_no: int, t: Translator) -> Screen:
    """What an old hand message says once its deal is over, with the 🔍 analysis of it."""
    return Screen(
        reader_of(table.variant).deal_over_text(deal_no, t),
        (analysis_row(table.game_id, deal_no, t),),
    )


def left_table_screen(t: Translator) -> Screen:
    """The hand of someone who left the running match, its buttons gone."""
    return Screen(t("You left the table; a bot plays for you."))


# -- notices ---------------------------------------------------------------------------------


def away_notice(table: Table, seat: int, t: Translator) -> Screen:
    """The place hears that a computer plays for someone who missed two moves."""
    player = table.seats[seat]
    name = player.name if player is not None else ""
    return Screen(
        t(
            "⏸ {name}: two moves missed. A computer plays the seat until the player "
            "is back; anyone not at the table may /join to take it from the next "
            "deal.",
            name=escape(name),
        )
    )


def take_over_notice(table: Table, seat: int, t: Translator) -> Screen:
    """The place hears that someone who waited sat down as the new deal was dealt."""
    player = table.seats[seat]
    name = player.name if player is not None else ""
    return Screen(t("🪑 {name} takes over a seat for this deal.", name=escape(name)))


def move_warning(table: Table, seconds: int, t: Translator) -> Screen:
    """A private reminder that half the move time has passed (naming the group); with
    ``seconds`` 0, that an untimed turn has waited a while."""
    text = t("⏰ Your move: {s} s left.", s=seconds) if seconds else t("⏰ Your move.")
    where = table.chat_title or ""
    if where and not table.private:
        text += " (" + escape(where) + ")"
    return Screen(text)


def open_private_notice(user_id: int, name: str, link: str, t: Translator) -> Screen:
    """Someone is asked in the group to open the private chat, through a deep ``link``."""
    text = t(
        "{name}, open a private chat with me to receive your cards.", name=mention(user_id, name)
    )
    return Screen(text, ((Button(t("Open the chat"), url=link),),))


def slow_down_notice(t: Translator) -> Screen:
    """Said once when a group's replies go over their share while its game is live."""
    return Screen(t("Too many commands here: I answer again in a minute, the table comes first."))


def deep_link(bot_username: str, payload: str) -> str:
    """The ``t.me`` link that opens the bot's private chat and sends ``/start payload``."""
    return f"https://t.me/{bot_username}?start={payload}"
