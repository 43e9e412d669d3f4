"""The header of a player's private hand message, from the seat's own view.

The deal, the partner, the seat's hand-offs, and what it is asked to do now.
"""

from __future__ import annotations

from html import escape

from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.texts import (
    card_label,
    cards_label,
    fit_line,
    pack_lines,
    seat_name,
    taking_line,
)
from kozelbot.families.follow.render.common import deck_line, on_table, variant_title, waiting_line
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.tricks import trick_winner
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import (
    IN_DEAL,
    Action,
    AnswerOffer,
    GiveTrump,
    KeepHand,
    OfferHandoff,
    Phase,
)


def hand_text(table: Table, state: MatchState, seat: int, t: Translator) -> str:
    """The header of a private hand message, from the seat's view.

    Quiet unless it is your move: the group's table says whose turn it is, so another
    player's card never forces an edit of your hand (UX.md; every edit counts against the
    bot's flood limits). It changes when your cards change or your move starts or ends."""
    view = state.view_for(seat)
    if table.status is not TableStatus.PLAYING or view.phase not in IN_DEAL:
        return over_text(table, view.deal_no, state.over, t)
    trump = view.trump_suit.symbol if view.trump_suit else "—"
    head = [
        escape(variant_title(table.variant, t)),
        t("deal {n}", n=view.deal_no + 1),
        t("trump {suit}", suit=trump),
    ]
    if table.chat_title:  # last: a long group name goes to a row of its own
        head.append(escape(table.chat_title))
    lines = pack_lines(head)
    if view.partner is not None:
        lines.append(t("Your partner: {name}", name=seat_name(table, view.partner, t)))
    deck = deck_line(view, t)  # changes only with the cards (a refill)
    if deck is not None:
        lines.append(deck)
    for handoff in view.handoffs:
        if handoff.to == seat and handoff.cards:
            lines.append(t("Your partner handed you {card}.", card=cards_label(handoff.cards, t)))
        elif handoff.giver == seat and handoff.returned:
            lines.append(t("Your partner returned {card}.", card=cards_label(handoff.returned, t)))
        elif handoff.giver == seat and handoff.cards:
            lines.append(
                t("You handed {card} to your partner.", card=cards_label(handoff.cards, t))
            )
    if view.hidden_turn:
        lines.append(waiting_line(view, t))  # the same line for everyone (hidden steps)
    mine = seat in view.to_act
    lines += _prompt(table, view, seat, mine, t)
    return "\n".join(lines)


def deal_name(deal_no: int, t: Translator) -> str:
    """A deal by its number: «Сдача 3»."""
    return t("Deal {n}", n=deal_no + 1)


def prompt_text(view: View, legal: list[Action], t: Translator) -> str | None:
    """Nothing beyond the hand's "your turn": the cards marked say what to play."""
    return None


def deal_over_text(deal_no: int, t: Translator) -> str:
    """What a hand message says once its deal is over: «Сдача 3 закончена.»"""
    return t("Deal {n} is over.", n=deal_no + 1)


def over_text(table: Table, deal_no: int, match_over: bool, t: Translator) -> str:
    """A finished hand's one statement (issue #30 item 11): the deal is over — the match's
    last one at the match's end — or the match was stopped. It is the whole message: the
    header's deal and trump, said again above it, made two statements of one fact, and the
    hand read otherwise once the next deal replaced it (``deal_over_text``)."""
    if table.status is TableStatus.STOPPED:
        return t("The match was stopped.")
    if match_over:
        return t("Deal {n}, the match's last, is over.", n=deal_no + 1)
    return deal_over_text(deal_no, t)


def _prompt(table: Table, view: View, seat: int, mine: bool, t: Translator) -> list[str]:
    """What the seat is asked to do now (nothing when it is someone else's move)."""
    phase = view.phase
    if not mine:
        return []
    if phase is Phase.REDEAL:
        if view.rules.redeal_limit is not None:
            return [t("Your hand allows a redeal demand: demand one or play on?")]
        return [
            t(
                "Your hand has under {n} points: ask for a redeal or play on?",
                n=view.rules.redeal_below,
            )
        ]
    if phase is Phase.CALL:
        return _call_prompt(t)
    if phase is Phase.HANDOFF:
        return ["👉 " + _handoff_prompt(view, seat, t)]
    if phase is Phase.BLIND:
        if seat == view.first_leader:
            return [
                "👉 " + t("Hvalyonka: you are the praised player — lead a plain card face down.")
            ]
        return ["👉 " + t("Hvalyonka: play any card face down — the lead is hidden.")]
    if view.trick:
        lines = fit_line("👉 " + t("Your turn. On the table:"), on_table(table, view, t))
        return lines + _taking_line(table, view, t)
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
        t("A hvalyonka draws the first trick from the deck; then everyone is dealt up to 8 cards:"),
        "• "
        + t(
            "shtany: a card from the top and one from the bottom of the deck — aces and "
            "trumps stay in the hand, the first other card is played;"
        ),
        "• " + t("double shtany: the same, two from the top and two from the bottom;"),
        "• "
        + t(
            "mirror: one card at a time from the bottom — trumps stay in the hand, the "
            "first plain card is played face up."
        ),
    ]


def _handoff_prompt(view: View, seat: int, t: Translator) -> str:
    """The hand-off question for the seat it asks."""
    if view.returning == seat:
        owed = next(
            (
                len(h.cards) - len(h.returned)
                for h in view.handoffs
                if h.to == seat and h.step == "return"
            ),
            1,
        )
        if owed > 1:
            return t(
                "Return two cards to your partner, one at a time (plain cards if you have them)."
            )
        return t("Return a card to your partner (a plain card if you have one).")
    if OfferHandoff() in view.actions:
        trumps = sum(1 for card in view.hand if view.strength.is_trump(card))
        if trumps > 1:
            return t(
                "You hold two trumps: you may announce a hand-off, “I give my last "
                "trump!”, and pass one or both. The whole table hears it, and your "
                "partner answers."
            )
        return t(
            "You hold one trump: you may announce a hand-off, “I give my last trump!” "
            "The whole table hears it, and your partner answers."
        )
    if AnswerOffer(True) in view.actions:
        return t("Your partner announces “I give my last trump!” — answer “go ahead” or “no need”.")
    gives = [a for a in view.actions if isinstance(a, GiveTrump)]
    if KeepHand() in view.actions:  # kryuk: the decision nobody else learns of
        return t(
            "You may go off your last trump: hand it to your partner and get a card "
            "back. The opponents are not told."
        )
    if len(gives) > 1:
        return t("Your partner said “go ahead”: pass one or both trumps face down.")
    return t("Your partner said “go ahead”: pass your trump face down.")
