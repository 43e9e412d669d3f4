"""What /top, /stats and /history show: texts and keyboards built from storage's records.

Pure rendering (records in, HTML text and ``Button`` rows out): no Telegram, no SQL. Every
text stays under Telegram's 4096 characters whatever the names: names are shortened where
many appear, a match is shown ``DEALS_PER_PAGE`` deals a page, and ``fit`` trims whole lines
as a last resort (so no HTML tag is ever cut in two).
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Sequence

from kozelbot.core.callbacks import AnalysisButton, HistoryButton, SealButton
from kozelbot.core.i18n import Translator
from kozelbot.core.records import BoardRow, DealRecord, HistoryPlayer, HistoryRow, VariantStats
from kozelbot.core.texts import Button, Keyboard, computer_name, figure, pack_lines
from kozelbot.families.registry import TABLE_PRESETS, reader_of

MESSAGE_LIMIT = 4096
"""Telegram's limit on a message's text."""
BOARD_MIN_MATCHES = 5
"""Rated matches a person plays before a board lists them."""
BOARD_SIZE = 10
HISTORY_SIZE = 10
"""Matches /history lists."""
DEALS_PER_PAGE = 5
"""Deals a page of a match's deal-by-deal view shows (with seeds, about 2 000 characters)."""
NAME_LIMIT = 16
"""Characters of a name shown where several names share a line."""
MEDALS = ("🥇", "🥈", "🥉")
NUMBERS_PER_ROW = 5
"""History buttons (``№ N``) in one keyboard row."""


# -- small pieces ------------------------------------------------------------------------


MINUS = "−"
"""One minus sign everywhere a figure can be negative (U+2212, as wide as the plus)."""


def rating_label(rating: int) -> str:
    """A shown rating: ``1480`` (four digits stay together, as Russian typesetting has it;
    from five, thousands apart by a narrow no-break space: ``12 480``), one minus sign."""
    size = abs(rating)
    text = f"{size:,}".replace(",", "\u202f") if size >= 10_000 else str(size)
    return MINUS + text if rating < 0 else text


def signed(change: int) -> str:
    """A rating change: ``+40``, ``−20``, ``±0``."""
    if change == 0:
        return "±0"
    return ("+" if change > 0 else MINUS) + rating_label(abs(change))


def escape(text: str) -> str:
    """Text made safe for Telegram's HTML (quotes stay as they are: no attribute holds it)."""
    return html.escape(text, quote=False)


def variant_title(variant: str, t: Translator) -> str:
    """A variant's name for people (the stored word itself for a variant no longer played)."""
    try:
        return reader_of(variant).title(variant, t)
    except KeyError:
        return variant


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A name cut to ``limit`` characters (with "…"), HTML-escaped."""
    clipped = name if len(name) <= limit else name[: limit - 1] + "…"
    return escape(clipped.strip() or "—")


def win_rate(wins: int, matches: int) -> int:
    """Wins as a whole percentage of matches (0 without matches)."""
    return round(100 * wins / matches) if matches else 0


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` within ``limit`` characters: whole lines are dropped from the end (each line's
    tags are balanced, so the HTML stays valid) and "…" says so."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    while lines and len("\n".join(lines)) + 2 > limit:
        lines.pop()
    return "\n".join([*lines, "…"])


def _date(timestamp: float) -> str:
    """A match's day (UTC: Telegram does not tell a chat's time zone)."""
    return time.strftime("%d.%m.%Y", time.gmtime(timestamp))


def player_name(player: HistoryPlayer, t: Translator) -> str:
    """A seat's name, shortened and escaped; computers are "🤖 Bot N"."""
    if player.user_id is None:
        return escape(computer_name(player.seat, t))
    return short_name(player.name)


def side_names(players: Sequence[HistoryPlayer], t: Translator) -> dict[int, str]:
    """Each side's names joined with "+" (seat order), HTML."""
    sides: dict[int, list[str]] = {}
    for player in sorted(players, key=lambda p: p.seat):
        sides.setdefault(player.side, []).append(player_name(player, t))
    return {side: "+".join(names) for side, names in sorted(sides.items())}


