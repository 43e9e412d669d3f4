"""What players of the cover game see: table, hand, results and rules, from views.

The private keyboard selects several cards (toggle buttons show the selection) and then acts
with clear verbs — Lead, Beat, Discard, Add (levelling) — plus Pass, Done (Відбій: the last
beater ends the round; ru «Отбой», the word of seed 000) and Claim N; the engine finds which
selected card covers which stack and refuses an impossible selection with its reason. The
selection lives in the presenter (``selected``), not in the game.

Results name every side with its own figures; lists that would not fit a phone's line wrap
between their items (``fit``).

While a game is played the table's points line counts only the face-up cards (leads and
beats) of the tricks taken: the true totals would tell, by subtraction, what lies face down.
They show once the game is scored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from kozelbot.callbacks import ActButton, ChosenButton, SelectButton
from kozelbot.cards import Card, Suit
from kozelbot.cover.state import CoverState
from kozelbot.cover.strength import RANK_OF
from kozelbot.cover.view import View
from kozelbot.cover.vocabulary import (
    Beat,
    Claim,
    Discard,
    IllegalMove,
    Lead,
    Level,
    NotYourTurn,
    Otboy,
    Outcome,
    Pass,
    Phase,
)
from kozelbot.game import DealScored, GameError, MatchOver
from kozelbot.i18n import Translator
from kozelbot.table import Table, TableStatus
from kozelbot.texts import (
    LINE,
    ROW_WIDTH,
    SUIT_ORDER,
    Button,
    Keyboard,
    card_label,
    cards_label,
    common_option_label,
    pack_lines,
    pair_name,
    seat_name,
    taking_line,
    visible,
)

SELECTED = "✅"
FACE_DOWN = "🂠"
PLAYING = (Phase.LEAD, Phase.ANSWER, Phase.REBEAT)
"""The phases a round is played in: only then are its stacks on the table."""


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


def _names(table: Table, sides: int, pairs: bool, t: Translator) -> list[str]:
    """Every side's name: a pair's two names (``Аня+Вера``), or a player's."""
    if pairs:
        return [pair_name(table, s, t) for s in range(sides)]
    return [seat_name(table, s, t) for s in range(sides)]


def _sides(view: View) -> list[int]:
    return [0, 1] if view.rules.pairs else list(range(view.players))


def fit(text: Callable[[str], str], parts: Sequence[str], sep: str = " · ") -> str:
    """``text`` of the ``parts`` joined by ``sep``: on one line when it fits a phone
    (``LINE``), else the parts start a line of their own and wrap between parts, as many
    to a line as fit (so a name never parts from its figure)."""
    one = text(sep.join(parts))
    if all(visible(line) <= LINE for line in one.splitlines()):
        return one
    wrapped = text("\n" + "\n".join(pack_lines(parts, sep)))
    return "\n".join(line.rstrip() for line in wrapped.splitlines() if line.strip())


def _chain(parts: Sequence[str]) -> str:
    """A header: parts joined by `` · ``, wrapped to the phone's width."""
    return fit(lambda joined: joined, parts)


def _versus(parts: Sequence[str]) -> str:
    """Two sides face each other (`` — ``); more players are listed (`` · ``)."""
    return " — " if len(parts) == 2 else " · "


def _figures(label: Callable[[str], str], names: Sequence[str], figures: Sequence[str],
             sides: Sequence[int]) -> str:  # fmt: skip
    """A line of every listed side's name with its own figure (``Аня+Вера 81 — Борис+Глеб
    39``), under ``label``."""
    parts = [f"{names[s]} {figures[s]}" for s in sides]
    return fit(label, parts, _versus(parts))


