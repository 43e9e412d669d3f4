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
from kozelbot.follow.records import HandoffNote
from kozelbot.follow.rules import Rules
from kozelbot.follow.state import MatchState
from kozelbot.follow.tricks import trick_winner
from kozelbot.follow.view import View
from kozelbot.follow.vocabulary import (
    IN_DEAL,
    AnswerOffer,
    AskRedeal,
    CallOpening,
    CardNotInHand,
    GiveTrump,
    KeepHand,
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
    fit_line,
    pack_lines,
    pair_name,
    seat_name,
    taking_line,
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


def _deal_head(variant: str, deal_no: int, t: Translator) -> str:
    """The first line of a table message: the deal and the variant."""
    return "🐐 " + t("Deal {n}", n=deal_no + 1) + f" · {escape(variant_title(variant, t))}"


def _trump_line(rules: Rules, deal_no: int, trump: Suit | None, t: Translator) -> str:
    """The deal's trump suit, and for two players why it is that suit (RULES.md §1.1: clubs
    in the first deal, then the suit of the previous deal's last card)."""
    suit = trump.symbol if trump is not None else "—"
    if rules.trump_rule == "last_card" and deal_no == 0:
        return t("Trump {suit}: always clubs in the first deal", suit=suit)
    if rules.trump_rule == "last_card":
        return t("Trump {suit}: the previous deal's last card", suit=suit)
    return t("Trump {suit}", suit=suit)


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


def _seat_lines(table: Table, view: View, t: Translator) -> list[str]:
    """The order of play; in belka each seat with the suit it owns (RULES.md §1.4)."""
    if view.seat_suits is not None:
        owners = " → ".join(
            f"{seat_name(table, s, t)} {suit.symbol}" for s, suit in enumerate(view.seat_suits)
        )
        return fit_line(t("Seat suits and order of play:"), owners)
    if len(table.seats) == 2:
        return []  # two players take turns: the table says whose
    order = " → ".join(seat_name(table, seat, t) for seat in range(len(table.seats)))
    return fit_line(t("Order of play:"), order)


def _lead_right_line(table: Table, view: View, t: Translator) -> str | None:
    """Who is on obligation (на обязе: the J♣ pair of hvalenyi and belka), or kryuk's
    козырять right: who may lead a trump while holding a plain card (RULES.md §1.2)."""
    if view.trump_lead is not None:
        if not view.trump_lead:
            return t("May lead trumps: nobody (first deal)")
        if len(view.trump_lead) > 1:
            return t("Both pairs may lead trumps (kozel fight)")
        return t("May lead trumps: {pair}", pair=pair_name(table, view.trump_lead[0], t))
    if view.obligation is not None and view.rules.first_lead == "holder":
        return t("On obligation: {pair}", pair=pair_name(table, view.obligation, t))
    return None


def deck_line(view: View, t: Translator) -> str | None:
    """Two players: what is left of the deck, dealt again when both hands are empty, and
    when it has run out (RULES.md §1.1)."""
    if view.players != 2 or view.phase not in IN_DEAL:
        return None
    if view.talon:
        return t.n("Deck: {count} card left", "Deck: {count} cards left", view.talon)
    return t("Deck empty: these are the last cards.")


def table_text(table: Table, state: MatchState, t: Translator) -> str:
    """The group's table message for the current deal, from the public view."""
    view = state.view_for(None)
    rules = view.rules
    lines = [_deal_head(table.variant, view.deal_no, t)]
    head = [_trump_line(rules, view.deal_no, view.trump_suit, t)]
    if view.multiplier > 1:
        head.append(t("×{m} after eggs", m=view.multiplier))
    if view.carry:
        head.append(t("+{amount} from eggs", amount=units(rules.scoring, view.carry, t)))
    if view.redeals:
        head.append(t("redeal {n}", n=view.redeals))
    lines += pack_lines(head)
    lines += [_score_line(table, side, view.score[side], rules, t) for side in (0, 1)]
    lines += _seat_lines(table, view, t)
    if view.phase in IN_DEAL and view.phase is not Phase.CALL:
        right = _lead_right_line(table, view, t)
        if right is not None:
            lines.append(right)
    deck = deck_line(view, t)
    if deck is not None:
        lines.append(deck)
    move_time = state.move_time(int(table.options.get("move_time", 0)))
    lines += _phase_lines(table, view, move_time, t)
    if view.last_trick is not None:
        last = view.last_trick
        taken = (f"{seat_name(table, last.winner, t)} "
                 f"({cards_label([c for _, c in last.cards], t)}) +{last.points}")  # fmt: skip
        lines += fit_line(t("Last trick:"), taken)
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
        leader = seat_name(table, view.first_leader, t)
        if view.opening == "hvalyonka":  # kryuk: the first leader is praised
            lines.append(t("Hvalyonka: {name} leads", name=leader))
        else:  # sixes: the hvalyonka the first leader called
            lines.append(t("Hvalyonka “{kind}”: {name} leads",
                           kind=_opening_name(view.opening, t), name=leader))  # fmt: skip
    timer = f" ⏳ {move_time} " + t("s") if move_time else ""
    for note in view.handoff_notes:
        lines += _note_lines(table, note, timer, t)
    if phase is Phase.CALL:
        name = seat_name(table, view.to_act[0], t)
        lines.append(t("{name}: a plain deal or a hvalyonka?", name=f"<b>{name}</b>"))
    elif phase is Phase.WAITING:
        lines.append(waiting_line(view, t))
    elif phase in (Phase.PLAY, Phase.BLIND):
        lines += fit_line(t("On the table:"), _on_table(table, view, t) or "—")
        turn = seat_name(table, view.to_act[0], t)
        if phase is Phase.BLIND:
            lines.append(t("Plays face down: {name}", name=f"<b>{turn}</b>") + timer)
        else:
            lines.append(t("To play: {name}", name=f"<b>{turn}</b>") + timer)
    return lines


def _on_table(table: Table, view: View, t: Translator) -> str:
    """The trick on the table, each card with who played it; a card face down is 🂠."""
    return " · ".join(
        f"{seat_name(table, s, t)} {card_label(c, t) if c is not None else FACE_DOWN}"
        for s, c in view.trick
    )


def _note_lines(table: Table, note: HandoffNote, timer: str, t: Translator) -> list[str]:
    """Sixes' hand-off as the group may know it (RULES.md §1.3 **Decision**): the offer, the
    answer, how many cards passed — never which. The step still awaited follows on its own
    line, naming its seat in bold, with the timer."""
    giver, to = seat_name(table, note.giver, t), seat_name(table, note.to, t)
    if note.answer == "decline":
        return [t("Hand-off: {giver} → {to}: “no need!”", giver=giver, to=to)]
    if note.answer is None:
        return [t("{giver}: “I give my last trump!”", giver=giver),
                t("{name} answers.", name=f"<b>{to}</b>") + timer]  # fmt: skip
    if not note.given:
        passing = t("{name} passes the trumps face down.", name=f"<b>{giver}</b>")
        return [t("Hand-off: {giver} → {to}: “go ahead!”", giver=giver, to=to), passing + timer]
    count = t.n("{count} card", "{count} cards", note.given)
    if note.returned < note.given:
        return [t("Hand-off: {giver} → {to}, {cards} face down", giver=giver, to=to,
                  cards=count),
                t("{name} returns as many.", name=f"<b>{to}</b>") + timer]  # fmt: skip
    return [t("Hand-off: {giver} → {to}, {cards}", giver=giver, to=to, cards=count)]


def final_table_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's table message once the deal is over (the result follows as a new message):
    the score after it, the last trick — who played what, who took it — and the deal's
    points; with two players, the next deal's trump suit. Old results without the last
    trick in their ``details`` show the rest."""
    rules = _rules_of(table)
    details = result.details
    trump = Suit(details["trump"]) if details.get("trump") else None
    lines = [_deal_head(table.variant, result.deal_no, t),
             _trump_line(rules, result.deal_no, trump, t)]  # fmt: skip
    lines += [_score_line(table, side, result.score[side], rules, t) for side in (0, 1)]
    last = details.get("last_trick")
    if isinstance(last, Mapping):
        lines.append(t("Last trick — {name}, +{points}:",
                       name=seat_name(table, int(last["winner"]), t),
                       points=last["points"]))  # fmt: skip
        lines.append(" · ".join(f"{seat_name(table, int(seat), t)} "
                                f"{card_label(Card.parse(code), t)}"
                                for seat, code in last["cards"]))  # fmt: skip
    lines.append(t("Points this deal: {a} : {b}", a=result.points[0], b=result.points[1]))
    if details.get("next_trump"):
        lines.append(t("Next deal's trump: {suit}", suit=Suit(details["next_trump"]).symbol))
    lines.append(t("This deal is over."))
    return "\n".join(lines)


def _side_size(table: Table) -> int:
    """Players on a side: two in pairs, one in a duel (plural forms follow it)."""
    return 1 if len(table.seats) == 2 else 2


def _score_summary(table: Table, score: tuple[int, ...], first: int, t: Translator) -> str:
    """The running score with both sides named, ``first`` first."""
    second = 1 - first
    return t("Score: {first} {a} — {second} {b}", first=pair_name(table, first, t),
             a=score[first], second=pair_name(table, second, t), b=score[second])  # fmt: skip


def _award_lines(result: DealScored, rules: Rules, t: Translator) -> list[str]:
    """How the award was made up: the eggs multiplier (``2 глаза ×2 за яйца = 4``) or the
    carried eggs (``2 очка + 2 за яйца = 4``)."""
    assert result.side is not None
    total = result.award[result.side]
    if result.multiplier > 1 and total:
        base = units(rules.scoring, total // result.multiplier, t)
        return [t("{base} ×{m} for eggs = {total}", base=base, m=result.multiplier,
                  total=total)]  # fmt: skip
    if result.carry and total > result.carry:
        base = units(rules.scoring, total - result.carry, t)
        return [t("{base} + {carry} for eggs = {total}", base=base, carry=result.carry,
                  total=total)]  # fmt: skip
    return []


def _belka_line(result: DealScored, rules: Rules, t: Translator) -> list[str]:
    """Belka: why the award is what it is — the pair on obligation scores less than the
    defending pair (RULES.md §1.4)."""
    defence, obligation = rules.defence_awards, result.details.get("obligation")
    if defence is None or obligation is None or result.side is None:
        return []
    awards = rules.awards if result.side == obligation else defence
    high, low = awards[0][1], units(rules.scoring, awards[1][1], t)
    if result.side == obligation:
        return [t("On obligation: 61–89 → {low}, 90+ → {high}.", low=low, high=high)]
    return [t("Defending: 61–89 → {low}, 90+ → {high}.", low=low, high=high)]


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's result, posted as a new message: what happened, the winners' figures first,
    how the award was made up, and the running score with both sides named."""
    rules = _rules_of(table)
    n = result.deal_no + 1
    outcome, size = result.outcome, _side_size(table)
    if outcome == Outcome.EGGS:
        a, b = result.points
        lines = [t("Deal {n}: eggs, {a} : {b}.", n=n, a=a, b=b)]
        if rules.scoring == "eyes":
            lines.append(t("The next deal counts ×{m}.", m=result.multiplier + 1))
        else:
            waiting = int(result.details.get("waiting") or rules.eggs_carry)
            lines.append(t("+{amount} to the next deal's winner.",
                           amount=units(rules.scoring, waiting, t)))  # fmt: skip
        lines.append(_score_summary(table, result.score, 0, t))
        return "\n".join(lines)
    side = result.side
    assert side is not None
    other = 1 - side
    winners, losers = pair_name(table, side, t), pair_name(table, other, t)
    total = result.award[side]
    gained = units(rules.scoring, total, t)
    if outcome == Outcome.CATCH and rules.catch is not None:
        if rules.catch[0] == Card.parse("6C"):
            lines = [t("Deal {n}: the 6♣ caught the Q♣!", n=n)]
        else:
            lines = [t("Deal {n}: the Hook caught Pelotka!", n=n)]
        lines.append(t("{pair} +{amount}.", pair=winners, amount=gained))
        first_award = rules.catch_first_deal_award
        if result.deal_no == 0 and first_award is not None and first_award != rules.catch_award:
            lines.append(t("In the first deal a catch is worth {amount}.",
                           amount=units(rules.scoring, first_award, t)))  # fmt: skip
        lines += _award_lines(result, rules, t)
    elif outcome in (Outcome.LYUSYA, Outcome.ALL_TRICKS):
        if outcome == Outcome.LYUSYA:
            lines = [t.n("Deal {n}: Lyusya! {pair} took every trick.",
                         "Deal {n}: Lyusya! {pair} took every trick.", size, n=n,
                         pair=winners)]  # fmt: skip
        else:
            lines = [t.n("Deal {n}: {pair} took all 8 tricks.",
                         "Deal {n}: {pair} took all 8 tricks.", size, n=n,
                         pair=winners)]  # fmt: skip
        if total and total > result.carry:
            lines.append("→ " + t("+{amount}.", amount=gained))
            lines += _award_lines(result, rules, t)
            if result.zeroed is not None:  # Lyusya ``zero``: the winners' 90+ award
                lines += _belka_line(result, rules, t)
        elif total:  # the carried eggs alone (kryuk's reset, sixes' Lyusya)
            lines.append("→ " + t("+{amount} from eggs", amount=gained))
        if result.zeroed is not None and rules.scoring == "eyes":
            lines.append(t.n("{pair} loses all the eyes.", "{pair} lose all the eyes.", size,
                             pair=losers))  # fmt: skip
        elif result.zeroed is not None:
            lines.append(t.n("{pair} goes back to 0.", "{pair} go back to 0.", size,
                             pair=losers))  # fmt: skip
        elif outcome == Outcome.ALL_TRICKS and not total:
            lines.append(t("{pair} had no points: the match is lost.", pair=losers))
        if outcome == Outcome.LYUSYA and rules.scoring == "pairs" and result.deal_no == 0:
            lines.append(t("A dry kozel: the match is won at once!"))
    elif outcome == Outcome.REFUSED_REDEAL:
        lines = [t("Deal {n}: a third redeal in a row is refused.", n=n),
                 t("The dealing pair loses a pair: {pair} +{amount}.", pair=winners,
                   amount=gained)]  # fmt: skip
    elif outcome == Outcome.ROYAL:
        lines = [t("Deal {n}: four aces in one hand — a royal kozel!", n=n),
                 t.n("{pair} wins the match.", "{pair} win the match.", size,
                     pair=winners)]  # fmt: skip
    else:
        lines = [t("Deal {n}: {pair} {a} : {b} → +{eyes}.", n=n, pair=winners,
                   a=result.points[side], b=result.points[other], eyes=gained)]  # fmt: skip
        lines += _award_lines(result, rules, t)
        lines += _belka_line(result, rules, t)
    lines.append(_score_summary(table, result.score, side, t))
    return "\n".join(lines)


def match_over_text(table: Table, over: MatchOver, t: Translator) -> str:
    """The match result: the winners and the score, then the losers' title (sixes adds с
    яйцами, с хвостами), in the plural forms of the players on a side (one in a duel)."""
    winner, score, size = over.winner, over.score, _side_size(table)
    names = {"winners": pair_name(table, winner, t), "losers": pair_name(table, 1 - winner, t)}
    won = t.n("{winners} won {a} : {b}.", "{winners} won {a} : {b}.", size,
              a=score[winner], b=score[1 - winner], **names)  # fmt: skip
    return "🏆 " + won + "\n" + _title(over.title or "kozly", size, names["losers"], t)


def _title(key: str, size: int, losers: str, t: Translator) -> str:
    """The losers' title in words (each message written out, for the catalogs)."""
    if key == "kozly_eggs":
        return t.n("{losers} is the kozel with eggs 🐐", "{losers} are the kozly with eggs 🐐",
                   size, losers=losers)  # fmt: skip
    if key == "kozly_tails":
        return t.n("{losers} is the kozel with tails 🐐",
                   "{losers} are the kozly with tails 🐐", size, losers=losers)  # fmt: skip
    if key == "kozly_eggs_tails":
        return t.n("{losers} is the kozel with eggs and tails 🐐",
                   "{losers} are the kozly with eggs and tails 🐐", size,
                   losers=losers)  # fmt: skip
    return t.n("{losers} is the kozel 🐐", "{losers} are the kozly 🐐", size, losers=losers)


# -- hand (private) ----------------------------------------------------------------------


def hand_text(table: Table, state: MatchState, seat: int, t: Translator) -> str:
    """The header of a private hand message, from the seat's view.

    Quiet unless it is your move: the group's table says whose turn it is, so another
    player's card never forces an edit of your hand (UX.md; every edit counts against the
    bot's flood limits). It changes when your cards change or your move starts or ends."""
    view = state.view_for(seat)
    trump = view.trump_suit.symbol if view.trump_suit else "—"
    head = [escape(variant_title(table.variant, t)), t("deal {n}", n=view.deal_no + 1),
            t("trump {suit}", suit=trump)]  # fmt: skip
    if table.chat_title:  # last: a long group name goes to a row of its own
        head.append(escape(table.chat_title))
    lines = pack_lines(head)
    if table.status is not TableStatus.PLAYING or view.phase not in IN_DEAL:
        lines.append(t("This deal is over."))
        return "\n".join(lines)
    if view.partner is not None:
        lines.append(t("Your partner: {name}", name=seat_name(table, view.partner, t)))
    deck = deck_line(view, t)  # changes only with the cards (a refill)
    if deck is not None:
        lines.append(deck)
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
    lines += _prompt(table, view, seat, mine, t)
    return "\n".join(lines)


def _prompt(table: Table, view: View, seat: int, mine: bool, t: Translator) -> list[str]:
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
        return _call_prompt(t)
    if phase is Phase.HANDOFF:
        return ["👉 " + _handoff_prompt(view, seat, t)]
    if phase is Phase.BLIND:
        if seat == view.first_leader:
            return ["👉 " + t("Hvalyonka: you are the praised player — lead a plain card face "
                             "down.")]  # fmt: skip
        return ["👉 " + t("Hvalyonka: play any card face down — the lead is hidden.")]
    if view.trick:
        on_table = fit_line("👉 " + t("Your turn. On the table:"), _on_table(table, view, t))
        return on_table + _taking_line(table, view, t)
    return ["👉 " + _lead_prompt(view, seat, t)]


def _taking_line(table: Table, view: View, t: Translator) -> list[str]:
    """Who takes the trick so far, and whether it is the partner (``trick_winner`` with the
    view's strengths); nothing while a card lies face down, or with the lead alone."""
    if len(view.trick) < 2 or any(card is None for _, card in view.trick):
        return []
    cards = [(s, card) for s, card in view.trick if card is not None]
    return [taking_line(table, trick_winner(cards, view.strength), view.partner, t)]


def _lead_prompt(view: View, seat: int, t: Translator) -> str:
    """Your lead, and what kryuk's lead rules leave you (RULES.md §1.2: the match's first
    deal starts with A♦; only the pair with the козырять right leads a trump)."""
    rules, legal = view.rules, view.legal
    forced = rules.first_lead_card
    if rules.lead_card_forced and forced is not None and legal == (forced,) and not view.played:
        return t("Your lead: the first deal starts with {card}.", card=card_label(forced, t))
    banned = view.trump_lead is not None and view.side_of(seat) not in view.trump_lead
    if banned and len(legal) < len(view.hand):
        return t("Your lead — your pair may not lead a trump now.")
    return t("Your lead.")


def _call_prompt(t: Translator) -> list[str]:
    """Sixes: the first leader's call, with what each hvalyonka is (RULES.md §1.3)."""
    return [
        "👉 " + t("You lead this deal: a plain deal, or call a hvalyonka?"),
        t("A hvalyonka draws the first trick from the deck; then everyone is dealt up to 8 "
          "cards:"),
        "• " + t("shtany: a card from the top and one from the bottom of the deck — aces and "
                 "trumps stay in the hand, the first other card is played;"),
        "• " + t("double shtany: the same, two from the top and two from the bottom;"),
        "• " + t("mirror: one card at a time from the bottom — trumps stay in the hand, the "
                 "first plain card is played face up."),
    ]  # fmt: skip


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
        trumps = sum(1 for card in view.hand if view.strength.is_trump(card))
        if trumps > 1:
            return t("You hold two trumps: you may announce a hand-off, “I give my last "
                     "trump!”, and pass one or both. The whole table hears it, and your "
                     "partner answers.")  # fmt: skip
        return t("You hold one trump: you may announce a hand-off, “I give my last trump!” "
                 "The whole table hears it, and your partner answers.")  # fmt: skip
    if AnswerOffer(True) in view.actions:
        return t("Your partner announces “I give my last trump!” — answer “go ahead” or “no "
                 "need”.")  # fmt: skip
    gives = [a for a in view.actions if isinstance(a, GiveTrump)]
    if KeepHand() in view.actions:  # kryuk: the decision nobody else learns of
        return t("You may go off your last trump: hand it to your partner and get a card "
                 "back. The opponents are not told.")  # fmt: skip
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
        if not names:
            return t("Not your turn.")
        if error.step is Phase.CALL:
            return t("{name} is calling the deal now.", name=names)
        if error.step is Phase.HANDOFF:
            return t("{name} decides in the hand-off now.", name=names)
        return t("It is {name}'s turn now.", name=names)
    if isinstance(error, MustFollow):
        legal = cards_label(error.legal, t)
        if error.led is None:
            return t("A trump was led — play a trump: {cards}", cards=legal)
        return t("Follow suit {suit}: {cards}", suit=error.led.symbol, cards=legal)
    if isinstance(error, TrumpLeadBanned):
        return t("Your pair may not lead a trump now; you may lead: {cards}",
                 cards=cards_label(error.legal, t))  # fmt: skip
    if isinstance(error, NotAllowed):
        if error.legal:
            return t("Not that card now: {cards}", cards=cards_label(error.legal, t))
        return t("That move is not allowed.")
    if isinstance(error, CardNotInHand):
        return t("That card is no longer in your hand.")
    if isinstance(error, RedealNotAllowed):
        return t("No redeal is possible now.")
    if isinstance(error, WrongPhase):
        return _wrong_phase_text(error.phase, t)
    return t("That move is not allowed.")


def _wrong_phase_text(phase: Phase, t: Translator) -> str:
    """What the table is waiting for when a press does not fit the step — never who, and
    nothing that depends on hidden cards: a redeal offer is answered like any hidden step."""
    if phase is Phase.CALL:
        return t("The deal is being called first: a plain deal or a hvalyonka.")
    if phase is Phase.HANDOFF:
        return t("A hand-off is under way — wait a moment.")
    if phase is Phase.DEALING:
        return t("The cards are being dealt — wait a moment.")
    if phase is Phase.REDEAL or phase is Phase.WAITING:
        return t("The deal has not started yet — wait a moment.")
    if phase is Phase.PLAY or phase is Phase.BLIND:
        return t("Play is under way — play a card.")
    if phase is Phase.OVER:
        return t("The match is over.")
    return t("Not possible right now.")


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
            t("players=2: each for self, 8 or 9 cards each; the rest of the deck is dealt "
              "when both hands are empty; clubs are trump in the first deal, then the suit of "
              "the previous deal's last card; no redeal."),
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
            t("Hvalyonka (from the second deal): the first leader is praised — dealt cards two "
              "at a time until a plain one arrives, and leads it face down; the others are "
              "dealt the same way and play blind."),
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
            t("From the second deal the first leader may call a hvalyonka instead of a plain "
              "deal — shtany, double shtany or mirror: the first trick is drawn from the deck "
              "and played."),
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
