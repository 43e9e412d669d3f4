"""A follow-suit variant described: its table options in words and its rules in brief."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from kozelbot.core.i18n import Translator
from kozelbot.core.texts import common_option_label
from kozelbot.families.follow.presets import PRESETS


def option_label(key: str, value: Any, t: Translator) -> str:
    """One table option in words, for the lobby's line and its ⚙ buttons."""
    common = common_option_label(key, value, t)
    if common is not None:
        return common
    on = bool(value)
    labels: dict[str, str] = {
        "deck": t("Deck {n}", n=value),
        "six_clubs": t("6♣ top trump") if value == "top" else t("6♣ ordinary"),
        "lyusya": t("Lyusya: win") if value == "win" else t("Lyusya: zero"),
        "no_shamok": t("No shamok") if on else t("7♣ shamok"),
        "ace_discard_ban": t("Ace discard ban: on") if on else t("Ace discard ban: off"),
        "royal": t("Royal kozel: on") if on else t("Royal kozel: off"),
    }
    return labels.get(key, f"{key}={value}")


def option_labels(variant: str, options: Mapping[str, Any], t: Translator) -> dict[str, str]:
    """Each table option in words, in the preset's order (six_clubs only with the 36-card
    deck, which has 6♣; seating only with four players)."""
    labels = {}
    for key in PRESETS[variant].keys:
        if key == "six_clubs" and options.get("deck") != 36:
            continue
        if key == "seating" and options.get("players", 4) == 2:
            continue
        labels[key] = option_label(key, options.get(key), t)
    return labels


def _button(key: str, value: Any, t: Translator) -> str:
    """An option as its lobby button shows it (``⚙ Игроков: 2``), for the rules' words."""
    return "⚙ " + escape(option_label(key, value, t))


def _typed(command: str) -> str:
    """What a person may type, set apart as code (``<code>/newgame … players=2</code>``)."""
    return f"<code>{escape(command)}</code>"


def rules_text(variant: str, t: Translator) -> str:
    """/rules [variant]: the chosen variant in brief.

    **Decision** (issue #30 item 11): an option is named in the words of its lobby button
    («⚙ Игроков: 2»), never by its key («players=2»); a command is shown only where typing it
    is the way (a table for two), as code, after «наберите»."""
    texts = {
        "hvalenyi": _rules_hvalenyi,
        "kryuk": _rules_kryuk,
        "sixes": _rules_sixes,
        "belka": _rules_belka,
    }
    return texts.get(variant, _rules_hvalenyi)(t)


def _rules_hvalenyi(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(t("Khvalyony kozel")) + "</b>",
            t("Four players, pairs sit opposite. 36 cards (9 each) or 32 (8 each)."),
            t(
                "Trumps, high to low: 6♣ (shamok), the queens ♣♠♥♦, the jacks ♣♠♥♦, "
                "then diamonds A 10 K 9 8 7 6. In plain suits the ten beats the king."
            ),
            t(
                "The holder of the J♣ leads first. Follow the led suit; if a trump is led, play "
                "a trump. You never have to beat."
            ),
            t("Points: A 11, 10 10, K 4, Q 3, J 2. 61–89 points → 2 eyes, 90+ → 4 eyes."),
            t("60:60 is eggs: no eyes, the next deal counts double (triple after two eggs…)."),
            t("6♣ and the opponents' Q♣ in one trick: the deal ends, the 6♣ pair gets 4 eyes."),
            t("All tricks (Lyusya): the match is won, or the losers' eyes go to zero."),
            t("A hand under 14 points may ask for a redeal before the first card."),
            t("The first pair to 12 eyes wins."),
            t(
                "Two players (the lobby's “{option}” button): each for self, 8 or 9 cards "
                "each; the rest of the deck is dealt when both hands are empty; clubs are trump "
                "in the first deal, then the suit of the previous deal's last card; no redeal.",
                option=_button("players", 2, t),
            ),
            t("A table for two: type {command}", command=_typed("/newgame hvalenyi players=2")),
        ]
    )


