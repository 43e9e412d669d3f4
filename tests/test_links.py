"""The buttons that open the Mini App (``kozelbot.views.links``): the private hand's ``web_app``
button, the group table's direct link, and a finished match's replay — ``web_app`` in a
private chat, the direct link in a group, nothing in a group without the app's short name."""

from __future__ import annotations

from kozelbot.core.i18n import translator
from kozelbot.views.links import WebAppLinks

RU = translator("ru")


def test_the_hand_opens_its_table_in_the_page() -> None:
    links = WebAppLinks("https://k.example/app/", "table", "kozel_bot")
    (button,) = links.hand_row(42, RU)
    assert button.web_app == "https://k.example/app/?game=42" and button.url is None
    assert button.text == "🃏 Открыть стол"
    assert WebAppLinks("https://k.example/?x=1").page(7) == "https://k.example/?x=1&game=7"


def test_the_group_gets_the_direct_link_only_with_the_app_s_name() -> None:
    (button,) = WebAppLinks("https://k.example/", "table", "kozel_bot").table_row(42, RU)
    assert button.url == "https://t.me/kozel_bot/table?startapp=g42" and button.web_app is None
    assert WebAppLinks("https://k.example/", None, "kozel_bot").table_row(42, RU) == ()


def test_a_finished_match_replays_from_its_result() -> None:
    links = WebAppLinks("https://k.example/", "table", "kozel_bot")
    (private,) = links.replay_row(42, RU, private=True)
    assert private.web_app == "https://k.example/?replay=42" and private.text == "🃏 Повтор партии"
    (group,) = links.replay_row(42, translator("uk"), private=False)
    assert group.url == "https://t.me/kozel_bot/table?startapp=r42"
    assert group.text == "🃏 Повтор партії"
    assert WebAppLinks("https://k.example/").replay_row(42, RU, private=False) == ()
