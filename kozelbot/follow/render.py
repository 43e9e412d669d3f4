"""What players of the follow-suit family see: table, hand, results and rules, from views.

Hands and tables are rendered only from ``view_for(seat)`` (or the public ``view_for(None)``),
never from the full state, so no text can leak a card its reader may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from kozelbot.callbacks import PlayButton, RedealButton
from kozelbot.cards import Card, Suit
from kozelbot.follow.state import (
    AskRedeal,
    CardNotInHand,
    KeepHand,
    MatchState,
    MustFollow,
    NotYourTurn,
    Outcome,
    Phase,
    PlayCard,
    RedealNotAllowed,
    View,
    WrongPhase,
)
from kozelbot.game import DealScored, GameError, MatchOver
from kozelbot.i18n import Translator
from kozelbot.table import Table, TableStatus
from kozelbot.texts import (
    NOT_NOW,
    ROW_WIDTH,
    SUIT_ORDER,
    Button,
    Keyboard,
    card_label,
    cards_label,
    eyes,
    pair_name,
    seat_name,
)

FACE_DOWN = "🂠"
"""A card played face down (an opening's blind trick)."""


def sort_hand(hand: tuple[Card, ...], view: View) -> list[Card]:
    """Trumps first (strongest first), then the plain suits, each strongest first."""
    table = view.strength
    return sorted(
        hand,
        key=lambda c: (
            0 if table.is_trump(c) else 1 + SUIT_ORDER.index(c.suit),
            -table.strength[c],
        ),
    )


def variant_title(variant: str, t: Translator) -> str:
    """The game's name."""
    titles = {
        "hvalenyi": t("Khvalyony kozel"),
        "kryuk": t("Kozel with the Hook"),
        "sixes": t("Kozel on sixes"),
        "belka": t("Belka"),
    }
    return titles.get(variant, variant)


def option_label(key: str, value: Any, t: Translator) -> str:
    """One table option in words, for the lobby's line and its ⚙ buttons."""
    on = bool(value)
    labels: dict[str, str] = {
        "deck": t("Deck {n}", n=value),
        "players": t("{n} players", n=value),
        "six_clubs": t("6♣ top trump") if value == "top" else t("6♣ ordinary"),
        "lyusya": t("Lyusya: win") if value == "win" else t("Lyusya: zero"),
        "seating": t("Seats: random") if value == "random" else t("Seats: join order"),
        "move_time": t("move {s} s", s=value) if value else t("no move timer"),
        "no_shamok": t("No shamok") if on else t("7♣ shamok"),
        "ace_discard_ban": t("Ace discard ban: on") if on else t("Ace discard ban: off"),
        "royal": t("Royal kozel: on") if on else t("Royal kozel: off"),
    }
    return labels.get(key, f"{key}={value}")


def option_labels(variant: str, options: Mapping[str, Any], t: Translator) -> dict[str, str]:
    """Each table option in words, in the preset's order (six_clubs only with the 36-card
    deck, which has 6♣; seating only with four players)."""
    from kozelbot.follow.presets import PRESETS

    labels = {}
    for key in PRESETS[variant].keys:
        if key == "six_clubs" and options.get("deck") != 36:
            continue
        if key == "seating" and options.get("players", 4) == 2:
            continue
        labels[key] = option_label(key, options.get(key), t)
    return labels


def _head(view: View, variant: str, t: Translator) -> str:
    trump = view.trump_suit.symbol if view.trump_suit else "—"
    return _deal_head(variant, view.deal_no, trump, t)


def _deal_head(variant: str, deal_no: int, trump: str, t: Translator) -> str:
    """The first line of a table message: the deal, the trump suit, the variant."""
    return (
        "🐐 " + t("Deal {n}", n=deal_no + 1) + " · " + t("trump {suit}", suit=trump)
        + f" · {escape(variant_title(variant, t))}"
    )  # fmt: skip


def table_text(table: Table, state: MatchState, t: Translator) -> str:
    """The group's table message for the current deal."""
    view = state.view_for(None)
    head = _head(view, table.variant, t)
    if view.multiplier > 1:
        head += " · " + t("×{m} after eggs", m=view.multiplier)
    if view.redeals:
        head += " · " + t("redeal {n}", n=view.redeals)
    lines = [head]
    for side in (0, 1):
        lines.append(f"{pair_name(table, side, t)}: {eyes(view.score[side], t)}")
    order = " → ".join(seat_name(table, seat, t) for seat in range(len(table.seats)))
    lines.append(t("Order of play: {seats}", seats=order))
    if view.seat_suits is not None:
        owners = " · ".join(
            f"{seat_name(table, s, t)} {suit.symbol}" for s, suit in enumerate(view.seat_suits)
        )
        lines.append(t("Seat suits: {owners}", owners=owners))
    if view.obligation is not None and view.phase in (Phase.REDEAL, Phase.PLAY):
        lines.append(t("On obligation: {pair}", pair=pair_name(table, view.obligation, t)))
    if view.talon:
        lines.append(t("Talon: {n} cards", n=view.talon))
    if view.phase is Phase.REDEAL:
        waiting = ", ".join(seat_name(table, s, t) for s in view.to_act)
        lines.append(t("Redeal offered to: {names}", names=waiting))
    if view.phase is Phase.PLAY:
        on_table = " · ".join(
            f"{seat_name(table, s, t)} {card_label(c, t) if c is not None else FACE_DOWN}"
            for s, c in view.trick
        )
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
    trump = Suit(result.details["trump"]).symbol if result.details.get("trump") else "—"
    lines = [_deal_head(table.variant, result.deal_no, trump, t)]
    for side in (0, 1):
        lines.append(f"{pair_name(table, side, t)}: {eyes(result.score[side], t)}")
    lines.append(t("Points this deal: {a} : {b}", a=result.points[0], b=result.points[1]))
    lines.append(t("This deal is over."))
    return "\n".join(lines)


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's result, posted as a new message."""
    n = result.deal_no + 1
    a, b = result.points
    if result.outcome == Outcome.EGGS:
        body = t("Deal {n}: eggs, {a} : {b}. The next deal counts ×{m}.", n=n, a=a, b=b,
                 m=result.multiplier + 1)  # fmt: skip
    else:
        assert result.side is not None
        winners = pair_name(table, result.side, t)
        gained = eyes(result.award[result.side], t)
        if result.outcome == Outcome.CATCH:
            body = t("Deal {n}: the 6♣ caught the Q♣! {pair} +{eyes}.", n=n, pair=winners,
                     eyes=gained)  # fmt: skip
        elif result.outcome == Outcome.LYUSYA:
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


def match_over_text(table: Table, over: MatchOver, t: Translator) -> str:
    """The match result."""
    winner, score = over.winner, over.score
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
    if view.partner is not None:
        lines.append(t("Your partner: {name}", name=seat_name(table, view.partner, t)))
    if view.phase is Phase.REDEAL:
        if view.can_redeal:
            lines.append(t("Your hand has under 14 points: ask for a redeal or play on?"))
        else:
            lines.append(t("Waiting for redeal decisions…"))
        return "\n".join(lines)
    if view.to_act == (seat,):
        on_table = " ".join(card_label(c, t) if c else FACE_DOWN for _, c in view.trick)
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
        key = 0 if view.strength.is_trump(card) else 1 + SUIT_ORDER.index(card.suit)
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


def done_text(action: Any, t: Translator) -> str:
    """The answer to an accepted press."""
    if isinstance(action, PlayCard):
        return t("You played {card}.", card=card_label(action.card, t))
    if isinstance(action, AskRedeal):
        return t("Redeal!")
    if isinstance(action, KeepHand):
        return t("You play on.")
    return t("Done.")


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


def rules_text(variant: str, t: Translator) -> str:
    """/rules [variant]: the chosen variant in brief."""
    texts = {"hvalenyi": _rules_hvalenyi}
    return texts.get(variant, _rules_hvalenyi)(t)


def _rules_hvalenyi(t: Translator) -> str:
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
