"""What people read in the follow-suit variants (issue #15): the exact texts of results, match
results, final tables, hands and refusals, in Russian (and Ukrainian and English where the
text exists there), over scripted deals.

Each test is named after the item of issue #15 it checks. The frozen deals of the variants
are the rule tests' own (``tests/scripted.py`` for hvalenyi, the ``ROWS_*`` / ``DUEL_*`` /
``*_HANDS`` of ``test_rules_kryuk``, ``test_rules_sixes``, ``test_rules_belka`` and
``test_rules_hvalenyi_two``), so the figures follow from the cards.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from pydantic import TypeAdapter

from kozelbot.core.cards import DECK_32
from kozelbot.core.i18n import translator
from kozelbot.core.protocol import DealScored, GameError, MatchOver, advance
from kozelbot.core.texts import LINE
from kozelbot.families.follow import FAMILY, render
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import (
    AnswerOffer,
    AskRedeal,
    CallOpening,
    KeepHand,
    OfferHandoff,
    Phase,
    PlayCard,
    WrongPhase,
)
from kozelbot.families.registry import preset
from tests import test_rules_belka as belka_deals
from tests import test_rules_hvalenyi_two as duel_deals
from tests import test_rules_kryuk as kryuk_deals
from tests import test_rules_sixes as sixes_deals
from tests.scripted import (
    ROWS_64_56,
    ROWS_92_28,
    ROWS_CATCH_FIRST_TRICK,
    ROWS_EGGS,
    ROWS_LYUSYA,
    card,
    deal_and_keep,
    end_texts,
    hand_text,
    hands_from_rows,
    new_match,
    play_cards,
    play_deal,
    playing_table,
    rotate,
    table_text,
)

LANGUAGES = ("ru", "uk", "en")


def result_of(state: MatchState, events: list[Any], language: str = "ru") -> str:
    """The result message of the deal ``events`` end."""
    return end_texts(state, events, language)[1]


def refusal(state: MatchState, seat: int, action: Any, language: str = "ru") -> str:
    """The alert a refused press gets."""
    with pytest.raises(GameError) as error:
        state.apply(seat, action)
    return render.game_error_text(error.value, playing_table(state), translator(language))


# -- item 1: the winners first, both sides named in the score -------------------------------


def test_15_1_a_result_puts_the_winners_figures_first_and_names_both_sides() -> None:
    """A result names the side it went to, then that side's card points first, and the running
    score names both sides, the winners first."""
    state = new_match()
    events = play_deal(state, rotate(ROWS_92_28, 1))  # seats 1+3 take 92
    assert result_of(state, events) == (
        "Сдача 1: Борис+Глеб — 92\u00a0:\u00a028.\n→ +4 глаза.\nСчёт: Борис+Глеб: 4 — Аня+Вера: 0"
    )
    assert result_of(state, events, "uk") == (
        "Здача 1: Борис+Глеб — 92\u00a0:\u00a028.\n→ +4 очі.\nРахунок:\nБорис+Глеб: 4 — Аня+Вера: 0"
    )
    assert result_of(state, events, "en") == (
        "Deal 1: Борис+Глеб — 92\u00a0:\u00a028.\n→ +4 eyes.\nScore:\nБорис+Глеб: 4 — Аня+Вера: 0"
    )


def test_15_1_eggs_keep_the_table_order_and_say_what_the_next_deal_is_worth() -> None:
    """Eggs have no winner: table order; the next deal's multiplier (eyes) or the carried
    points, which add up over eggs in a row (kryuk)."""
    state = new_match()
    events = play_deal(state, ROWS_EGGS)
    assert result_of(state, events) == (
        "Сдача 1: яйца, 60 : 60.\nСледующая сдача идёт ×2.\nСчёт: Аня+Вера: 0 — Борис+Глеб: 0"
    )
    state = kryuk_deals.kryuk()
    first = kryuk_deals.play_deal(state, kryuk_deals.ROWS_EGGS)
    assert result_of(state, first) == (
        "Сдача 1: яйца, 60 : 60.\nПобедителю следующей сдачи: +2 очка.\n"
        "Счёт: Аня+Вера: 0 — Борис+Глеб: 0"
    )
    second = kryuk_deals.play_deal(state, kryuk_deals.ROWS_EGGS)  # the carry adds up
    assert result_of(state, second) == (
        "Сдача 2: яйца, 60 : 60.\nПобедителю следующей сдачи: +4 очка.\n"
        "Счёт: Аня+Вера: 0 — Борис+Глеб: 0"
    )


def test_15_1_a_catch_names_the_catching_side() -> None:
    """The catch (6♣ / Крюк on Пелотка) names the side that caught; kryuk's first deal says why
    it is worth 12."""
    state = new_match()
    events = play_deal(state, ROWS_CATCH_FIRST_TRICK)
    assert result_of(state, events) == (
        "Сдача 1: шамок поймал даму крестей!\nБорис+Глеб: +4 глаза.\n"
        "Счёт: Борис+Глеб: 4 — Аня+Вера: 0"
    )
    state = kryuk_deals.kryuk()
    events = kryuk_deals.play_deal(state, kryuk_deals.ROWS_CATCH)
    assert result_of(state, events) == (
        "Сдача 1: Крюк поймал Пелотку!\nАня+Вера: +12 очков.\n"
        "В первой сдаче Пелотка стоит 12 очков.\nСчёт:\nАня+Вера: 12 — Борис+Глеб: 0"
    )
    state = kryuk_deals.later_deal(2, score=(3, 5))
    events = kryuk_deals.play_deal(state, kryuk_deals.ROWS_CATCH)
    assert result_of(state, events) == (
        "Сдача 2: Крюк поймал Пелотку!\nАня+Вера: +4 очка.\nСчёт: Аня+Вера: 7 — Борис+Глеб: 5"
    )
    assert result_of(state, events, "uk") == (
        "Здача 2: Гак упіймав Пелотку!\nАня+Вера: +4 очки.\nРахунок:\nАня+Вера: 7 — Борис+Глеб: 5"
    )


def test_15_1_lyusya_wins_the_match_or_wipes_the_other_sides_eyes() -> None:
    """Lyusya ``win`` (12 eyes) and ``zero`` (the winners' 90+ award, the others' eyes lost)."""
    state = new_match()
    events = play_deal(state, ROWS_LYUSYA)
    assert result_of(state, events) == (
        "Сдача 1: Люся! Аня+Вера взяли все взятки.\n→ +12 глаз.\n"
        "Счёт:\nАня+Вера: 12 — Борис+Глеб: 0"
    )
    state = new_match(lyusya="zero")
    state.score = [3, 5]
    events = play_deal(state, ROWS_LYUSYA)
    assert result_of(state, events) == (
        "Сдача 1: Люся! Аня+Вера взяли все взятки.\n→ +4 глаза.\n"
        "Борис+Глеб теряют все глаза.\nСчёт: Аня+Вера: 7 — Борис+Глеб: 0"
    )


def test_15_1_kryuk_all_eight_tricks_reset_score_six_or_lose_the_match() -> None:
    """Kryuk's eight tricks: the others back to 0, 6 points at 0:0, or the match lost at 0."""
    rows = kryuk_deals.ROWS_ALL_TRICKS
    state = kryuk_deals.later_deal(0, score=(3, 5))
    events = kryuk_deals.play_deal(state, rows)
    assert result_of(state, events) == (
        "Сдача 2: Аня+Вера взяли все 8 взяток.\nБорис+Глеб возвращаются на 0.\n"
        "Счёт: Аня+Вера: 3 — Борис+Глеб: 0"
    )
    state = kryuk_deals.later_deal(0)
    events = kryuk_deals.play_deal(state, rows)
    assert result_of(state, events) == (
        "Сдача 2: Аня+Вера взяли все 8 взяток.\n→ +6 очков.\nСчёт: Аня+Вера: 6 — Борис+Глеб: 0"
    )
    state = kryuk_deals.later_deal(0, score=(4, 0))
    events = kryuk_deals.play_deal(state, rows)
    assert result_of(state, events) == (
        "Сдача 2: Аня+Вера взяли все 8 взяток.\nБорис+Глеб: счёт был 0 — партия проиграна.\n"
        "Счёт: Аня+Вера: 4 — Борис+Глеб: 0"
    )


