"""The group's table message of a cover game, from the public view: trump, loser points,
talon, stacks and who led them, face-down discards, claims and who must act — and, once a
game is scored, its last trick and true points.

While a game is played the table's points line counts only the face-up cards (leads and
beats) of the tricks taken: the true totals would tell, by subtraction, what lies face down.
They show once the game is scored.
"""

from __future__ import annotations

from html import escape

from kozelbot.core.cards import Card, Suit
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored
from kozelbot.core.table import Table
from kozelbot.core.texts import card_label, ended_line, figure, fit, pack_lines, seat_name
from kozelbot.families.cover.render.lines import (
    FACE_DOWN,
    chain,
    figures,
    played,
    side_names,
    sides_of,
    table_seats,
    trump_line,
)
from kozelbot.families.cover.render.rules import title
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.view import PLAYING, View
from kozelbot.families.cover.vocabulary import Phase


def _talon_line(view: View, t: Translator) -> str:
    if not view.talon:
        return t("The talon is empty.")
    parts = [t.n("Talon: {count} card", "Talon: {count} cards", view.talon)]
    if view.bottom is not None:  # the seed 000 cut card, still at the bottom
        parts.append(t("bottom card {card}", card=card_label(view.bottom, t)))
    return "\n".join(pack_lines(parts))


def _face_down(count: int, t: Translator) -> str:
    return t.n("{count} card face down", "{count} cards face down", count)


def table_text(table: Table, state: CoverState, t: Translator) -> str:
    """The group's table: trump, loser points, talon, stacks and who led them, face-down
    discards, claims and who must act now — from the public view. While the game is played
    its points line counts only face-up cards (the face-down ones stay secret); once
    scored, the true totals."""
    view = state.view_for(None)
    pairs = view.rules.pairs
    names = side_names(table, view.rules.sides, pairs, t)
    head = [
        "🐐 " + t("Game {n}", n=view.game_no + 1),
        t("trump {suit}", suit=view.trump.symbol),
        escape(title(t)),
    ]
    if view.multiplier > 1:
        head.append(t("×{m} after eggs", m=view.multiplier))
    lines = [chain(head)]
    score = [
        f"{view.score[s]}" + (" 🚪" if not pairs and s in view.out else "")
        for s in range(len(view.score))
    ]
    lines.append(
        figures(lambda s: t("Loser points: {score}", score=s), names, score, sides_of(view))
    )
    lines.append(_talon_line(view, t))
    trump = trump_line(view, t)
    if trump:
        lines.append(trump)
    if view.stacks and view.phase in PLAYING:
        stacks = ["→".join(card_label(c, t) for c in stack) for stack in view.stacks]
        lines.append(fit(lambda s: t("On the table: {cards}", cards=s), stacks))
        if view.leader is not None:  # whose lead it is, once beaten (issue #30 item 11)
            lines.append(t("Led by {name}", name=seat_name(table, view.leader, t)))
    if view.discards:
        lines.append(_face_down(view.discards, t) + " " + FACE_DOWN)
    for seat, count in view.claims:
        lines.append(t("{name}: «I have {n}»", name=seat_name(table, seat, t), n=count))
    if view.phase is Phase.LEVEL:
        leveling = [seat_name(table, s, t) for s in view.to_act]
        lines.append(fit(lambda s: t("Levelling: {names}", names=s), leveling, ", "))
    elif view.to_act:
        name = f"<b>{seat_name(table, view.to_act[0], t)}</b>"
        what = {
            Phase.LEAD: t("{name} leads", name=name),
            Phase.ANSWER: t("{name} answers", name=name),
            Phase.REBEAT: t("{name}: beat again or Done", name=name),
        }.get(view.phase)
        if what:
            lines.append(what)
    sizes = [
        figure(seat_name(table, s, t), view.hand_sizes[s]) for s in view.in_play if view.hand_sizes
    ]
    if sizes:
        lines.append(fit(lambda s: t("Cards in hand: {sizes}", sizes=s), sizes))
    scored = view.last_result
    if view.phase in (Phase.DEALING, Phase.OVER) and scored and scored.deal_no == view.game_no:
        lines.append(
            figures(
                lambda s: t("Points this game: {points}", points=s),
                names,
                [str(p) for p in scored.points],
                played(scored),
            )
        )
    elif view.open_points:
        in_play = [s for s in sides_of(view) if pairs or s in view.in_play]
        lines.append(
            figures(
                lambda s: t("Open card points: {points}", points=s),
                names,
                [str(p) for p in view.open_points],
                in_play,
            )
        )
    ended = ended_line(table, t)
    if ended is not None:
        lines.append(ended)
    return "\n".join(lines)


def _head(result: DealScored, t: Translator) -> str:
    trump = Suit(result.details["trump"]).symbol if result.details.get("trump") else "—"
    return chain(
        [
            "🐐 " + t("Game {n}", n=result.deal_no + 1),
            t("trump {suit}", suit=trump),
            escape(title(t)),
        ]
    )


def final_table_text(table: Table, result: DealScored, t: Translator) -> str:
    """The table message of a scored game: the last trick — who took it and its stacks as
    they lay (face-down cards counted, never named: ``🂠×2``) — and the true points, side
    by side. Games scored before the stacks were kept show no last trick."""
    names = side_names(table, len(result.score), table_seats(table).pairs, t)
    lines = [_head(result, t)]
    details = result.details
    stacks = details.get("last_stacks")
    if stacks and int(details.get("last_taker", -1)) >= 0:
        taker = seat_name(table, int(details["last_taker"]), t)
        shown = ["→".join(card_label(Card.parse(c), t) for c in stack) for stack in stacks]
        if details.get("last_face_down"):
            shown.append(f"{FACE_DOWN}×{int(details['last_face_down'])}")
        lines.append(fit(lambda s: t("Last trick — {name}: {stacks}", name=taker, stacks=s), shown))
    lines.append(
        figures(
            lambda s: t("Points this game: {points}", points=s),
            names,
            [str(p) for p in result.points],
            played(result),
        )
    )
    lines.append(t("This game is over."))
    return "\n".join(lines)
