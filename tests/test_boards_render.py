"""The texts and keyboards of /top, /stats and /history (``kozelbot.views.boards``), from records
built by hand: places and medals, percentages, streak signs, page boundaries, escaping, and
Telegram's 4096-character limit however long the names."""

from __future__ import annotations

import re

import pytest

from kozelbot.core.callbacks import HistoryButton, SealButton, parse
from kozelbot.core.fairplay import commitment
from kozelbot.core.i18n import translator
from kozelbot.core.records import (
    BoardRow,
    DealRecord,
    HistoryPlayer,
    HistoryRow,
    Partner,
    VariantStats,
)
from kozelbot.families.registry import TABLE_PRESETS
from kozelbot.views.boards import (
    BOARD_MIN_MATCHES,
    DEALS_PER_PAGE,
    MESSAGE_LIMIT,
    board_text,
    deals_keyboard,
    deals_page_text,
    fit,
    history_keyboard,
    history_text,
    page_count,
    stats_text,
)
from tests.transcripts import bot

EN = translator("en")
RU = translator("ru")
NASTY = '<b>Tom & "Jerry"</b>'
"""A name that breaks HTML unless escaped."""
LONGEST = "&" * 64
"""Telegram's longest first name, each character five once escaped."""
SEED = "kozel1:hvalenyi:deck=36,players=4,open=plain:" + "ab" * 32


def plain(html_text: str) -> str:
    """What a client shows of the HTML (tags dropped, entities read)."""
    text = re.sub(r"<[^>]+>", "", html_text)
    return (
        text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    )


def tags_balanced(html_text: str) -> bool:
    opened: list[str] = []
    for closing, name in re.findall(r"<(/?)([a-z]+)[^>]*>", html_text):
        if not closing:
            opened.append(name)
        elif not opened or opened.pop() != name:
            return False
    return not opened


def row(user_id: int, name: str, rating: int, matches: int, wins: int) -> BoardRow:
    return BoardRow(user_id=user_id, name=name, rating=rating, matches=matches, wins=wins)


def record(variant: str = "hvalenyi", **changes: object) -> VariantStats:
    values: dict[str, object] = {
        "variant": variant,
        "matches": 12,
        "wins": 8,
        "deals": 30,
        "points": 1240,
        "points_per_deal": 1240 / 30,
        "tallies": {"catches": 2, "eggs": 3, "lyusyas": 1, "handoffs": 4},
        "timeouts": 5,
        "abandons": 6,
        "flagged": False,
        "best_partner": None,
        "streak": 0,
        "rating": 17,
    }
    values.update(changes)
    return VariantStats.model_validate(values)


def players(*names: str | None) -> tuple[HistoryPlayer, ...]:
    """Seats in order, pairs 0+2 against 1+3; ``None`` is a computer."""
    return tuple(
        HistoryPlayer(
            seat=seat,
            name=name or f"cpu{seat}",
            side=seat % 2,
            user_id=None if name is None else 100 + seat,
        )
        for seat, name in enumerate(names)
    )


def match(
    game_id: int,
    *names: str | None,
    winner: int = 0,
    score: tuple[int, ...] = (12, 4),
    variant: str = "hvalenyi",
    deals: int = 7,
) -> HistoryRow:
    return HistoryRow(
        game_id=game_id,
        variant=variant,
        finished_at=1_700_000_000.0,
        score=score,
        winner_side=winner,
        deals=deals,
        players=players(*names),
    )


def deal(
    number: int,
    *,
    outcome: str = "normal",
    award: tuple[int, int] = (2, 0),
    seed: bool = True,
    multiplier: int = 1,
) -> DealRecord:
    trace: dict[str, object] = {"seed": SEED, "commit": commitment(SEED)} if seed else {}
    return DealRecord(
        game_id=9,
        deal_no=number,
        outcome=outcome,
        points=(64, 56),
        award=award,
        multiplier=multiplier,
        score=(2 * (number + 1), 0),
        trace=trace,
    )


# -- /top ----------------------------------------------------------------------------------


