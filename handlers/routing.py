"""Which place an update belongs to (issue #32): the intake keeps each update with it, and the
worker holding that place's lease handles it.

A place is a chat or one forum topic of it (``kozelbot.core.table.place_name``), where one game
is played. Every update that can touch a game must go to the game's place, so that one
worker at a time changes it and its updates are handled in order:

- a group's messages and member changes: the group (the forum topic of the message);
- a button: the place of the game its data names (a hand's card, pressed in the private
  chat, goes to the group whose table it is), else the chat of the message it is under;
- a private message: a deep link's game (``/start join-…``, ``hand-…``), else the live game
  the sender sits at (``/hand``, ``/leave`` act on it), else the private chat itself.

**Decision**: an update whose place cannot be read (an unknown kind) belongs to its sender's
private chat, or to place ``"0"``: it is handled, in order with its like, by one worker.
"""

from __future__ import annotations

from telegram import Message, Update

from handlers.commands import topic_of
from handlers.lobby import link_in
from kozelbot.core import callbacks
from kozelbot.core.table import place_name
from kozelbot.tables.queries import PlaceLeases

NOWHERE = "0"
"""The place of an update that names no chat and no sender."""


async def place_of(update: Update, places: PlaceLeases) -> str:
    """The place ``update`` belongs to (see the module)."""
    query = update.callback_query
    if query is not None:
        button = callbacks.parse(query.data)
        game_id = getattr(button, "game_id", None)
        if isinstance(game_id, int) and (place := await places.game_place(game_id)):
            return place
        message = query.message
        if message is not None:
            return place_name(
                message.chat.id, topic_of(message) if isinstance(message, Message) else None
            )
        return place_name(query.from_user.id)
    message = update.message or update.edited_message
    if message is not None and message.chat.type == message.chat.PRIVATE:
        text = message.text or ""
        if text.startswith("/start "):
            link = link_in(text.split(maxsplit=1)[1].strip())
            if link is not None and (place := await places.game_place(link[1])):
                return place
        if message.from_user is not None:
            return await places.seat_place(message.from_user.id) or place_name(message.chat.id)
        return place_name(message.chat.id)
    if message is not None:
        return place_name(message.chat.id, topic_of(message))
    chat, user = update.effective_chat, update.effective_user
    if chat is not None:
        return place_name(chat.id)
    return NOWHERE if user is None else place_name(user.id)
