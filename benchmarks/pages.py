"""``load.py --webapp``: the emulated people play in the Mini App instead of their private
hand messages (issue #18 item 5).

Once a table's match has started, each person opens their page's stream (Server-Sent
Events, ``initData`` signed with the bot's token as Telegram signs it) and keeps its latest
payload; once all of them have the page open, whoever's payload offers moves makes one —
"play on" when a redeal is offered, a random card otherwise, the first move where there is
no card — by POSTing it, at most one card per ``pace`` seconds a table. A tap is timed from
the POST to the answer, which carries the tapper's new view. The match is over when the
payloads say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import aiohttp

from botapi_emulator import User
from handlers.webapp.auth import sign

TAP_TIMEOUT = 120.0
SLOW_DOWN = 0.5
"""Seconds a person waits after "slow down" (the bot's press rate is 2 a second)."""


def init_data(user: User, token: str) -> str:
    """A person's ``initData``, signed with the bot's token."""
    fields = {
        "user": json.dumps(
            {"id": user.id, "first_name": user.first_name, "language_code": "ru"},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
        "auth_date": str(int(time.time())),
        "chat_type": "private",
    }
    return urlencode({**fields, "hash": sign(fields, token)})


def _shown(payload: dict[str, Any]) -> dict[str, Any]:
    """A payload without its timer: what a stream frame is sent for."""
    return {k: v for k, v in payload.items() if k != "seconds_left"}


@dataclass
class Tap:
    """One move made in the page: when it was sent, when the answer came, refused or not."""

    created: float
    answered: float | None = None
    refused: bool = False


@dataclass(eq=False)
class PageTable:
    """The pages of one table's people, for one match."""

    session: aiohttp.ClientSession
    base: str
    token: str
    game_id: int
    users: list[User]
    rng: random.Random
    taps: list[Tap]
    pace: float = 0.0
    latest: dict[int, dict[str, Any]] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    tapped: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The payload each person last tapped from (its timer left out): until their stream or
    the tap's answer brings another, it is stale (the payload carries no table version)."""
    first_tap: float | None = None
    """When the match's first move was made in a page (``time.monotonic``)."""

    async def _follow(self, user: User) -> None:
        headers = {"X-Telegram-Init-Data": init_data(user, self.token)}
        url = f"{self.base}/stream?game={self.game_id}"
        async with self.session.get(url, headers=headers, timeout=None) as response:
            event = None
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "table":
                    self.latest[user.id] = json.loads(line[6:])
                    self.wake.set()

    def _next(self) -> tuple[User, dict[str, Any], str] | None:
        for user in self.users:
            payload = self.latest.get(user.id)
            if payload is None or not payload["legal"]:
                continue
            if _shown(payload) == self.tapped.get(user.id):
                continue  # the payload tapped from: its stream has not caught up yet
            moves = payload["legal"]
            if "keep" in moves:
                return user, payload, "keep"
            cards = [m for m in moves if m.startswith("play:")]
            return user, payload, self.rng.choice(cards) if cards else moves[0]
        return None

    def over(self) -> bool:
        return any(p["status"] != "playing" for p in self.latest.values())

    async def play(self, deadline: float) -> bool:
        """Play the match in the pages until it is over (True) or ``deadline`` (False)."""
        streams = [asyncio.create_task(self._follow(u)) for u in self.users]
        last_card = 0.0
        try:
            while time.monotonic() < deadline:
                self.wake.clear()
                if self.over():
                    return True
                found = self._next() if len(self.latest) == len(self.users) else None
                if found is None:  # nobody to move, or not everyone has the page open yet
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), deadline - time.monotonic())
                    continue
                wait = last_card + self.pace - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                user, payload, action = found
                await self._tap(user, payload, action)
                last_card = time.monotonic()
            return False
        finally:
            for stream in streams:
                stream.cancel()
            await asyncio.gather(*streams, return_exceptions=True)

    async def _tap(self, user: User, payload: dict[str, Any], action: str) -> None:
        tap = Tap(time.monotonic())
        if self.first_tap is None:
            self.first_tap = tap.created
        self.taps.append(tap)
        body = {
            "init": init_data(user, self.token),
            "game": self.game_id,
            "deal": payload["deal"],
            "action": action,
        }
        try:
            async with self.session.post(
                f"{self.base}/move", json=body, timeout=aiohttp.ClientTimeout(TAP_TIMEOUT)
            ) as response:
                answer = await response.json()
        except (TimeoutError, aiohttp.ClientError):
            return
        tap.answered = time.monotonic()
        tap.refused = response.status != 200
        if response.status == 429:  # tapping faster than a person may: wait as one would
            await asyncio.sleep(SLOW_DOWN)
        if response.status == 200:
            self.tapped[user.id] = _shown(payload)
            self.latest[user.id] = answer["page"]
