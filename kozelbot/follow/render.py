"""What players of the follow-suit family see: table, hand, results and rules, from views.

Hands and tables are rendered only from ``view_for(seat)`` (or the public ``view_for(None)``),
never from the full state, so no text can leak a card its reader may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from kozelbot.callbacks import ActButton, PlayButton, RedealButton
from kozelbot.cards import Card, Suit
from kozelbot.follow.rules import Rules
from kozelbot.follow.state import (
    IN_DEAL,
    AnswerOffer,
    AskRedeal,
    CallOpening,
    CardNotInHand,
    GiveTrump,
    HandoffNote,
    KeepHand,
    MatchState,
    MustFollow,
    NotAllowed,
    NotYourTurn,
    OfferHandoff,
    Outcome,
    Phase,
    PlayCard,
    RedealNotAllowed,
    ReturnCard,
    TrumpLeadBanned,
    View,
    Waiting,
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
    common_option_label,
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
    common = common_option_label(key, value, t)
    if common is not None:
        return common
    on = bool(value)
    labels: dict[str, str] = {
        "deck": t("Deck {n}", n=value),
        "six_clubs": t("6♣ top trump") if value == "top" else t("6♣ ordinary"),
        "lyusya": t("Lyusya: win") if value == "win" else t("Lyusya: zero"),
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


def units(scoring: str, count: int, t: Translator) -> str:
    """A score in the preset's unit: eyes, points (kryuk) or pairs on the board (sixes)."""
    if scoring == "points":
        return t.n("{count} point", "{count} points", count)
    if scoring == "pairs":
        return t.n("{count} pair", "{count} pairs", count)
    return eyes(count, t)


def _rules_of(table: Table) -> Rules:
    from kozelbot.follow.presets import PRESETS

    rules: Rules = PRESETS[table.variant].rules(table.options)
    return rules


def _score_line(table: Table, side: int, score: int, rules: Rules, t: Translator) -> str:
    """A side's match score; sixes draws its board of pairs (●○ to six)."""
    if rules.scoring == "pairs":
        board = "●" * min(score, rules.target) + "○" * max(rules.target - score, 0)
        return f"{pair_name(table, side, t)}: {board} ({score})"
    return f"{pair_name(table, side, t)}: {units(rules.scoring, score, t)}"


def table_text(table: Table, state: MatchState, t: Translator) -> str:
    """The group's table message for the current deal, from the public view."""
    view = state.view_for(None)
    rules = view.rules
    head = _head(view, table.variant, t)
    if view.multiplier > 1:
        head += " · " + t("×{m} after eggs", m=view.multiplier)
    if view.carry:
        head += " · " + t("+{amount} from eggs", amount=units(rules.scoring, view.carry, t))
    if view.redeals:
        head += " · " + t("redeal {n}", n=view.redeals)
    lines = [head]
    lines += [_score_line(table, side, view.score[side], rules, t) for side in (0, 1)]
    order = " → ".join(seat_name(table, seat, t) for seat in range(len(table.seats)))
    lines.append(t("Order of play: {seats}", seats=order))
    if view.seat_suits is not None:
        owners = " · ".join(
            f"{seat_name(table, s, t)} {suit.symbol}" for s, suit in enumerate(view.seat_suits)
        )
        lines.append(t("Seat suits: {owners}", owners=owners))
    if view.obligation is not None and view.phase in IN_DEAL and view.phase is not Phase.CALL:
        lines.append(t("On obligation: {pair}", pair=pair_name(table, view.obligation, t)))
    if view.talon:
        lines.append(t("Talon: {n} cards", n=view.talon))
    move_time = state.move_time(int(table.options.get("move_time", 0)))
    lines += _phase_lines(table, view, move_time, t)
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


def _opening_name(kind: str, t: Translator) -> str:
    names = {
        "plain": t("a plain deal"),
        "hvalyonka": t("hvalyonka"),
        "shtany": t("shtany"),
        "double_shtany": t("double shtany"),
        "mirror": t("mirror"),
    }
    return names.get(kind, kind)


