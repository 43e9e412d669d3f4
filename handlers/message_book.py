"""The message-id book: which of the bot's messages shows which game's lobby, table or hand.

Each game has at most one ``lobby`` and one ``table`` message (in its place) and one ``hand``
message per seat (in that person's private chat), each with the deal it shows
(``kozelbot.core.records.MessageRef``). The book is stored in storage's ``messages`` table, apart
from the game and written without its lock, and cached here (write-through) for the games
shown recently, so a restarted bot edits the messages the last run sent instead of sending
new ones.
"""

from __future__ import annotations

from collections import OrderedDict

from kozelbot.core.records import MessageRef
from kozelbot.tables.queries import Queries

REFS_LIMIT = 4096
"""Games whose message bookkeeping stays in memory."""

Slot = tuple[str, int]
"""A game's message slot: its kind (``lobby``, ``table``, ``hand``) and seat (-1: none)."""


class MessageBook:
    """The bot's current message of each slot of each game (a write-through cache)."""

    def __init__(self, queries: Queries) -> None:
        self.queries = queries
        self._refs: OrderedDict[int, dict[Slot, MessageRef]] = OrderedDict()
        """Game → its messages by slot: a write-through cache of ``messages``."""

    async def _game_refs(self, game_id: int) -> dict[Slot, MessageRef]:
        refs = self._refs.get(game_id)
        if refs is None:
            stored = await self.queries.posts.game_messages(game_id)
            refs = self._refs.get(game_id)  # another task may have loaded it meanwhile
            if refs is None:
                refs = {(r.kind, r.seat): r for r in stored}
                self._refs[game_id] = refs
                while len(self._refs) > REFS_LIMIT:
                    self._refs.popitem(last=False)
        self._refs.move_to_end(game_id)
        return refs

    async def message(self, game_id: int, kind: str, seat: int = -1) -> MessageRef | None:
        """The bot's current message of a slot of a game (``hand`` takes a seat)."""
        return (await self._game_refs(game_id)).get((kind, seat))

    async def remember(self, ref: MessageRef) -> None:
        """Record the message that now shows its slot."""
        (await self._game_refs(ref.game_id))[(ref.kind, ref.seat)] = ref
        await self.queries.posts.set_message(ref)

    async def forget(self, game_id: int, kind: str, seat: int = -1) -> None:
        """Forget a slot's message: the next render sends a new one."""
        (await self._game_refs(game_id)).pop((kind, seat), None)
        await self.queries.posts.forget_message(game_id, kind, seat)

    def forget_chat(self, chat_id: int) -> None:
        """Drop cached group messages of a chat (it moved to a new id)."""
        for refs in self._refs.values():
            for key in [k for k, r in refs.items() if r.chat_id == chat_id and k[0] != "hand"]:
                del refs[key]

    def drop_game(self, game_id: int) -> None:
        """Drop a game's cached messages from memory (it is over; storage keeps them)."""
        self._refs.pop(game_id, None)
