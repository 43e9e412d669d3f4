"""Every update's log lines name its chat and its number (``kozelbot.core.logs``).

``tag`` runs first for every update, in a handler group of its own before all others
(``FIRST_GROUP``). PTB runs one update's handler groups one after another in one task, awaiting
each handler unless it is non-blocking (``Application.process_update``), and with
concurrent updates each update gets a task of its own: what ``tag`` binds is seen by the
update's handler, by what it awaits and by the tasks it starts (not the sender lanes, which
serve many updates: ``handlers.lanes``), and by no other update.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import TypeHandler

from handlers.deps import Context
from kozelbot.core import logs

FIRST_GROUP = -1
"""Before the default group (0), where every other handler is."""


async def tag(update: Update, context: Context) -> None:
    """Bind the update's chat and number (and no game: the service binds it) for the rest
    of the update's task."""
    chat = update.effective_chat
    logs.bind(chat=chat.id if chat else None, update=update.update_id, game=None)


def tagger() -> TypeHandler[Update, Context, None]:
    """The handler: blocking, so that what it binds stays in the update's own task."""
    return TypeHandler(Update, tag, block=True)