def waiting_line(view: View, t: Translator) -> str:
    """The one line a hidden step shows to everyone it does not ask: the deal waits, not
    who or why (no timer either: it would tell that someone is asked)."""
    if view.played:
        return t("Waiting for play to go on…")
    return t("Waiting for the deal to start…")


def _phase_lines(table: Table, view: View, move_time: int, t: Translator) -> list[str]:
    """What the table says about the step of the deal in progress."""
    lines: list[str] = []
    phase = view.phase
    if view.opening != "plain" and phase in IN_DEAL:
        assert view.first_leader is not None
        lines.append(t("Opening: {kind}, led by {name}", kind=_opening_name(view.opening, t),
                       name=seat_name(table, view.first_leader, t)))  # fmt: skip
    timer = f" ⏳ {move_time} " + t("s") if move_time else ""
    lines += [_note_line(table, note, timer, t) for note in view.handoff_notes]
    if phase is Phase.CALL:
        name = seat_name(table, view.to_act[0], t)
        lines.append(t("{name} calls the deal: plain or an opening.", name=f"<b>{name}</b>"))
    elif phase is Phase.WAITING:
        lines.append(waiting_line(view, t))
    elif phase in (Phase.PLAY, Phase.BLIND):
        on_table = " · ".join(
            f"{seat_name(table, s, t)} {card_label(c, t) if c is not None else FACE_DOWN}"
            for s, c in view.trick
        )
        lines.append(t("On the table: {cards}", cards=on_table or "—"))
        turn = seat_name(table, view.to_act[0], t)
        if phase is Phase.BLIND:
            lines.append(t("Face down: {name}", name=f"<b>{turn}</b>") + timer)
        else:
            lines.append(t("To play: {name}", name=f"<b>{turn}</b>") + timer)
    return lines


def _note_line(table: Table, note: HandoffNote, timer: str, t: Translator) -> str:
    """Sixes' hand-off as the group may know it (RULES.md §1.3 **Decision**): the offer, the
    answer, how many cards passed — never which. The step still awaited names its seat in
    bold, with the timer."""
    giver, to = seat_name(table, note.giver, t), seat_name(table, note.to, t)
    if note.answer == "decline":
        return t("Hand-off: {giver} → {to}: “no need!”", giver=giver, to=to)
    if note.answer is None:
        return t("Hand-off: {giver} announces “I give my last trump!” — {name} answers.",
                 giver=giver, name=f"<b>{to}</b>") + timer  # fmt: skip
    if not note.given:
        return t("Hand-off: {giver} → {to}: “go ahead!” — {name} passes the trumps face down.",
                 giver=giver, to=to, name=f"<b>{giver}</b>") + timer  # fmt: skip
    count = t.n("{count} card", "{count} cards", note.given)
    if note.returned < note.given:
        return t("Hand-off: {giver} → {to}, {cards} face down — {name} returns as many.",
                 giver=giver, to=to, cards=count, name=f"<b>{to}</b>") + timer  # fmt: skip
    return t("Hand-off: {giver} → {to}, {cards}", giver=giver, to=to, cards=count)


