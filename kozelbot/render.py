"""What players see: message texts (Telegram HTML) and keyboards, as functions of state.

Nothing here touches Telegram: keyboards are rows of ``Button`` data that the handlers turn
into inline keyboards. Hands are rendered only from ``view_for(seat)``, so no text can leak a
card its reader may not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from kozelbot.callbacks import LobbyButton, OptionButton, PlayButton, RedealButton
from kozelbot.cards import Card, Rank, Suit
from kozelbot.engine import (
    CardNotInHand,
    DealScored,
    GameError,
    MatchState,
    MustFollow,
    NotYourTurn,
    Outcome,
    Phase,
    RedealNotAllowed,
    View,
    WrongPhase,
)
from kozelbot.i18n import Translator
from kozelbot.records import LeaderRow
from kozelbot.table import Table, TableStatus
from kozelbot.variants import OptionError, preset


@dataclass(frozen=True, slots=True)
class Button:
    """An inline button: callback ``data`` or a ``url``."""

    text: str
    data: str | None = None
    url: str | None = None


Keyboard = tuple[tuple[Button, ...], ...]

SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
ROW_WIDTH = 5
NOT_NOW = "·"
"""Marks a card that may not be played now (UX.md)."""


# -- small pieces ------------------------------------------------------------------------


def rank_label(rank: Rank, t: Translator) -> str:
    """``Д`` in Russian, ``Q`` in English; numbers stay numbers."""
    if rank is Rank.JACK:
        return t.p("rank", "J")
    if rank is Rank.QUEEN:
        return t.p("rank", "Q")
    if rank is Rank.KING:
        return t.p("rank", "K")
    if rank is Rank.ACE:
        return t.p("rank", "A")
    return rank.value


def card_label(card: Card, t: Translator) -> str:
    """A card for people: rank + suit symbol (``10♥``, ``Д♣``)."""
    return f"{rank_label(card.rank, t)}{card.suit.symbol}"


def cards_label(cards: tuple[Card, ...] | list[Card], t: Translator) -> str:
    """Several cards, space-separated."""
    return " ".join(card_label(card, t) for card in cards)


def seat_name(table: Table, seat: int, t: Translator) -> str:
    """The HTML-escaped name of whoever holds ``seat``."""
    player = table.seats[seat]
    if player is None:
        return "—"
    if player.is_computer:
        return escape(t("🤖 Bot {n}", n=seat + 1))
    return escape(player.name)


def mention(user_id: int, name: str) -> str:
    """A name that links to the user (HTML)."""
    return f'<a href="tg://user?id={user_id}">{escape(name)}</a>'


def pair_name(table: Table, side: int, t: Translator) -> str:
    """The two names of a side (seats 0+2 or 1+3)."""
    return f"{seat_name(table, side, t)}+{seat_name(table, side + 2, t)}"


def eyes(count: int, t: Translator) -> str:
    """``4 глаза`` / ``4 eyes``."""
    return t.n("{count} eye", "{count} eyes", count)


def sort_hand(hand: tuple[Card, ...], view: View) -> list[Card]:
    """Trumps first (strongest first), then the plain suits, each strongest first."""
    rules = view.rules
    return sorted(
        hand,
        key=lambda c: (
            0 if rules.is_trump(c) else 1 + SUIT_ORDER.index(c.suit),
            -rules.strength[c],
        ),
    )


def variant_title(variant: str, t: Translator) -> str:
    """The game's name."""
    titles = {"hvalenyi": t("Khvalyony kozel")}
    return titles.get(variant, variant)


def option_labels(table: Table, t: Translator) -> dict[str, str]:
    """Each table option in words (six_clubs only with the 36-card deck, which has 6♣)."""
    o = table.options
    labels = {"deck": t("Deck {n}", n=o.get("deck", 36))}
    if o.get("deck") == 36:
        labels["six_clubs"] = t("6♣ top trump") if o.get("six_clubs") == "top" else t(
            "6♣ ordinary")  # fmt: skip
    labels["lyusya"] = t("Lyusya: win") if o.get("lyusya") == "win" else t("Lyusya: zero")
    labels["seating"] = t("Seats: random") if o.get("seating") == "random" else t(
        "Seats: join order")  # fmt: skip
    move_time = int(o.get("move_time", 0))
    labels["move_time"] = t("move {s} s", s=move_time) if move_time else t("no move timer")
    return labels


