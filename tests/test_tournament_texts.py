"""What a tournament says to its players (issue #30 items 11 and 12): the standings explain
their figures with a true minus, the draw names opponents in a form that needs no case, the
invitation says where and with whom, Join says what happens next, and a tournament table's
lobby names whom it waits for — each on a phone's row, in every language."""

from __future__ import annotations

import pytest

from kozelbot.core.i18n import translator
from kozelbot.core.table import Player, TournamentTable
from kozelbot.core.texts import LINE, visible
from kozelbot.core.tournament.model import Format, Round, Status
from kozelbot.core.tournament.standings import standings
from kozelbot.tables import tournament_table as tables
from kozelbot.tables.seating import lobby_options, lobby_table
from kozelbot.views.general import lobby_text
from kozelbot.views.tournament import texts
from tests.test_tournament_standings import ROTATING, table, tour

LANGUAGES = ("ru", "uk", "en")
ANSWER_LIMIT = 200
"""Characters Telegram shows of a button's answer."""


def test_standings_explain_their_figures_and_use_a_true_minus() -> None:
    """Borис's deal difference is −20: a minus sign (U+2212), not a hyphen; a legend says
    what the points and ± are; every line fits a phone's row."""
    t = tour(Format.ROTATING, ROTATING, status=Status.RUNNING, rounds=3)
    text = texts.standings_text(t, standings(t), translator("ru"))
    assert "4. Борис — 0 очков\n    ± −20 · 2 партии" in text, text
    assert "-20" not in text and "−60" in text
    assert "очки за матч: победа 2, ничья 1" in text
    assert "±: очки взяток, свои минус чужие" in text
    assert all(visible(line) <= LINE for line in text.splitlines()[3:]), text


def test_pairs_standings_explain_buchholz_and_keep_to_a_phone_row() -> None:
    """Two long pair names: the figures go to the next line instead of wrapping inside."""
    t = tour(
        Format.PAIRS,
        [Round(number=1, tables=[table(1, [1, 2, 3, 4])])],
        people=4,
        pairs=[(1, 3), (2, 4)],
        status=Status.RUNNING,
    )
    t.entrants[0] = t.entrants[0].model_copy(update={"name": "Анастасия-Виктория"})
    text = texts.standings_text(t, standings(t), translator("ru"))
    assert "Б: Бухгольц" in text
    assert all(visible(line) <= LINE for line in text.splitlines()[3:]), text
    assert "\n    ± 0 · Б 0 · 0 партий" in text, text
    for language in LANGUAGES:
        other = texts.standings_text(t, standings(t), translator(language))
        assert all(visible(line) <= LINE for line in other.splitlines()[3:]), other


@pytest.mark.parametrize(
    ("language", "said"), [("ru", "соперники: Борис и Глеб"), ("uk", "суперники: Борис і Глеб")]
)
def test_the_draw_names_opponents_in_a_form_that_needs_no_case(language: str, said: str) -> None:
    """«против Борис и Глеб» is not Russian; a label needs no declension."""
    t = tour(Format.ROTATING, ROTATING[:1])
    text = texts.round_text(t, t.played[0], translator(language))
    assert said in text, text
    assert "против" not in text and "проти " not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_invitation_names_table_partner_and_opponents(language: str) -> None:
    t = tour(Format.ROTATING, ROTATING[:1], chat_title="Козлятня")
    text = texts.table_invite_text(t, 1, 2, [1, 2, 3, None], 3, translator(language))
    assert "Козлятня" in text and "2" in text.splitlines()[0]
    partner, opponents = text.splitlines()[1:3]
    assert "Аня" in partner and "Борис" in opponents and "🤖" in opponents
    [[button]] = texts.invite_keyboard(7, translator(language))
    assert button.data == "j:7"


@pytest.mark.parametrize("language", LANGUAGES)
def test_join_says_when_the_draw_is_and_what_comes_then(language: str) -> None:
    """Not «Готово.»: when the draw is and what the player will get, under the answer's
    limit (and, for someone the bot cannot write to, where to open the chat)."""
    t = translator(language)
    timed = tour(Format.ROTATING, [], starts_at=1000.0)
    for tournament in (timed, tour(Format.ROTATING, [])):
        for reachable in (True, False):
            text = texts.registered_text(tournament, t, reachable=reachable, now=700.0)
            assert len(text) <= ANSWER_LIMIT, text
    ru = texts.registered_text(timed, translator("ru"), reachable=True, now=700.0)
    assert ru.startswith("Вы в турнире: жеребьёвка через 5 минут."), ru
    assert "партнёр, соперники и кнопка" in ru


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_seat_button_answers_fit_telegram(language: str) -> None:
    for code in ("done", "seated", "late", "over"):
        assert len(texts.seat_answer(code, 12, translator(language))) <= ANSWER_LIMIT


def test_a_tournament_lobby_names_whom_it_waits_for() -> None:
    """Not «ждём игрока по жеребьёвке» four times: each empty seat names its person; a
    seat drawn for a computer says so; a person seated shows as seated."""
    table_ = lobby_table(
        -1,
        None,
        "hvalenyi",
        lobby_options("hvalenyi", [], None),
        1,
        "Клуб",
        seed=1,
        secret="",
        invite="x",
        created_at=0.0,
        deadline=60.0,
    )
    table_.tournament = TournamentTable(tournament_id=1, round_no=1, table_no=1)
    tables.reserve(table_, [1, 2, 3, None], ["Аня", "Борис", "Вера", ""])
    table_.seats[1] = Player(user_id=2, name="Борис")
    text = lobby_text(table_, translator("ru"))
    assert "1. ⏳ ждём: Аня" in text and "3. ⏳ ждём: Вера" in text, text
    assert "2. Борис" in text and "по жеребьёвке" not in text
