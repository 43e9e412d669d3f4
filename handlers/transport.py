"""PTB's HTTP transport on aiohttp: the same Bot API calls for a third of the CPU.

Nearly all of the bot's CPU goes to making Bot API requests (``benchmarks/bot_cpu.py
--profile``: PTB, httpx, httpcore and anyio take over 90 % of it; the rules, storage and
rendering a few per cent). aiohttp's client, with its C HTTP parser, spends about a third of
httpx's CPU on one request (measured beside it on this machine: 0.3 ms against 1.3 ms). PTB
takes any ``BaseRequest``; this one maps aiohttp's failures onto PTB's errors exactly as
``HTTPXRequest`` does (a time-out is ``TimedOut``, any other transport failure
``NetworkError``), so ``handlers.delivery`` retries them the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData


class AiohttpRequest(BaseRequest):
    """A ``BaseRequest`` over one ``aiohttp.ClientSession`` with a bounded connection pool."""

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        on_answer: Callable[[], None] | None = None,
        journal: Callable[[bytes], Awaitable[None]] | None = None,
    ) -> None:
        """``on_answer`` is called whenever the server answered a request with 200: the
        update loop's transport tells the metrics that the long poll is alive. ``journal``
        is given the body of every 200 answer before it is returned: the update loop's
        transport keeps the updates (``handlers.intake``) before the next poll confirms
        them; if it raises, the request fails."""
        self._on_answer = on_answer
        self._journal = journal
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        """The read timeout used when a call names none."""
        return self._read_timeout

    async def initialize(self) -> None:
        """Open the session (inside the running event loop)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )

    async def shutdown(self) -> None:
        """Close the session and its connections."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Send one request; the HTTP status and the raw body."""
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        read = self._read_timeout if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = (
            self._connect_timeout if isinstance(connect_timeout, DefaultValue) else connect_timeout
        )
        pool = self._pool_timeout if isinstance(pool_timeout, DefaultValue) else pool_timeout
        timeout = aiohttp.ClientTimeout(
            total=None,
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect,
            sock_read=read,
        )
        body: aiohttp.FormData | dict[str, str] | None = None
        if request_data is not None:
            files = request_data.multipart_data
            if files:
                form = aiohttp.FormData()
                for key, value in request_data.json_parameters.items():
                    form.add_field(key, value)
                for key, (filename, content, mime) in files.items():
                    form.add_field(key, content, filename=filename, content_type=mime)
                body = form
            else:
                body = request_data.json_parameters
        try:
            async with self._session.request(method, url, data=body, timeout=timeout) as res:
                answer = res.status, await res.read()
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {error}") from error
        if answer[0] == 200:
            if self._on_answer is not None:
                self._on_answer()
            if self._journal is not None:
                await self._journal(answer[1])
        return answer