def options_line(table: Table, t: Translator) -> str:
    """The lobby's one-line summary of the table options."""
    labels = option_labels(table, t)
    return " · ".join(v for k, v in labels.items() if k != "seating")


# -- lobby -------------------------------------------------------------------------------


def lobby_text(table: Table, t: Translator, flagged: frozenset[int] = frozenset()) -> str:
    """The lobby message (edited as people join); ``flagged`` users left matches repeatedly."""
    lines = [f"🐐 <b>{escape(variant_title(table.variant, t))}</b> — " + t("gathering players")]
    lines.append(escape(options_line(table, t)))
    for seat, player in enumerate(table.seats):
        name = seat_name(table, seat, t)
        if player is not None and player.user_id in flagged:
            name += " ⚠️ " + t("(leaves matches: a cowardly kozel)")
        lines.append(f"{seat + 1}. {name}")
    if table.options.get("seating") == "ordered":
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
    settings = [Button("⚙ " + label, OptionButton(gid, key).pack())
                for key, label in option_labels(table, t).items()]  # fmt: skip
    return (
        (
            Button(t("Take a seat"), LobbyButton(gid, "join").pack()),
            Button(t("Leave"), LobbyButton(gid, "leave").pack()),
        ),
        (Button(t("Start with bots"), LobbyButton(gid, "start").pack()),),
        tuple(settings[:2]),
        tuple(settings[2:]),
    )


# -- table (group) -----------------------------------------------------------------------


def table_text(table: Table, state: MatchState, t: Translator) -> str:
    """The group's table message for the current deal."""
    view = state.view_for(None)
    trump = view.trump_suit.symbol if view.trump_suit else "—"
    head = "🐐 " + t("Deal {n}", n=view.deal_no + 1) + " · " + t("trump {suit}", suit=trump)
    if view.multiplier > 1:
        head += " · " + t("×{m} after eggs", m=view.multiplier)
    if view.redeals:
        head += " · " + t("redeal {n}", n=view.redeals)
    lines = [head]
    for side in (0, 1):
        lines.append(f"{pair_name(table, side, t)}: {eyes(view.score[side], t)}")
    order = " → ".join(seat_name(table, seat, t) for seat in range(len(table.seats)))
    lines.append(t("Order of play: {seats}", seats=order))
    if view.first_leader is not None and view.phase in (Phase.REDEAL, Phase.PLAY):
        lines.append(t("On obligation: {pair}", pair=pair_name(table, view.first_leader % 2, t)))
    if view.phase is Phase.REDEAL:
        waiting = ", ".join(seat_name(table, s, t) for s in view.to_act)
        lines.append(t("Redeal offered to: {names}", names=waiting))
    if view.phase is Phase.PLAY:
        on_table = " · ".join(f"{seat_name(table, s, t)} {card_label(c, t)}" for s, c in view.trick)
        lines.append(t("On the table: {cards}", cards=on_table or "—"))
        turn = seat_name(table, view.to_act[0], t)
        move_time = int(table.options.get("move_time", 0))
        timer = f" ⏳ {move_time} " + t("s") if move_time else ""
        lines.append(t("To play: {name}", name=f"<b>{turn}</b>") + timer)
    if view.last_trick is not None:
        last = view.last_trick
        lines.append(
            t(
                "Last trick: {name} ({cards}) +{points}",
                name=seat_name(table, last.winner, t),
                cards=cards_label([c for _, c in last.cards], t),
                points=last.points,
            )
        )
    lines.append(t("Points this deal: {a} : {b}", a=view.points[0], b=view.points[1]))
    late = [f"{seat_name(table, s, t)} ×{n}" for s, n in enumerate(table.timeouts) if n]
    if late:
        lines.append(
            "⌛ " + t("Played by the computer on time-out: {names}", names=", ".join(late))
        )
    if table.status is TableStatus.STOPPED:
        lines.append(t("The game was stopped."))
    return "\n".join(lines)