def _side(names: dict[int, str], side: int) -> str:
    return names.get(side, str(side + 1))


def score_line(row: HistoryRow, t: Translator) -> str:
    """The final score with the sides' names, the winner marked 🏆 and bold (HTML)."""
    names = side_names(row.players, t)

    def named(side: int) -> str:
        name = _side(names, side)
        return f"🏆 <b>{name}</b>" if side == row.winner_side else name

    if len(row.score) == 2:
        a, b = row.score
        return figure(f"{named(0)} — {named(1)}", f"{a} : {b}")
    return " · ".join(figure(named(side), score) for side, score in enumerate(row.score))


# -- /top ---------------------------------------------------------------------------------


def board_text(
    rows: Sequence[BoardRow],
    variant: str,
    t: Translator,
    *,
    chat_title: str | None = None,
    global_board: bool = False,
    min_matches: int = BOARD_MIN_MATCHES,
) -> str:
    """A variant's board: the chat's (named ``chat_title``) or the global one. One line per
    person, best first: medal or place, name, conservative rating, matches, win rate."""
    title = escape(variant_title(variant, t))
    if global_board:
        head = "🌍 <b>" + escape(t("Global leaderboard")) + f"</b> · {title}"
    else:
        where = escape(chat_title) if chat_title else escape(t("Leaderboard"))
        head = f"🏆 <b>{where}</b> · {title}"
    rule = t.n(
        "People appear after {count} rated match.",
        "People appear after {count} rated matches.",
        min_matches,
    )
    if not rows:
        return fit("\n".join([head, escape(t("Nobody here yet.")) + " " + escape(rule)]))
    lines = [head, "<i>" + escape(t("rating · matches · wins")) + "</i>"]
    for place, row in enumerate(rows, start=1):
        mark = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
        matches = t.n("{count} match", "{count} matches", row.matches)
        lines.append(
            f"{mark} {short_name(row.name, 20)} — <b>{rating_label(row.rating)}</b> · "
            f"{escape(matches)} · {win_rate(row.wins, row.matches)} %"
        )
    lines.append("<i>" + escape(rule) + "</i>")
    return fit("\n".join(lines))


# -- /stats -------------------------------------------------------------------------------


def streak_text(streak: int, t: Translator) -> str | None:
    """🔥 N wins in a row, 🧊 N losses in a row, or nothing."""
    if streak > 0:
        return "🔥 " + t.n("{count} win in a row", "{count} wins in a row", streak)
    if streak < 0:
        return "🧊 " + t.n("{count} loss in a row", "{count} losses in a row", -streak)
    return None


def variant_stats_lines(stats: VariantStats, t: Translator) -> list[str]:
    """One variant's record (HTML lines)."""
    lines = [
        f"🐐 <b>{escape(variant_title(stats.variant, t))}</b> · "
        + escape(t("rating {rating}", rating=rating_label(stats.rating))),
        escape(t.n("{count} match", "{count} matches", stats.matches))
        + " · "
        + escape(t.n("{count} win", "{count} wins", stats.wins))
        + f" ({win_rate(stats.wins, stats.matches)} %)",
        escape(t.n("{count} deal", "{count} deals", stats.deals))
        + " · "
        + escape(t("{points} points a deal", points=f"{stats.points_per_deal:.1f}")),
    ]
    counts = [
        *_family_parts(stats, t),
        t("time-outs {n}", n=stats.timeouts),
        t("left {n}", n=stats.abandons),
    ]
    lines += [escape(line) for line in pack_lines(counts)]
    if stats.best_partner is not None:
        partner = stats.best_partner
        lines.append(
            "🤝 "
            + t.n(
                "Best partner: {name} ({count} win together)",
                "Best partner: {name} ({count} wins together)",
                partner.wins,
                name=short_name(partner.name, 32),
            )
        )
    streak = streak_text(stats.streak, t)
    if streak is not None:
        lines.append(escape(streak))
    return lines


