"""The group's table message, from the public view, in the deal and once it is over."""

from __future__ import annotations

from collections.abc import Mapping

from kozelbot.core.cards import Card, Suit
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored
from kozelbot.core.table import Table
from kozelbot.core.texts import (
    break_after,
    card_label,
    cards_label,
    ended_line,
    fit_line,
    pack_lines,
    pair_name,
    seat_name,
)
from kozelbot.families.follow.records import HandoffNote
from kozelbot.families.follow.render.common import (
    deal_head,
    deck_line,
    on_table,
    opening_name,
    rules_of,
    score_line,
    trump_line,
    units,
    waiting_line,
)
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import IN_DEAL, Phase


def table_text(table: Table, state: MatchState, t: Translator) -> str:
    """The group's table message for the current deal, from the public view."""
    view = state.view_for(None)
    rules = view.rules
    lines = [deal_head(table.variant, view.deal_no, t)]
    head = [trump_line(rules, view.deal_no, view.trump_suit, t)]
    if view.multiplier > 1:
        head.append(t("×{m} after eggs", m=view.multiplier))
    if view.carry:
        head.append(t("+{amount} from eggs", amount=units(rules.scoring, view.carry, t)))
    if view.redeals:
        head.append(t("redeal {n}", n=view.redeals))
    lines += pack_lines(head)
    lines += [score_line(table, side, view.score[side], rules, t) for side in (0, 1)]
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
        taken = (
            f"{seat_name(table, last.winner, t)} "
            f"({cards_label([c for _, c in last.cards], t)}) +{last.points}"
        )
        lines += fit_line(t("Last trick:"), taken)
    lines.append(t("Points this deal: {a} : {b}", a=view.points[0], b=view.points[1]))
    late = [f"{seat_name(table, s, t)} ×{n}" for s, n in enumerate(table.timeouts) if n]
    if late:  # a phone's row: the names under the label when both do not fit
        line = "⌛ " + t("Played by the computer on time-out: {names}", names=", ".join(late))
        lines.append(break_after(line, ": "))
    ended = ended_line(table, t)
    if ended is not None:
        lines.append(ended)
    return "\n".join(lines)


def _seat_lines(table: Table, view: View, t: Translator) -> list[str]:
    """The order of play; in belka each seat with the suit it owns (RULES.md §1.4)."""
    if view.seat_suits is not None:
        suits = enumerate(view.seat_suits)
        owners = [f"{seat_name(table, s, t)} {suit.symbol}" for s, suit in suits]
        return fit_line(t("Seat suits and order of play:"), _arrows(owners))
    if len(table.seats) == 2:
        return []  # two players take turns: the table says whose
    order = [seat_name(table, seat, t) for seat in range(len(table.seats))]
    return fit_line(t("Order of play:"), _arrows(order))


def _arrows(names: list[str]) -> str:
    """``Аня → Борис → Вера``; wider than a phone's row, a line breaks before an arrow, so
    the arrow stays with the name it points to (``→ Глеб``)."""
    return "\n".join(pack_lines([names[0], *(f"→ {name}" for name in names[1:])], " "))


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
            kind = opening_name(view.opening, t)
            lines.append(
                break_after(t("Hvalyonka “{kind}”: {name} leads", kind=kind, name=leader), ": ")
            )
    timer = f" ⏳ {move_time} " + t("s") if move_time else ""
    for note in view.handoff_notes:
        lines += _note_lines(table, note, timer, t)
    if phase is Phase.CALL:
        name = seat_name(table, view.to_act[0], t)
        lines.append(t("{name}: a plain deal or a hvalyonka?", name=f"<b>{name}</b>"))
    elif phase is Phase.WAITING:
        lines.append(waiting_line(view, t))
    elif phase in (Phase.PLAY, Phase.BLIND):
        lines += fit_line(t("On the table:"), on_table(table, view, t) or "—")
        turn = seat_name(table, view.to_act[0], t)
        if phase is Phase.BLIND:
            lines.append(t("Plays face down: {name}", name=f"<b>{turn}</b>") + timer)
        else:
            lines.append(t("To play: {name}", name=f"<b>{turn}</b>") + timer)
    return lines


def _note_lines(table: Table, note: HandoffNote, timer: str, t: Translator) -> list[str]:
    """Sixes' hand-off as the group may know it (RULES.md §1.3 **Decision**): the offer, the
    answer, how many cards passed — never which. The step still awaited follows on its own
    line, naming its seat in bold, with the timer."""
    giver, to = seat_name(table, note.giver, t), seat_name(table, note.to, t)
    if note.answer == "decline":
        return [t("Hand-off: {giver} → {to}: “no need!”", giver=giver, to=to)]
    if note.answer is None:
        return [
            t("{giver}: “I give my last trump!”", giver=giver),
            t("{name} answers.", name=f"<b>{to}</b>") + timer,
        ]
    if not note.given:
        passing = t("{name} passes the trumps face down.", name=f"<b>{giver}</b>")
        return [t("Hand-off: {giver} → {to}: “go ahead!”", giver=giver, to=to), passing + timer]
    count = t.n("{count} card", "{count} cards", note.given)
    if note.returned < note.given:
        return [
            break_after(
                t("Hand-off: {giver} → {to}, {cards} face down", giver=giver, to=to, cards=count),
                ", ",
            ),
            t("{name} returns as many.", name=f"<b>{to}</b>") + timer,
        ]
    return [
        break_after(t("Hand-off: {giver} → {to}, {cards}", giver=giver, to=to, cards=count), ", ")
    ]


def final_table_text(table: Table, result: DealScored, t: Translator) -> str:
    """A deal's table message once the deal is over (the result follows as a new message):
    the score after it, the last trick — who played what, who took it — and the deal's
    points; with two players, the next deal's trump suit. Old results without the last
    trick in their ``details`` show the rest."""
    rules = rules_of(table)
    details = result.details
    trump = Suit(details["trump"]) if details.get("trump") else None
    lines = [
        deal_head(table.variant, result.deal_no, t),
        trump_line(rules, result.deal_no, trump, t),
    ]
    lines += [score_line(table, side, result.score[side], rules, t) for side in (0, 1)]
    last = details.get("last_trick")
    if isinstance(last, Mapping):
        lines.append(
            t(
                "Last trick — {name}, +{points}:",
                name=seat_name(table, int(last["winner"]), t),
                points=last["points"],
            )
        )
        lines += pack_lines(
            [
                f"{seat_name(table, int(seat), t)} {card_label(Card.parse(code), t)}"
                for seat, code in last["cards"]
            ]
        )
    lines.append(t("Points this deal: {a} : {b}", a=result.points[0], b=result.points[1]))
    if details.get("next_trump"):
        lines.append(t("Next deal's trump: {suit}", suit=Suit(details["next_trump"]).symbol))
    lines.append(t("This deal is over."))
    return "\n".join(lines)
