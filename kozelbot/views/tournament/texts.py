"""What a tournament says in the group and in private: the registration post, the standings
message, a round's tables, a person's table link, the champion. HTML, one idea per line,
short enough for a phone; each reader's own language."""

from __future__ import annotations

import math
import time

from kozelbot.core.callbacks import SeatButton, TournamentButton
from kozelbot.core.i18n import Translator
from kozelbot.core.texts import LINE, Button, Keyboard, pack_lines, visible
from kozelbot.core.tournament.board import Row
from kozelbot.core.tournament.model import Format, Round, Status, Tournament
from kozelbot.core.tournament.standings import standings
from kozelbot.views.boards import MINUS, escape, short_name, variant_title


def format_name(t_: Tournament, t: Translator) -> str:
    """The format in words."""
    if t_.format is Format.PAIRS:
        return t("fixed pairs")
    return t("rotating partners")


def heading(tour: Tournament, t: Translator) -> str:
    """The first lines every tournament post starts with: variant, format, rounds, clock."""
    variant = escape(variant_title(tour.variant, t))
    kind = format_name(tour, t)
    rounds = t.n("{format} · {count} round", "{format} · {count} rounds", tour.rounds, format=kind)
    minutes = t("{minutes} min a round", minutes=tour.round_time)
    return "\n".join(["🏆 " + t("<b>Tournament</b> · {variant}", variant=variant), rounds, minutes])


def registration_text(
    tour: Tournament, t: Translator, now: float | None = None, minute: float = 60.0
) -> str:
    """The registration post: the format, the start (in minutes of ``minute`` seconds from
    ``now``; the post is edited as they pass), and who has entered."""
    lines = [heading(tour, t), ""]
    if tour.status is Status.REGISTRATION:
        if tour.starts_at is not None:
            left = max(1, math.ceil((tour.starts_at - (now or time.time())) / minute - 0.01))
            lines.append(t.n("Starts in {count} minute.", "Starts in {count} minutes.", left))
        else:
            lines.append(t("Starts when its creator presses Start."))
        if tour.format is Format.PAIRS:
            lines.append(t("Join with your partner: reply /pair to their message."))
    elif tour.status is Status.RUNNING:
        lines.append(t("Registration is closed: the tournament is on."))
    elif tour.status is Status.STOPPED:
        lines.append(t("The tournament was stopped."))
    else:
        lines.append(t("The tournament is over."))
    lines.append("")
    lines += entrant_lines(tour, t)
    return "\n".join(lines)


def entrant_lines(tour: Tournament, t: Translator) -> list[str]:
    """Who has entered: people, or pairs (an invitation not yet confirmed is marked)."""
    if not tour.entrants:
        return [t("Nobody has entered yet.")]
    names = {e.user_id: e.name for e in tour.entrants}
    lines = [t.n("{count} entrant:", "{count} entrants:", len(tour.entrants))]
    done: set[int] = set()
    waiting = False
    for e in tour.entrants:
        if e.user_id in done:
            continue
        if tour.format is Format.PAIRS and e.partner_id is not None:
            partner = names.get(e.partner_id)
            if e.confirmed and partner is not None:
                lines.append(f"• {short_name(e.name)} &amp; {short_name(partner)}")
                done.add(e.partner_id)
            else:  # a phone's row: the mark here, its meaning once below the list
                lines.append(f"• {short_name(e.name)} ⏳")
                waiting = True
        else:
            lines.append(f"• {short_name(e.name)}")
        done.add(e.user_id)
    if waiting:
        lines.append("⏳ " + t("waits for the partner to confirm"))
    return lines


def registration_keyboard(tour: Tournament, t: Translator) -> Keyboard:
    """Join / Leave, and Start while registration is open."""
    if tour.status is not Status.REGISTRATION:
        return ()
    tid = tour.tournament_id
    row = (
        Button(t("Join"), TournamentButton(tid, "join").pack()),
        Button(t("Leave"), TournamentButton(tid, "leave").pack()),
    )
    start = (Button("▶️ " + t("Start"), TournamentButton(tid, "start").pack()),)
    return (row, start)


def confirm_keyboard(tour: Tournament, t: Translator) -> Keyboard:
    """The partner's button under an invitation."""
    return ((Button(t("Confirm"), TournamentButton(tour.tournament_id, "confirm").pack()),),)


