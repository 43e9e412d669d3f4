"""What players of the cover game see: table, hand, results and rules, from views.

The private keyboard selects several cards (toggle buttons show the selection) and then acts
with clear verbs — Lead, Beat, Discard, Add (levelling) — plus Pass, Відбій and Claim N; the
engine finds which selected card covers which stack and refuses an impossible selection
with its reason. The selection lives in the presenter (``selected``), not in the game.

While a game is played the table's points line counts only the face-up cards (leads and
beats) of the tricks taken: the true totals would tell, by subtraction, what lies face down.
They show once the game is scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from kozelbot.callbacks import ActButton, ChosenButton, SelectButton
from kozelbot.cards import Card, Suit
from kozelbot.cover.state import (
    RANK_OF,
    Beat,
    Claim,
    CoverState,
    Discard,
    IllegalMove,
    Lead,
    Level,
    NotYourTurn,
    Otboy,
    Outcome,
    Pass,
    Phase,
    View,
)
from kozelbot.game import DealScored, GameError, MatchOver
from kozelbot.i18n import Translator
from kozelbot.table import Table, TableStatus
from kozelbot.texts import (
    ROW_WIDTH,
    SUIT_ORDER,
    Button,
    Keyboard,
    card_label,
    common_option_label,
    pair_name,
    seat_name,
)

SELECTED = "✅"
FACE_DOWN = "🂠"


def title(t: Translator) -> str:
    return t("Cover kozel")


def option_labels(options: Mapping[str, Any], t: Translator) -> dict[str, str]:
    """Each table option in words (``players`` only when each plays for self)."""
    labels = {
        "hand": t("Classic, 6 cards") if options.get("hand") == 6 else t("Quick, 4 cards"),
        "mode": t("Pairs") if options.get("mode") == "pairs" else t("Each for self"),
    }
    if options.get("mode") == "self":
        labels["players"] = _common("players", options, t)
    labels["poshka"] = t("Poshka 6♠: on") if options.get("poshka") else t("Poshka 6♠: off")
    labels["opening"] = (
        t("Trump by the cut") if options.get("opening") == "seed000" else t("First trump ♦")
    )
    labels["save"] = t("Saved from {n} points", n=options.get("save"))
    labels["seating"] = _common("seating", options, t)
    labels["move_time"] = _common("move_time", options, t)
    return labels


def _common(key: str, options: Mapping[str, Any], t: Translator) -> str:
    label = common_option_label(key, options.get(key), t)
    assert label is not None
    return label


def _side_name(table: Table, view: View, side: int, t: Translator) -> str:
    return pair_name(table, side, t) if view.rules.pairs else seat_name(table, side, t)


def _sides(view: View) -> list[int]:
    return [0, 1] if view.rules.pairs else list(range(view.players))


def table_text(table: Table, state: CoverState, t: Translator) -> str:
    """The group's table: trump, talon, stacks, face-down discards, loser points, claims and
    who must act now — from the public view. While the game is played its points line counts
    only face-up cards (the face-down ones stay secret); once scored, the true totals."""
    view = state.view_for(None)
    head = (
        "🐐 " + t("Game {n}", n=view.game_no + 1)
        + " · " + t("trump {suit}", suit=view.trump.symbol)
        + f" · {escape(title(t))}"
    )  # fmt: skip
    if view.multiplier > 1:
        head += " · " + t("×{m} after eggs", m=view.multiplier)
    lines = [head]
    for side in _sides(view):
        mark = " 🚪" if not view.rules.pairs and side in view.out else ""
        lines.append(t("{name}: {n} loser points", name=_side_name(table, view, side, t),
                       n=view.score[side]) + mark)  # fmt: skip
    talon = t("Talon: {n} cards", n=view.talon)
    if view.bottom is not None:
        talon += " · " + t("bottom card {card}", card=card_label(view.bottom, t))
    lines.append(talon)
    if view.stacks:
        stacks = "  ".join("→".join(card_label(c, t) for c in stack) for stack in view.stacks)
        lines.append(t("On the table: {cards}", cards=stacks))
    if view.discards:
        lines.append(t("Face down: {n}", n=view.discards) + " " + FACE_DOWN)
    for seat, count in view.claims:
        lines.append(t("{name}: «I have {n}»", name=seat_name(table, seat, t), n=count))
    if view.phase is Phase.LEVEL:
        names = ", ".join(seat_name(table, s, t) for s in view.to_act)
        lines.append(t("Levelling: {names}", names=names))
    elif view.to_act:
        name = f"<b>{seat_name(table, view.to_act[0], t)}</b>"
        what = {
            Phase.LEAD: t("{name} leads", name=name),
            Phase.ANSWER: t("{name} answers", name=name),
            Phase.REBEAT: t("{name}: beat again or Відбій", name=name),
        }.get(view.phase)
        if what:
            lines.append(what)
    sizes = " · ".join(
        f"{seat_name(table, s, t)} {view.hand_sizes[s]}" for s in view.in_play
    )  # fmt: skip
    if sizes:
        lines.append(t("Cards in hand: {sizes}", sizes=sizes))
    scored = view.last_result
    if view.phase in (Phase.DEALING, Phase.OVER) and scored and scored.deal_no == view.game_no:
        lines.append(t("Points this game: {points}", points=_points(scored.points)))
    elif view.open_points:
        lines.append(t("Open card points: {points}", points=_points(view.open_points)))
    if table.status is TableStatus.STOPPED:
        lines.append(t("The game was stopped."))
    return "\n".join(lines)


def _points(points: tuple[int, ...]) -> str:
    """Every side's card points, ``a : b (: c …)``."""
    return " : ".join(str(p) for p in points)


