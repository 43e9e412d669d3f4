"""Issue #30 item 11: the 💡 hint and the 🔍 analysis speak a player's words — no fraction of
an eye (a small margin is «чуть лучше», a larger one whole eyes), the analysis names the
trick and the card, and a move that starts a sentence starts it with a capital."""

from __future__ import annotations

import re

import pytest

from kozelbot.computer import analysis
from kozelbot.computer.analysis import Review
from kozelbot.computer.coach import Analysis
from kozelbot.core.cards import Card
from kozelbot.core.decisions import Decision
from kozelbot.core.i18n import LANGUAGES, translator
from kozelbot.core.table import Table
from kozelbot.families.cover.vocabulary import Beat, Lead
from kozelbot.families.follow.vocabulary import PlayCard
from kozelbot.views.advice import analysis_text, hint_text, review_text
from storage import Storage
from tests.test_analysis_pressure import ANN, _positions, _two_deals_played

RU = translator("ru")
FRACTION = re.compile(r"\d[.,]\d")
"""A decimal fraction: «0,1», «1.5»."""
KING, SEVEN = PlayCard(Card.parse("KS")), PlayCard(Card.parse("7S"))


def _table(variant: str = "hvalenyi") -> Table:
    return Table(
        game_id=7,
        chat_id=ANN,
        variant=variant,
        options={},
        creator_id=ANN,
        seed=1,
        seats=[None] * 4,
    )


def _decision(margin: float, first: object = KING, second: object = SEVEN) -> Decision:
    return Decision(
        first, values=((first, 1.0), (second, 1.0 - margin)), reason="take", fields={"points": 14}
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", ["hvalenyi", "kryuk", "sixes", "belka"])
@pytest.mark.parametrize("margin", [0.06, 0.1, 0.49, 0.5, 1.26, 2.5])
def test_a_hint_never_shows_a_fraction_of_the_unit(
    language: str, variant: str, margin: float
) -> None:
    text = hint_text(_table(variant), _decision(margin), translator(language))
    assert FRACTION.search(text) is None, text


def test_a_small_margin_is_slightly_better_and_a_larger_one_whole_eyes() -> None:
    table = _table()
    assert hint_text(table, _decision(0.1), RU).endswith(" Чуть лучше, чем 7♠.")
    assert hint_text(table, _decision(0.6), RU).endswith(" Лучше, чем 7♠: примерно +1 глаз.")
    assert hint_text(table, _decision(2.5), RU).endswith(" Лучше, чем 7♠: примерно +3 глаза.")
    assert "лучше" not in hint_text(table, _decision(0.01), RU).lower()
    uk, en = translator("uk"), translator("en")
    assert hint_text(table, _decision(0.1), uk).endswith(" Трохи краще, ніж 7♠.")
    assert hint_text(table, _decision(1.2), uk).endswith(" Краще, ніж 7♠: приблизно +1 око.")
    assert hint_text(table, _decision(0.1), en).endswith(" Slightly better than 7♠.")
    assert hint_text(_table("kryuk"), _decision(2.2), RU).endswith("примерно +2 очка.")
    assert hint_text(_table("sixes"), _decision(1.0), RU).endswith("примерно +1 пара.")


def test_the_cover_hint_starts_with_a_capital() -> None:
    lead = Lead((Card.parse("KS"), Card.parse("AS")))
    beat = Beat((Card.parse("6D"),))
    text = hint_text(_table("cover"), _decision(1.4, lead, beat), RU)
    assert text.startswith("💡 Зайти К♠ Т♠: "), text
    assert text.endswith("Лучше, чем побить 6♦: примерно −1 штрафное очко."), text
    assert hint_text(_table("cover"), _decision(0, lead), translator("uk")).startswith(
        "💡 Зайти К♠ Т♠: "
    )
    assert hint_text(_table("cover"), _decision(0, lead), translator("en")).startswith(
        "💡 Lead K♠ A♠: "
    )


def _review(loss: float, trick: int = 4) -> Review:
    return Review(
        number=2, played=KING, best=SEVEN, played_value=-loss, best_value=0.0, trick=trick
    )


def test_the_analysis_names_the_trick_and_the_card_in_whole_eyes() -> None:
    assert review_text(_review(0.1), "hvalenyi", RU) == "Взятка 4: К♠ → 7♠ чуть лучше"
    assert review_text(_review(2.3), "hvalenyi", RU) == (
        "Взятка 4: К♠ → лучше 7♠, примерно +2 глаза"
    )
    assert review_text(_review(0.7, trick=0), "hvalenyi", RU) == (
        "До первой взятки: К♠ → лучше 7♠, примерно +1 глаз"
    )
    assert review_text(_review(0.2), "hvalenyi", translator("uk")) == (
        "Взятка 4: К♠ → 7♠ трохи краще"
    )
    assert review_text(_review(1.6), "hvalenyi", translator("en")) == (
        "Trick 4: K♠ → better 7♠, about +2 eyes"
    )
    lead, beat = Lead((Card.parse("KS"),)), Beat((Card.parse("6D"),))
    cover = Review(number=1, played=lead, best=beat, played_value=-1.2, best_value=0.0, trick=2)
    assert review_text(cover, "cover", RU) == (
        "Взятка 2: зайти К♠ → лучше побить 6♦, примерно −1 штрафное очко"
    )  # fewer loser points: the better move's gain has a minus
    for language in LANGUAGES:
        for loss in (0.06, 0.3, 0.5, 1.49, 3.7):
            line = review_text(_review(loss), "cover", translator(language))
            assert FRACTION.search(line) is None, line


def test_the_analysis_heads_a_deal_in_its_variants_word() -> None:
    """The cover game plays games, not deals: its 🔍 says «Игра 3», as its table does."""
    for variant, ru, uk in (("hvalenyi", "Сдача 3", "Здача 3"), ("cover", "Игра 3", "Гра 3")):
        found = Analysis(table=_table(variant), deal_no=2, reviewed=0, worst=())
        assert analysis_text(found, RU).startswith(f"🔍 <b>{ru}</b>: "), variant
        assert analysis_text(found, translator("uk")).startswith(f"🔍 <b>{uk}</b>: "), variant


async def test_each_reviewed_play_knows_its_trick_in_its_own_deal(storage: Storage) -> None:
    """A four-player hvalenyi deal has 9 tricks: Аня plays once in each, so her reviewed
    plays' tricks rise within 1–9, and the next deal counts from its own first trick."""
    game_id = await _two_deals_played(storage)
    first = await _positions(storage, game_id)
    table = await storage.games.game(game_id)
    assert table is not None
    moves = await storage.games.moves(game_id)
    second = analysis.positions(table.variant, table.options, table, moves, 1, ANN)
    for found in (first, second):
        tricks = [p.trick for p in found if p.trick]
        assert tricks == sorted(set(tricks)) and tricks[-1] <= 9 and len(tricks) >= 3, tricks