def final_table_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's table message once the deal is over (the result follows as a new message)."""
    rules = _rules_of(table)
    trump = Suit(result.details["trump"]).symbol if result.details.get("trump") else "—"
    lines = [_deal_head(table.variant, result.deal_no, trump, t)]
    lines += [_score_line(table, side, result.score[side], rules, t) for side in (0, 1)]
    lines.append(t("Points this deal: {a} : {b}", a=result.points[0], b=result.points[1]))
    lines.append(t("This deal is over."))
    return "\n".join(lines)


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's result, posted as a new message."""
    rules = _rules_of(table)
    n = result.deal_no + 1
    a, b = result.points
    outcome = result.outcome
    if outcome == Outcome.EGGS:
        if rules.scoring == "eyes":
            body = t("Deal {n}: eggs, {a} : {b}. The next deal counts ×{m}.", n=n, a=a, b=b,
                     m=result.multiplier + 1)  # fmt: skip
        else:
            body = t("Deal {n}: eggs, {a} : {b}. {amount} wait for the next deal's winner.",
                     n=n, a=a, b=b, amount=units(rules.scoring, rules.eggs_carry, t))  # fmt: skip
        return body + " " + t("Score {a} : {b}.", a=result.score[0], b=result.score[1])
    assert result.side is not None
    winners = pair_name(table, result.side, t)
    gained = units(rules.scoring, result.award[result.side], t)
    if outcome == Outcome.CATCH and rules.catch is not None:
        hook, caught = rules.catch
        if hook == Card.parse("6C"):
            body = t("Deal {n}: the 6♣ caught the Q♣! {pair} +{eyes}.", n=n, pair=winners,
                     eyes=gained)  # fmt: skip
        else:
            body = t("Deal {n}: the hook {hook} caught the {caught}! {pair} +{amount}.", n=n,
                     hook=card_label(hook, t), caught=card_label(caught, t), pair=winners,
                     amount=gained)  # fmt: skip
    elif outcome == Outcome.LYUSYA and rules.scoring == "pairs":  # nothing else is scored
        body = t("Deal {n}: Lyusya — {pair} took every trick.", n=n, pair=winners)
    elif outcome == Outcome.LYUSYA:
        body = t("Deal {n}: Lyusya — {pair} took every trick, +{eyes}.", n=n, pair=winners,
                 eyes=gained)  # fmt: skip
    elif outcome == Outcome.ALL_TRICKS:
        body = t("Deal {n}: {pair} took all eight tricks.", n=n, pair=winners)
        if result.award[result.side]:
            body += " " + t("+{amount}.", amount=gained)
    elif outcome == Outcome.REFUSED_REDEAL:
        body = t("Deal {n}: a third redeal in a row is refused — {pair} +{amount}.", n=n,
                 pair=winners, amount=gained)  # fmt: skip
    elif outcome == Outcome.ROYAL:
        body = t("Deal {n}: four aces in one hand — a royal kozel for {pair}!", n=n,
                 pair=winners)  # fmt: skip
    else:
        body = t("Deal {n}: {pair} {a} : {b} → +{eyes}.", n=n, pair=winners, a=a, b=b,
                 eyes=gained)  # fmt: skip
    if result.zeroed is not None:
        if rules.scoring == "eyes":
            body += " " + t("{pair} lose all their eyes.", pair=pair_name(table, result.zeroed, t))
        else:
            body += " " + t("{pair} go back to 0.", pair=pair_name(table, result.zeroed, t))
    if result.carry:
        body += " " + t("(+{amount} from eggs)", amount=units(rules.scoring, result.carry, t))
    if result.multiplier > 1:
        body += " " + t("(×{m})", m=result.multiplier)
    return body + " " + t("Score {a} : {b}.", a=result.score[0], b=result.score[1])


def match_over_text(table: Table, over: MatchOver, t: Translator) -> str:
    """The match result; sixes adds the losers' title (с яйцами, с хвостами)."""
    winner, score, title = over.winner, over.score, over.title
    text = "🏆 " + t(
        "{winners} won {a} : {b}. {losers} are the kozly 🐐",
        winners=pair_name(table, winner, t),
        losers=pair_name(table, 1 - winner, t),
        a=score[winner],
        b=score[1 - winner],
    )
    if title is not None and "eggs" in title:
        text += " " + t("With eggs!")
    if title is not None and "tails" in title:
        text += " " + t("With tails!")
    return text


# -- hand (private) ----------------------------------------------------------------------


