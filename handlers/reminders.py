"""The "⏰ your move" reminders: sent privately when half a move's time has passed, and
deleted once a move is made (a stale reminder would say the opposite of the table)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from handlers.lanes import Outgoing, Render
from kozelbot.core.i18n import Translator
from kozelbot.core.table import Table
from kozelbot.views.screens import move_warning

Note = Callable[..., bool]
"""``Presenter.note``: queue a message for a chat (``key`` coalesces repeats)."""


class Reminders:
    """The reminders still standing, by game."""

    def __init__(self, note: Note) -> None:
        self.note = note
        self._standing: dict[int, list[tuple[int, int]]] = {}
        """Game → (person, message id) of the reminders still standing."""

    def warn(self, table: Table, seats: list[int], seconds: int) -> None:
        """Privately warn the people to act that half their move time has passed."""
        for seat in seats:
            player = table.seats[seat]
            if player is None or player.user_id is None or player.away:
                continue
            user_id = player.user_id

            async def sent(message_id: int, user_id: int = user_id) -> None:
                self._standing.setdefault(table.game_id, []).append((user_id, message_id))

            def render(t: Translator, sent: Callable[[int], Awaitable[None]] = sent) -> Outgoing:
                screen = move_warning(table, seconds, t)  # this seat's
                return Outgoing.of(screen, on_sent=sent)

            self.note(user_id, render, key=f"warn:{table.game_id}:{table.move_seq}")

    def drop(self, game_id: int) -> None:
        """A move was made: the game's reminders are deleted."""
        for user_id, message_id in self._standing.pop(game_id, []):
            self.note(user_id, _deletion(message_id))


def _deletion(message_id: int) -> Render:
    """A note that deletes one of the bot's messages."""
    gone = Outgoing("", edit_message_id=message_id, delete=True)
    return lambda _t: gone