def round_text(tour: Tournament, rnd: Round, t: Translator) -> str:
    """A round's draw: each table's two pairs, and who sits out."""
    names = {e.user_id: e.name for e in tour.entrants}
    lines = [t("<b>Round {n} of {total}</b>", n=rnd.number, total=tour.rounds)]
    for table in rnd.tables:
        seats = [short_name(names.get(u, "?"), 16) if u is not None else "🤖" for u in table.seats]
        lines.append(t("Table {n}: {a} &amp; {b}", n=table.number, a=seats[0], b=seats[2]))
        # a label needs no case: «соперники: Борис и Вера», not «против Борис и Вера»
        lines.append("    " + t("opponents: {c} &amp; {d}", c=seats[1], d=seats[3]))
    if rnd.byes:
        if tour.format is Format.PAIRS:
            out = [
                " &amp; ".join(short_name(names.get(u, "?"), 16) for u in tour.pairs[p])
                for p in rnd.byes
            ]
        else:
            out = [short_name(names.get(u, "?"), 16) for u in rnd.byes]
        lines.append(t("Sitting out: {names}", names=", ".join(out)))
    if not tour.forum and len(rnd.tables) > 1:
        lines.append(t("The tables play one after another."))
    return "\n".join(lines)


def standings_text(tour: Tournament, rows: list[Row], t: Translator) -> str:
    """The standings message: each competitor's rank, name and match points, then the
    figures behind them (the deal-point difference with a true minus, Buchholz in
    ``pairs``, matches played) — on the same line when it fits a phone's row, else on the
    next — and a legend of those figures (issue #30 item 11)."""
    lines = [heading(tour, t), ""]
    if tour.status is Status.FINISHED and rows:
        lines.append(t("🥇 Champion: <b>{name}</b>", name=short_name(rows[0].name, 40)))
    elif tour.status is Status.STOPPED:
        lines.append(t("The tournament was stopped."))
    elif tour.played:
        done = sum(r.finished for r in tour.played)
        lines.append(
            t("<b>Standings</b> after round {n} of {total}", n=done, total=tour.rounds)
            if done
            else t("<b>Standings</b> · round 1 in play")
        )
    shown = [(_points_line(row, t), _figures(row, t)) for row in rows]
    if all(visible(f"{head} · {figures}") <= LINE for head, figures in shown):
        lines += [f"{head} · {figures}" for head, figures in shown]
    else:  # every competitor's figures on the line under their name, alike
        lines += [part for head, figures in shown for part in (head, "    " + figures)]
    if rows:
        lines += legend_lines(rows, t)
    names = {e.user_id: e.name for e in tour.entrants}
    absent = [
        f"{short_name(names.get(user, '?'), 16)} ({rnd.number})"
        for rnd in tour.played
        for draw in rnd.tables
        for user in draw.no_shows
    ]
    if absent:
        lines.append("🤖 " + t("Did not come (round):"))
        lines += pack_lines(absent, ", ")
    slow = [
        f"{short_name(names.get(user, '?'), 16)} ({rnd.number})"
        for rnd in tour.played
        for draw in rnd.tables
        for user in draw.slow
    ]
    if slow:
        lines.append("🐢 " + t("Slow play (round):"))
        lines += pack_lines(slow, ", ")
    return "\n".join(lines)


def _points_line(row: Row, t: Translator) -> str:
    """``3. Аня — 4 очка``, the name cut (to 24 characters, or less) to fit a phone's row."""
    limit = 24
    while True:
        head = t.n(
            "{rank}. {name} — {count} pt",
            "{rank}. {name} — {count} pts",
            row.points,
            rank=row.rank,
            name=short_name(row.name, limit),
        )
        if visible(head) <= LINE or limit <= 8:
            return head
        limit -= visible(head) - LINE


def _figures(row: Row, t: Translator) -> str:
    """The figures behind a competitor's points: ``± −20 · Б 4 · 2 партии``."""
    figures = [f"± {signed(row.deal_diff)}"]
    if row.buchholz is not None:
        figures.append(t("B {n}", n=row.buchholz))
    figures.append(t.n("{count} match", "{count} matches", row.played))
    return " · ".join(figures)


def signed(value: int) -> str:
    """A difference with its sign: ``+13``, ``−13`` (a true minus, U+2212), ``0``."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def legend_lines(rows: list[Row], t: Translator) -> list[str]:
    """What the standings' figures mean, one per line (Buchholz only in ``pairs``)."""
    lines = [t("pts: match points (win 2, draw 1)"), t("±: card points taken minus given")]
    if any(row.buchholz is not None for row in rows):
        lines.append(t("B: Buchholz, opponents' points"))
    return ["<i>" + line + "</i>" for line in lines]