def final_table_text(table: Table, result: DealScored, t: Translator) -> str:
    trump = Suit(result.details["trump"]).symbol if result.details.get("trump") else "—"
    lines = [
        "🐐 " + t("Game {n}", n=result.deal_no + 1) + " · " + t("trump {suit}", suit=trump)
        + f" · {escape(title(t))}",
        t("Points this game: {points}", points=_points(result.points)),
        t("This game is over."),
    ]  # fmt: skip
    return "\n".join(lines)


def _names(table: Table, sides: int, pairs: bool, t: Translator) -> list[str]:
    if pairs:
        return [pair_name(table, s, t) for s in range(sides)]
    return [seat_name(table, s, t) for s in range(sides)]


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    pairs = table.options.get("mode", "pairs") == "pairs"
    names = _names(table, len(result.score), pairs, t)
    n = result.deal_no + 1
    if result.outcome == Outcome.EGGS:
        body = t("Game {n}: eggs, 60 : 60. The next game's loser points count ×{m}.", n=n,
                 m=result.multiplier * 2)  # fmt: skip
    elif result.outcome in (Outcome.ACES, Outcome.SIXES):
        winners = [names[s] for s, award in enumerate(result.award) if award == 0]
        four = t("four aces") if result.outcome == Outcome.ACES else t("four sixes")
        body = t("Game {n}: {what} in one hand — {names} win the match!", n=n, what=four,
                 names=", ".join(winners))  # fmt: skip
    else:
        gained = ", ".join(
            f"{name} +{award}" for name, award in zip(names, result.award, strict=True) if award
        ) or t("nobody")  # fmt: skip
        body = t("Game {n}: points {points}; loser points: {gained}.", n=n,
                 points=_points(result.points), gained=gained)  # fmt: skip
        if result.multiplier > 1:
            body += " " + t("(×{m})", m=result.multiplier)
    score = " · ".join(f"{name} {s}" for name, s in zip(names, result.score, strict=True))
    return body + " " + t("Loser points: {score}.", score=score)