def hand_text(table: Table, state: MatchState, seat: int, t: Translator) -> str:
    """The header of a private hand message, from the seat's view.

    Quiet unless it is your move: the group's table says whose turn it is, so another
    player's card never forces an edit of your hand (UX.md; every edit counts against the
    bot's flood limits). It changes when your cards change or your move starts or ends."""
    view = state.view_for(seat)
    trump = view.trump_suit.symbol if view.trump_suit else "—"
    where = f" · {escape(table.chat_title)}" if table.chat_title else ""
    lines = [
        f"{escape(variant_title(table.variant, t))}{where} · "
        + t("deal {n}", n=view.deal_no + 1)
        + " · "
        + t("trump {suit}", suit=trump)
    ]
    if table.status is not TableStatus.PLAYING or view.phase not in IN_DEAL:
        lines.append(t("This deal is over."))
        return "\n".join(lines)
    if view.partner is not None:
        lines.append(t("Your partner: {name}", name=seat_name(table, view.partner, t)))
    for handoff in view.handoffs:
        if handoff.to == seat and handoff.cards:
            lines.append(t("Your partner handed you {card}.", card=cards_label(handoff.cards, t)))
        elif handoff.giver == seat and handoff.returned:
            lines.append(t("Your partner returned {card}.",
                           card=cards_label(handoff.returned, t)))  # fmt: skip
        elif handoff.giver == seat and handoff.cards:
            lines.append(t("You handed {card} to your partner.",
                           card=cards_label(handoff.cards, t)))  # fmt: skip
    if view.hidden_turn:
        lines.append(waiting_line(view, t))  # the same line for everyone (hidden steps)
    mine = seat in view.to_act
    lines += _prompt(view, seat, mine, t)
    return "\n".join(lines)


def _prompt(view: View, seat: int, mine: bool, t: Translator) -> list[str]:
    """What the seat is asked to do now (nothing when it is someone else's move)."""
    phase = view.phase
    if not mine:
        return []
    if phase is Phase.REDEAL:
        if view.rules.redeal_limit is not None:
            return [t("Your hand allows a redeal demand: demand one or play on?")]
        return [t("Your hand has under {n} points: ask for a redeal or play on?",
                  n=view.rules.redeal_below)]  # fmt: skip
    if phase is Phase.CALL:
        return ["👉 " + t("You lead this deal: call a plain deal or an opening.")]
    if phase is Phase.HANDOFF:
        return ["👉 " + _handoff_prompt(view, seat, t)]
    if phase is Phase.BLIND:
        if seat == view.first_leader:
            return ["👉 " + t("Hvalyonka: you are praised — lead a plain card face down.")]
        return ["👉 " + t("Hvalyonka: play any card face down (the lead is hidden).")]
    if view.trick:
        on_table = " ".join(card_label(c, t) if c else FACE_DOWN for _, c in view.trick)
        return ["👉 " + t("Your turn — on the table: {cards}.", cards=on_table)]
    return ["👉 " + t("Your lead.")]


def _handoff_prompt(view: View, seat: int, t: Translator) -> str:
    """The hand-off question for the seat it asks."""
    if view.returning == seat:
        owed = next((len(h.cards) - len(h.returned) for h in view.handoffs
                     if h.to == seat and h.step == "return"), 1)  # fmt: skip
        if owed > 1:
            return t("Return two cards to your partner, one at a time (plain cards if you "
                     "have them).")  # fmt: skip
        return t("Return a card to your partner (a plain card if you have one).")
    if OfferHandoff() in view.actions:
        return t("You may announce a hand-off: “I give my last trump!” The whole table hears "
                 "it, and your partner answers.")  # fmt: skip
    if AnswerOffer(True) in view.actions:
        return t("Your partner announces “I give my last trump!” — answer “go ahead” or “no "
                 "need”.")  # fmt: skip
    gives = [a for a in view.actions if isinstance(a, GiveTrump)]
    if KeepHand() in view.actions:  # kryuk: the decision nobody else learns of
        return t("You may hand your last trump to your partner, who returns a card.")
    if len(gives) > 1:
        return t("Your partner said “go ahead”: pass one or both trumps face down.")
    return t("Your partner said “go ahead”: pass your trump face down.")