def final_table_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's table message once the deal is over (the result follows as a new message)."""
    trump = table_trump(table)
    lines = ["🐐 " + t("Deal {n}", n=result.deal_no + 1) + " · " + t("trump {suit}", suit=trump)]
    for side in (0, 1):
        lines.append(f"{pair_name(table, side, t)}: {eyes(result.score[side], t)}")
    lines.append(t("Points this deal: {a} : {b}", a=result.points[0], b=result.points[1]))
    lines.append(t("This deal is over."))
    return "\n".join(lines)


def table_trump(table: Table) -> str:
    """The trump suit's symbol of a table's variant (— when there is none)."""
    suit = preset(table.variant).build(preset(table.variant).options_from(table.options)).trump_suit
    return suit.symbol if suit else "—"


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's result, posted as a new message."""
    n = result.deal_no + 1
    a, b = result.points
    if result.outcome is Outcome.EGGS:
        body = t("Deal {n}: eggs, {a} : {b}. The next deal counts ×{m}.", n=n, a=a, b=b,
                 m=result.multiplier + 1)  # fmt: skip
    else:
        assert result.side is not None
        winners = pair_name(table, result.side, t)
        gained = eyes(result.award[result.side], t)
        if result.outcome is Outcome.CATCH:
            body = t("Deal {n}: the 6♣ caught the Q♣! {pair} +{eyes}.", n=n, pair=winners,
                     eyes=gained)  # fmt: skip
        elif result.outcome is Outcome.LYUSYA:
            body = t("Deal {n}: Lyusya — {pair} took every trick, +{eyes}.", n=n, pair=winners,
                     eyes=gained)  # fmt: skip
            if result.zeroed is not None:
                body += " " + t(
                    "{pair} lose all their eyes.", pair=pair_name(table, result.zeroed, t)
                )
        else:
            body = t("Deal {n}: {pair} {a} : {b} → +{eyes}.", n=n, pair=winners, a=a, b=b,
                     eyes=gained)  # fmt: skip
        if result.multiplier > 1:
            body += " " + t("(×{m})", m=result.multiplier)
    return body + " " + t("Score {a} : {b}.", a=result.score[0], b=result.score[1])


def match_over_text(table: Table, winner: int, score: tuple[int, int], t: Translator) -> str:
    """The match result."""
    return "🏆 " + t(
        "{winners} won {a} : {b}. {losers} are the kozly 🐐",
        winners=pair_name(table, winner, t),
        losers=pair_name(table, 1 - winner, t),
        a=score[winner],
        b=score[1 - winner],
    )


# -- hand (private) ----------------------------------------------------------------------


def hand_text(table: Table, state: MatchState, seat: int, t: Translator) -> str:
    """The header of a private hand message.

    Quiet unless it is your turn: the group's table says whose turn it is, so another
    player's card never forces an edit of your hand (UX.md; every edit counts against the
    bot's flood limits). It changes when your cards change or your turn starts or ends."""
    view = state.view_for(seat)
    trump = view.trump_suit.symbol if view.trump_suit else "—"
    where = f" · {escape(table.chat_title)}" if table.chat_title else ""
    lines = [
        f"{escape(variant_title(table.variant, t))}{where} · "
        + t("deal {n}", n=view.deal_no + 1)
        + " · "
        + t("trump {suit}", suit=trump)
    ]
    if table.status is not TableStatus.PLAYING or view.phase not in (Phase.REDEAL, Phase.PLAY):
        lines.append(t("This deal is over."))
        return "\n".join(lines)
    partner = seat_name(table, (seat + 2) % 4, t)
    lines.append(t("Your partner: {name}", name=partner))
    if view.phase is Phase.REDEAL:
        if view.can_redeal:
            lines.append(t("Your hand has under 14 points: ask for a redeal or play on?"))
        else:
            lines.append(t("Waiting for redeal decisions…"))
        return "\n".join(lines)
    if view.to_act == (seat,):
        on_table = cards_label([c for _, c in view.trick], t)
        lines.append(
            "👉 " + (t("Your turn — on the table: {cards}.", cards=on_table) if view.trick
                     else t("Your lead."))
        )  # fmt: skip
    return "\n".join(lines)


