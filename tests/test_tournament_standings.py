"""The standings and the cross table (issue #19), on hand-computed tournaments: match points
per side, the deal difference, byes, no-shows, Buchholz, shared ranks and the cells."""

from __future__ import annotations

from kozelbot.core.tournament.board import Cell, Row
from kozelbot.core.tournament.model import (
    BYE_PAIRS,
    BYE_ROTATING,
    Entrant,
    Format,
    Round,
    TableDraw,
    TableResult,
    Tournament,
)
from kozelbot.core.tournament.standings import cross, standings

NAMES = {1: "Аня", 2: "Борис", 3: "Вера", 4: "Глеб", 5: "Дина", 6: "Егор", 7: "Жанна", 8: "Зоя"}


def tour(fmt: Format, played: list[Round], people: int = 5, **extra: object) -> Tournament:
    """A running tournament of people 1… with ``NAMES``."""
    entrants = [Entrant(user_id=u, name=NAMES[u], confirmed=True) for u in range(1, people + 1)]
    return Tournament.model_validate(
        {
            "chat_id": -1,
            "creator_id": 1,
            "variant": "hvalenyi",
            "seed": 1,
            "format": fmt,
            "entrants": entrants,
            "played": played,
            **extra,
        }
    )


def result(winner: int | None, score: tuple[int, int], points: tuple[int, int]) -> TableResult:
    """A finished table's result."""
    return TableResult(winner_side=winner, score=score, points=points)


def table(
    number: int,
    seats: list[int | None],
    res: TableResult | None = None,
    no_shows: list[int] | None = None,
) -> TableDraw:
    """A table of a round."""
    return TableDraw(number=number, seats=seats, result=res, no_shows=no_shows or [])


# Rotating, five people. Round 1: Аня+Вера beat Борис+Глеб 12:7 (cards 70:50), Дина's bye.
# Round 2: Аня+Борис beat Дина+Глеб 12:3 (cards 80:40), but Борис never came; Вера's bye.
ROTATING = [
    Round(number=1, tables=[table(1, [1, 2, 3, 4], result(0, (12, 7), (70, 50)))], byes=[5]),
    Round(number=2, tables=[table(1, [5, 1, 4, 2], result(1, (3, 12), (40, 80)), [2])], byes=[3]),
]


def test_rotating_scores_the_side_a_bye_and_a_no_show_as_a_loss() -> None:
    rows = standings(tour(Format.ROTATING, ROTATING))
    assert rows == [
        Row(
            rank=1,
            competitor=1,
            name="Аня",
            points=4,
            deal_diff=60,
            buchholz=None,
            played=2,
            byes=0,
        ),
        Row(
            rank=2,
            competitor=3,
            name="Вера",
            points=2 + BYE_ROTATING,
            deal_diff=20,
            buchholz=None,
            played=1,
            byes=1,
        ),
        Row(
            rank=3,
            competitor=5,
            name="Дина",
            points=BYE_ROTATING,
            deal_diff=-40,
            buchholz=None,
            played=1,
            byes=1,
        ),
        # Борис's side won round 2, but he was not there: a loss and no deal points.
        Row(
            rank=4,
            competitor=2,
            name="Борис",
            points=0,
            deal_diff=-20,
            buchholz=None,
            played=2,
            byes=0,
        ),
        Row(
            rank=5,
            competitor=4,
            name="Глеб",
            points=0,
            deal_diff=-60,
            buchholz=None,
            played=2,
            byes=0,
        ),
    ]


def test_rotating_cross_shows_scores_from_the_persons_side() -> None:
    board = cross(tour(Format.ROTATING, ROTATING))
    assert board.columns == ("1", "2")
    cells = {row.competitor: list(cells) for row, cells in board.rows}
    assert [row.competitor for row, _ in board.rows] == [1, 3, 5, 2, 4]
    assert cells[1] == [Cell("win", "12:7"), Cell("win", "12:3")]
    assert cells[2] == [Cell("loss", "7:12"), Cell("loss", "—")]
    assert cells[3] == [Cell("win", "12:7"), Cell("bye", "")]
    assert cells[5] == [Cell("bye", ""), Cell("loss", "3:12")]