def test_15_1_sixes_pairs_on_the_board() -> None:
    """Sixes scores pairs: 90+ → 2; Lyusya in the first deal is a dry kozel; carried eggs go to
    a later Lyusya pair."""
    state = sixes_deals.sixes()
    events = sixes_deals.play_deal(state, sixes_deals.ROWS_90_30)
    assert result_of(state, events) == (
        "Сдача 1: Аня+Вера — 90\u00a0:\u00a030.\n→ +2 пары.\nСчёт: Аня+Вера: 2 — Борис+Глеб: 0"
    )
    state = sixes_deals.sixes()
    events = sixes_deals.play_deal(state, sixes_deals.ROWS_LYUSYA)
    assert result_of(state, events) == (
        "Сдача 1: Люся! Аня+Вера взяли все взятки.\nБорис+Глеб возвращаются на 0.\n"
        "Сухой козёл — партия выиграна сразу!\nСчёт: Аня+Вера: 0 — Борис+Глеб: 0"
    )
    state = sixes_deals.later_deal(1, score=(2, 3))
    state.carry = 1
    events = sixes_deals.play_deal(state, sixes_deals.ROWS_LYUSYA)
    assert result_of(state, events) == (
        "Сдача 2: Люся! Аня+Вера взяли все взятки.\n→ +1 пара за яйца\n"
        "Борис+Глеб возвращаются на 0.\nСчёт: Аня+Вера: 3 — Борис+Глеб: 0"
    )


