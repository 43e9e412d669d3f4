"""Issue #15, the texts outside the families: ratings people understand, a lobby that fits a
phone, short seals with the whole value a press away, a welcome that says things once."""

from __future__ import annotations

import itertools
import re

import pytest

from kozelbot.core.callbacks import SealButton, parse
from kozelbot.core.fairplay import match_seal
from kozelbot.core.i18n import LANGUAGES, translator
from kozelbot.core.records import RatingChange
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.core.texts import LINE, visible
from kozelbot.families.registry import TABLE_PRESETS, preset, seats_of
from kozelbot.views.boards import rating_label, signed
from kozelbot.views.general import help_text, lobby_keyboard, lobby_text, rating_changes_text
from kozelbot.views.seals import check_keyboard, seal_keyboard, seals_in_full

RU = translator("ru")
SECRET = "5e" * 32


def _table(variant: str = "hvalenyi", **options: object) -> Table:
    chosen = preset(variant)
    values = chosen.options_from({**chosen.default_options().model_dump(), **options})
    dumped = values.model_dump()
    seats: list[Player | None] = [None] * seats_of(variant, dumped)
    seats[0] = Player(user_id=1, name="Аня")
    if len(seats) > 1:
        seats[1] = Player(user_id=2, name="Глеб")
    return Table(
        game_id=7,
        chat_id=-1,
        variant=variant,
        options=dumped,
        creator_id=1,
        seed=1,
        secret=SECRET,
        seats=seats,
    )


# -- item 3: ratings ---------------------------------------------------------------------------


def test_a_match_result_shows_ratings_on_a_friendly_scale_with_one_minus_sign() -> None:
    changes = [
        RatingChange(user_id=2, before=1000, after=980),
        RatingChange(user_id=1, before=1000, after=1040),
    ]
    assert rating_changes_text(changes, _table(), RU) == (
        "📈 Рейтинг (у новичка 1000):\nГлеб: 980 (−20)\nАня: 1040 (+40)"
    )
    assert rating_changes_text(changes, _table(), translator("en")).startswith(
        "📈 Rating (a newcomer has 1000):"
    )


def test_ratings_and_changes_read_with_one_minus_sign() -> None:
    assert [rating_label(n) for n in (1480, 980, -3, 12480)] == ["1480", "980", "−3", "12\u202f480"]
    assert [signed(n) for n in (40, -20, 0)] == ["+40", "−20", "±0"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_says_where_ratings_start(language: str) -> None:
    for private in (False, True):
        assert "1000" in help_text(translator(language), private)


# -- item 10: the lobby on a phone ------------------------------------------------------------


def _option_sets(variant: str) -> list[dict[str, object]]:
    model = preset(variant).options_model
    choices = {}
    for key, field in model.model_fields.items():
        annotation = str(field.annotation)
        if annotation == "<class 'bool'>":
            choices[key] = [False, True]
    keys = list(choices)[:4]
    return [
        dict(zip(keys, values, strict=True))
        for values in itertools.product(*(choices[k] for k in keys))
    ]


@pytest.mark.parametrize("variant", list(TABLE_PRESETS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lobby_line_of_options_fits_one_phone_row(variant: str, language: str) -> None:
    t = translator(language)
    for options in _option_sets(variant):
        text = lobby_text(_table(variant, **options), t)
        options_rows = text.split("\n")[1 : text.split("\n").index("1. Аня")]
        assert options_rows, text
        for row in options_rows:
            assert visible(row) <= LINE, (variant, row)  # as the phone shows it (&#x27; is ')


# -- item 6 (#30): no hex in the group; the match seal behind the lobby's button ----------------


def test_the_lobby_reads_one_plain_line_and_keeps_the_whole_seal_behind_its_button() -> None:
    """Issue #30 item 6: the lobby's fair play is one line in words (no digits); the 🔒
    button answers with the match seal (the commitment, made before anyone joins) and,
    once started, the players' contribution, whole, under Telegram's 200 characters."""
    table = _table()
    lobby = lobby_text(table, RU)
    assert "🔒 Раздачи можно проверить после партии." in lobby.splitlines()
    assert re.search(r"[0-9a-f]{8}", lobby) is None, lobby
    (button,) = lobby_keyboard(table, RU)[-1]
    assert button.text == "🔒 Печать партии"
    assert parse(button.data) == SealButton(7, -1)
    assert seals_in_full(table, None, RU) == f"Печать партии: {match_seal(SECRET)}"
    started = table.model_copy(update={"status": TableStatus.PLAYING, "client_seed": "cd" * 32})
    assert seals_in_full(started, None, RU).endswith("Вклад игроков: " + "cd" * 32)
    assert re.search(r"[0-9a-f]{8}", lobby_text(started, RU)) is None
    assert len(seals_in_full(started, None, RU)) <= 200
    assert seal_keyboard(started.model_copy(update={"secret": ""}), RU) == ()
    # The 🔑 check is offered once the match is over, never while it is live.
    assert check_keyboard(started, RU) == ()
    ((check,),) = check_keyboard(started.model_copy(update={"status": TableStatus.FINISHED}), RU)
    assert check.text == "🔑 Проверить раздачи" and parse(check.data) == SealButton(7, -1)
