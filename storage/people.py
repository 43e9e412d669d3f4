"""People and chats: what Telegram says of a user, whether the bot may write to them
privately, the languages people and chats chose, the warnings for abandoned matches, and a
group's standing settings.

Users are read through an in-memory cache of ``USER_CACHE`` records: every write of a user
goes through this class (the warnings written inside ``Games.save_game`` too, then
``forget``), and each drops the user's entry.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable

from kozelbot.core.records import ChatSettings, UserRecord
from storage import ranking
from storage.core import Database, Transaction
from storage.values import fits, to_json

USER_CACHE = 10_000
"""Users whose records stay in memory."""


class People:
    """Users, chats and their choices."""

    def __init__(self, database: Database) -> None:
        """Keep people and chats through the shared connection."""
        self._db = database
        self._users: OrderedDict[int, UserRecord | None] = OrderedDict()
        """A read cache of users, dropped entry by entry as they are written."""
        self._user_writes = 0

    # -- users -----------------------------------------------------------------------------

    async def upsert_user(
        self,
        user_id: int,
        first_name: str,
        username: str | None,
        language_code: str | None,
    ) -> None:
        """Record what Telegram says of a user, keeping their chosen language and private flag."""
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO users (user_id, first_name, username, language_code,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET first_name = excluded.first_name,"
                " username = excluded.username, language_code = excluded.language_code,"
                " updated_at = excluded.updated_at",
                (user_id, first_name, username, language_code, now, now),
            )
        self.forget(user_id)

    async def set_private_open(self, user_id: int, is_open: bool) -> None:
        """Note whether the bot may message the user privately (creates an unnamed row if new)."""
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO users (user_id, first_name, private_open, created_at, updated_at)"
                " VALUES (?, '', ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET private_open = excluded.private_open,"
                " updated_at = excluded.updated_at",
                (user_id, int(is_open), now, now),
            )
        self.forget(user_id)

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Store the language a user chose (``None`` returns to the client's language)."""
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO users (user_id, first_name, language, created_at, updated_at)"
                " VALUES (?, '', ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
                " updated_at = excluded.updated_at",
                (user_id, language, now, now),
            )
        self.forget(user_id)

    async def add_warning(self, tx: Transaction, user_id: int, now: float) -> None:
        """``user_id`` left a running match (inside the write that ends their part in it);
        ``forget`` them once it committed."""
        await tx.execute(
            "INSERT INTO users (user_id, first_name, abandons, created_at, updated_at)"
            " VALUES (?, '', 1, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            " abandons = users.abandons + 1, updated_at = excluded.updated_at",
            (user_id, now, now),
        )

    async def take_warning(self, tx: Transaction, user_ids: Iterable[int]) -> None:
        """These people finished a match (inside the write of its result): one warning
        less each; ``forget`` them once it committed."""
        await tx.executemany(
            "UPDATE users SET abandons = CASE WHEN abandons > 0 THEN abandons - 1 ELSE 0 END"
            " WHERE user_id = ?",
            [(user_id,) for user_id in user_ids],
        )

    async def user(self, user_id: int) -> UserRecord | None:
        """What the bot knows of a user, or ``None`` if never seen (cached: every write of a
        user goes through this class and drops its entry)."""
        if not fits(user_id):
            return None
        if user_id in self._users:
            self._users.move_to_end(user_id)
            cached: UserRecord | None = self._users[user_id]
            return cached
        generation = self._user_writes
        record = await self._read_user(user_id)
        if generation == self._user_writes:  # no write since the read began: not stale
            self._users[user_id] = record
            while len(self._users) > USER_CACHE:
                self._users.popitem(last=False)
        return record

    def forget(self, *user_ids: int | None) -> None:
        """Users were written: forget what the cache holds of them."""
        self._user_writes += 1
        for user_id in user_ids:
            if user_id is not None:
                self._users.pop(user_id, None)

    async def _read_user(self, user_id: int) -> UserRecord | None:
        row = await self._db.fetchone(
            "SELECT user_id, first_name, username, language_code, language, private_open,"
            " abandons FROM users WHERE user_id = ?",
            (user_id,),
        )
        return None if row is None else UserRecord.model_validate(dict(row))

    # -- chats -----------------------------------------------------------------------------

    async def upsert_chat(self, chat_id: int, title: str | None) -> None:
        """Record a group chat and its current title, keeping its chosen language."""
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO chats (chat_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (chat_id) DO UPDATE SET title = excluded.title,"
                " updated_at = excluded.updated_at",
                (chat_id, title, now, now),
            )

    async def chat_language(self, chat_id: int) -> str | None:
        """The language chosen for a chat, if any."""
        if not fits(chat_id):
            return None
        row = await self._db.fetchone("SELECT language FROM chats WHERE chat_id = ?", (chat_id,))
        return None if row is None else row["language"]

    async def set_chat_language(self, chat_id: int, language: str | None) -> None:
        """Choose a chat's language (``None`` clears it); creates the chat row if new."""
        now = self._db.clock()
        async with self._db.write() as tx:
            await tx.execute(
                "INSERT INTO chats (chat_id, language, created_at, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language,"
                " updated_at = excluded.updated_at",
                (chat_id, language, now, now),
            )

    async def move_chat(
        self, tx: Transaction, old_chat_id: int, new_chat_id: int, now: float
    ) -> None:
        """A group got a new id (``Games.migrate_chat``, same transaction): its row, and so
        its language, follow it unless the new id has a row already."""
        await tx.execute(
            "UPDATE chats SET chat_id = ?, updated_at = ? WHERE chat_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM chats WHERE chat_id = ?)",
            (new_chat_id, now, old_chat_id, new_chat_id),
        )

    # -- chat settings ---------------------------------------------------------------------

    async def chat_settings(self, chat_id: int) -> ChatSettings | None:
        """What a group chose for its new lobbies and the global board, if it chose."""
        if not fits(chat_id):
            return None
        row = await self._db.fetchone(
            "SELECT variant, options, public FROM chat_settings WHERE chat_id = ?", (chat_id,)
        )
        if row is None:
            return None
        return ChatSettings.model_validate({**dict(row), "options": json.loads(row["options"])})

    async def set_chat_settings(self, chat_id: int, settings: ChatSettings) -> None:
        """Store a group's settings; a change of ``public`` changes the global board at once."""
        now = self._db.clock()
        async with self._db.write() as tx:
            was_public = await ranking.is_public(tx, chat_id)
            await tx.execute(
                "INSERT INTO chat_settings (chat_id, variant, options, public, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET"
                " variant = excluded.variant, options = excluded.options,"
                " public = excluded.public, updated_at = excluded.updated_at",
                (chat_id, settings.variant, to_json(settings.options), int(settings.public), now),
            )
            if was_public != settings.public:
                await ranking.shift_global(tx, chat_id, add=settings.public)