def test_15_1_sixes_refused_redeal_and_royal_kozel() -> None:
    """Sixes' refused third redeal (the dealing pair loses a pair) and the royal kozel."""
    state = sixes_deals.later_deal(2, deal_no=3, score=(2, 4))
    for _ in range(2):
        state.deal_hands([list(h) for h in sixes_deals.REDEAL_HANDS])
        state.apply(1, AskRedeal())
    state.deal_hands([list(h) for h in sixes_deals.REDEAL_HANDS])
    events = state.apply(1, AskRedeal())
    assert result_of(state, events) == (
        "Сдача 4: третья пересдача подряд — отказ.\nСдающие теряют пару: Аня+Вера +1 пара.\n"
        "Счёт: Аня+Вера: 3 — Борис+Глеб: 4"
    )
    state = sixes_deals.sixes(royal=True)
    events = state.deal_hands([list(h) for h in sixes_deals.ROYAL_HANDS])
    final, result, over = end_texts(state, events)
    assert result == (
        "Сдача 1: четыре туза — королевский козёл!\nПартию выигрывают Борис+Глеб.\n"
        "Счёт: Борис+Глеб: 0 — Аня+Вера: 0"
    )
    assert "взятка" not in final  # no trick was played
    assert over == "🏆 Борис+Глеб выиграли 0\u00a0:\u00a00.\nАня+Вера — козлы 🐐"


# -- item 2: one player on a side ------------------------------------------------------------


def test_15_2_two_players_read_in_the_singular_in_every_language() -> None:
    """One player on a side: every verb and title in the singular («Борис забирает», «Аня —
    козёл»), with no gender guessed."""
    state = duel_deals.duel()
    events = duel_deals.play_duel(state, duel_deals.DUEL_LYUSYA)
    texts = {language: end_texts(state, events, language) for language in LANGUAGES}
    assert texts["ru"][1:] == [
        "Сдача 1: Люся! Борис забирает все взятки.\n→ +12 глаз.\nСчёт: Борис: 12 — Аня: 0",
        "🏆 Борис — победитель, 12\u00a0:\u00a00.\nАня — козёл 🐐",
    ]
    assert texts["uk"][1:] == [
        "Здача 1: Люся! Борис забирає всі взятки.\n→ +12 очей.\nРахунок: Борис: 12 — Аня: 0",
        "🏆 Борис — переможець, 12\u00a0:\u00a00.\nАня — козел 🐐",
    ]
    assert texts["en"][1:] == [
        "Deal 1: Lyusya! Борис took every trick.\n→ +12 eyes.\nScore: Борис: 12 — Аня: 0",
        "🏆 Борис won 12\u00a0:\u00a00.\nАня is the kozel 🐐",
    ]


@pytest.mark.parametrize(
    ("title", "ru", "uk", "en"),
    [
        ("kozly", "козлы 🐐", "козли 🐐", "are the kozly 🐐"),
        ("kozly_eggs", "козлы с яйцами 🐐", "козли з яйцями 🐐", "are the kozly with eggs 🐐"),
        (
            "kozly_tails",
            "козлы с хвостами 🐐",
            "козли з хвостами 🐐",
            "are the kozly with tails 🐐",
        ),
        (
            "kozly_eggs_tails",
            "козлы с яйцами и с хвостами 🐐",
            "козли з яйцями і з хвостами 🐐",
            "are the kozly with eggs and tails 🐐",
        ),
    ],
)
def test_15_2_sixes_losers_titles(title: str, ru: str, uk: str, en: str) -> None:
    """Sixes' losers' titles: козлы, с яйцами, с хвостами, both."""
    state = sixes_deals.sixes()
    over = MatchOver(0, (6, 3), title)
    table = playing_table(state)
    texts = [render.match_over_text(table, over, translator(lang)) for lang in LANGUAGES]
    assert texts == [
        f"🏆 Аня+Вера выиграли 6\u00a0:\u00a03.\nБорис+Глеб — {ru}",
        f"🏆 Аня+Вера виграли 6\u00a0:\u00a03.\nБорис+Глеб — {uk}",
        f"🏆 Аня+Вера won 6\u00a0:\u00a03.\nБорис+Глеб {en}",
    ]