def test_competitors_level_on_every_key_share_a_rank_listed_by_name() -> None:
    played = [Round(number=1, tables=[table(1, [3, 2, 1, 4], result(0, (12, 0), (90, 30)))])]
    rows = standings(tour(Format.ROTATING, played))
    # Аня (1) and Вера (3) won level; Дина (5) never played; Борис and Глеб lost level.
    assert [(row.rank, row.competitor) for row in rows] == [(1, 1), (1, 3), (3, 5), (4, 2), (4, 4)]


def test_a_draw_scores_one_each_and_ties_list_by_name_then_id() -> None:
    played = [Round(number=1, tables=[table(1, [7, 8, 6, 5], result(None, (6, 6), (60, 60)))])]
    t = tour(Format.ROTATING, played, people=8)
    t.entrants[3] = Entrant(user_id=4, name="Аня")
    t.entrants.reverse()  # the order of registration decides nothing
    rows = standings(t)
    assert [(r.rank, r.competitor, r.points) for r in rows] == [
        (1, 5, 1),
        (1, 6, 1),
        (1, 7, 1),
        (1, 8, 1),
        (5, 1, 0),
        (5, 4, 0),
        (5, 2, 0),
        (5, 3, 0),
    ]


def test_before_round_one_everyone_is_level_at_zero() -> None:
    rows = standings(tour(Format.ROTATING, []))
    assert [(r.rank, r.name, r.points, r.played) for r in rows] == [
        (1, name, 0, 0) for name in ("Аня", "Борис", "Вера", "Глеб", "Дина")
    ]
    assert cross(tour(Format.ROTATING, [])).columns == ()


def test_a_table_in_play_counts_nothing_and_shows_its_number() -> None:
    played = [
        Round(
            number=1,
            tables=[
                table(1, [1, 2, 3, 4], result(1, (2, 12), (30, 90))),
                table(2, [5, 99, None, 6]),
            ],
        )
    ]
    t = tour(Format.ROTATING, played, people=6)
    rows = {row.competitor: row for row in standings(t)}
    assert rows[5].played == 0 and rows[5].points == 0
    assert rows[99].name == "99"  # drawn but not registered: the user id
    cells = {row.competitor: cells for row, cells in cross(t).rows}
    assert cells[5] == (Cell("playing", "2"),) and cells[2] == (Cell("win", "12:2"),)


# Pairs: 0 = Аня & Борис, 1 = Вера & Глеб, 2 = Дина & Егор, 3 = Жанна & Зоя.
PAIRS = [(1, 2), (3, 4), (5, 6), (7, 8)]


def seats(a: int, b: int) -> list[int | None]:
    """Pair ``a`` on seats 0+2, pair ``b`` on 1+3."""
    return [PAIRS[a][0], PAIRS[b][0], PAIRS[a][1], PAIRS[b][1]]


PAIRS_PLAYED = [
    Round(
        number=1,
        tables=[
            table(1, seats(0, 1), result(0, (12, 5), (90, 30))),
            table(2, seats(2, 3), result(1, (6, 12), (50, 70))),
        ],
    ),
    Round(
        number=2,
        tables=[
            table(1, seats(0, 2), result(0, (12, 0), (120, 0))),
            table(2, seats(1, 3), result(0, (12, 10), (65, 55))),
        ],
    ),
]


def test_pairs_rank_by_points_then_buchholz_then_deal_points() -> None:
    rows = standings(tour(Format.PAIRS, PAIRS_PLAYED, people=8, pairs=PAIRS))
    assert rows == [
        Row(
            rank=1,
            competitor=0,
            name="Аня & Борис",
            points=4,
            deal_diff=180,
            buchholz=2,
            played=2,
            byes=0,
        ),
        # Вера & Глеб and Жанна & Зоя have 2 points each: Buchholz 6 beats 2, though the
        # deal points say otherwise.
        Row(
            rank=2,
            competitor=1,
            name="Вера & Глеб",
            points=2,
            deal_diff=-50,
            buchholz=6,
            played=2,
            byes=0,
        ),
        Row(
            rank=3,
            competitor=3,
            name="Жанна & Зоя",
            points=2,
            deal_diff=10,
            buchholz=2,
            played=2,
            byes=0,
        ),
        Row(
            rank=4,
            competitor=2,
            name="Дина & Егор",
            points=0,
            deal_diff=-140,
            buchholz=6,
            played=2,
            byes=0,
        ),
    ]


