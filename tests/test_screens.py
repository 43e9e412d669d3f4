"""The screens (``kozelbot.views.screens``) are pure functions of a table, a state and a translator:
the same arguments give the same screen, made of plain ``Button`` rows that any front end can
show; the away hand, the waiting list, the move warning and the deep-link notice say what
players should see, and a family's texts are reached through its ``Reader`` only."""

from __future__ import annotations

import random

from kozelbot.core.callbacks import BackButton, parse
from kozelbot.core.i18n import translator
from kozelbot.core.protocol import AnyState
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.core.texts import Button
from kozelbot.families.registry import new_state, preset, reader_of
from kozelbot.views import screens
from kozelbot.views.general import lobby_keyboard, lobby_text

EN = translator("en")
NASTY = '<b>Tom & "Jerry"</b>'


def _playing(variant: str = "hvalenyi", **changes: object) -> tuple[Table, AnyState]:
    """A group table four people play ``variant`` at, its first deal dealt."""
    options = preset(variant).default_options().model_dump()
    state = new_state(variant, options)
    state.chance(random.Random(7))
    seats = [Player(user_id=100 + s, name=f"P{s}") for s in range(state.players)]
    table = Table(
        game_id=5,
        chat_id=-100,
        variant=variant,
        options=options,
        creator_id=100,
        status=TableStatus.PLAYING,
        seed=1,
        state=state.dump(),
        seats=seats,
        chat_title="Kozel club",
    )
    return table.model_copy(update=changes), state


def _buttons(screen: screens.Screen) -> list[Button]:
    return [button for row in screen.keyboard for button in row]


def test_a_screen_is_the_same_for_the_same_arguments_and_holds_plain_buttons() -> None:
    table, state = _playing()
    seat = state.to_act()[0]
    first = screens.hand_screen(table, state, seat, EN)
    assert first == screens.hand_screen(table, state, seat, EN)
    assert first.keyboard and all(type(b) is Button for b in _buttons(first))
    family = reader_of(table.variant)
    assert first == screens.Screen(
        family.hand_text(table, state, seat, EN), family.hand_keyboard(table, state, seat, EN)
    )


def test_the_lobby_screen_is_the_lobby_text_and_keyboard() -> None:
    table, _state = _playing(status=TableStatus.LOBBY, state=None)
    assert screens.lobby_screen(table, EN) == screens.Screen(
        lobby_text(table, EN), lobby_keyboard(table, EN)
    )


def test_a_seat_away_is_shown_the_button_that_takes_it_back() -> None:
    table, state = _playing()
    seats = list(table.seats)
    player = seats[1]
    assert player is not None
    seats[1] = player.model_copy(update={"away": True})
    away = table.model_copy(update={"seats": seats})
    screen = screens.hand_screen(away, state, 1, EN)
    assert "computer plays for you" in screen.text
    [button] = _buttons(screen)
    assert button.data is not None and parse(button.data) == BackButton(table.game_id)


def test_the_table_names_who_waits_for_the_next_deal_escaped() -> None:
    table, state = _playing(waiting=[Player(user_id=900, name=NASTY)])
    text = screens.table_screen(table, state, EN).text
    assert "Next deal: &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;" in text


def test_the_move_warning_names_the_group_but_not_a_private_match() -> None:
    table, _state = _playing()
    assert screens.move_warning(table, 30, EN).text == "⏰ Your move: 30 s left. (Kozel club)"
    private = table.model_copy(update={"chat_id": 100})
    assert private.private
    assert screens.move_warning(private, 30, EN).text == "⏰ Your move: 30 s left."


def test_the_ask_to_open_the_private_chat_carries_a_deep_link_button() -> None:
    link = screens.deep_link("KozelBot", "hand-5")
    assert link == "https://t.me/KozelBot?start=hand-5"
    screen = screens.open_private_notice(101, NASTY, link, EN)
    assert 'href="tg://user?id=101"' in screen.text and "<b>Tom" not in screen.text
    [button] = _buttons(screen)
    assert button.url == link and button.data is None


def test_notices_without_buttons_have_an_empty_keyboard() -> None:
    table, _state = _playing()
    for screen in (
        screens.away_notice(table, 2, EN),
        screens.take_over_notice(table, 2, EN),
        screens.table_moved_screen(EN),
        screens.left_table_screen(EN),
        screens.slow_down_notice(EN),
    ):
        assert screen.keyboard == () and screen.text
    assert "P2" in screens.away_notice(table, 2, EN).text