# -- items 4, 5: what was multiplied, why belka's award is what it is ----------------------


def test_15_4_the_eggs_multiplier_says_what_was_multiplied() -> None:
    """The award after eggs shows its making: ``4 глаза ×2 за яйца = 8``, ``2 очка + 2 за яйца
    = 4``."""
    state = new_match()
    play_deal(state, ROWS_EGGS)
    events = play_deal(state, ROWS_92_28)
    assert result_of(state, events) == (
        "Сдача 2: Аня+Вера — 92\u00a0:\u00a028.\n→ +8 глаз.\n4 глаза ×2 за яйца = 8\n"
        "Счёт: Аня+Вера: 8 — Борис+Глеб: 0"
    )
    assert result_of(state, events, "en") == (
        "Deal 2: Аня+Вера — 92\u00a0:\u00a028.\n→ +8 eyes.\n4 eyes ×2 for eggs = 8\n"
        "Score:\nАня+Вера: 8 — Борис+Глеб: 0"
    )
    state = kryuk_deals.kryuk()
    kryuk_deals.play_deal(state, kryuk_deals.ROWS_EGGS)
    events = kryuk_deals.play_deal(state, kryuk_deals.ROWS_89_31)
    assert result_of(state, events) == (
        "Сдача 2: Аня+Вера — 89\u00a0:\u00a031.\n→ +4 очка.\n2 очка + 2 за яйца = 4\n"
        "Счёт: Аня+Вера: 4 — Борис+Глеб: 0"
    )


def test_15_5_belka_says_the_pair_was_on_obligation_or_defending() -> None:
    """Belka's award says whether the pair was on obligation (1/2) or defending (2/3)."""
    state = belka_deals.new_match()
    events = belka_deals.play_deal(state, belka_deals.ROWS_OB_89)
    assert result_of(state, events) == (
        "Сдача 1: Аня+Вера — 89\u00a0:\u00a031.\n→ +1 глаз.\n"
        "На обязе: 61–89\u00a0→\u00a01 глаз, 90+\u00a0→\u00a02.\n"
        "Счёт: Аня+Вера: 1 — Борис+Глеб: 0"
    )
    assert result_of(state, events, "uk") == (
        "Здача 1: Аня+Вера — 89\u00a0:\u00a031.\n→ +1 око.\n"
        "На обов'язку: 61–89\u00a0→\u00a01 око, 90+\u00a0→\u00a02.\n"
        "Рахунок:\nАня+Вера: 1 — Борис+Глеб: 0"
    )
    state = belka_deals.new_match()
    events = belka_deals.play_deal(state, belka_deals.ROWS_OB_31)
    assert result_of(state, events) == (
        "Сдача 1: Борис+Глеб — 89\u00a0:\u00a031.\n→ +2 глаза.\n"
        "Защищались: 61–89\u00a0→\u00a02 глаза, 90+\u00a0→\u00a03.\n"
        "Счёт: Борис+Глеб: 2 — Аня+Вера: 0"
    )


# -- item 7: the last trick on the final table ------------------------------------------------


def test_15_7_the_final_table_shows_the_last_trick() -> None:
    """The deal's final table shows its last trick: who played what, who took it, its points
    (the catch's trick too)."""
    state = new_match()
    events = play_deal(state, ROWS_64_56)
    assert end_texts(state, events)[0] == (
        "🐐 Сдача 1 · Хвалёный козёл\nКозырь ♦\nАня+Вера: 2 глаза\nБорис+Глеб: 0 глаз\n"
        "Последняя взятка — Аня, +0:\nБорис 6♥ · Вера 8♣ · Глеб 7♣\nАня 7♥\n"
        "Очки в сдаче: 64 : 56\nСдача закончена."
    )
    state = kryuk_deals.kryuk()
    events = kryuk_deals.play_deal(state, kryuk_deals.ROWS_CATCH)  # the catch ends the deal
    assert (
        "Последняя взятка — Вера, +8:\nАня В♦ · Борис Д♥ · Вера 7♣\nГлеб Д♣\n"
        in (end_texts(state, events)[0])
    )