def match_over_text(table: Table, over: MatchOver, t: Translator) -> str:
    pairs = table.options.get("mode", "pairs") == "pairs"
    names = _names(table, len(over.score), pairs, t)
    losers = ", ".join(n for s, n in enumerate(names) if s != over.winner)
    return "🏆 " + t("{winner} won the match. {losers} are the kozly 🐐", winner=names[over.winner],
                     losers=losers)  # fmt: skip


def _sorted(hand: tuple[Card, ...], view: View) -> list[Card]:
    return sorted(
        hand,
        key=lambda c: (
            0 if c.suit is view.trump else 1 + SUIT_ORDER.index(c.suit), -RANK_OF[c.rank]
        ),
    )  # fmt: skip


def hand_text(table: Table, state: CoverState, seat: int, t: Translator) -> str:
    view = state.view_for(seat)
    where = f" · {escape(table.chat_title)}" if table.chat_title else ""
    lines = [
        f"{escape(title(t))}{where} · " + t("game {n}", n=view.game_no + 1) + " · "
        + t("trump {suit}", suit=view.trump.symbol)
    ]  # fmt: skip
    if table.status is not TableStatus.PLAYING or view.phase in (Phase.DEALING, Phase.OVER):
        lines.append(t("This game is over."))
        return "\n".join(lines)
    if view.rules.pairs:
        lines.append(t("Your partner: {name}", name=seat_name(table, (seat + 2) % 4, t)))
    if view.stacks:
        tops = " ".join(card_label(stack[-1], t) for stack in view.stacks)
        lines.append(t("To beat: {cards}", cards=tops))
    mine = seat in view.to_act
    claims = [a for a in state.legal_actions(seat) if isinstance(a, Claim)]
    if mine and view.phase is Phase.LEAD:
        lines.append("👉 " + t("Your lead: select 1–6 cards of one suit, then Lead."))
    elif mine and view.phase is Phase.ANSWER and view.surplus:
        lines.append("👉 " + t("Beat every stack, or discard {n} face down.", n=view.surplus))
    elif mine and view.phase is Phase.ANSWER:
        lines.append("👉 " + t("Beat every stack, or pass."))
    elif mine and view.phase is Phase.REBEAT:
        lines.append("👉 " + t("Beat your own stacks again, or call Відбій."))
    elif view.level_count:
        lines.append("👉 " + t("Levelling: add {n} cards face down.", n=view.level_count))
    if claims:
        lines.append(t("You may claim the lead: «I have {n}».", n=claims[0].count))
    return "\n".join(lines)


def hand_keyboard(
    table: Table,
    state: CoverState,
    seat: int,
    t: Translator,
    selected: frozenset[Card] = frozenset(),
) -> Keyboard:
    """Card toggles (✅ when selected), then the verbs this seat may use now."""
    view = state.view_for(seat)
    if table.status is not TableStatus.PLAYING or view.phase in (Phase.DEALING, Phase.OVER):
        return ()
    gid, game_no = table.game_id, view.game_no
    cards = _sorted(view.hand, view)
    buttons = [
        Button((SELECTED if c in selected else "") + card_label(c, t),
               SelectButton(gid, game_no, c).pack())
        for c in cards
    ]  # fmt: skip
    rows: list[tuple[Button, ...]] = [
        tuple(buttons[i : i + ROW_WIDTH]) for i in range(0, len(buttons), ROW_WIDTH)
    ]
    legal = state.legal_actions(seat)
    verbs: list[Button] = []
    kinds = {type(a) for a in legal}
    for kind, verb, label in (
        (Lead, "lead", t("Lead")),
        (Beat, "beat", t("Beat")),
        (Discard, "discard", t("Discard")),
        (Level, "level", t("Add")),
    ):
        if kind in kinds:
            verbs.append(Button("▶ " + label, ChosenButton(gid, game_no, verb).pack()))
    if Pass in kinds:
        verbs.append(Button(t("Pass"), ActButton(gid, game_no, "pass").pack()))
    if Otboy in kinds:
        verbs.append(Button("Відбій", ActButton(gid, game_no, "otboy").pack()))
    for action in legal:
        if isinstance(action, Claim):
            verbs.append(Button(t("I have {n}", n=action.count),
                                ActButton(gid, game_no, str(action)).pack()))  # fmt: skip
    if verbs:
        rows += [tuple(verbs[i : i + 3]) for i in range(0, len(verbs), 3)]
    return tuple(rows)


