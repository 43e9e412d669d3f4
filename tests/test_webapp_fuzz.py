"""Issue #29 item 8: every Mini App route answers malformed input with 400 and a reason,
never 500 — the real bot's server against the emulator, fed hostile inputs by name (a
non-string ``init``, a ``game`` of 5,000 digits, wrong JSON types, a missing field, Arabic
digits, a bool for a number) and then a seeded stream of random bodies, query strings and
headers over every route of ``ROUTES``."""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import quote, urlencode

import aiohttp

from botapi_emulator import BotApiEmulator
from handlers.webapp.server import ROUTES
from tests.e2e import BotRunner, seat_four
from tests.test_e2e_webapp import _game_id, init_for, to_move
from tests.test_e2e_webapp import webapp_bot as webapp_bot  # the fixture

SEED = 29
RANDOM_REQUESTS = 400
HOSTILE_VALUES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**40,
    -(10**40),
    "",
    " ",
    "1" * 5000,
    "9" * 19,
    "١٢٣",
    "²",
    "0x10",
    "1e3",
    "-5",
    "+5",
    " 7",
    "7 ",
    "１２",
    "\x00",
    "null",
    "🐐" * 50,
    [],
    [1],
    {},
    {"a": 1},
    "play:QC",
    "play:" + "Q" * 500,
    float("inf"),
)
"""Values put where a route expects a game number, a deal number, a move or initData."""


def _answers_with_a_reason(status: int, body: bytes) -> bool:
    try:
        answer = json.loads(body)
    except ValueError:
        return False
    return isinstance(answer, dict) and isinstance(answer.get("error"), str)


async def test_malformed_moves_are_refused_with_400_and_the_field(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    runner, base = webapp_bot
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    mover, _ = await to_move(players)
    good = init_for(mover)
    move = {"init": good, "game": game_id, "deal": 1, "action": "play:QC"}
    cases: list[tuple[Any, str]] = [
        ({**move, "init": 12345}, "init"),
        ({**move, "init": ["a"]}, "init"),
        ({**move, "game": "1" * 5000}, "game"),
        ({**move, "game": 10**30}, "game"),
        ({**move, "game": True}, "game"),
        ({**move, "game": -3}, "game"),
        ({**move, "game": "١٢٣"}, "game"),
        ({**move, "game": 1.0}, "game"),
        ({**move, "deal": "1"}, "deal"),
        ({**move, "deal": True}, "deal"),
        ({**move, "deal": 10**30}, "deal"),
        ({**move, "action": 7}, "action"),
        ({**move, "action": "play:" + "Q" * 500}, "action"),
        ({k: v for k, v in move.items() if k != "action"}, "action"),
        ({k: v for k, v in move.items() if k != "game"}, "game"),
        ({k: v for k, v in move.items() if k != "deal"}, "deal"),
        ({k: v for k, v in move.items() if k != "init"}, "init"),
        ([move], "json"),
        ("move", "json"),
        (None, "json"),
    ]
    async with aiohttp.ClientSession() as session:
        for body, reason in cases:
            async with session.post(
                f"{base}/move", data=json.dumps(body), headers={"Content-Type": "application/json"}
            ) as response:
                answer = await response.json()
                assert (response.status, answer["error"]) == (400, reason), body
        for game in ("1" * 5000, "9" * 19, "١٢٣", "-1", "", "1.5", "true"):
            for route in ("state", "stream", "replay"):
                async with session.get(
                    f"{base}/{route}?{urlencode({'game': game})}",
                    headers={"X-Telegram-Init-Data": good},
                ) as response:
                    answer = await response.json()
                    assert (response.status, answer["error"]) == (400, "game"), (route, game)


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 2 else 5)
    if kind == 0:
        return rng.choice(HOSTILE_VALUES)
    if kind == 1:
        return rng.randint(-(2**70), 2**70)
    if kind == 2:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(12)))
    if kind == 3:
        return rng.random() * 10 ** rng.randrange(-5, 30)
    if kind == 4:
        return rng.choice([None, True, False])
    if kind == 5:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["init", "game", "deal", "action", "x"]): _random_value(rng, depth + 1)
        for _ in range(rng.randrange(5))
    }


def _random_text(rng: random.Random, inits: list[str], game_id: int) -> str:
    choice = rng.randrange(6)
    if choice == 0:
        return rng.choice(inits)
    if choice == 1:
        return str(game_id)
    value = _random_value(rng)
    return value if isinstance(value, str) else json.dumps(value)


async def test_random_and_hostile_requests_never_get_a_500(
    emu: BotApiEmulator, webapp_bot: tuple[BotRunner, str]
) -> None:
    runner, base = webapp_bot
    players = await seat_four(emu)
    game_id = _game_id(runner, players.group.id)
    watcher = emu.add_user(first_name="Своя")
    emu.add_member(players.group, watcher)
    stranger = emu.add_user(first_name="Чужой")
    inits = [init_for(u) for u in (*players.users, watcher, stranger)]
    root = base.removesuffix("/api")
    rng = random.Random(SEED)
    seen: dict[int, int] = {}
    timeout = aiohttp.ClientTimeout(total=5)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for n in range(RANDOM_REQUESTS):
            method, path, name = ROUTES[n % len(ROUTES)]
            url = root + path.removeprefix("/webapp").replace(
                "{name}", quote(_random_text(rng, ["page.js", "..%2Fserver.py"], 0), safe="")
            )
            query = {
                key: _random_text(rng, inits, game_id)
                for key in rng.sample(["game", "init", "replay", "x"], rng.randrange(4))
            }
            headers = {}
            if rng.random() < 0.8:
                headers["X-Telegram-Init-Data"] = quote(
                    _random_text(rng, inits, game_id), safe="=&%"
                )
                if rng.random() < 0.7:
                    headers["X-Telegram-Init-Data"] = rng.choice(inits)
            body = None
            if method == "POST":
                value = (
                    _random_value(rng)
                    if rng.random() < 0.5
                    else {
                        "init": _random_text(rng, inits, game_id)
                        if rng.random() < 0.3
                        else rng.choice(inits),
                        "game": rng.choice([game_id, _random_value(rng)]),
                        "deal": rng.choice([1, 2, _random_value(rng)]),
                        "action": rng.choice(["play:QC", "keep", _random_value(rng)]),
                    }
                )
                body = json.dumps(value).encode() if rng.random() < 0.9 else rng.randbytes(20)
            async with session.request(
                method, url, params=query, headers=headers, data=body
            ) as response:
                status = response.status
                seen[status] = seen.get(status, 0) + 1
                if name == "stream" and status == 200:
                    continue  # a stream that opened: leave it (closing the answer closes it)
                data = await response.read()
                assert status < 500, (method, url, query, headers, body, data)
                if status >= 400:
                    assert _answers_with_a_reason(status, data), (status, data)
    assert seen.get(400, 0) > 50 and not any(s >= 500 for s in seen), seen