def test_15_7_the_last_trick_travels_as_json_and_old_results_still_render() -> None:
    """``DealScored.details`` stays JSON (the outbox stores it) and a result stored before it
    had the last trick still renders."""
    state = new_match()
    result = next(e for e in play_deal(state, ROWS_64_56) if isinstance(e, DealScored))
    assert result.details["last_trick"] == {
        "cards": [[1, "6H"], [2, "8C"], [3, "7C"], [0, "7H"]],
        "winner": 0,
        "points": 0,
    }
    adapter = TypeAdapter(DealScored)
    stored = json.loads(json.dumps(adapter.dump_python(result, mode="json")))
    assert adapter.validate_python(stored) == result
    old = DealScored(
        deal_no=0,
        outcome="normal",
        points=(64, 56),
        tricks_won=(5, 4),
        award=(2, 0),
        multiplier=1,
        score=(2, 0),
        side=0,
        details={"trump": "D", "opening": "plain"},
    )
    assert render.final_table_text(playing_table(state), old, translator("ru")) == (
        "🐐 Сдача 1 · Хвалёный козёл\nКозырь ♦\nАня+Вера: 2 глаза\nБорис+Глеб: 0 глаз\n"
        "Очки в сдаче: 64 : 56\nСдача закончена."
    )


# -- item 8: the hand on your turn ------------------------------------------------------------


def test_15_8_the_hand_names_who_played_what_and_who_takes_the_trick() -> None:
    """On your turn the hand shows each card with its player and who takes the trick so far
    (``trick_winner``), the partner named as such; off turn it stays quiet."""
    state = new_match()
    deal_and_keep(state, hands_from_rows(ROWS_64_56))
    play_cards(state, "JC")
    assert hand_text(state, 1).endswith("\n👉 Ваш ход. На столе: Аня В♣")  # the lead alone
    play_cards(state, "JS")
    assert hand_text(state, 2) == (
        "Хвалёный козёл · сдача 1\nкозырь ♦\nВаш партнёр: Аня\n"
        "👉 Ваш ход. На столе:\nАня В♣ · Борис В♠\nПока берёт Аня — ваш партнёр."
    )
    assert hand_text(state, 0) == "Хвалёный козёл · сдача 1\nкозырь ♦\nВаш партнёр: Вера"
    play_cards(state, "QC")
    assert hand_text(state, 3).endswith(
        "\n👉 Ваш ход. На столе:\nАня В♣ · Борис В♠ · Вера Д♣\nПока берёт Вера."
    )
    assert hand_text(state, 3, "uk").endswith(
        "\n👉 Ваш хід. На столі:\nАня В♣ · Борис В♠ · Вера Д♣\nПоки бере Вера."
    )


def test_15_8_face_down_cards_tell_nothing() -> None:
    """A hvalyonka's face-down cards stay 🂠 and tell nothing, nor who takes the trick."""
    state = kryuk_deals.hvalyonka()
    play_cards(state, "AS")  # the praised seat 1 leads face down
    own = hand_text(state, 2)
    assert own.endswith("\n👉 Хвалёнка: положите любую карту втёмную — заход скрыт.")
    assert "Т♠" not in own and "берёт" not in own
    assert "На столе: Борис 🂠" in table_text(state)


# -- item 9: the two-player deck and trump ----------------------------------------------------


def test_15_9_two_players_see_the_deck_run_out_and_why_the_trump_is_what_it_is() -> None:
    """Two players: the cards left in the deck, its running out at the refill, and each deal's
    trump with its reason."""
    state = duel_deals.duel()
    rows = duel_deals.DUEL_0_89
    duel_deals.deal_duel(state, rows)
    table = table_text(state).split("\n")
    assert table[:5] == [
        "🐐 Сдача 1 · Хвалёный козёл",
        "Козырь ♣:",
        "в первой сдаче всегда крести",
        "Аня: 0 глаз",
        "Борис: 0 глаз",
    ]
    assert "В колоде: 18 карт" in table and not any("прикуп" in line for line in table)
    assert "\nВ колоде: 18 карт\n" in hand_text(state, 1)
    duel_deals.play_duel_rows(state, rows[:9])  # both hands empty: the refill
    assert "Колода кончилась: это последние карты." in table_text(state).split("\n")
    assert "\nКолода кончилась: это последние карты." in hand_text(state, 0)
    assert "Deck empty: these are the last cards." in table_text(state, "en")
    events = duel_deals.play_duel_rows(state, rows[9:])
    final = end_texts(state, events)[0]
    assert final.endswith(
        "\nАня 10♦ · Борис Т♥\nОчки в сдаче: 89 : 31\nКозырь следующей сдачи: ♥\nСдача закончена."
    )
    state.deal(random.Random(1))
    assert table_text(state).split("\n")[1:3] == ["Козырь ♥:", "последняя карта прошлой сдачи"]
    uk = ["Козир ♥:", "остання карта попередньої здачі"]
    assert table_text(state, "uk").split("\n")[1:3] == uk


def test_15_14_the_rules_of_two_players_speak_of_the_deck() -> None:
    """Two players' rest of the deck is «колода», not the preferans «прикуп»."""
    text = render.rules_text("hvalenyi", translator("ru"))
    assert "прикуп" not in text
    assert "остаток колоды раздают, когда обе руки пусты" in text


