"""A cover player's private keyboard: card toggles that select several cards (✅ shows the
selection), then the verbs the seat may use now — Lead, Beat, Discard, Add (levelling), Pass,
Done (Відбій) and Claim N — and the move a verb makes of the selected cards.

The engine finds which selected card covers which stack and refuses an impossible selection
with its reason. The selection lives in the presenter (``selected``), not in the game.
"""

from __future__ import annotations

from kozelbot.core.callbacks import ActButton
from kozelbot.core.cards import Card
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.texts import ROW_WIDTH, SUIT_ORDER, Button, Keyboard, card_label
from kozelbot.families.cover.buttons import ChosenButton, SelectButton
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.strength import RANK_OF
from kozelbot.families.cover.view import View
from kozelbot.families.cover.vocabulary import (
    CARD_MOVES,
    Beat,
    Claim,
    Discard,
    Lead,
    Level,
    Otboy,
    Pass,
    Phase,
)

SELECTED = "✅"


def _sorted(hand: tuple[Card, ...], view: View) -> list[Card]:
    """Trumps first, then the suits in the table's order; high to low within a suit."""
    return sorted(
        hand,
        key=lambda c: (
            0 if c.suit is view.trump else 1 + SUIT_ORDER.index(c.suit),
            -RANK_OF[c.rank],
        ),
    )


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
        Button(
            (SELECTED if c in selected else "") + card_label(c, t),
            SelectButton(gid, game_no, c).pack(),
        )
        for c in cards
    ]
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
            verbs.append(
                Button(t("I have {n}", n=action.count), ActButton(gid, game_no, str(action)).pack())
            )
    if verbs:
        rows += [tuple(verbs[i : i + 3]) for i in range(0, len(verbs), 3)]
    return tuple(rows)


def from_selection(verb: str, selected: frozenset[Card]) -> Lead | Beat | Discard | Level:
    """The move a verb button makes of the selected cards."""
    cards = tuple(sorted(selected, key=str))
    if verb not in CARD_MOVES:
        raise ValueError(f"no such verb: {verb}")
    return CARD_MOVES[verb](cards)