def _rules_kryuk(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(t("Kozel with the Hook")) + "</b>",
            t("Four players in pairs, 32 cards, 8 each."),
            t(
                "Trumps, high to low: 7♣ (the hook), Q♣ (pelotka), Q♠ Q♥ Q♦, the jacks ♣♠♥♦, "
                "then clubs A 10 K 9 8."
            ),
            t(
                "The first deal is led with the A♦; then the first lead passes clockwise (it stays "
                "after eggs). Only the pair that led first may lead a trump while holding a plain "
                "card — nobody in the first deal, both pairs at 10:10."
            ),
            t(
                "One trump with points in your hand: hand it to your partner before the first "
                "lead; they return a card. The opponents are not told."
            ),
            t(
                "Hvalyonka (from the second deal): the first leader is praised — dealt cards two "
                "at a time until a plain one arrives, and leads it face down; the others are "
                "dealt the same way and play blind."
            ),
            t("7♣ and the opponents' Q♣ in one trick: 4 points (12 in the first deal)."),
            t(
                "61–89 → 2, 90–119 → 4, 120 → 6; all 8 tricks send the opponents back to 0 "
                "(at 0 they lose; at 0:0 it is 6). Eggs: 2 points for the next deal's winner."
            ),
            t(
                "10 s a move (15 s for a deal's first); on time-out a random legal card. "
                "The first pair to 12 wins."
            ),
        ]
    )


def _rules_sixes(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(t("Kozel on sixes")) + "</b>",
            t("Four players in pairs, 32 cards; the sixes are the board of pairs."),
            t(
                "Trumps: 7♣ (shamok), the queens, the jacks, then clubs A 10 K 9 8 (with "
                "“{option}”: queens, jacks, then diamonds).",
                option=_button("no_shamok", True, t),
            ),
            t(
                "61–89 → 1 pair, 90+ → 2. All 8 tricks (Lyusya) send the opponents back to 0 and "
                "score nothing else; in the first deal they win the match. Eggs: one pair more "
                "for the next deal's winner. The first pair to 6 wins."
            ),
            t(
                "Four nines or 12 points or less: demand a redeal; the third demand in a row is "
                "refused and costs the dealing pair a pair."
            ),
            t(
                "One or two trumps before the first lead: announce “I give my last trump!”; if "
                "your partner says “go ahead”, pass one or both face down and get as many plain "
                "cards back. The table hears the offer and the answer and learns how many cards "
                "passed, never which."
            ),
            t(
                "From the second deal the first leader may call a hvalyonka instead of a plain "
                "deal — shtany, double shtany or mirror: the first trick is drawn from the deck "
                "and played."
            ),
            t(
                "Options in the lobby: “{ban}” — no ace of an unled suit as a discard; "
                "“{royal}” — four aces win the match.",
                ban=_button("ace_discard_ban", True, t),
                royal=_button("royal", True, t),
            ),
        ]
    )


def _rules_belka(t: Translator) -> str:
    return "\n".join(
        [
            "<b>" + escape(t("Belka")) + "</b>",
            t("Four players in pairs, 32 cards (or 36)."),
            t("The jacks are the top trumps: J♣ J♠ J♥ J♦. Plain suits: A 10 K Q 9 8 7 (6)."),
            t(
                "Each seat owns a suit from the first deal (the J♣ holder clubs, then ♠ ♥ ♦ "
                "clockwise); each deal's trump is the suit of the seat holding the J♣, whose "
                "pair is on obligation and leads."
            ),
            t("On obligation: 61–89 → 1 eye, 90+ → 2; the other pair: 2 and 3."),
            t(
                "Eggs, Lyusya, the redeal under 14 points and the match to 12 as in {title} "
                "({command}).",
                title=escape(t("Khvalyony kozel")),
                command=_typed("/rules hvalenyi"),
            ),
        ]
    )