def _section(records: Sequence[VariantStats], t: Translator) -> list[str]:
    lines: list[str] = []
    for stats in records:
        lines += ["", *variant_stats_lines(stats, t)]
    return lines


def stats_text(
    name: str,
    records: Sequence[VariantStats],
    t: Translator,
    *,
    computer: Sequence[VariantStats] | None = None,
) -> str:
    """A person's record per variant (/stats): their group matches and, given ``computer``
    (the private chat), their matches against the computer (/play) in a section of its own."""
    head = "📊 <b>" + short_name(name, 32) + "</b>"
    every = [*records, *(computer or ())]
    lines = [head]
    if any(stats.flagged for stats in every):
        lines.append("⚠️ " + escape(t("(leaves matches: a cowardly kozel)")))
    if computer is None:
        if not records:
            return fit(
                "\n".join(
                    [
                        *lines,
                        escape(t("No finished matches yet."))
                        + " "
                        + escape(t("A /newgame in a group starts one.")),
                    ]
                )
            )
        return fit("\n".join(lines + _section(records, t)))
    lines += ["", "👥 <b>" + escape(t("In groups")) + "</b>"]
    lines += _section(records, t) or [escape(t("No finished matches yet."))]
    lines += ["", "🤖 <b>" + escape(t("Against the computer (/play)")) + "</b>"]
    lines += _section(computer, t) or [escape(t("None yet: /play starts a match."))]
    return fit("\n".join(lines))


# -- /history ----------------------------------------------------------------------------


def match_numbers(rows: Sequence[HistoryRow], total: int) -> list[int]:
    """Each listed match's number in its chat (1 = the chat's first match): the rows are the
    newest of ``total`` finished matches, newest first."""
    total = max(total, len(rows))
    return [total - index for index in range(len(rows))]


def history_text(
    rows: Sequence[HistoryRow], t: Translator, *, total: int, chat_title: str | None = None
) -> str:
    """The chat's last matches, newest first: number, day, variant, the final score."""
    where = f" · {escape(chat_title)}" if chat_title else ""
    lines = ["📜 <b>" + escape(t("Last matches")) + f"</b>{where}"]
    if not rows:
        return fit("\n".join([*lines, escape(t("No finished matches yet."))]))
    for number, row in zip(match_numbers(rows, total), rows, strict=True):
        label = escape(t("№ {n}", n=number))
        title = escape(variant_title(row.variant, t))
        lines += ["", f"<b>{label}</b> · {_date(row.finished_at)} · {title}", score_line(row, t)]
    lines += ["", "<i>" + escape(t("A match's button shows it deal by deal.")) + "</i>"]
    return fit("\n".join(lines))


def history_keyboard(rows: Sequence[HistoryRow], t: Translator, *, total: int) -> Keyboard:
    """A "№ N" button per listed match: its first page of deals."""
    buttons = [
        Button(t("№ {n}", n=number), HistoryButton(row.game_id, 0).pack())
        for number, row in zip(match_numbers(rows, total), rows, strict=True)
    ]
    return tuple(
        tuple(buttons[i : i + NUMBERS_PER_ROW]) for i in range(0, len(buttons), NUMBERS_PER_ROW)
    )


# -- a match deal by deal ------------------------------------------------------------------


def page_count(deals: Sequence[DealRecord]) -> int:
    """Pages of a match's deal-by-deal view (one even without stored deals)."""
    return max(1, math.ceil(len(deals) / DEALS_PER_PAGE))


def _family_parts(stats: VariantStats, t: Translator) -> list[str]:
    """The variant's family's own counts (none for a variant no longer offered)."""
    if stats.variant not in TABLE_PRESETS:
        return []
    return reader_of(stats.variant).tally_parts(stats.tallies, t)


def outcome_label(variant: str, outcome: str, t: Translator) -> str | None:
    """How a deal of ``variant`` ended, in words (its family's); ``None`` for a plain deal."""
    if variant not in TABLE_PRESETS:
        return None if outcome == "normal" else outcome
    return reader_of(variant).outcome_label(outcome, t)


