"""``kozelbot intake`` (issue #32): long polling into the inbox, for the workers to handle.

The intake handles no update itself. It asks Telegram for the next batch, writes every update
of it with its place (``handlers.routing.place_of``) in one transaction, and only then asks
for the batch after it — the ``getUpdates`` offset that tells Telegram the batch arrived.
So an update is either in the inbox or still Telegram's to send again: a crash of the intake
loses none. The workers (``handlers.worker``) pick each place's updates from there.

A failed write, or a Telegram error that may pass (the network, a 5xx, a 429), is waited out
and the same batch asked for again; an update kept twice stays once (``PlaceLeases.keep``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Sequence

from telegram import Bot
from telegram.error import InvalidToken, RetryAfter, TelegramError

from handlers.delivery import Backoff, is_transient, retry_seconds
from handlers.routing import place_of
from kozelbot.tables.queries import PlaceLeases

log = logging.getLogger(__name__)


class IntakePoller:
    """The intake's loop (see the module)."""

    def __init__(
        self,
        bot: Bot,
        places: PlaceLeases,
        *,
        poll_timeout: int,
        allowed_updates: Sequence[str],
        backoff: Backoff,
    ) -> None:
        self.bot = bot
        self.places = places
        self.poll_timeout = poll_timeout
        self.allowed_updates = list(allowed_updates)
        self.backoff = backoff
        self.offset: int | None = None
        self.kept = 0
        """Updates written to the inbox since the start."""

    async def run(self) -> None:
        """Poll and keep until cancelled; ``InvalidToken`` and other lasting errors end it."""
        failures = 0
        while True:
            try:
                await self.once()
                failures = 0
            except RetryAfter as error:
                await asyncio.sleep(retry_seconds(error))
            except InvalidToken:
                raise
            except TelegramError as error:
                if not is_transient(error):
                    raise
                failures += 1
                delay = self.backoff.delay(failures)
                log.warning("intake: %.100s; again in %.2f s", error, delay)
                await asyncio.sleep(delay)
            except Exception as error:  # the database away: keep nothing, confirm nothing
                failures += 1
                delay = self.backoff.delay(failures)
                log.warning(
                    "intake: the inbox could not keep a batch: %s; again in %.2f s", error, delay
                )
                await asyncio.sleep(delay)

    async def once(self) -> int:
        """One batch asked for, kept with its places; how many updates it held."""
        updates = await self.bot.get_updates(
            offset=self.offset,
            timeout=self.poll_timeout,
            allowed_updates=self.allowed_updates,
        )
        if not updates:
            return 0
        batch = [
            (
                update.update_id,
                json.dumps(update.to_dict(), ensure_ascii=False, separators=(",", ":")),
                await place_of(update, self.places),
            )
            for update in updates
        ]
        await self.places.keep(batch)
        self.offset = updates[-1].update_id + 1
        self.kept += len(batch)
        return len(batch)


async def serve(bot: Bot, places: PlaceLeases, poll_timeout: int, allowed: Sequence[str]) -> None:
    """Poll into the inbox until cancelled (a webhook left set is deleted first: Telegram
    answers no ``getUpdates`` while one is)."""
    await bot.delete_webhook()
    poller = IntakePoller(
        bot,
        places,
        poll_timeout=poll_timeout,
        allowed_updates=allowed,
        backoff=Backoff(random.Random()),
    )
    await poller.run()
