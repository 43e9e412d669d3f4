"""The reading checks of ``tests/transcripts.py`` find each fault issue #15 named, and pass
what reads right (so the whole-match tests that run them can fail)."""

from __future__ import annotations

import pytest

from tests.transcripts import Shown, bot, problems, word_problems

GROUP = "Козлятня"
TABLE = "\n".join(
    [
        "🐐 Сдача 2 · Хвалёный козёл",
        "Козырь ♦",
        "Аня+Вера: 2 глаза",
        "Борис+Глеб: 0 глаз",
        "На столе: Аня 8♥ · Борис 7♥",
        "Ходит: Вера",
    ]
)
HASH = "ab" * 32
CHECK = "\n".join(
    [
        "🔑 Проверка раздач",
        "Вставьте в терминал, где установлен KozelBot: каждая строка проверяет одну раздачу и "
        "печатает её руки и OK или MISMATCH.",
        f"SECRET={HASH}",
        f"SEAL={HASH}",
        f"PLAYERS={HASH}",
        "# Сдача 1",
        f'kozelbot verify kozel2:hvalenyi:deck=36,players=4,n=0:{HASH} {HASH} --secret "$SECRET"'
        ' --seal "$SEAL" --client "$PLAYERS"',
    ]
)
"""The private answer of «🔑 Проверить раздачи» (issue #30 item 6): the one place for hex."""
IDS = [
    "gender",
    "ukrainian",
    "unhelpful",
    "english",
    "hash",
    "wide",
    "score",
    "deal",
    "hand-head",
    "glued-score",
    "glued-sizes",
    "glued-deal",
    "wrapped-list",
    "wrapped-order",
    "wrapped-score",
    "broken-lines",
    "split-computer",
    "breakable-computer",
    "breakable-computer-number",
]


def _state(text: str, chat: str = GROUP, buttons: tuple[str, ...] = ()) -> Shown:
    return Shown(chat, 7, 0, True, text, buttons, False)


def _found(
    *states: Shown, variant: str = "hvalenyi", players: int = 4, deals: int = 3
) -> list[str]:
    return problems(list(states), group=GROUP, variant=variant, players=players, deals=deals)


def test_a_table_a_result_and_a_hand_that_read_right_pass() -> None:
    result = "\n".join(
        [
            "Сдача 1: Аня+Вера — 85 : 35.",
            "→ +2 глаза.",
            "Счёт: Аня+Вера: 2 — Борис+Глеб: 0",
        ]
    )
    hand = "Хвалёный козёл · сдача 3\nкозырь ♦\nКозлятня\n👉 Ваш ход. На столе: Аня 8♥"
    welcome = "🐐 KozelBot — карточная игра.\n/rules — правила: /rules [hvalenyi|kryuk]"
    over = "🏆 Аня+Вера выиграли 12 : 4.\nБорис+Глеб — козлы 🐐"
    bots = f"🏆 {bot(1)}+{bot(3)} выиграли 14\u00a0:\u00a06.\nСчёт: {bot(1)}+{bot(3)}: 14"
    assert (
        _found(
            _state(TABLE),
            _state(result),
            _state(hand, chat="Аня"),
            _state(over, buttons=("🔑 Проверить раздачи",)),
            _state(welcome, chat="Аня"),
            _state(CHECK, chat="Аня"),
            _state(bots),
        )
        == []
    )


