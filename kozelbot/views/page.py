"""What the Mini App shows one person at a table (issue #18), as JSON: the table's public
facts and that seat's own view of the game.

Everything of the game comes from ``view_for(seat)`` — the seat's own view, or the group's
for someone who is not seated — and from the seat's own legal moves (what its private
buttons offer), so a page payload never holds a card its reader cannot see. Cards are
written as the move log writes them (``QC``, ``10H``), moves in the move log's notation
(``play:QC``), which is also what a move sent from the page says.

Hidden steps (``GameState.hidden_turn``: a redeal offer, kryuk's hand-off) look the same from
outside whatever happens in them and whoever is asked (issue #29): the payload carries no
counter of the table's saves (a hand-off is two saves, keeping one; the Mini App's stream
sends a frame whenever the payload changes), and a reader the step does not ask sees no
timer (``seconds_left``). **Decision**: the step shows no public timer rather than one of
its own. The table's deadline is the asked seat's — restarted when kryuk's partner must
return a card, "now" when a computer is to think — and a public timer set once for the
step would run out while a partner still returns a card, which tells that a hand-off is
under way; so the page hides it, as the group's table (which shows no timer) always did.
The asked seat still sees its own time; what the step's length shows is in README, Trust.
"""

from __future__ import annotations

import dataclasses
import enum
import html
from collections.abc import Mapping
from typing import Any

from kozelbot.core.cards import DECK_36, Card
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import AnyState
from kozelbot.core.table import Table
from kozelbot.core.texts import card_label, seat_name
from kozelbot.families.registry import reader_of, rules_of

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
HIDDEN_FIELDS = frozenset({"rules", "strength"})
"""View fields that are the preset's tables, not the game: left out."""


def page(
    table: Table,
    state: AnyState | None,
    seat: int | None,
    now: float,
    t: Translator | None = None,
) -> dict[str, Any]:
    """The payload of the table for ``seat`` (``None``: a spectator) at time ``now``; with a
    translator, each legal move with its label (``moves``) and the page's words (``words``)."""
    players = [
        {
            "seat": index,
            "name": _name(table, index, player.name, t),
            "computer": player.is_computer,
            "away": player.away,
        }
        for index, player in enumerate(table.seats)
        if player is not None
    ]
    legal = [] if state is None or seat is None else [str(a) for a in state.legal_actions(seat)]
    view = None if state is None else state.view_for(seat)
    return {
        "game_id": table.game_id,
        "variant": table.variant,
        "status": str(table.status),
        "seat": seat,
        "players": players,
        "seconds_left": seconds_left(table, state, seat, now),
        "deal": None if state is None else state.deal_shown,
        "view": None if view is None else plain(view),
        "trumps": [] if view is None else trumps(view),
        "legal": legal,
        "moves": []
        if t is None or state is None or seat is None
        else [move(table.variant, action, t) for action in state.legal_actions(seat)],
        "words": {} if t is None else words(t),
        "prompt": None
        if t is None or state is None or seat is None
        else prompt(table, state, seat, t),
    }


def seconds_left(
    table: Table, state: AnyState | None, seat: int | None, now: float
) -> float | None:
    """The move timer as ``seat`` may see it: none in a hidden step that does not ask it
    (the deadline is the asked seat's, so it would tell who is asked and what they did).

    **Decision**: a seat asked in a hidden step together with a computer that is still to
    think (a redeal offer asks every weak hand at once) sees its full move time, not the
    computer's deadline ("now", or its wait): that would tell it a computer is asked too.
    Its own deadline is set, in full, once the computer has answered, so it never has less
    time than it was shown."""
    if table.deadline is None:
        return None
    if state is not None and state.hidden_turn:
        if seat not in state.to_act():
            return None
        if not table.turn_time:  # the deadline is a thinking computer's
            return float(rules_of(table.variant).move_time(state, table.options))
    return max(0.0, table.deadline - now)


def _name(table: Table, seat: int, name: str, t: Translator | None) -> str:
    """A seat's name as the chat shows it (a computer: "🤖 Bot 2"), as plain text."""
    return name if t is None else html.unescape(seat_name(table, seat, t))


def trumps(view: Any) -> list[str]:
    """The cards that are trumps in this deal, as the view's preset and trump say."""
    strength = getattr(view, "strength", None)
    if strength is not None:  # the follow-suit games: the ladder and the trump suit
        return [str(card) for card in view.rules.cards if strength.is_trump(card)]
    trump = getattr(view, "trump", None)
    return [str(card) for card in DECK_36 if trump is not None and card.suit == trump]


def move(variant: str, action: Any, t: Translator) -> dict[str, Any]:
    """A legal move as the page offers it: its notation, its label, the cards it plays."""
    cards = getattr(action, "cards", None)
    if cards is None:
        card = getattr(action, "card", None)
        cards = () if card is None else (card,)
    text = str(action)
    return {
        "action": text,
        "kind": text.split(":", 1)[0],
        "label": reader_of(variant).move_label(action, t),
        "cards": [str(card) for card in cards],
    }


def words(t: Translator) -> dict[str, Any]:
    """The page's own words, in the reader's language."""
    return {
        "your_turn": t("Your turn"),
        "waiting": t("Waiting for {name}", name="{name}"),
        "trick": t("On the table"),
        "last_trick": t("Last trick"),
        "score": t("Score"),
        "trump": t("Trump"),
        "points": t("Points this deal"),
        "watching": t("You are watching"),
        "over": t("The match is over"),
        "offline": t("Connection lost — reconnecting…"),
        "you": t("You"),
        "partner": t("partner"),
        "deal_points": t.p("column", "Points"),
        "took": t("{name} took it", name="{name}"),
        "leads": t("{name} leads", name="{name}"),
        "talon": t("Talon"),
        "pick_more": t("Pick more: {n}", n="{n}"),
        "pick_bad": t("These cards do not go together"),
        "copy": t("Copy the check line"),
        "copied": t("Copied"),
        "verbs": {
            "lead": t("Lead"),
            "beat": t("Beat"),
            "discard": t("Discard"),
            "level": t("Add"),
            "pass": t("Pass"),
        },
        "ranks": {rank: card_label(Card.parse(f"{rank}S"), t)[:-1] for rank in RANKS},
    }


def prompt(table: Table, state: AnyState, seat: int, t: Translator) -> str | None:
    """What the game asks of this seat now, in the chat's own words (the cover hand's
    prompt: «Побейте все стопки или скиньте 3 карты рубашкой вверх»), from its family's
    texts; ``None`` where the page's «Ваш ход» says enough (the follow-suit games, someone
    else's turn)."""
    if seat not in state.to_act():
        return None
    view = state.view_for(seat)
    return reader_of(table.variant).prompt_text(view, list(state.legal_actions(seat)), t)


def plain(value: Any) -> Any:
    """A view as JSON values: cards as their names, enums as their values, records as
    objects (the preset's tables left out), tuples as lists."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in HIDDEN_FIELDS
        }
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)
