"""What a tournament says in the group and in private: the registration post, the standings
message, a round's tables, a person's table link, the champion. HTML, one idea per line,
short enough for a phone; each reader's own language."""

from __future__ import annotations

import math
import time

from kozelbot.boards import escape, short_name, variant_title
from kozelbot.callbacks import TournamentButton
from kozelbot.i18n import Translator
from kozelbot.texts import Button, Keyboard, break_after
from kozelbot.tournament.board import Row
from kozelbot.tournament.model import Format, Round, Status, Tournament
from kozelbot.tournament.standings import standings


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


def registration_text(tour: Tournament, t: Translator, now: float | None = None,
                      minute: float = 60.0) -> str:  # fmt: skip
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
    for e in tour.entrants:
        if e.user_id in done:
            continue
        if tour.format is Format.PAIRS and e.partner_id is not None:
            partner = names.get(e.partner_id)
            if e.confirmed and partner is not None:
                lines.append(f"• {short_name(e.name)} &amp; {short_name(partner)}")
                done.add(e.partner_id)
            else:
                lines.append("• " + t("{name} (waiting for a partner to confirm)",
                                      name=short_name(e.name)))  # fmt: skip
        else:
            lines.append(f"• {short_name(e.name)}")
        done.add(e.user_id)
    return lines


def registration_keyboard(tour: Tournament, t: Translator) -> Keyboard:
    """Join / Leave, and Start while registration is open."""
    if tour.status is not Status.REGISTRATION:
        return ()
    tid = tour.tournament_id
    row = (Button(t("Join"), TournamentButton(tid, "join").pack()),
           Button(t("Leave"), TournamentButton(tid, "leave").pack()))  # fmt: skip
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
        lines.append("    " + t("vs {c} &amp; {d}", c=seats[1], d=seats[3]))  # a phone's row
    if rnd.byes:
        if tour.format is Format.PAIRS:
            out = [" &amp; ".join(short_name(names.get(u, "?"), 16) for u in tour.pairs[p])
                   for p in rnd.byes]  # fmt: skip
        else:
            out = [short_name(names.get(u, "?"), 16) for u in rnd.byes]
        lines.append(t("Sitting out: {names}", names=", ".join(out)))
    if not tour.forum and len(rnd.tables) > 1:
        lines.append(t("The tables play one after another."))
    return "\n".join(lines)


def standings_text(tour: Tournament, rows: list[Row], t: Translator) -> str:
    """The standings message: rank, name, points and tie-breaks, matches played."""
    lines = [heading(tour, t), ""]
    if tour.status is Status.FINISHED and rows:
        lines.append(t("🥇 Champion: <b>{name}</b>", name=short_name(rows[0].name, 40)))
    elif tour.status is Status.STOPPED:
        lines.append(t("The tournament was stopped."))
    elif tour.played:
        done = sum(r.finished for r in tour.played)
        lines.append(t("<b>Standings</b> after round {n} of {total}", n=done, total=tour.rounds)
                     if done else t("<b>Standings</b> · round 1 in play"))  # fmt: skip
    for row in rows:
        extra = f" · B{row.buchholz}" if row.buchholz is not None else ""
        diff = f"{row.deal_diff:+d}"
        lines.append(t("{rank}. {name} — {points} pts ({diff}{extra}, {played} pl.)",
                       rank=row.rank, name=short_name(row.name, 24), points=row.points,
                       diff=diff, extra=extra, played=row.played))  # fmt: skip
    names = {e.user_id: e.name for e in tour.entrants}
    absent = [f"{short_name(names.get(user, '?'), 16)} ({rnd.number})" for rnd in tour.played
              for draw in rnd.tables for user in draw.no_shows]  # fmt: skip
    if absent:
        line = "🤖 " + t("Did not come (round): {names}", names=", ".join(absent))
        lines.append(break_after(line, ": "))
    slow = [f"{short_name(names.get(user, '?'), 16)} ({rnd.number})" for rnd in tour.played
            for draw in rnd.tables for user in draw.slow]  # fmt: skip
    if slow:
        line = "🐢 " + t("Slow play (round): {names}", names=", ".join(slow))
        lines.append(break_after(line, ": "))
    return "\n".join(lines)


def table_invite_text(tour: Tournament, round_no: int, table_no: int, t: Translator) -> str:
    """The private message to someone drawn to a table."""
    title = escape(tour.chat_title or "")
    return "\n".join([
        t("🏆 Round {n}, table {table} is open in {chat}.", n=round_no, table=table_no,
          chat=f"<b>{title}</b>"),
        t("Take your seat within 3 minutes, or a computer plays for you this round."),
    ])  # fmt: skip


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