@pytest.mark.parametrize(
    ("text", "chat", "why"),
    [
        (TABLE + "\n⏸ Борис пропустил(а) два хода", GROUP, "a guessed gender"),
        ("Игра 1:\nАня+Вера: 81 — Борис+Глеб: 39\nскажите Відбій", GROUP, "Ukrainian in Russian"),
        ("Сейчас это невозможно.", "Аня", "says nothing useful"),
        (TABLE + "\nJoin with the button or /join.", GROUP, "English in Russian"),
        (TABLE + "\n🔒 Печать раздачи: 1a2b3c4d…", GROUP, "fair-play digits"),
        (TABLE + "\nКарт на руках:\nАня: 6 · Борис: 6 · Вера: 6 · Глеб: 6", GROUP, "wider than"),
        ("Сдача 1: Аня+Вера — 35 : 85.\nСчёт 0 : 2.", GROUP, "names no side"),
        ("Хвалёный козёл · сдача 6\nСдача закончена.", "Аня", "past the last"),
        ("Хвалёный козёл · Козлятня · сдача 1 · козырь ♣", "Аня", "wider than"),
        # issue #30 item 5: a number right after a name that ends in a number reads as one
        (
            f"Сдача 1: Аня+Вера — 1 : 0.\nСчёт: {bot(1)}+{bot(3)} 2 — {bot(2)}+Аня 0",
            GROUP,
            "glued to a name",
        ),
        (TABLE + f"\nКарт на руках: Аня 6 · {bot(2)} 3", GROUP, "glued to a name"),
        (f"Сдача 1: {bot(1)}+{bot(3)} 70 : 50 → +2 глаза.", GROUP, "glued to a name"),
        # issue #30 item 7: the phone (34 characters) wraps inside an item
        (TABLE + "\nАня Т♦ · Вера В♥ · Глеб 8♠ · Борис 7♦", GROUP, "inside an item"),
        (TABLE + "\nПорядок хода: Борис → Аня → Вера → Глеб", GROUP, "inside an item"),
        (f"🏆 {bot(1)} и {bot(3)} выиграли 14 : 6.", GROUP, "inside an item"),
        (TABLE + "\nАня Т♦ · Вера В♥ ·\nГлеб 8♠", GROUP, "inside an item"),
        ("Сдача 3: Люся! Все взятки берёт 🤖 Бот 2.", GROUP, "inside an item"),
        # a computer's name in one piece: «🤖 Бот» / «1» reads as two things
        (TABLE + "\nХодит: 🤖 Бот 1", GROUP, "a computer's name the phone may break"),
        ("Хвалёный козёл · сдача 1\nкозырь ♦\nНа столе: 🤖\u00a0Бот 1 8♥", "Аня", "may break"),
    ],
    ids=IDS,
)
def test_each_fault_is_found(text: str, chat: str, why: str) -> None:
    found = _found(_state(text, chat=chat))
    assert any(why in f for f in found), found


def test_a_sentence_may_wrap_once_in_the_group_but_a_list_may_not() -> None:
    once = "Сдача 3: Люся! Аня+Вера взяли все взятки."  # 41: a sentence, two rows at most
    assert _found(_state(once)) == []
    assert _found(_state("Сдача 3: " + "очень " * 14 + "длинно.")) != []


def test_button_labels_are_read_too() -> None:
    assert _found(_state(TABLE, buttons=("Відбій",))) != []


def test_each_variant_keeps_its_words() -> None:
    assert _found(_state("В прикупе: 18"), players=2) != []
    assert _found(_state("В прикупе: 18"), players=4, variant="cover") == []
    assert _found(_state(TABLE + "\nНа обязе: Аня+Вера"), variant="kryuk") != []
    assert _found(_state(TABLE + "\nНа обязе: Аня+Вера"), variant="hvalenyi") == []


def test_a_card_you_may_not_play_is_bracketed_after_the_playable_ones() -> None:
    hand = "Хвалёный козёл · сдача 1\nкозырь ♦\nКозлятня\n👉 Ваш ход. На столе: Аня 8♥"
    clear = ("Т♦", "9♥", "(К♠)", "(7♣)", "🔄 Пересдача")
    assert _found(_state(hand, chat="Аня", buttons=clear)) == []
    faint = _found(_state(hand, chat="Аня", buttons=("Т♦", "К♠·", "9♥")))
    assert any("faint" in f for f in faint) and any("after one" in f for f in faint), faint
    assert _found(_state(hand, chat="Аня", buttons=("(К♠)", "9♥"))) != []