def test_pairs_cross_has_a_column_per_pair_and_an_empty_diagonal() -> None:
    board = cross(tour(Format.PAIRS, PAIRS_PLAYED, people=8, pairs=PAIRS))
    assert board.columns == ("1", "2", "3", "4")
    cells = {row.competitor: cells for row, cells in board.rows}
    assert [row.competitor for row, _ in board.rows] == [0, 1, 3, 2]
    blank = Cell("", "")
    assert cells[0] == (blank, Cell("win", "12:5"), Cell("win", "12:0"), blank)
    assert cells[1] == (Cell("loss", "5:12"), blank, blank, Cell("win", "12:10"))
    assert cells[3] == (blank, Cell("loss", "10:12"), Cell("win", "12:6"), blank)


def test_a_pairs_bye_scores_a_win_and_is_no_buchholz_opponent() -> None:
    played = [
        Round(number=1, tables=[table(1, seats(0, 1), result(1, (4, 12), (40, 80)))], byes=[2])
    ]
    rows = {
        r.competitor: r for r in standings(tour(Format.PAIRS, played, people=6, pairs=PAIRS[:3]))
    }
    assert (rows[2].points, rows[2].byes, rows[2].played, rows[2].buchholz) == (BYE_PAIRS, 1, 0, 0)
    assert (rows[1].points, rows[1].buchholz, rows[1].deal_diff) == (2, 0, 40)
    assert (rows[0].points, rows[0].buchholz, rows[0].deal_diff) == (0, 2, -40)
    ranked = standings(tour(Format.PAIRS, played, people=6, pairs=PAIRS[:3]))
    assert [(r.rank, r.competitor) for r in ranked] == [(1, 1), (2, 2), (3, 0)]


def test_a_pair_keeps_its_result_unless_neither_came() -> None:
    one_came = [Round(number=1, tables=[table(1, seats(0, 1), result(0, (12, 3), (80, 40)), [2])])]
    rows = {
        r.competitor: r for r in standings(tour(Format.PAIRS, one_came, people=4, pairs=PAIRS[:2]))
    }
    assert (rows[0].points, rows[0].deal_diff) == (2, 40)
    neither = [
        Round(
            number=1,
            tables=[
                table(1, seats(0, 1), result(0, (12, 3), (80, 40)), [1, 2]),
            ],
        )
    ]
    t = tour(Format.PAIRS, neither, people=4, pairs=PAIRS[:2])
    rows = {r.competitor: r for r in standings(t)}
    assert (rows[0].points, rows[0].deal_diff, rows[0].played) == (0, 0, 1)
    assert (rows[1].points, rows[1].deal_diff) == (0, -40)  # the opponents' loss stands
    cells = {row.competitor: cells for row, cells in cross(t).rows}
    assert cells[0][1] == Cell("loss", "—") and cells[1][0] == Cell("loss", "3:12")


def test_pairs_meeting_twice_show_both_scores() -> None:
    played = [
        *PAIRS_PLAYED,
        Round(number=3, tables=[table(1, seats(1, 0), result(0, (12, 8), (70, 50)))]),
        Round(number=4, tables=[table(1, seats(0, 1))]),
    ]
    cells = {
        row.competitor: cells
        for row, cells in cross(tour(Format.PAIRS, played, people=8, pairs=PAIRS)).rows
    }
    assert cells[0][1] == Cell("playing", "1")
    assert cells[0][2] == Cell("win", "12:0")
    played[3] = Round(number=4, tables=[table(1, seats(0, 1), result(None, (7, 7), (60, 60)))])
    cells = {
        row.competitor: cells
        for row, cells in cross(tour(Format.PAIRS, played, people=8, pairs=PAIRS)).rows
    }
    assert cells[0][1] == Cell("draw", "12:5, 8:12, 7:7")
    assert cells[1][0] == Cell("draw", "5:12, 12:8, 7:7")