# -- item 10: phone-wide lines ----------------------------------------------------------------

PHONE = 42
"""About 40 characters (UX.md's phone row): render packs to 40, and a name longer than the
sketch's may add a letter or two."""
SETUPS = [
    ("hvalenyi", ()),
    ("hvalenyi", ("players=2",)),
    ("kryuk", ()),
    ("sixes", ()),
    ("belka", ()),
]


def visible(line: str) -> str:
    return re.sub(r"<[^>]+>", "", line)


@pytest.mark.parametrize(("variant", "words"), SETUPS, ids=lambda v: str(v))
def test_15_10_every_line_of_the_table_and_the_results_fits_a_phone(
    variant: str, words: tuple[str, ...]
) -> None:
    """Over seeded computer matches, in every language: each line of the table, the final
    table, the results and the match result (prose prompts of the hand wrap as sentences)."""
    state = MatchState(variant, preset(variant).parse(list(words)).model_dump())
    shown: list[str] = []

    def look(events: list[Any]) -> None:
        shown.extend(text for language in LANGUAGES for text in end_texts(state, events, language))
        if state.phase not in (Phase.DEALING, Phase.OVER):
            shown.extend(table_text(state, language) for language in LANGUAGES)

    advance(
        state,
        7,
        lambda seat: True,
        FAMILY.players.choose,
        on_move=lambda _seat, _action, events: look(events),
        on_events=look,
    )
    assert state.over and any("🏆" in text for text in shown)
    long = {line for text in shown for line in text.split("\n") if len(visible(line)) > PHONE}
    assert long == set()


def test_15_10_the_head_lines_are_short() -> None:
    """The head is the deal and the variant; the trump and the eggs, carry and redeal notes
    share the next line; belka's seat suits wrap under their label."""
    state = sixes_deals.later_deal(1, score=(2, 3))
    state.carry, state.redeals = 1, 1
    sixes_deals.deal(state, hands_from_rows(sixes_deals.ROWS_90_30))
    assert table_text(state).split("\n")[:3] == [
        "🐐 Сдача 2 · Козёл на шестёрках",
        "Козырь ♣ · +1 пара за яйца",
        "пересдача 1",
    ]
    state = new_match()
    play_deal(state, ROWS_EGGS)
    deal_and_keep(state, hands_from_rows(ROWS_64_56))
    assert table_text(state).split("\n")[:3] == [
        "🐐 Сдача 2 · Хвалёный козёл",
        "Козырь ♦ · ×2 после яиц",
        "Аня+Вера: 0 глаз",
    ]
    state = belka_deals.new_match()
    deal_and_keep(state, hands_from_rows(belka_deals.ROWS_OB_89))
    # Four names and four suits are wider than a 360-px phone's row (tests/phone_pixels.py):
    # the order wraps between seats.
    assert "Масти мест и порядок хода:\nАня ♣ → Борис ♠ → Вера ♥\n→ Глеб ♦\n" in table_text(state)


# -- item 11: kryuk's trump-lead right and the praised player ---------------------------------


def test_15_11_kryuk_table_says_who_may_lead_trumps() -> None:
    """Kryuk's table says who may lead trumps (козырять), not «на обязе»: nobody in the first
    deal, the pair that led first (the praised pair in a hvalyonka), both at 10:10."""
    state = kryuk_deals.kryuk()
    kryuk_deals.deal_rows(state, kryuk_deals.ROWS_89_31)
    lines = table_text(state).split("\n")
    assert "Козырять могут: никто (1-я сдача)" in lines
    assert not any("обязе" in line for line in lines)
    state = kryuk_deals.later_deal(2)
    kryuk_deals.deal_rows(state, kryuk_deals.ROWS_CATCH)
    assert "Козырять могут: Аня+Вера" in table_text(state).split("\n")
    state = kryuk_deals.later_deal(2, score=(10, 10))
    kryuk_deals.deal_rows(state, kryuk_deals.ROWS_CATCH)
    assert "Козырять могут: обе пары (козлячий бой)" in table_text(state).split("\n")
    assert "Козиряють обидві пари (козлячий бій)" in table_text(state, "uk").split("\n")
    state = kryuk_deals.hvalyonka()  # the praised pair keeps the right
    assert "Козырять могут: Борис+Глеб\nХвалёнка: заходит Борис\n" in table_text(state)


