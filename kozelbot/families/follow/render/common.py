"""What several of the family's texts share.

The names of variants, openings and score units, the deal's head and trump lines, a side's
score, the trick on the table, the deck left (two players) and the one line a hidden step
shows.
"""

from __future__ import annotations

from html import escape

from kozelbot.core.cards import Card, Suit
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table
from kozelbot.core.texts import (
    SUIT_ORDER,
    break_after,
    card_label,
    eyes,
    pack_lines,
    pair_name,
    seat_name,
)
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import IN_DEAL

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


def units(scoring: str, count: int, t: Translator) -> str:
    """A score in the preset's unit: eyes, points (kryuk) or pairs on the board (sixes)."""
    if scoring == "points":
        return t.n("{count} point", "{count} points", count)
    if scoring == "pairs":
        return t.n("{count} pair", "{count} pairs", count)
    return eyes(count, t)


def opening_name(kind: str, t: Translator) -> str:
    """An opening (a plain deal, kryuk's hvalyonka, a sixes call) in words."""
    names = {
        "plain": t("a plain deal"),
        "hvalyonka": t("hvalyonka"),
        "shtany": t("shtany"),
        "double_shtany": t("double shtany"),
        "mirror": t("mirror"),
    }
    return names.get(kind, kind)


def rules_of(table: Table) -> Rules:
    """The rules the table's preset builds from its options."""
    rules: Rules = PRESETS[table.variant].rules(table.options)
    return rules


def deal_head(variant: str, deal_no: int, t: Translator) -> str:
    """The first line of a table message: the deal and the variant."""
    return "🐐 " + t("Deal {n}", n=deal_no + 1) + f" · {escape(variant_title(variant, t))}"


def trump_line(rules: Rules, deal_no: int, trump: Suit | None, t: Translator) -> str:
    """The deal's trump suit, and for two players why it is that suit (RULES.md §1.1: clubs
    in the first deal, then the suit of the previous deal's last card)."""
    suit = trump.symbol if trump is not None else "—"
    if rules.trump_rule == "last_card" and deal_no == 0:
        return break_after(t("Trump {suit}: always clubs in the first deal", suit=suit), ": ")
    if rules.trump_rule == "last_card":
        return break_after(t("Trump {suit}: the previous deal's last card", suit=suit), ": ")
    return t("Trump {suit}", suit=suit)


def score_line(table: Table, side: int, score: int, rules: Rules, t: Translator) -> str:
    """A side's match score; sixes draws its board of pairs (●○ to six)."""
    if rules.scoring == "pairs":
        board = "●" * min(score, rules.target) + "○" * max(rules.target - score, 0)
        return f"{pair_name(table, side, t)}: {board} ({score})"
    return f"{pair_name(table, side, t)}: {units(rules.scoring, score, t)}"


def side_size(table: Table) -> int:
    """Players on a side: two in pairs, one in a duel (plural forms follow it)."""
    return 1 if len(table.seats) == 2 else 2


def deck_line(view: View, t: Translator) -> str | None:
    """Two players: what is left of the deck, dealt again when both hands are empty, and
    when it has run out (RULES.md §1.1)."""
    if view.players != 2 or view.phase not in IN_DEAL:
        return None
    if view.talon:
        return t.n("Deck: {count} card left", "Deck: {count} cards left", view.talon)
    return t("Deck empty: these are the last cards.")


def waiting_line(view: View, t: Translator) -> str:
    """The one line a hidden step shows to everyone it does not ask: the deal waits, not
    who or why (no timer either: it would tell that someone is asked)."""
    if view.played:
        return t("Waiting for play to go on…")
    return t("Waiting for the deal to start…")


def on_table(table: Table, view: View, t: Translator) -> str:
    """The trick on the table, each card with who played it; a card face down is 🂠. Wider
    than a phone's row, it wraps between cards, never between a card and its player."""
    return "\n".join(
        pack_lines(
            [
                f"{seat_name(table, s, t)} {card_label(c, t) if c is not None else FACE_DOWN}"
                for s, c in view.trick
            ]
        )
    )
