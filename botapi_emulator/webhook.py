"""Webhook delivery: while a webhook is set, POST each queued update to it, as Telegram does.

:class:`WebhookSender` runs as a background task of the emulator. It POSTs every queued update
(a JSON body, ``Content-Type: application/json``, the ``X-Telegram-Bot-Api-Secret-Token`` header
when a secret token was set) to the webhook's url, oldest first, at most ``max_connections`` at
once and one at a time per chat. A 2xx answer confirms the update (it leaves the queue); any
other answer or a connection error is retried with a growing delay. Every attempt is recorded
in ``state.webhook_deliveries``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable

import aiohttp

from .models import Webhook, WebhookDelivery
from .state import EmulatorState, PendingUpdate

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookSender:
    """Delivers the queued updates of ``state`` to its webhook until :meth:`close`."""

    def __init__(
        self,
        state: EmulatorState,
        wait_change: Callable[[float], Awaitable[None]],
        *,
        timeout: float = 10.0,
        first_retry: float = 0.1,
        max_retry: float = 2.0,
    ) -> None:
        self.state = state
        self.wait_change = wait_change
        self.timeout = timeout
        self.first_retry = first_retry
        self.max_retry = max_retry
        self._session: aiohttp.ClientSession | None = None
        self._loop_task: asyncio.Task[None] | None = None
        self._deliveries: set[asyncio.Task[None]] = set()
        self._closed = False

    def start(self) -> None:
        """Start delivering in the background."""
        self._closed = False
        self._session = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.timeout), raise_for_status=False
        )
        self._loop_task = asyncio.create_task(self._run(), name="emulator webhook sender")

    async def close(self) -> None:
        """Stop delivering; updates being POSTed stay queued."""
        self._closed = True
        tasks = [task for task in (self._loop_task, *self._deliveries) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._loop_task = None
        self._deliveries.clear()
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _run(self) -> None:
        while not self._closed:
            for update in self.state.webhook_ready():
                webhook = self.state.webhook
                assert webhook is not None
                task = asyncio.create_task(self._deliver(webhook, update))
                self._deliveries.add(task)
                task.add_done_callback(self._deliveries.discard)
            await self.wait_change(1.0)

    async def _deliver(self, webhook: Webhook, update: PendingUpdate) -> None:
        """POST ``update`` until the receiver accepts it, the webhook changes or it is dropped."""
        delay = self.first_retry
        body = json.dumps(update.to_json(), ensure_ascii=False).encode()
        headers = {"Content-Type": "application/json"}
        if webhook.secret_token is not None:
            headers[SECRET_HEADER] = webhook.secret_token
        try:
            while (
                not self._closed and self.state.webhook is webhook and self.state.is_queued(update)
            ):
                status, error = await self._post(webhook.url, body, headers)
                state = self.state
                state.webhook_deliveries.append(
                    WebhookDelivery(update.update_id, webhook.url, status, error, time.monotonic())
                )
                if status is not None and 200 <= status <= 299:
                    state.confirm_update(update)
                    return
                message = error or f"Wrong response from the webhook: {status}"
                state.webhook_last_error = (int(time.time()), message)
                state.changed()
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.max_retry)
        finally:
            if update.in_flight:
                update.in_flight = False
                self.state.changed()  # a new webhook (or getUpdates) may take it

    async def _post(
        self, url: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int | None, str | None]:
        """``(HTTP status, None)`` or ``(None, connection error)``."""
        assert self._session is not None
        try:
            async with self._session.post(url, data=body, headers=headers) as response:
                await response.read()
                return response.status, None
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            return None, f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