def from_selection(verb: str, selected: frozenset[Card]) -> Any:
    """The move a verb button makes of the selected cards."""
    cards = tuple(sorted(selected, key=str))
    kinds = {"lead": Lead, "beat": Beat, "discard": Discard, "level": Level}
    if verb not in kinds:
        raise ValueError(f"no such verb: {verb}")
    return kinds[verb](cards)


def error_text(error: GameError, table: Table, t: Translator) -> str:
    """A short alert for a refused move, with its reason."""
    if isinstance(error, NotYourTurn):
        names = ", ".join(seat_name(table, s, t) for s in error.to_act)
        return t("It is {name}'s turn now.", name=names) if names else t("Not your turn.")
    if isinstance(error, IllegalMove):
        reason, count = error.reason, error.count
        if reason == "discard exactly":
            return t("Discard exactly {n} cards.", n=count)
        if reason == "beat or discard exactly":
            return t("Beat every stack, or discard {n} face down.", n=count)
        if reason == "add exactly":
            return t("Add exactly {n} cards.", n=count)
        texts = {
            "cards not in hand": t("Select cards from your hand."),
            "one suit": t("A lead is of one suit."),
            "lead 1 to 6 cards": t("Select 1 to 6 cards to lead."),
            "does not beat every stack": t("These cards do not beat every stack, one card each."),
            "no beat now": t("You may not beat now."),
            "nothing to discard": t("You have nothing to discard."),
            "no pass now": t("You may not pass now."),
            "no claim": t("You may not claim the lead now."),
            "not a lead now": t("It is not time to lead."),
            "no Відбій now": t("No Відбій now."),
        }
        return texts.get(reason, t("That move is not allowed."))
    return t("That move is not allowed.")


def done_text(action: Any, t: Translator) -> str:
    if isinstance(action, Lead | Beat | Discard | Level):
        what = {Lead: t("You led {cards}."), Beat: t("You beat with {cards}."),
                Discard: t("You discarded {n} face down."), Level: t("You added {n} face down.")}[
            type(action)]  # fmt: skip
        return what.format(cards=" ".join(card_label(c, t) for c in action.cards),
                           n=len(action.cards))  # fmt: skip
    if isinstance(action, Pass):
        return t("You pass.")
    if isinstance(action, Otboy):
        return "Відбій!"
    if isinstance(action, Claim):
        return t("You claimed the lead: «I have {n}».", n=action.count)
    return t("Done.")


def rules_text(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(title(t)) + "</b>",
            t("2 to 4 players, in pairs or each for self; 36 cards; 6 (classic) or 4 (quick) "
              "in hand, refilled from the talon. Order: 6 7 8 9 J Q K 10 A."),
            t("Lead 1–6 cards of one suit. To beat, put a higher card on every stack (a higher "
              "one of the suit, or a trump). Whoever holds more cards than the last beater "
              "beats or discards the difference face down."),
            t("Classic: the last beater may beat again or call Відбій. Quick: one answer each."),
            t("The last beater takes the trick; players above the smallest hand add cards to "
              "it; then everyone draws. The last card of the talon shows the next trump."),
            t("With 4+ cards of a suit, claim the lead («I have N») before you act."),
            t("Loser points: 61+ → 0, 31–60 → 2, 1–30 → 4, 0 → 6; eggs double them. Four aces "
              "or four sixes win at once. Pairs: the first side to 12 loses; each for self: at "
              "12 you are out, the last one left wins."),
        ]
    )  # fmt: skip
