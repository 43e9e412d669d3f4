"""What players are shown of fair play (``kozelbot.fairplay``): seals, seeds and the secret.

Each line is HTML with its value in ``<code>`` (copyable into ``kozelbot verify``). What is
shown when: the match seal in the lobby; the players' seed once the match starts; each
deal's seal on its table while it is played; its seed texts once it is scored; the match
secret when the match is over (or stopped) — never earlier.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from kozelbot.callbacks import SealButton
from kozelbot.fairplay import commitment, current_commitment, match_seal
from kozelbot.game import DealScored, GameState
from kozelbot.i18n import Translator
from kozelbot.table import Table
from kozelbot.texts import Button, Keyboard


def commit_line(table: Table, state: GameState, t: Translator) -> str | None:
    """The seal of the cards in play, for the table message; ``None`` without fair play."""
    digest = current_commitment(state.seeds) if table.secret else None
    return None if digest is None else seal_line(digest, t)


SHORT = 8
"""Hex digits of a seal a table shows: enough to compare by eye, one phone row with its
label; the whole value is behind the table's 🔒 button, in /history and ``kozelbot verify``."""


def short(digest: str) -> str:
    """The first digits of a hash, in ``<code>``, marked as cut."""
    return f"<code>{digest[:SHORT]}</code>…"


def seal_line(digest: str, t: Translator) -> str:
    """``🔒 Shuffle seal: <code>1a2b3c4d</code>…``: a deal's commitment, short."""
    label = escape(t("Shuffle seal"))
    return f"🔒 {label}: {short(digest)}"


def match_seal_line(table: Table, t: Translator) -> str | None:
    """The lobby's line with the match seal (SHA-256 of the secret, which stays hidden)."""
    if not table.secret:
        return None
    label = escape(t("Match seal"))
    return f"🔒 {label}: {short(match_seal(table.secret))}"


def players_seed_line(table: Table, t: Translator) -> str | None:
    """The players' seed, once the match has started."""
    if not table.secret or not table.client_seed:
        return None
    label = escape(t("Players’ seed"))
    return f"🎲 {label}: {short(table.client_seed)}"


def seals_in_full(table: Table, deal_seal: str | None, t: Translator) -> str:
    """What the 🔒 button answers (plain text, under Telegram's 200 characters): the deal's
    seal, or the match's seal and players' seed, whole."""
    if deal_seal is not None:
        return t("Shuffle seal") + ": " + deal_seal
    lines = [t("Match seal") + ": " + match_seal(table.secret)]
    if table.client_seed:
        lines.append(t("Players’ seed") + ": " + table.client_seed)
    return "\n".join(lines)


def seal_keyboard(table: Table, deal_no: int | None, t: Translator) -> Keyboard:
    """The button under a table (``deal_no``) or a lobby (``None``) that shows its seals
    whole; nothing without fair play."""
    if not table.secret:
        return ()
    button = SealButton(table.game_id, -1 if deal_no is None else deal_no)
    return ((Button("🔒 " + t("Seal in full"), button.pack()),),)


def secret_line(table: Table, t: Translator) -> str | None:
    """The match secret, revealed once the match is over or stopped."""
    if not table.secret or table.status.live:
        return None
    label = escape(t("Match secret"))
    return f"🔑 {label}: <code>{table.secret}</code>"


def revealed_seeds(deal: DealScored | GameState | Mapping[str, Any]) -> list[str]:
    """The seed texts that may be shown for a deal: a result's, a stored deal trace's, or a
    state's when the deal it shows is scored (never a deal still in play)."""
    if isinstance(deal, Mapping):
        if "seed" not in deal:
            return []
        return [*(str(r["seed"]) for r in deal.get("redealt", ())), str(deal["seed"])]
    if isinstance(deal, DealScored):
        return list(deal.seeds)
    last = deal.last_result
    if last is None or last.deal_no != deal.deal_shown:
        return []
    return list(last.seeds)


def reveal(
    table: Table, deal: DealScored | GameState | Mapping[str, Any], t: Translator
) -> str | None:
    """The lines revealing a scored deal's seed texts, the played one last; ``None``
    without fair play."""
    seeds = revealed_seeds(deal) if table.secret else []
    if not seeds:
        return None
    label = escape(t("Shuffle seed"))
    return "\n".join(f"🔓 {label}: <code>{escape(seed)}</code>" for seed in seeds)


def revealed_table(text: str, table: Table, result: DealScored, t: Translator) -> str:
    """A scored deal's table message: the seal it showed (the seed itself is revealed in
    the deal's result post, once)."""
    seeds = revealed_seeds(result) if table.secret else []
    if not seeds:
        return text
    return f"{text}\n{seal_line(commitment(seeds[-1]), t)}"


def revealed_result(text: str, table: Table, result: DealScored, t: Translator) -> str:
    """A deal's result post, with the seed texts it reveals (whole: to copy into
    ``kozelbot verify``)."""
    revealed = reveal(table, result, t)
    return text if revealed is None else f"{text}\n{revealed}"


def sealed_table(text: str, table: Table, state: GameState, t: Translator) -> str:
    """A table message with the seal of the cards in play (and, once the match was
    stopped, the secret)."""
    lines = [text, commit_line(table, state, t), secret_line(table, t)]
    return "\n".join(line for line in lines if line)