def hand_keyboard(table: Table, state: MatchState, seat: int, t: Translator) -> Keyboard:
    """One button per card; cards not playable on your turn carry a faint mark."""
    view = state.view_for(seat)
    if table.status is not TableStatus.PLAYING or view.phase not in (Phase.REDEAL, Phase.PLAY):
        return ()
    my_turn = view.to_act == (seat,) and view.phase is Phase.PLAY
    rows: list[tuple[Button, ...]] = []
    group: list[Button] = []
    last_key: int | None = None
    for card in sort_hand(view.hand, view):
        key = 0 if view.rules.is_trump(card) else 1 + SUIT_ORDER.index(card.suit)
        if last_key is not None and (key != last_key or len(group) == ROW_WIDTH):
            rows.append(tuple(group))
            group = []
        last_key = key
        label = card_label(card, t)
        if my_turn and card not in view.legal:
            label += NOT_NOW
        group.append(Button(label, PlayButton(table.game_id, view.deal_no, card).pack()))
    if group:
        rows.append(tuple(group))
    if view.can_redeal:
        rows.append(
            (
                Button("🔄 " + t("Redeal"), RedealButton(table.game_id, view.deal_no, True).pack()),
                Button(
                    "✋ " + t("Play on"), RedealButton(table.game_id, view.deal_no, False).pack()
                ),
            )
        )
    return tuple(rows)


# -- errors ------------------------------------------------------------------------------


def game_error_text(error: GameError, table: Table, t: Translator) -> str:
    """A short alert for a refused move (at most 200 characters)."""
    if isinstance(error, NotYourTurn):
        names = ", ".join(seat_name(table, s, t) for s in error.to_act)
        return t("It is {name}'s turn now.", name=names) if names else t("Not your turn.")
    if isinstance(error, MustFollow):
        legal = cards_label(error.legal, t)
        if error.led is None:
            return t("A trump was led — play a trump: {cards}", cards=legal)
        return t("Follow suit {suit}: {cards}", suit=error.led.symbol, cards=legal)
    if isinstance(error, CardNotInHand):
        return t("That card is no longer in your hand.")
    if isinstance(error, RedealNotAllowed):
        return t("No redeal is possible now.")
    if isinstance(error, WrongPhase):
        return t("Not possible right now.")
    return t("That move is not allowed.")


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
            "/join — " + t("take a seat"),
            "/leave — " + t("leave the table (a bot takes over during a match)"),
            "/hand — " + t("send your cards again"),
            "/table — " + t("show the table again, at the bottom of the chat"),
            "/stop — " + t("end the game (creator or admin)"),
            "/top — " + t("the chat's leaderboard"),
            "/language — " + t("ru, uk or en"),
            "/rules — " + t("the rules"),
            t("Open a private chat with me first: that is where your cards arrive."),
        ]
    )  # fmt: skip


def rules_text(t: Translator) -> str:
    """/rules: Khvalyony kozel in brief."""
    return "\n".join(
        [
            "<b>" + escape(t("Khvalyony kozel")) + "</b>",
            t("Four players, pairs sit opposite. 36 cards (9 each) or 32 (8 each)."),
            t("Trumps, high to low: 6♣ (shamok), the queens ♣♠♥♦, the jacks ♣♠♥♦, "
              "then diamonds A 10 K 9 8 7 6. In plain suits the ten beats the king."),
            t("The holder of the J♣ leads first. Follow the led suit; if a trump is led, play "
              "a trump. You never have to beat."),
            t("Points: A 11, 10 10, K 4, Q 3, J 2. 61–89 points → 2 eyes, 90+ → 4 eyes."),
            t("60:60 is eggs: no eyes, the next deal counts double (triple after two eggs…)."),
            t("6♣ and the opponents' Q♣ in one trick: the deal ends, the 6♣ pair gets 4 eyes."),
            t("All tricks (Lyusya): the match is won, or the losers' eyes go to zero."),
            t("A hand under 14 points may ask for a redeal before the first card."),
            t("The first pair to 12 eyes wins."),
        ]
    )  # fmt: skip