def test_board_gives_the_first_three_medals_and_the_rest_places() -> None:
    rows = [row(i, f"P{i}", 30 - i, 10, 10 - i) for i in range(1, 6)]
    text = plain(board_text(rows, "hvalenyi", EN, chat_title="Goats"))
    lines = text.splitlines()
    assert lines[0] == "🏆 Goats · Khvalyony kozel"
    people = [line for line in lines if "P" in line and "—" in line]
    assert [line.split()[0] for line in people] == ["🥇", "🥈", "🥉", "4.", "5."]
    assert people[0] == "🥇 P1 — 29 · 10 matches · 90 %"
    assert people[4] == "5. P5 — 25 · 10 matches · 50 %"


def test_board_rounds_the_win_rate_to_a_whole_percentage() -> None:
    text = plain(board_text([row(1, "Anna", 1003, 7, 2)], "kryuk", EN, chat_title="G"))
    assert "🥇 Anna — 1003 · 7 matches · 29 %" in text  # 2/7 = 28.6 %


def test_empty_board_says_when_people_appear() -> None:
    text = plain(board_text([], "hvalenyi", EN, chat_title="Goats"))
    assert f"after {BOARD_MIN_MATCHES} rated matches" in text
    assert "🥇" not in text


def test_global_board_is_headed_as_global_not_with_the_chat() -> None:
    text = plain(
        board_text([row(1, "Anna", 5, 6, 3)], "sixes", EN, chat_title="Goats", global_board=True)
    )
    assert text.splitlines()[0] == "🌍 Global leaderboard · Kozel on sixes"
    assert "Goats" not in text


def test_board_escapes_names_and_the_chat_title() -> None:
    html_text = board_text([row(1, NASTY, 5, 6, 3)], "hvalenyi", EN, chat_title="A<B>&C")
    assert "<b>Tom" not in html_text and "&lt;b&gt;Tom &amp;" in html_text
    assert "A&lt;B&gt;&amp;C" in html_text
    assert tags_balanced(html_text)


def test_board_of_ten_longest_names_fits_a_message() -> None:
    rows = [row(i, LONGEST, 100, 10_000, 5_000) for i in range(10)]
    html_text = board_text(rows, "hvalenyi", RU, chat_title=LONGEST * 2)
    assert len(html_text) < MESSAGE_LIMIT and tags_balanced(html_text)


# -- /stats --------------------------------------------------------------------------------


def test_stats_show_every_count_of_a_variant() -> None:
    partner = Partner(user_id=2, name="Vera", wins=5)
    text = plain(stats_text("Anna", [record(best_partner=partner, streak=3)], EN))
    assert text.splitlines()[0] == "📊 Anna"
    assert "🐐 Khvalyony kozel · rating 17" in text
    assert "12 matches · 8 wins (67 %)" in text
    assert "30 deals · 41.3 points a deal" in text  # one decimal
    assert "catches 2 · eggs 3 · Lyusyas 1" in text
    assert "hand-offs 4 · time-outs 5\nleft 6" in text
    assert "🤝 Best partner: Vera (5 wins together)" in text
    assert "🔥 3 wins in a row" in text
    assert "⚠️" not in text


@pytest.mark.parametrize(
    ("streak", "shown", "hidden"),
    [(1, "🔥 1 win in a row", "🧊"), (-4, "🧊 4 losses in a row", "🔥"), (0, None, "in a row")],
)
def test_a_streak_shows_its_sign(streak: int, shown: str | None, hidden: str) -> None:
    text = plain(stats_text("Anna", [record(streak=streak)], EN))
    if shown is not None:
        assert shown in text
    assert hidden not in text


def test_a_flagged_person_carries_the_warning_once() -> None:
    text = plain(stats_text("Anna", [record(flagged=True), record("kryuk", flagged=True)], EN))
    assert text.count("⚠️") == 1


def test_stats_without_matches_answer_with_a_friendly_line() -> None:
    text = plain(stats_text("Anna", [], EN))
    assert "No finished matches yet." in text and "rating" not in text


def test_private_stats_keep_matches_against_the_computer_apart() -> None:
    text = plain(stats_text("Anna", [record(rating=17)], EN, computer=[record(rating=4)]))
    groups, computer = text.split("🤖")
    assert "👥 In groups" in groups and "rating 17" in groups and "rating 4" not in groups
    assert "rating 4" in computer
    empty = plain(stats_text("Anna", [], EN, computer=[]))
    assert "👥" in empty and "🤖" in empty


