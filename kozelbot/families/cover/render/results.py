"""A scored cover game and a finished match, posted as new messages: each side's card points
and loser points, eggs, four of a kind, the winner and the kozly (the losers: козёл, "the
goat", a side that lost)."""

from __future__ import annotations

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored, MatchOver
from kozelbot.core.table import Table
from kozelbot.families.cover.render.lines import and_list, figures, played, side_names, table_seats
from kozelbot.families.cover.vocabulary import Outcome


def result_text(table: Table, result: DealScored, t: Translator) -> str:
    """A game's result, posted as a new message: each side's card points, then everybody's
    loser points with what this game added."""
    seats = table_seats(table)
    pairs = seats.pairs
    names = side_names(table, len(result.score), pairs, t)
    n = result.deal_no + 1
    sides = played(result)
    if result.outcome == Outcome.EGGS:
        lines = [
            t("Game {n}: eggs, 60 : 60.", n=n),
            t("The next game's loser points count ×{m}.", m=result.multiplier * 2),
        ]
    elif result.outcome in (Outcome.ACES, Outcome.SIXES):
        winners = [s for s in sides if result.award[s] == 0]
        people = sum(len(seats.members(s)) for s in winners)
        four = (
            t("Game {n}: four aces in one hand!", n=n)
            if result.outcome == Outcome.ACES
            else t("Game {n}: four sixes in one hand!", n=n)
        )
        named = and_list([names[s] for s in winners], t)
        lines = [
            four,
            t.n("{names} wins the match.", "{names} win the match.", people, names=named),
        ]
    else:
        lines = [
            figures(
                lambda s: t("Game {n}: {points}", n=n, points=s),
                names,
                [str(p) for p in result.points],
                sides,
            )
        ]
        if result.multiplier > 1:
            lines.append(t("Loser points ×{m} after eggs.", m=result.multiplier))
    out = set(result.details.get("out", ()))
    score = [
        f"{total}" + (f" (+{award})" if award else "") + (" 🚪" if not pairs and s in out else "")
        for s, (total, award) in enumerate(zip(result.score, result.award, strict=True))
    ]
    lines.append(
        figures(lambda s: t("Loser points: {score}", score=s), names, score, range(len(score)))
    )
    return "\n".join(lines)


def match_over_text(table: Table, over: MatchOver, t: Translator) -> str:
    """The match's winner, then its kozly: «Аня+Вера — козлы», one player «Борис — козёл»."""
    seats = table_seats(table)
    names = side_names(table, len(over.score), seats.pairs, t)
    losers = [s for s in range(len(names)) if s != over.winner]
    people = sum(len(seats.members(s)) for s in losers)
    named = and_list([names[s] for s in losers], t)
    return "\n".join(
        [
            "🏆 " + t("{winner} won the match.", winner=names[over.winner]),
            t.n("{losers} is the kozel 🐐", "{losers} are the kozly 🐐", people, losers=named),
        ]
    )


def deal_name(deal_no: int, t: Translator) -> str:
    """«Игра 3»: the cover game's unit is a game, not a deal."""
    return t("Game {n}", n=deal_no + 1)


def deal_over_text(deal_no: int, t: Translator) -> str:
    """What a hand message of a finished game says once the next game is dealt."""
    return t("Game {n} is over.", n=deal_no + 1)