def and_list(names: Sequence[str], t: Translator) -> str:
    """``Аня``, ``Аня и Борис``, ``Аня, Борис и Вера``."""
    if len(names) < 2:
        return "".join(names)
    return t("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def _played(result: DealScored) -> list[int]:
    """The sides that played this game: not out, or put out by it (each for self, a player
    out before scores nothing; one put out by this game took loser points)."""
    out = set(result.details.get("out", ()))
    return [s for s in range(len(result.points)) if s not in out or result.award[s]]


def _trump_line(view: View, t: Translator) -> str | None:
    """Once the last draw took the talon's bottom card: it is shown to all and its suit is
    trump from then on, this game and the next (RULES.md §2). The seed 000 cut card was shown
    from the start, so nothing changes."""
    if view.bottom is None or view.rules.cut_opening:
        return None
    card = card_label(view.bottom, t)
    if view.trump is view.trump_start:
        return t("Trump stays {suit} (bottom card {card})", suit=view.trump.symbol, card=card)
    return t("Trump changed: {suit} (bottom card {card})", suit=view.trump.symbol, card=card)


def _talon_line(view: View, t: Translator) -> str:
    if not view.talon:
        return t("The talon is empty.")
    line = t.n("Talon: {count} card", "Talon: {count} cards", view.talon)
    if view.bottom is not None:  # the seed 000 cut card, still at the bottom
        line += " · " + t("bottom card {card}", card=card_label(view.bottom, t))
    return line


def _face_down(count: int, t: Translator) -> str:
    return t.n("{count} card face down", "{count} cards face down", count)


def table_text(table: Table, state: CoverState, t: Translator) -> str:
    """The group's table: trump, loser points, talon, stacks, face-down discards, claims and
    who must act now — from the public view. While the game is played its points line counts
    only face-up cards (the face-down ones stay secret); once scored, the true totals."""
    view = state.view_for(None)
    pairs = view.rules.pairs
    names = _names(table, view.rules.sides, pairs, t)
    head = ["🐐 " + t("Game {n}", n=view.game_no + 1), t("trump {suit}", suit=view.trump.symbol),
            escape(title(t))]  # fmt: skip
    if view.multiplier > 1:
        head.append(t("×{m} after eggs", m=view.multiplier))
    lines = [_chain(head)]
    score = [f"{view.score[s]}" + (" 🚪" if not pairs and s in view.out else "")
             for s in range(len(view.score))]  # fmt: skip
    lines.append(_figures(lambda s: t("Loser points: {score}", score=s), names, score,
                          _sides(view)))  # fmt: skip
    lines.append(_talon_line(view, t))
    trump = _trump_line(view, t)
    if trump:
        lines.append(trump)
    if view.stacks and view.phase in PLAYING:
        stacks = ["→".join(card_label(c, t) for c in stack) for stack in view.stacks]
        lines.append(fit(lambda s: t("On the table: {cards}", cards=s), stacks))
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
    sizes = [f"{seat_name(table, s, t)} {view.hand_sizes[s]}" for s in view.in_play
             if view.hand_sizes]  # fmt: skip
    if sizes:
        lines.append(fit(lambda s: t("Cards in hand: {sizes}", sizes=s), sizes))
    scored = view.last_result
    if view.phase in (Phase.DEALING, Phase.OVER) and scored and scored.deal_no == view.game_no:
        lines.append(_figures(lambda s: t("Points this game: {points}", points=s), names,
                              [str(p) for p in scored.points], _played(scored)))  # fmt: skip
    elif view.open_points:
        in_play = [s for s in _sides(view) if pairs or s in view.in_play]
        lines.append(_figures(lambda s: t("Open card points: {points}", points=s), names,
                              [str(p) for p in view.open_points], in_play))  # fmt: skip
    if table.status is TableStatus.STOPPED:
        lines.append(t("The game was stopped."))
    return "\n".join(lines)


def _head(result: DealScored, t: Translator) -> str:
    trump = Suit(result.details["trump"]).symbol if result.details.get("trump") else "—"
    return _chain(["🐐 " + t("Game {n}", n=result.deal_no + 1), t("trump {suit}", suit=trump),
                   escape(title(t))])  # fmt: skip


def final_table_text(table: Table, result: DealScored, t: Translator) -> str:
    """The table message of a scored game: the last trick — who took it and its stacks as
    they lay (face-down cards counted, never named: ``🂠×2``) — and the true points, side
    by side. Games scored before the stacks were kept show no last trick."""
    pairs = table.options.get("mode", "pairs") == "pairs"
    names = _names(table, len(result.score), pairs, t)
    lines = [_head(result, t)]
    details = result.details
    stacks = details.get("last_stacks")
    if stacks and int(details.get("last_taker", -1)) >= 0:
        taker = seat_name(table, int(details["last_taker"]), t)
        shown = ["→".join(card_label(Card.parse(c), t) for c in stack) for stack in stacks]
        if details.get("last_face_down"):
            shown.append(f"{FACE_DOWN}×{int(details['last_face_down'])}")
        lines.append(fit(lambda s: t("Last trick — {name}: {stacks}", name=taker, stacks=s),
                         shown))  # fmt: skip
    lines.append(_figures(lambda s: t("Points this game: {points}", points=s), names,
                          [str(p) for p in result.points], _played(result)))  # fmt: skip
    lines.append(t("This game is over."))
    return "\n".join(lines)


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    """A game's result, posted as a new message: each side's card points, then everybody's
    loser points with what this game added."""
    pairs = table.options.get("mode", "pairs") == "pairs"
    names = _names(table, len(result.score), pairs, t)
    n = result.deal_no + 1
    played = _played(result)
    if result.outcome == Outcome.EGGS:
        lines = [
            t("Game {n}: eggs, 60 : 60.", n=n),
            t("The next game's loser points count ×{m}.", m=result.multiplier * 2),
        ]
    elif result.outcome in (Outcome.ACES, Outcome.SIXES):
        winners = [names[s] for s in played if result.award[s] == 0]
        people = len(winners) * (2 if pairs else 1)
        four = (t("Game {n}: four aces in one hand!", n=n) if result.outcome == Outcome.ACES
                else t("Game {n}: four sixes in one hand!", n=n))  # fmt: skip
        named = and_list(winners, t)
        lines = [four, t.n("{names} wins the match.", "{names} win the match.", people,
                           names=named)]  # fmt: skip
    else:
        lines = [_figures(lambda s: t("Game {n}: {points}", n=n, points=s), names,
                          [str(p) for p in result.points], played)]  # fmt: skip
        if result.multiplier > 1:
            lines.append(t("Loser points ×{m} after eggs.", m=result.multiplier))
    out = set(result.details.get("out", ()))
    score = [
        f"{total}" + (f" (+{award})" if award else "") + (" 🚪" if not pairs and s in out else "")
        for s, (total, award) in enumerate(zip(result.score, result.award, strict=True))
    ]  # fmt: skip
    lines.append(_figures(lambda s: t("Loser points: {score}", score=s), names, score,
                          range(len(score))))  # fmt: skip
    return "\n".join(lines)


def match_over_text(table: Table, over: MatchOver, t: Translator) -> str:
    """The match's winner, then its kozly: «Аня+Вера — козлы», one player «Борис — козёл»."""
    pairs = table.options.get("mode", "pairs") == "pairs"
    names = _names(table, len(over.score), pairs, t)
    losers = [name for s, name in enumerate(names) if s != over.winner]
    people = len(losers) * (2 if pairs else 1)
    named = and_list(losers, t)
    return "\n".join([
        "🏆 " + t("{winner} won the match.", winner=names[over.winner]),
        t.n("{losers} is the kozel 🐐", "{losers} are the kozly 🐐", people, losers=named),
    ])  # fmt: skip


def deal_over_text(deal_no: int, t: Translator) -> str:
    """What a hand message of a finished game says once the next game is dealt."""
    return t("Game {n} is over.", n=deal_no + 1)


def _sorted(hand: tuple[Card, ...], view: View) -> list[Card]:
    return sorted(
        hand,
        key=lambda c: (
            0 if c.suit is view.trump else 1 + SUIT_ORDER.index(c.suit), -RANK_OF[c.rank]
        ),
    )  # fmt: skip


def hand_text(table: Table, state: CoverState, seat: int, t: Translator) -> str:
    """A player's private hand message: the game, the stacks to beat, and what to do now."""
    view = state.view_for(seat)
    head = [escape(title(t)), t("game {n}", n=view.game_no + 1),
            t("trump {suit}", suit=view.trump.symbol)]  # fmt: skip
    if table.chat_title:  # last: a long group name goes to a line of its own
        head.append(escape(table.chat_title))
    lines = [_chain(head)]
    if table.status is not TableStatus.PLAYING or view.phase in (Phase.DEALING, Phase.OVER):
        lines.append(t("This game is over."))
        return "\n".join(lines)
    partner = (seat + 2) % 4 if view.rules.pairs else None
    if partner is not None:
        lines.append(t("Your partner: {name}", name=seat_name(table, partner, t)))
    trump = _trump_line(view, t)
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
    beats = any(isinstance(a, Beat) for a in legal)
    claims = [a for a in legal if isinstance(a, Claim)]
    one = len(view.stacks) == 1
    what = None
    if mine and view.phase is Phase.LEAD:
        what = t("Your lead: select 1–6 cards of one suit, then Lead.")
    elif mine and view.phase is Phase.ANSWER and view.surplus and not beats:
        what = t.n("Discard {count} card face down.", "Discard {count} cards face down.",
                   view.surplus)  # fmt: skip
    elif mine and view.phase is Phase.ANSWER and view.surplus and one:
        what = t.n(
            "Beat the stack, or discard {count} card face down.",
            "Beat the stack, or discard {count} cards face down.",
            view.surplus,
        )
    elif mine and view.phase is Phase.ANSWER and view.surplus:
        what = t.n(
            "Beat every stack, or discard {count} card face down.",
            "Beat every stack, or discard {count} cards face down.",
            view.surplus,
        )
    elif mine and view.phase is Phase.ANSWER:
        what = t("Beat the stack, or pass.") if one else t("Beat every stack, or pass.")
    elif mine and view.phase is Phase.REBEAT:
        what = (t("Beat your stack again, or press Done.") if one
                else t("Beat your stacks again, or press Done."))  # fmt: skip
    elif view.level_count:
        what = t.n(
            "Levelling: add {count} card face down.",
            "Levelling: add {count} cards face down.",
            view.level_count,
        )
    if what:
        lines.append("👉 " + what)
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
        verbs.append(Button(t.p("otboy", "Done"), ActButton(gid, game_no, "otboy").pack()))
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
        names = [seat_name(table, s, t) for s in error.to_act]
        if not names:
            return t("Not your turn.")
        named = and_list(names, t)
        return t.n("It is {names}'s turn now.", "It is the turn of {names} now.", len(names),
                   names=named)  # fmt: skip
    if isinstance(error, IllegalMove):
        reason, count = error.reason, error.count
        if reason == "discard exactly":
            return t.n("Discard exactly {count} card.", "Discard exactly {count} cards.", count)
        if reason == "beat or discard exactly":
            return t.n(
                "Beat every stack, or discard {count} card face down.",
                "Beat every stack, or discard {count} cards face down.",
                count,
            )
        if reason == "add exactly":
            return t.n("Add exactly {count} card.", "Add exactly {count} cards.", count)
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
            "no Відбій now": t("You may not press Done now."),
        }
        return texts.get(reason, t("That move is not allowed."))
    return t("That move is not allowed.")


