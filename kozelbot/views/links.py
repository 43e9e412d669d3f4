"""The buttons that open the Mini App (issue #18): in a seated person's private hand, a
``web_app`` button (Telegram allows those only in private chats) that opens their table;
under the group's table message, a link button to the Mini App's direct link
``https://t.me/<bot>/<name>?startapp=g<game>``, which opens the same table for anyone in the
group (seated people see their hand, others watch); under a match's result, its replay.
None of them without ``KOZEL_WEBAPP_URL``; a group's only with the app's short name
(``KOZEL_WEBAPP_NAME``).
"""

from __future__ import annotations

from dataclasses import dataclass

from kozelbot.core.i18n import Translator
from kozelbot.core.texts import Button


@dataclass(frozen=True, slots=True)
class WebAppLinks:
    """Where the Mini App is: its page's public address, its short name and the bot's
    username (the direct link needs both)."""

    url: str
    name: str | None = None
    bot: str | None = None

    def page(self, game_id: int, key: str = "game") -> str:
        """The page's address for one table (``key="replay"``: a finished match's replay)."""
        joiner = "&" if "?" in self.url else "?"
        return f"{self.url}{joiner}{key}={game_id}"

    def _direct(self, start: str) -> str | None:
        """The app's direct link opening ``start`` (none without its short name)."""
        if not self.name or not self.bot:
            return None
        return f"https://t.me/{self.bot}/{self.name}?startapp={start}"

    def hand_row(self, game_id: int, t: Translator) -> tuple[Button, ...]:
        """The private hand's 🃏 button."""
        return (Button("🃏 " + t("Open the table"), web_app=self.page(game_id)),)

    def table_row(self, game_id: int, t: Translator) -> tuple[Button, ...]:
        """The group table's 🃏 link (none without the app's short name)."""
        link = self._direct(f"g{game_id}")
        return () if link is None else (Button("🃏 " + t("Open the table"), url=link),)

    def replay_row(self, game_id: int, t: Translator, *, private: bool) -> tuple[Button, ...]:
        """The 🃏 replay of a finished match: a ``web_app`` button in a private chat, the
        direct link (``startapp=r<game>``) in a group (none without the short name)."""
        label = "🃏 " + t("Replay")
        if private:
            return (Button(label, web_app=self.page(game_id, "replay")),)
        link = self._direct(f"r{game_id}")
        return () if link is None else (Button(label, url=link),)