def deal_lines(variant: str, deal: DealRecord, names: dict[int, str], t: Translator) -> list[str]:
    """One deal: its number and outcome, the card points per side, who gained what, and the
    running score (HTML)."""
    head = "<b>" + escape(t("Deal {n}", n=deal.deal_no + 1)) + "</b>"
    outcome = outcome_label(variant, deal.outcome, t)
    if outcome is not None:
        head += " · " + escape(outcome)
    head += " · " + escape(t("points {points}", points=" : ".join(map(str, deal.points))))
    gained = [f"{_side(names, side)} +{award}" for side, award in enumerate(deal.award) if award]
    if gained and deal.multiplier > 1:
        gained[-1] += f" (×{deal.multiplier})"
    score = escape(t("score {score}", score=" : ".join(map(str, deal.score))))
    body = (", ".join(gained) + " → " if gained else "→ ") + score
    return [head, body]


def deals_page_text(
    summary: HistoryRow,
    deals: Sequence[DealRecord],
    page: int,
    t: Translator,
    *,
    number: int | None = None,
) -> str:
    """Page ``page`` (0-based) of a match deal by deal: the match's heading and final score,
    then ``DEALS_PER_PAGE`` deals. ``number`` is the match's number in its chat, if known."""
    ordered = sorted(deals, key=lambda d: d.deal_no)
    pages = page_count(ordered)
    page = min(max(page, 0), pages - 1)
    shown = ordered[page * DEALS_PER_PAGE : (page + 1) * DEALS_PER_PAGE]
    title = escape(variant_title(summary.variant, t))
    if number is not None:
        title = escape(t("№ {n}", n=number)) + " · " + title
    lines = [f"📜 <b>{title}</b> · {_date(summary.finished_at)}", score_line(summary, t)]
    if not shown:
        lines.append(escape(t("The deals of this match were not kept.")))
        return fit("\n".join(lines))
    lines.append(
        "<i>"
        + escape(
            t(
                "Deals {first}–{last} of {count} · page {page}/{pages}",
                first=page * DEALS_PER_PAGE + 1,
                last=page * DEALS_PER_PAGE + len(shown),
                count=len(ordered),
                page=page + 1,
                pages=pages,
            )
        )
        + "</i>"
    )
    names = side_names(summary.players, t)
    for deal in shown:
        lines += ["", *deal_lines(summary.variant, deal, names, t)]
    return fit("\n".join(lines))


def deals_keyboard(
    game_id: int, page: int, pages: int, t: Translator, deals: Sequence[DealRecord] = ()
) -> Keyboard:
    """🔍 N under each deal of the page (the presser's analysis of it, sent privately), ◀ ▶
    between pages (where there is one to go to), «🔑 Check the deals» for a match with
    fair play, and back to the list.

    **Decision** (issue #30 item 6): the page shows no seed, seal or secret — the group
    reads it — the 🔑 button sends the presser the match's whole check privately, as the
    match's result does."""
    shown = deals[page * DEALS_PER_PAGE : (page + 1) * DEALS_PER_PAGE]
    analyses = tuple(
        Button(f"🔍 {deal.deal_no + 1}", AnalysisButton(game_id, deal.deal_no).pack())
        for deal in shown
    )
    arrows = []
    if page > 0:
        arrows.append(Button("◀", HistoryButton(game_id, page - 1).pack()))
    if page < pages - 1:
        arrows.append(Button("▶", HistoryButton(game_id, page + 1).pack()))
    back = (Button(t("↩ Back to the list"), HistoryButton(game_id, -1).pack()),)
    rows: Keyboard = (analyses,) if analyses else ()
    rows += (tuple(arrows),) if arrows else ()
    if any("seed" in deal.trace for deal in deals):
        rows += ((Button("🔑 " + t("Check the deals"), SealButton(game_id, -1).pack()),),)
    return (*rows, back)