@pytest.mark.parametrize(
    "text",
    [
        "Сдача 1: Аня+Вера 85 : 35 → +2 глаза.\n"
        f"🔓 Ключ раздачи: kozel2:hvalenyi:deck=36,players=4,n=0:{HASH}",
        f"🏆 Аня+Вера выиграли 12 : 4.\n🔑 Секрет партии: {HASH}",
        "🐐 Хвалёный козёл — набор за стол\n🔒 Печать партии: <code>1a2b3c4d</code>…",
        "🐐 Хвалёный козёл — набор за стол\n🎲 Зерно игроков: 1a2b3c4d…",
    ],
    ids=["deal-key", "secret", "lobby-seal", "players-seed"],
)
def test_fair_play_digits_in_the_match_s_chat_are_found(text: str) -> None:
    """Issue #30 item 6: no seal, key or secret in a deal result, a match result or the
    lobby — in the group, or in a /play match's private chat; only the private check
    carries them."""
    for chat in (GROUP, "Аня"):
        found = _found(_state(text, chat=chat))
        assert any("fair-play digits" in f for f in found), (chat, found)
    assert _found(_state(CHECK.replace("🔑 Проверка раздач", "🔑 Проверка"), chat="Аня")) != []


# -- issue #30 item 11: the words of hints, the analysis and /rules ---------------------------


@pytest.mark.parametrize(
    "text",
    [
        "💡 К♠: берёт взятку на 14 очков. Лучше, чем 7♠, на 0,1 глаза.",
        "💡 K♠: takes the trick worth 14. Better than 7♠ by 0.1 eyes.",
        "🔍 Сдача 1: ваши ходы против сильного компьютера.\nХод 4: К♠ → лучше 7♠, +0,3 глаза",
        "🔍 Игра 2: …\nВзятка 1: зайти К♠ → лучше побить 6♦, +1,5 штрафных",
        "Лучше, чем 7♠, на 0,1 ока.",
    ],
    ids=["hint-ru", "hint-en", "analysis", "analysis-cover", "uk-eye"],
)
def test_a_fraction_of_an_eye_is_found(text: str) -> None:
    found = word_problems([_state(text, chat="Аня")])
    assert any("a fraction of a unit" in f for f in found), found


def test_an_option_by_its_key_and_a_lowercase_hint_are_found() -> None:
    rules = "Хвалёный козёл\nplayers=2: каждый за себя, по 8 или 9 карт."
    assert any("by its key" in f for f in word_problems([_state(rules)]))
    sixes = "Параметры: ace_discard_ban (нельзя сносить туза), royal (четыре туза)."
    assert any("by its key" in f for f in word_problems([_state(sixes)]))
    hint = "💡 зайти К♠: заходит 1 картой одной масти."
    assert any("lowercase" in f for f in word_problems([_state(hint, chat="Аня")]))


def test_words_that_read_right_pass() -> None:
    right = [
        "💡 Зайти К♠: заходит 1 картой одной масти. Чуть лучше, чем побить 6♦.",
        "💡 К♠: берёт взятку на 14 очков. Лучше, чем 7♠: примерно +1 глаз.",
        "🔍 Сдача 1: ваши ходы против сильного компьютера.\nВзятка 4: К♠ → 7♠ чуть лучше",
        "Стол на двоих: наберите /newgame hvalenyi players=2",
        "Вдвоём (кнопка «⚙ Игроков: 2» в наборе): каждый за себя.",
        "🏆 Аня+Вера выиграли 12 : 4.",
        "Откройте t.me/kozel_test_bot или напишите @kozel_test_bot",
        CHECK,
    ]
    assert word_problems([_state(text, chat="Аня") for text in right]) == []
    assert _found(_state("Стол на двоих: наберите /newgame hvalenyi players=2")) == []


def test_a_finished_hand_that_says_more_than_one_thing_is_found() -> None:
    """Issue #30 item 11: the header above «Сдача закончена.» said the deal again."""
    old = "Хвалёный козёл · сдача 3\nкозырь ♦ · Козлятня\nСдача закончена."
    assert any("more than one thing" in f for f in _found(_state(old, chat="Аня")))
    for one in (
        "Сдача 3 закончена.",
        "Сдача 3, последняя в партии, закончена.",
        "Игра 2 закончена.",
    ):
        assert _found(_state(one, chat="Аня")) == []
    assert _found(_state(TABLE + "\nСдача закончена.")) == []  # the group's table says it last