def test_stats_escape_the_names() -> None:
    partner = Partner(user_id=2, name=NASTY, wins=1)
    html_text = stats_text(NASTY, [record(best_partner=partner)], EN)
    assert "<b>Tom" not in html_text.replace("<b>📊", "") and tags_balanced(html_text)
    assert plain(html_text).count('Tom & "Jerry"') == 2


def test_stats_of_every_variant_in_both_scopes_fit_a_message() -> None:
    partner = Partner(user_id=2, name=LONGEST, wins=10**6)
    many = [
        record(
            v,
            matches=10**6,
            wins=10**6,
            deals=10**7,
            tallies={"catches": 10**6, "eggs": 10**6},
            best_partner=partner,
            streak=-(10**6),
            flagged=True,
        )
        for v in TABLE_PRESETS
    ]
    html_text = stats_text(LONGEST, many, RU, computer=many)
    assert len(html_text) < MESSAGE_LIMIT and tags_balanced(html_text)


# -- /history ------------------------------------------------------------------------------


def test_history_numbers_the_matches_from_the_chat_first_and_marks_the_winner() -> None:
    rows = [
        match(31, "Anna", "Boris", "Vera", "Gleb", winner=1, score=(5, 12)),
        match(30, "Anna", None, "Vera", None),
    ]
    html_text = history_text(rows, EN, total=14, chat_title="Goats")
    text = plain(html_text)
    assert text.splitlines()[0] == "📜 Last matches · Goats"
    assert "№ 14 · 14.11.2023 · Khvalyony kozel" in text
    assert "№ 13 · " in text
    assert "Anna+Vera — 🏆 Boris+Gleb: 5 : 12" in text
    assert f"🏆 Anna+Vera — {bot(2, 'Bot')}+{bot(4, 'Bot')}: 12 : 4" in text
    assert "<b>Boris+Gleb</b>" in html_text
    assert "cpu" not in text


def test_history_keyboard_has_a_numbered_button_per_match_opening_its_first_page() -> None:
    rows = [match(100 + i, "A", "B", "C", "D") for i in range(7)]
    keyboard = history_keyboard(rows, EN, total=7)
    buttons = [b for line in keyboard for b in line]
    assert [len(line) for line in keyboard] == [5, 2]
    assert [b.text for b in buttons] == [f"№ {n}" for n in range(7, 0, -1)]
    assert [parse(b.data) for b in buttons] == [HistoryButton(100 + i, 0) for i in range(7)]


def test_empty_history_has_no_buttons() -> None:
    assert "No finished matches yet." in plain(history_text([], EN, total=0))
    assert history_keyboard([], EN, total=0) == ()


def test_history_of_each_for_self_lists_every_side() -> None:
    row_ = HistoryRow(
        game_id=1,
        variant="cover",
        finished_at=0.0,
        score=(20, 101, 60),
        winner_side=0,
        deals=3,
        players=tuple(
            HistoryPlayer(seat=s, name=n, side=s, user_id=s + 1)
            for s, n in enumerate(("A", "B", "C"))
        ),
    )
    assert "🏆 A: 20 · B: 101 · C: 60" in plain(history_text([row_], EN, total=1))


def test_history_of_ten_matches_of_longest_names_fits_a_message() -> None:
    rows = [match(i, LONGEST, LONGEST, LONGEST, LONGEST) for i in range(10)]
    html_text = history_text(rows, RU, total=10**9, chat_title=LONGEST * 2)
    assert len(html_text) < MESSAGE_LIMIT and tags_balanced(html_text)
    assert "…" in plain(html_text)  # long names are shortened


# -- a match deal by deal ------------------------------------------------------------------


@pytest.mark.parametrize(("deals", "pages"), [(0, 1), (1, 1), (5, 1), (6, 2), (12, 3)])
def test_pages_hold_five_deals(deals: int, pages: int) -> None:
    assert DEALS_PER_PAGE == 5
    assert page_count([deal(n) for n in range(deals)]) == pages


