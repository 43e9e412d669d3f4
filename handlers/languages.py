"""The language each chat is shown in: a group's choice (cached), a person's (looked up).

The look-ups live in ``BotData`` (``handlers.deps``); this is what the presenter's parts are
given, so that every message renders in its chat's language when its turn comes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from kozelbot.core.i18n import Translator


class Translators:
    """The language of each chat, cached (groups) or looked up (people)."""

    def __init__(
        self,
        group: Callable[[int], Awaitable[Translator]],
        user: Callable[[int], Awaitable[Translator]],
        forget: Callable[[int], None],
    ) -> None:
        self.group = group
        self.user = user
        self.forget = forget

    async def chat(self, chat_id: int) -> Translator:
        """The language of a chat: a group's, or a person's in their private chat."""
        if chat_id < 0:
            return await self.group(chat_id)
        return await self.user(chat_id)