def test_15_11_kryuk_prompts_and_the_trump_lead_refusal() -> None:
    """Kryuk's lead prompts (A♦ first, no trump for this pair), the trump-lead refusal listing
    the legal cards after «можно:», and «вас хвалят»."""
    state = kryuk_deals.kryuk()
    kryuk_deals.deal_rows(state, kryuk_deals.ROWS_89_31)
    assert hand_text(state, 3).endswith("\n👉 Ваш заход: первая сдача начинается с Т♦.")
    state = kryuk_deals.later_deal(0)
    state.deal_hands([list(h) for h in kryuk_deals.LEAD_HANDS])
    play_cards(state, "9H KH 7H 10H")  # seat 3 takes it; seats 1+3 may not lead trumps
    assert hand_text(state, 3).endswith("\n👉 Ваш заход — вашей паре сейчас нельзя козырять.")
    assert refusal(state, 3, PlayCard(card("7C"))) == (
        "Вашей паре сейчас нельзя козырять, можно: Т♦ 10♦ К♦"
    )
    state = kryuk_deals.hvalyonka()
    assert hand_text(state, 1).endswith(
        "\n👉 Хвалёнка: вас хвалят — зайдите простой картой втёмную."
    )
    assert hand_text(state, 1, "uk").endswith(
        "\n👉 Хвальонка: вас хвалять — зайдіть простою картою втемну."
    )


def test_15_11_kryuk_handoff_prompt_uses_the_seeds_words() -> None:
    """Kryuk's hand-off in the seed's words («отойти от последнего»), with no pronoun guessing
    the partner's gender."""
    state = kryuk_deals.kryuk()
    kryuk_deals.deal_hands(state, kryuk_deals.HANDOFF_HANDS)
    assert hand_text(state, 0).endswith(
        "\n👉 Можно отойти от последнего: отдать козырь партнёру и получить взамен карту. "
        "Соперники не узнают."
    )


# -- item 12: the sixes call and hand-off ------------------------------------------------------


def test_15_12_the_sixes_call_says_hvalyonka_and_explains_each_kind() -> None:
    """Sixes' call speaks of «хвалёнка» and explains штаны, двойные штаны and зеркало under the
    buttons."""
    state = sixes_deals.later_deal(1)
    state.deal_stock(list(DECK_32))
    assert state.phase is Phase.CALL
    assert hand_text(state, 1) == "\n".join(
        [
            "Козёл на шестёрках · сдача 2",
            "козырь ♣",
            "Ваш партнёр: Глеб",
            "👉 Вы заходите в этой сдаче: обычная сдача или хвалёнка?",
            "В хвалёнке первую взятку тянут из колоды, потом всем досдают до 8 карт:",
            "• штаны — по карте сверху и снизу колоды: тузы и козыри остаются на руке, первой "
            "другой картой ходят;",
            "• двойные штаны — то же, по две карты сверху и снизу;",
            "• зеркало — по одной карте снизу: козыри остаются на руке, первой простой картой "
            "ходят в открытую.",
        ]
    )
    assert "<b>Борис</b>: обычная сдача или хвалёнка?" in table_text(state)
    buttons = [
        b.text
        for row in render.hand_keyboard(playing_table(state), state, 1, translator("ru"))
        for b in row
    ]
    assert buttons == ["обычная сдача", "штаны", "двойные штаны", "зеркало"]


def test_15_12_a_sixes_hand_with_two_trumps_may_pass_one_or_both() -> None:
    """A hand with two trumps is told it may pass one or both; a hand with one, its one."""
    state = sixes_deals.sixes()
    state.deal_hands([list(h) for h in sixes_deals.HANDOFF_HANDS])
    assert hand_text(state, 0).endswith(
        "\n👉 У вас два козыря: можно объявить отход — «отдаю последнего козыря!» — и отдать "
        "одного или обоих. Услышит весь стол, ответит партнёр."
    )
    state = sixes_deals.sixes()
    state.deal_hands([list(h) for h in sixes_deals.BOTH_MAY_OFFER])  # seat 2: one trump
    assert hand_text(state, 2).endswith(
        "\n👉 У вас один козырь: можно объявить отход — «отдаю последнего козыря!» Услышит "
        "весь стол, ответит партнёр."
    )


# -- item 15: keeping the cards ----------------------------------------------------------------


def test_15_15_keeping_says_what_was_kept_not_a_redeal() -> None:
    """«Оставить» answers what was done (the cards kept), not «без пересдачи» — the same press
    keeps a hand in a redeal offer and a trump in a hand-off."""
    for language, text in (
        ("ru", "Вы оставили свои карты."),
        ("uk", "Ви залишили свої карти."),
        ("en", "You keep your cards."),
    ):
        assert render.done_text(KeepHand(), translator(language)) == text


# -- item 16: a scored deal keeps its number ---------------------------------------------------


