"""The leak scan's secret-step checks (``tests.secret_steps``) on made-up logs: they find
the leaks of issue #14 items 1–3 and pass what is fine."""

from __future__ import annotations

from tests.secret_steps import (
    Logged,
    Shown,
    open_points_leaks,
    open_points_shown,
    secret_step_leaks,
)

WAIT = "🐐 Сдача 2 · козырь ♦\nЖдём начала сдачи…"


def test_a_redeal_step_that_names_who_may_ask_is_a_leak() -> None:
    moves = [
        Logged(1.0, 0, "play:AS"),
        Logged(5.0, 1, "keep"),
        Logged(6.0, 1, "keep"),
        Logged(7.0, 1, "play:7H"),
    ]
    named = [
        Shown(2.0, 1, "🐐 Сдача 2\nПересдачу могут попросить: Глеб, Вера"),
        Shown(5.5, 1, "🐐 Сдача 2\nПересдачу могут попросить: Вера"),
    ]
    found = secret_step_leaks("hvalenyi", moves, named)
    assert any("neutral line" in why for why in found)
    assert any("changed" in why for why in found)


def test_a_neutral_table_that_keeps_still_is_fine() -> None:
    moves = [
        Logged(1.0, 0, "play:AS"),
        Logged(5.0, 1, "keep"),
        Logged(6.0, 1, "keep"),
        Logged(7.0, 1, "play:7H"),
    ]
    shown = [Shown(2.0, 1, WAIT), Shown(5.5, 1, WAIT), Shown(7.2, 1, "🐐 Сдача 2\nХодит: Аня")]
    assert secret_step_leaks("hvalenyi", moves, shown) == []


def test_kryuks_hand_off_is_secret_and_sixes_offer_is_not() -> None:
    moves = [Logged(1.0, 0, "play:AS"), Logged(2.0, 1, "give:QS"), Logged(3.0, 1, "return:8H")]
    settled = [Shown(1.5, 1, "🐐 Сдача 2\nИдёт отход…")]
    assert secret_step_leaks("kryuk", moves, settled)
    offered = [Logged(1.0, 0, "play:AS"), Logged(2.0, 1, "offer"), Logged(3.0, 1, "agree")]
    assert secret_step_leaks("sixes", offered, [Shown(2.5, 1, "Отход: Аня предлагает")]) == []


def _cover_trace() -> dict[str, object]:
    return {
        "deal": 0,
        "options": {"mode": "pairs"},
        "hands": [[], [], [], []],
        "rounds": [
            {
                "lead": ["AS"],
                "actions": [
                    {"type": "beat", "cards": ["6D"]},
                    {"type": "discard", "cards": ["10H"]},
                ],
                "taker": 1,
                "leader": 0,
            },
        ],
    }


SIDES = [["Аня+Вера"], ["Борис+Глеб"]]


def test_the_cover_tables_open_points_count_face_up_cards_only() -> None:
    trace = _cover_trace()
    fine = [
        Shown(1.0, 0, "Очки открытых карт: Аня+Вера 0 — Борис+Глеб 0"),
        Shown(2.0, 0, "Очки открытых карт:\nАня+Вера 0 — Борис+Глеб 11"),
    ]
    assert open_points_leaks(trace, fine, SIDES) == []
    hidden = [Shown(2.0, 0, "Очки открытых карт: Аня+Вера 0 — Борис+Глеб 21")]  # 10♥ counted
    assert open_points_leaks(trace, hidden, SIDES)


def test_open_points_are_read_by_the_sides_names() -> None:
    text = "🐐 Игра 1\nОчки открытых карт: Аня+Вера 14 — Борис+Глеб 0"
    assert open_points_shown(text, SIDES) == [14, 0]
    assert open_points_shown("Очки открытых карт: Аня 3", [["Аня"], ["Борис"]]) == [3, None]
    assert open_points_shown("🐐 Игра 1", SIDES) is None
