"""The buttons of a private hand message: its cards, then the step's answers.

One button per card, then the answers the step asks for (redeal, hand-off, call).
"""

from __future__ import annotations

from kozelbot.core.callbacks import ActButton
from kozelbot.core.cards import Card
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table, TableStatus
from kozelbot.core.texts import (
    NOT_NOW,
    ROW_WIDTH,
    SUIT_ORDER,
    Button,
    Keyboard,
    card_label,
    cards_label,
)
from kozelbot.families.follow.buttons import PlayButton, RedealButton
from kozelbot.families.follow.render.common import opening_name, sort_hand
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import (
    IN_DEAL,
    Action,
    AnswerOffer,
    CallOpening,
    GiveTrump,
    KeepHand,
    OfferHandoff,
    Phase,
    ReturnCard,
)


def hand_keyboard(
    table: Table,
    state: MatchState,
    seat: int,
    t: Translator,
    selected: frozenset[Card] = frozenset(),
) -> Keyboard:
    """One button per card, then the answers the phase asks for (redeal, hand-off, call);
    one card a press, so ``selected`` is not used.

    **Decision** (issue #30 item 9): when a move of yours is limited (following suit, the
    cards you may return) the cards you may play come first, in the hand's usual order and
    rows, and the others follow in their own rows, bracketed «(К♥)» (``NOT_NOW``): the choice
    reads at a glance and the thumb finds it on top. Otherwise (not your turn, or any card
    will do) the hand keeps its usual order, unmarked, so it stands still between turns; it
    changes only with the edit that starts or ends your turn (UX.md), never with an edit of
    its own. Every card stays pressable: an illegal press is answered with the reason."""
    view = state.view_for(seat)
    if table.status is not TableStatus.PLAYING or view.phase not in IN_DEAL:
        return ()
    gid, deal_no = table.game_id, view.deal_no
    returning = view.phase is Phase.HANDOFF and view.returning == seat
    returns = {a.card for a in view.actions if isinstance(a, ReturnCard)}
    my_move = seat in view.to_act and view.phase in (Phase.PLAY, Phase.BLIND)
    cards = sort_hand(view.hand, view)
    allowed = returns if returning else set(view.legal) if my_move else set(cards)
    may = [c for c in cards if c in allowed]
    rows = _card_rows(may, view, t, gid, deal_no, returning=returning, not_now=False)
    rest = [c for c in cards if c not in allowed]
    rows += _card_rows(rest, view, t, gid, deal_no, returning=returning, not_now=True)
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
        row = [
            Button(
                "🤝 " + t("Hand off {card}", card=cards_label(a.cards, t)),
                ActButton(gid, deal_no, str(a)).pack(),
            )
            for a in gives
        ]
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
        buttons = [
            Button(opening_name(a.kind, t), ActButton(gid, deal_no, str(a)).pack()) for a in calls
        ]
        rows += [tuple(buttons[:2]), tuple(buttons[2:])]
    return tuple(rows)


def _card_rows(
    cards: list[Card],
    view: View,
    t: Translator,
    gid: int,
    deal_no: int,
    *,
    returning: bool,
    not_now: bool,
) -> list[tuple[Button, ...]]:
    """Card buttons in rows: a row per trumps and per suit, at most ``ROW_WIDTH`` a row;
    bracketed (``NOT_NOW``) when ``not_now``."""
    rows: list[tuple[Button, ...]] = []
    group: list[Button] = []
    last_key: int | None = None
    for card in cards:
        key = 0 if view.strength.is_trump(card) else 1 + SUIT_ORDER.index(card.suit)
        if last_key is not None and (key != last_key or len(group) == ROW_WIDTH):
            rows.append(tuple(group))
            group = []
        last_key = key
        label = card_label(card, t)
        if not_now:
            label = NOT_NOW.format(card=label)
        data: ActButton | PlayButton = PlayButton(gid, deal_no, card)
        if returning:
            data = ActButton(gid, deal_no, str(ReturnCard(card)))
        group.append(Button(label, data.pack()))
    if group:
        rows.append(tuple(group))
    return rows


def from_selection(verb: str, selected: frozenset[Card]) -> Action:
    """Follow-suit moves take one card a press: no verb acts on a selection."""
    raise ValueError(f"no such verb: {verb}")