def test_15_16_after_the_match_the_hand_and_table_show_the_last_deals_number() -> None:
    """After the match the hand and the table show the last deal's number, not the next one's."""
    state = new_match()
    for _ in range(3):  # 4 + 4 + 4 eyes
        events = play_deal(state, ROWS_92_28)
    assert state.over and state.deal_no == 3
    # Issue #30 item 11: one statement, the match's end in it, no header saying the deal again.
    assert hand_text(state, 0) == "Сдача 3, последняя в партии, закончена."
    assert table_text(state).startswith("🐐 Сдача 3 · Хвалёный козёл\n")
    assert end_texts(state, events)[0].startswith("🐐 Сдача 3 · Хвалёный козёл\n")


@pytest.mark.parametrize(("variant", "words"), SETUPS, ids=lambda v: str(v))
def test_15_16_every_variant_shows_the_scored_deals_number(
    variant: str, words: tuple[str, ...]
) -> None:
    """In every variant, between a deal's end and the next deal, hands and table show the
    scored deal's number."""
    state = MatchState(variant, preset(variant).parse(list(words)).model_dump())
    scored: list[DealScored] = []

    def between(events: list[Any]) -> None:
        results = [e for e in events if isinstance(e, DealScored)]
        if not results:
            return
        scored.append(results[-1])
        head = re.compile(rf"сдача {results[-1].deal_no + 1}\b", re.IGNORECASE)
        assert all(head.search(hand_text(state, seat)) for seat in range(state.players))
        assert table_text(state).startswith(f"🐐 Сдача {results[-1].deal_no + 1} ·")

    advance(
        state,
        3,
        lambda seat: True,
        FAMILY.players.choose,
        on_move=lambda _seat, _action, events: between(events),
        on_events=between,
    )
    assert state.over and scored


# -- item 17: what a refused press is waiting for ----------------------------------------------


def test_15_17_a_press_that_does_not_fit_the_step_says_what_the_table_waits_for() -> None:
    """A press that does not fit the step says what the table is waiting for — the call, a
    public hand-off, the deal, the end — and whose move a public step is."""
    state = sixes_deals.later_deal(1)
    state.deal_stock(list(DECK_32))  # the call
    assert refusal(state, 1, PlayCard(card("AS"))) == (
        "Сначала выбирают сдачу: обычная или хвалёнка."
    )
    assert refusal(state, 3, CallOpening("plain")) == "Сейчас сдачу выбирает Борис."
    state = sixes_deals.sixes()
    state.deal_hands([list(h) for h in sixes_deals.HANDOFF_HANDS])
    state.apply(0, OfferHandoff())  # public from here on
    assert refusal(state, 1, PlayCard(card("7C"))) == "Идёт отход — подождите немного."
    assert refusal(state, 1, AnswerOffer(True)) == "Сейчас в отходе решает Вера."
    assert refusal(state, 1, PlayCard(card("7C")), "uk") == "Триває відхід — зачекайте трохи."
    state = new_match()
    play_deal(state, ROWS_LYUSYA)  # the match is over
    assert refusal(state, 0, PlayCard(card("7H"))) == "Партия окончена."
    t = translator("ru")
    table = playing_table(state)
    assert render.game_error_text(WrongPhase(Phase.DEALING), table, t) == (
        "Карты сдаются — подождите немного."
    )
    assert render.game_error_text(WrongPhase(Phase.PLAY), table, t) == (
        "Сдача уже идёт — ходите картой."
    )


def test_15_17_hidden_steps_keep_their_neutral_refusals() -> None:
    """A hidden step (a redeal offer) keeps its neutral refusal for every press, whoever
    presses."""
    state = new_match()
    state.deal_hands(hands_from_rows(ROWS_LYUSYA))  # seat 3 may ask for a redeal
    assert state.hidden_turn and state.current is not None
    hands = state.current.hands
    for seat in range(4):
        assert refusal(state, seat, PlayCard(hands[seat][0])) == (
            "Сдача ещё не началась — подождите немного."
        )
        assert refusal(state, seat, CallOpening("plain")) == (
            "Сдача ещё не началась — подождите немного."
        )


def test_the_time_out_line_breaks_after_its_label_on_a_phone() -> None:
    """Issue #30 item 7: «⌛ Ход за игрока по тайм-ауту: Аня ×1» is wider than a 360-px row:
    the names go under the label (the forum tournament's layout check met it)."""
    state = kryuk_deals.hvalyonka()
    table = playing_table(state)
    table.timeouts = [1, 0, 2, 0]
    text = render.table_text(table, state, translator("ru")).split("\n")
    at = text.index("⌛ Ход за игрока по тайм-ауту:")
    assert text[at + 1] == "Аня ×1, Вера ×2"
    assert all(len(line) <= LINE for line in text[at : at + 2])