@pytest.mark.parametrize(
    ("page", "numbers"), [(0, [1, 2, 3, 4, 5]), (1, [6, 7, 8, 9, 10]), (2, [11, 12])]
)
def test_a_page_shows_its_deals_in_order(page: int, numbers: list[int]) -> None:
    deals = [deal(n) for n in reversed(range(12))]  # storage order does not matter
    text = plain(deals_page_text(match(9, "A", "B", "C", "D"), deals, page, EN, number=3))
    assert [int(n) for n in re.findall(r"^Deal (\d+)", text, re.M)] == numbers
    assert text.splitlines()[0] == "📜 № 3 · Khvalyony kozel · 14.11.2023"
    assert f"page {page + 1}/3" in text
    first = page * 5 + 1
    assert f"Deals {first}–{first + len(numbers) - 1} of 12" in text


def test_a_deal_shows_outcome_points_award_and_running_score() -> None:
    deals = [
        deal(0, outcome="catch", award=(4, 0), multiplier=2),
        deal(1, outcome="eggs", award=(0, 0), seed=False),
    ]
    text = plain(deals_page_text(match(9, "Anna", "Boris", "Vera", "Gleb"), deals, 0, EN))
    assert "Deal 1 · a catch · points 64 : 56\nAnna+Vera +4 (×2) → score 2 : 0" in text
    assert "Deal 2 · eggs · points 64 : 56\n→ score 4 : 0" in text


def test_a_deals_page_shows_no_seed_and_offers_the_check_behind_a_button() -> None:
    """Issue #30 item 6: the group's /history page carries no key, seal or secret; a match
    with fair play has «🔑 Check the deals» (sent privately, as under the match's result)."""
    html_text = deals_page_text(match(9, "A", "B", "C", "D"), [deal(0)], 0, EN)
    assert SEED not in html_text and commitment(SEED) not in html_text
    assert re.search(r"[0-9a-f]{8}", html_text) is None and "kozel2:" not in html_text
    labels = {b.text: parse(b.data) for row in deals_keyboard(9, 0, 1, EN, [deal(0)]) for b in row}
    assert labels["🔑 Check the deals"] == SealButton(9, -1)
    plain_deals = [deal(0, seed=False)]
    assert not any("🔑" in b.text for row in deals_keyboard(9, 0, 1, EN, plain_deals) for b in row)


def test_every_page_of_a_long_match_of_longest_names_fits_a_message() -> None:
    deals = [deal(n, award=(10**6, 10**6), multiplier=64) for n in range(40)]
    summary = match(9, LONGEST, LONGEST, LONGEST, LONGEST, score=(10**9, 10**9))
    for page in range(page_count(deals)):
        html_text = deals_page_text(summary, deals, page, RU, number=10**9)
        assert len(html_text) < MESSAGE_LIMIT and tags_balanced(html_text)


def test_a_match_without_stored_deals_says_so() -> None:
    text = plain(deals_page_text(match(9, "A", "B", "C", "D"), [], 0, EN))
    assert "not kept" in text


@pytest.mark.parametrize(
    ("page", "pages", "arrows"),
    [(0, 1, []), (0, 3, ["▶"]), (1, 3, ["◀", "▶"]), (2, 3, ["◀"])],
)
def test_deal_pages_move_with_arrows_and_go_back_to_the_list(
    page: int, pages: int, arrows: list[str]
) -> None:
    keyboard = deals_keyboard(9, page, pages, EN)
    buttons = [b for line in keyboard for b in line]
    assert [b.text for b in buttons if b.text in ("◀", "▶")] == arrows
    targets = {b.text: parse(b.data) for b in buttons}
    if "◀" in targets:
        assert targets["◀"] == HistoryButton(9, page - 1)
    if "▶" in targets:
        assert targets["▶"] == HistoryButton(9, page + 1)
    assert parse(keyboard[-1][0].data) == HistoryButton(9, -1)


def test_fit_drops_whole_lines_so_no_tag_is_cut() -> None:
    text = "\n".join(f"<b>line {n}</b>" for n in range(1000))
    cut = fit(text)
    assert len(cut) <= MESSAGE_LIMIT and tags_balanced(cut) and cut.endswith("\n…")
    assert fit("short") == "short"