def hand_keyboard(table: Table, state: MatchState, seat: int, t: Translator) -> Keyboard:
    """One button per card; cards not playable on your move carry a faint mark; then the
    answers the phase asks for (redeal, hand-off, call)."""
    view = state.view_for(seat)
    if table.status is not TableStatus.PLAYING or view.phase not in IN_DEAL:
        return ()
    gid, deal_no = table.game_id, view.deal_no
    returning = view.phase is Phase.HANDOFF and view.returning == seat
    returns = {a.card for a in view.actions if isinstance(a, ReturnCard)}
    my_move = seat in view.to_act and view.phase in (Phase.PLAY, Phase.BLIND)
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
        if (my_move and card not in view.legal) or (returning and card not in returns):
            label += NOT_NOW
        data = (ActButton(gid, deal_no, str(ReturnCard(card))) if returning
                else PlayButton(gid, deal_no, card))  # fmt: skip
        group.append(Button(label, data.pack()))
    if group:
        rows.append(tuple(group))
    if view.can_redeal:
        ask = t("Demand a redeal") if view.rules.redeal_limit is not None else t("Redeal")
        rows.append(
            (
                Button("🔄 " + ask, RedealButton(gid, deal_no, True).pack()),
                Button("✋ " + t("Play on"), RedealButton(gid, deal_no, False).pack()),
            )
        )
    keep = Button("✋ " + t("Keep"), ActButton(gid, deal_no, str(KeepHand())).pack())
    gives = [a for a in view.actions if isinstance(a, GiveTrump)]
    if gives:
        row = [Button("🤝 " + t("Hand off {card}", card=cards_label(a.cards, t)),
                      ActButton(gid, deal_no, str(a)).pack()) for a in gives]  # fmt: skip
        if KeepHand() in view.actions:
            row.append(keep)
        rows.append(tuple(row))
    if OfferHandoff() in view.actions:
        offer = ActButton(gid, deal_no, str(OfferHandoff())).pack()
        rows.append((Button("📣 " + t("I give my last trump!"), offer), keep))
    if AnswerOffer(True) in view.actions:
        agree = ActButton(gid, deal_no, str(AnswerOffer(True))).pack()
        decline = ActButton(gid, deal_no, str(AnswerOffer(False))).pack()
        rows.append((Button("🤝 " + t("Go ahead"), agree), Button("✋ " + t("No need"), decline)))
    calls = [a for a in view.actions if isinstance(a, CallOpening)]
    if calls:
        buttons = [Button(_opening_name(a.kind, t), ActButton(gid, deal_no, str(a)).pack())
                   for a in calls]  # fmt: skip
        rows += [tuple(buttons[:2]), tuple(buttons[2:])]
    return tuple(rows)


# -- errors ------------------------------------------------------------------------------


def done_text(action: Any, t: Translator) -> str:
    """The answer to an accepted press."""
    if isinstance(action, PlayCard):
        return t("You played {card}.", card=card_label(action.card, t))
    if isinstance(action, AskRedeal):
        return t("Redeal!")
    if isinstance(action, KeepHand):
        return t("You keep your cards.")
    if isinstance(action, OfferHandoff):
        return t("You announced: “I give my last trump!”")
    if isinstance(action, AnswerOffer):
        return t("You said “go ahead”.") if action.agree else t("You said “no need”.")
    if isinstance(action, GiveTrump):
        return t("You handed {card} to your partner.", card=cards_label(action.cards, t))
    if isinstance(action, ReturnCard):
        return t("You returned {card}.", card=card_label(action.card, t))
    if isinstance(action, CallOpening):
        return t("You called {kind}.", kind=_opening_name(action.kind, t))
    return t("Done.")


def game_error_text(error: GameError, table: Table, t: Translator) -> str:
    """A short alert for a refused move (at most 200 characters)."""
    if isinstance(error, Waiting):  # a hidden step: no seat, no reason (RULES.md §1.2)
        if error.started:
            return t("Play goes on in a moment — please wait.")
        return t("The deal has not started yet — wait a moment.")
    if isinstance(error, NotYourTurn):
        names = ", ".join(seat_name(table, s, t) for s in error.to_act)
        return t("It is {name}'s turn now.", name=names) if names else t("Not your turn.")
    if isinstance(error, MustFollow):
        legal = cards_label(error.legal, t)
        if error.led is None:
            return t("A trump was led — play a trump: {cards}", cards=legal)
        return t("Follow suit {suit}: {cards}", suit=error.led.symbol, cards=legal)
    if isinstance(error, TrumpLeadBanned):
        return t("Your pair may not lead a trump now: {cards}", cards=cards_label(error.legal, t))
    if isinstance(error, NotAllowed):
        if error.legal:
            return t("Not that card now: {cards}", cards=cards_label(error.legal, t))
        return t("That move is not allowed.")
    if isinstance(error, CardNotInHand):
        return t("That card is no longer in your hand.")
    if isinstance(error, RedealNotAllowed):
        return t("No redeal is possible now.")
    if isinstance(error, WrongPhase):
        return t("Not possible right now.")
    return t("That move is not allowed.")


