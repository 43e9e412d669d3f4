"""Asking someone in a group to open the private chat with the bot: once per game, until
they answer, a post with a deep-link button whose ``payload`` says what Start then does
(take the seat, get the hand again)."""

from __future__ import annotations

from collections.abc import Callable

from handlers.lanes import Outgoing, Render
from kozelbot.views.screens import deep_link, open_private_notice

Post = Callable[[int, Render, str, int | None], object]
"""Queue a note in a chat: ``(chat_id, render, key, thread_id)``."""


class PrivateAsks:
    """Who was asked, per game, to open the private chat (and not yet answered)."""

    def __init__(self, post: Post, username: Callable[[], str]) -> None:
        """``post`` queues the note in the chat's lane; ``username`` is the bot's (known once
        the bot has started)."""
        self._post = post
        self._username = username
        self._asked: set[tuple[int, int]] = set()

    def ask(
        self,
        chat_id: int,
        game_id: int,
        user_id: int,
        name: str,
        payload: str,
        thread_id: int | None = None,
    ) -> None:
        """Ask, unless this person was asked for this game and has not opened the chat."""
        key = (game_id, user_id)
        if key in self._asked:
            return
        self._asked.add(key)
        link = deep_link(self._username(), payload)
        self._post(
            chat_id,
            lambda t: Outgoing.of(open_private_notice(user_id, name, link, t)),
            f"open:{game_id}:{user_id}",
            thread_id,
        )

    def opened(self, game_id: int, user_id: int) -> None:
        """The person opened the private chat: a later refusal may be asked about again."""
        self._asked.discard((game_id, user_id))
