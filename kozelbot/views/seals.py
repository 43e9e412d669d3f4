"""What players are shown of fair play (``kozelbot.core.fairplay``): a plain line, a button, and
the whole check once the match is over.

**Decision** (issue #30 item 6, "hex everywhere"): the group reads no hex. The lobby says
in one line, in plain words, that the deals can be checked at the end; its 🔒 button
answers (an alert, anyone may press it) with the match seal — fixed and stored when the
lobby opens, before anyone joins, which is what makes the deals checkable — and, once the
match starts, the players' contribution. No table shows a deal's seal and no deal result
its key: the match seal commits to the secret, the players' contribution is fixed at the
start, and every deal's key is HMAC(secret, contribution:n), so a per-deal seal adds no
check (``kozelbot verify`` with the match flags proves each key). At the match's end one
button («🔑 Проверить раздачи») sends whoever presses it, privately, everything
``kozelbot verify`` needs: the secret, the match seal, the players' contribution and each
deal's key and seal, as copyable shell lines (``verify_texts``); /history keeps them too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from kozelbot.core.callbacks import SealButton
from kozelbot.core.fairplay import commitment, match_seal
from kozelbot.core.fit import MESSAGE_LIMIT
from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import AnyState, DealScored
from kozelbot.core.records import DealRecord
from kozelbot.core.table import Table
from kozelbot.core.texts import Button, Keyboard


def fair_play_line(table: Table, t: Translator) -> str | None:
    """The lobby's one fair-play line, no digits in it; ``None`` without fair play."""
    if not table.secret:
        return None
    return "🔒 " + escape(t("The deals can be checked after the match."))


def seals_in_full(table: Table, deal_seal: str | None, t: Translator) -> str:
    """What the lobby's 🔒 button answers (plain text, under Telegram's 200 characters):
    the match's seal and, once started, the players' contribution, whole; or, for a 🔒 button
    of a table sent before issue #30 (``deal_seal``), that deal's seal."""
    if deal_seal is not None:
        return t("Shuffle seal") + ": " + deal_seal
    lines = [t("Match seal") + ": " + match_seal(table.secret)]
    if table.client_seed:
        lines.append(t("Players’ seed") + ": " + table.client_seed)
    return "\n".join(lines)


def seal_keyboard(table: Table, t: Translator) -> Keyboard:
    """The lobby's 🔒 button, which shows the match seal whole; nothing without fair play."""
    if not table.secret:
        return ()
    return ((Button("🔒 " + t("Match seal"), SealButton(table.game_id, -1).pack()),),)


def check_keyboard(table: Table, t: Translator) -> Keyboard:
    """«🔑 Check the deals» under a match's result (or its stopped table): the press sends
    the presser everything ``kozelbot verify`` needs; nothing while the match is live or
    without fair play."""
    if not table.secret or table.status.live:
        return ()
    return ((Button("🔑 " + t("Check the deals"), SealButton(table.game_id, -1).pack()),),)


def revealed_seeds(deal: DealScored | AnyState | Mapping[str, Any]) -> list[str]:
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


def _shuffles(trace: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A stored deal's shuffles as ``(seed, seal)``, a redealt deal's earlier ones first: the
    seal the bot recorded before the deal (SHA-256 of the seed where none was kept)."""
    kept = [*trace.get("redealt", ()), trace] if "seed" in trace else []
    pairs = []
    for shuffle in kept:
        seed, seal = str(shuffle["seed"]), shuffle.get("commit")
        pairs.append((seed, seal if isinstance(seal, str) and seal else commitment(seed)))
    return pairs


def verify_texts(table: Table, deals: Sequence[DealRecord], t: Translator) -> list[str]:
    """What «🔑 Check the deals» sends (HTML messages, each under 4,096 characters): the
    match's secret, seal and players' contribution as shell variables, then one
    ``kozelbot verify`` line per shuffle (a redealt deal's earlier ones first) — a block to
    copy whole (the variables alone when no deal was scored: the secret still checks
    against the lobby's seal). Empty while the match is live (the secret stays hidden) or
    without fair play.

    **Decision**: a long match takes several messages, each a complete block (the variables
    repeated), so any one of them can be pasted alone."""
    if not table.secret or table.status.live:
        return []
    how = t(
        "Paste into a shell with KozelBot installed: each line checks one deal and "
        "prints its hands, OK or MISMATCH."
    )
    head = "🔑 <b>" + escape(t("Checking the deals")) + "</b>\n" + escape(how)
    flags = ""
    variables = [f"SECRET={table.secret}", f"SEAL={match_seal(table.secret)}"]
    if table.client_seed:
        variables.append(f"PLAYERS={table.client_seed}")
        flags = ' --secret "$SECRET" --seal "$SEAL" --client "$PLAYERS"'
    lines: list[str] = []
    for deal in sorted(deals, key=lambda d: d.deal_no):
        sealed = _shuffles(deal.trace)
        if sealed:
            lines.append("# " + t("Deal {n}", n=deal.deal_no + 1))
        lines += [f"kozelbot verify {seed} {seal}{flags}" for seed, seal in sealed]
    texts: list[str] = []
    block: list[str] = []

    def text_of(body: list[str]) -> str:
        return head + "\n<pre>" + escape("\n".join([*variables, *body]), quote=False) + "</pre>"

    for line in lines:
        if block and len(text_of([*block, line])) > MESSAGE_LIMIT:
            texts.append(text_of(block))
            block = []
        block.append(line)
    texts.append(text_of(block))
    return texts