def table_invite_text(
    tour: Tournament,
    round_no: int,
    table_no: int,
    seats: list[int | None],
    user_id: int,
    t: Translator,
) -> str:
    """The private message to someone drawn to a table (issue #30 item 12): where, with
    whom (``seats``: the draw, seat by seat; ``None`` a computer's) and what to do — the one
    button under it (``invite_keyboard``) within 3 minutes."""
    title = escape(tour.chat_title or "")
    names = {e.user_id: e.name for e in tour.entrants}

    def name(seat: int) -> str:
        user = seats[seat % len(seats)]
        return "🤖" if user is None else short_name(names.get(user, "?"), 16)

    seat = seats.index(user_id)
    partner, left, right = seat + 2, seat + 1, seat + 3  # pairs: 0+2 against 1+3
    return "\n".join(
        [
            t(
                "🏆 Round {n}, table {table} is open in {chat}.",
                n=round_no,
                table=table_no,
                chat=f"<b>{title}</b>",
            ),
            t("Your partner: {name}", name=name(partner)),
            t("Opponents: {c} &amp; {d}", c=name(left), d=name(right)),
            t(
                "Press the button within 3 minutes to take your seat, or a computer plays for you "
                "this round."
            ),
        ]
    )


def invite_keyboard(game_id: int, t: Translator) -> Keyboard:
    """The invitation's one button: it seats the presser (``SeatButton``)."""
    return ((Button("🪑 " + t("Take my seat"), SeatButton(game_id).pack()),),)


def seated_text(round_no: int, table_no: int, t: Translator) -> str:
    """What the invitation says once its button seated the person."""
    return "✅ " + t(
        "Round {n}, table {table}: you have your seat. Your cards will arrive "
        "here when the match starts.",
        n=round_no,
        table=table_no,
    )


def seat_answer(code: str, table_no: int, t: Translator) -> str:
    """The answer to the invitation's button (under Telegram's 200 characters): ``done``,
    ``seated`` (pressed again), ``late`` (the match began without them) or ``over``."""
    if code == "done":
        return t(
            "You have your seat at table {table}. Your cards will arrive here.", table=table_no
        )
    if code == "seated":
        return t(
            "You already have your seat at table {table}: your cards arrive here.", table=table_no
        )
    if code == "late":
        return t(
            "Too late: the match at table {table} began without you, and a computer "
            "plays your seat this round. Your next invitation will come here.",
            table=table_no,
        )
    return t(
        "The match at table {table} is over. Your next invitation will come here.", table=table_no
    )


def registered_text(
    tour: Tournament,
    t: Translator,
    *,
    reachable: bool,
    now: float | None = None,
    minute: float = 60.0,
) -> str:
    """The answer to Join (or Confirm) (issue #30 item 12): what happens next — when the
    draw is, and what the player gets then (under Telegram's 200 characters)."""
    if tour.starts_at is not None:
        left = max(1, math.ceil((tour.starts_at - (now or time.time())) / minute - 0.01))
        when = t.n(
            "You are in: the draw is in {count} minute.",
            "You are in: the draw is in {count} minutes.",
            left,
        )
    else:
        when = t("You are in: the draw is when the creator presses Start.")
    if not reachable:
        return (
            when
            + " "
            + t(
                "Open our private chat (press Start there): your table's "
                "invitation will come there."
            )
        )
    return (
        when
        + " "
        + t(
            "Then I write to you privately: your table, partner and "
            "opponents, and a button to take your seat."
        )
    )


def topic_name(round_no: int, table_no: int, t: Translator) -> str:
    """A table's forum topic: "Тур 2 · стол 1"."""
    return t("Round {n} · table {table}", n=round_no, table=table_no)


def history_lines(tours: list[Tournament], t: Translator) -> list[str]:
    """The group's latest tournaments for /history: when, the game, and the champion (or
    how it stands); empty when the group never had one."""
    if not tours:
        return []
    lines = ["", "🏆 " + t("<b>Tournaments</b>")]
    for tour in tours:
        day = time.strftime("%d.%m.%Y", time.gmtime(tour.created_at))
        variant = escape(variant_title(tour.variant, t))
        if tour.status is Status.FINISHED:
            rows = standings(tour)
            state = t("champion {name}", name=short_name(rows[0].name, 24)) if rows else ""
        elif tour.status is Status.STOPPED:
            state = t("stopped")
        elif tour.status is Status.RUNNING:
            state = t("round {n} of {total}", n=len(tour.played), total=tour.rounds)
        else:
            state = t("registration")
        lines.append(f"{day} · {variant} · {state}")
    return lines
