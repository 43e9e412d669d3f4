"""Who sent an update: the seat's player made of a Telegram user, and their name and
language remembered (once per change)."""

from __future__ import annotations

from telegram import User

from handlers.deps import BotData
from kozelbot.core.table import Player


def player_of(user: User) -> Player:
    """A seat's player from a Telegram user."""
    return Player(user_id=user.id, name=user.first_name or user.full_name)


async def remember(data: BotData, user: User) -> None:
    """Record the user's current name and language (once per change, not per command)."""
    known = (user.first_name, user.username, user.language_code)
    if data.remembered.get(user.id) == known:
        return  # nothing new to write
    await data.queries.people.upsert_user(
        user.id, user.first_name, user.username, user.language_code
    )
    if len(data.remembered) >= 10_000:
        data.remembered.clear()
    data.remembered[user.id] = known
