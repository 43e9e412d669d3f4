"""A cover player's private hand message, from the seat's view: the game, the partner, the
stacks to beat, who takes the trick now, and what to do — lead, beat, discard, pass, re-beat,
add cards, or claim the lead."""

from __future__ import annotations

from html import escape

from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.texts import card_label, seat_name, taking_line
from kozelbot.families.cover.render.lines import chain, trump_line
from kozelbot.families.cover.render.results import deal_over_text
from kozelbot.families.cover.render.rules import title
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.view import View
from kozelbot.families.cover.vocabulary import Action, Beat, Claim, Phase


def hand_text(table: Table, state: CoverState, seat: int, t: Translator) -> str:
    """A player's private hand message: the game, the stacks to beat, and what to do now."""
    view = state.view_for(seat)
    if table.status is not TableStatus.PLAYING or view.phase in (Phase.DEALING, Phase.OVER):
        return over_text(table, view.game_no, state.over, t)
    head = [
        escape(title(t)),
        t("game {n}", n=view.game_no + 1),
        t("trump {suit}", suit=view.trump.symbol),
    ]
    if table.chat_title:  # last: a long group name goes to a line of its own
        head.append(escape(table.chat_title))
    lines = [chain(head)]
    partner = view.rules.seats.partner(seat)
    if partner is not None:
        lines.append(t("Your partner: {name}", name=seat_name(table, partner, t)))
    trump = trump_line(view, t)
    if trump:
        lines.append(trump)
    if view.stacks:
        tops = " ".join(card_label(stack[-1], t) for stack in view.stacks)
        lines.append(t("To beat: {cards}", cards=tops))
    mine = seat in view.to_act
    taker = view.last_beater
    if mine and view.phase is Phase.ANSWER and taker is not None and taker != view.leader:
        lines.append(taking_line(table, taker, partner, t))  # someone beat: who takes it now
    legal = state.legal_actions(seat)
    what = prompt(view, legal, mine, t)
    if what:
        lines.append("👉 " + what)
    claims = [a for a in legal if isinstance(a, Claim)]
    if claims:
        lines.append(t("You may claim the lead: «I have {n}».", n=claims[0].count))
    return "\n".join(lines)


def over_text(table: Table, game_no: int, match_over: bool, t: Translator) -> str:
    """A finished hand's one statement (issue #30 item 11): the game is over — the match's
    last one at the match's end — or the match was stopped; the whole message, as it reads
    once the next game is dealt (``results.deal_over_text``)."""
    if table.status is TableStatus.STOPPED:
        return t("The match was stopped.")
    if match_over:
        return t("Game {n}, the match's last, is over.", n=game_no + 1)
    return deal_over_text(game_no, t)


def prompt(view: View, legal: list[Action], mine: bool, t: Translator) -> str | None:
    """What this seat must do now, if anything (the hand message's 👉 line, and the Mini
    App's status line: the page and the chat say the same)."""
    beats = any(isinstance(a, Beat) for a in legal)
    one = len(view.stacks) == 1
    if mine and view.phase is Phase.LEAD:
        return t("Your lead: select 1–6 cards of one suit, then Lead.")
    if mine and view.phase is Phase.ANSWER and view.surplus and not beats:
        return t.n(
            "Discard {count} card face down.", "Discard {count} cards face down.", view.surplus
        )
    if mine and view.phase is Phase.ANSWER and view.surplus and one:
        return t.n(
            "Beat the stack, or discard {count} card face down.",
            "Beat the stack, or discard {count} cards face down.",
            view.surplus,
        )
    if mine and view.phase is Phase.ANSWER and view.surplus:
        return t.n(
            "Beat every stack, or discard {count} card face down.",
            "Beat every stack, or discard {count} cards face down.",
            view.surplus,
        )
    if mine and view.phase is Phase.ANSWER:
        return t("Beat the stack, or pass.") if one else t("Beat every stack, or pass.")
    if mine and view.phase is Phase.REBEAT:
        return (
            t("Beat your stack again, or press Done.")
            if one
            else t("Beat your stacks again, or press Done.")
        )
    if view.level_count:
        return t.n(
            "Levelling: add {count} card face down.",
            "Levelling: add {count} cards face down.",
            view.level_count,
        )
    return None


def prompt_text(view: View, legal: list[Action], t: Translator) -> str | None:
    """What the seat of ``view`` must do now, in the hand message's words (``prompt``)."""
    return prompt(view, legal, True, t)