def rules_text(variant: str, t: Translator) -> str:
    """/rules [variant]: the chosen variant in brief."""
    texts = {
        "hvalenyi": _rules_hvalenyi,
        "kryuk": _rules_kryuk,
        "sixes": _rules_sixes,
        "belka": _rules_belka,
    }
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
            t("players=2: each for self, 8 or 9 cards each and a talon dealt when both hands "
              "are empty; clubs are trump in the first deal, then the suit of the previous "
              "deal's last card; no redeal."),
        ]
    )  # fmt: skip


def _rules_kryuk(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(t("Kozel with the Hook")) + "</b>",
            t("Four players in pairs, 32 cards, 8 each."),
            t("Trumps, high to low: 7♣ (the hook), Q♣ (pelotka), Q♠ Q♥ Q♦, the jacks ♣♠♥♦, "
              "then clubs A 10 K 9 8."),
            t("The first deal is led with the A♦; then the first lead passes clockwise (it stays "
              "after eggs). Only the pair that led first may lead a trump while holding a plain "
              "card — nobody in the first deal, both pairs at 10:10."),
            t("One trump with points in your hand: hand it to your partner before the first "
              "lead; they return a card. The opponents are not told."),
            t("Hvalyonka (from the second deal): the praised player gets pairs of cards until a "
              "plain one arrives and leads it face down; the others do the same and play blind."),
            t("7♣ and the opponents' Q♣ in one trick: 4 points (12 in the first deal)."),
            t("61–89 → 2, 90–119 → 4, 120 → 6; all 8 tricks send the opponents back to 0 "
              "(at 0 they lose; at 0:0 it is 6). Eggs: 2 points for the next deal's winner."),
            t("10 s a move (15 s for a deal's first); on time-out a random legal card. "
              "The first pair to 12 wins."),
        ]
    )  # fmt: skip


def _rules_sixes(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(t("Kozel on sixes")) + "</b>",
            t("Four players in pairs, 32 cards; the sixes are the board of pairs."),
            t("Trumps: 7♣ (shamok), the queens, the jacks, then clubs A 10 K 9 8 "
              "(no_shamok: queens, jacks, then diamonds)."),
            t("61–89 → 1 pair, 90+ → 2. All 8 tricks (Lyusya) send the opponents back to 0 and "
              "score nothing else; in the first deal they win the match. Eggs: one pair more "
              "for the next deal's winner. The first pair to 6 wins."),
            t("Four nines or 12 points or less: demand a redeal; the third demand in a row is "
              "refused and costs the dealing pair a pair."),
            t("One or two trumps before the first lead: announce “I give my last trump!”; if "
              "your partner says “go ahead”, pass one or both face down and get as many plain "
              "cards back. The table hears the offer and the answer and learns how many cards "
              "passed, never which."),
            t("From the second deal the first leader may call shtany, double shtany or mirror "
              "instead of a plain deal: the first trick is drawn and played from the deck."),
            t("Options: ace_discard_ban (no ace of an unled suit as a discard), royal (four "
              "aces win the match)."),
        ]
    )  # fmt: skip


def _rules_belka(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(t("Belka")) + "</b>",
            t("Four players in pairs, 32 cards (or 36)."),
            t("The jacks are the top trumps: J♣ J♠ J♥ J♦. Plain suits: A 10 K Q 9 8 7 (6)."),
            t("Each seat owns a suit from the first deal (the J♣ holder clubs, then ♠ ♥ ♦ "
              "clockwise); each deal's trump is the suit of the seat holding the J♣, whose "
              "pair is on obligation and leads."),
            t("On obligation: 61–89 → 1 eye, 90+ → 2; the other pair: 2 and 3."),
            t("Eggs, Lyusya, the redeal under 14 points and the match to 12 as in hvalenyi."),
        ]
    )  # fmt: skip