def done_text(action: Any, t: Translator) -> str:
    """The short answer to a move that was made."""
    if isinstance(action, Lead):
        return t("You led {cards}.", cards=cards_label(action.cards, t))
    if isinstance(action, Beat):
        cards = cards_label(action.cards, t)
        return t.n("You beat it with {cards}.", "You beat them with {cards}.", len(action.cards),
                   cards=cards)  # fmt: skip
    if isinstance(action, Discard):
        return t.n(
            "You discarded {count} card face down.",
            "You discarded {count} cards face down.",
            len(action.cards),
        )
    if isinstance(action, Level):
        return t.n("You added {count} card face down.", "You added {count} cards face down.",
                   len(action.cards))  # fmt: skip
    if isinstance(action, Pass):
        return t("You pass.")
    if isinstance(action, Otboy):
        return t("Done: the round is over.")
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
            t("Classic: the last beater may beat again or end the round (Done). Quick: one "
              "answer each."),
            t("The last beater takes the trick; players above the smallest hand add cards to "
              "it; then everyone draws. The last card of the talon shows the next trump."),
            t("With 4+ cards of a suit, claim the lead («I have N») before you act."),
            t("Loser points: 61+ → 0, 31–60 → 2, 1–30 → 4, 0 → 6; eggs double them. Four aces "
              "or four sixes win at once. Pairs: the first side to 12 loses; each for self: at "
              "12 you are out, the last one left wins."),
        ]
    )  # fmt: skip
