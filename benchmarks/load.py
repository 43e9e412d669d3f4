"""Many concurrent games on one bot process, against Telegram's strict flood limits.

Runs the real bot as a separate process (``python -m kozelbot``, its default flood settings:
20 messages a minute per group, 30 requests a second overall, 1 s between edits of a hand)
against the Bot API emulator enforcing the strict reading of Telegram's limits (at most 30
message calls in any second overall, 20 per group in any minute, 3 per private chat in any 3 s).

``games`` groups play at once, a mix of four people, one person with three computers and two
people with two computers (``--mix``). Every emulated person plays as fast as the bot lets them:
when their hand message shows their turn (or offers a redeal) they press a legal card (or "play
on") and wait for the answer to the press. A group whose match is over opens the next one
(``/newgame``) until ``--seconds`` are up. Then the bot may finish sending what it queued, is
stopped, and the moves in its database are counted. Prints one JSON line: cards played, press →
answer latency (p50/p99, and p99 of the first and last tenth of the run), bot CPU per card,
bot memory (idle, peak, per live game), Bot API calls per card, 429s and the busiest second.

``--impatient S`` (issue #29): while a table waits for its computers, one of its people
presses a card anyway every S seconds (refused: not their turn) — the answer must come at
once whatever the computers are doing. Adds the presses answered after 10 s and the bot's
thinking (decision latency with the queue, and the budget a decision got, from its log).
Issue #29 item 6's check: ``--games 30 --mix 0,1,0 --impatient 1`` with ``--computer
strong`` and again with ``--computer normal``: the strong p99 within 2× the normal's, 0
unanswered.

``--flood``: one person sends 300 ``/help`` in a group as fast as they can; after the first
100 another person sends ``/help`` in their private chat. Prints how long that private answer
took (the target is under a second) and the 429s.

    python benchmarks/load.py [--games N] [--seconds S] [--mix P,S,D] [--computer LEVEL]
                              [--webapp [--pace S]] [--impatient S] [--quick] [--flood]
                              [--postgresql [--workers N]] [--think S] [--overall-limit R]

``--postgresql`` (issue #32): the bot keeps its games in a throwaway PostgreSQL cluster
(Debian's server started by ``tests/postgres.py`` with fsync and synchronous commits on, as
in production) instead of its SQLite file. ``--workers N`` with it: the bot is ``kozelbot
intake`` and N ``kozelbot worker`` processes (``processes.py``) instead of one process; the
CPU and memory are those of all its processes with their children (the thinking pools).

``--think S``: a person takes S seconds, give or take half, to press on their turn (a
person's pace) instead of pressing at once. ``--overall-limit R``: the bot may make R message
calls a second overall (emulator and ``KOZEL_OVERALL_MAX_RATE`` alike) instead of Telegram's
30, as a bot that pays for more (or several tokens) would. Every run checks the move log:
an accepted card press with no move (``moves_missing``), a card logged twice in a deal
(``moves_twice``), a game whose ``seq`` does not run 1..n (``seq_broken``).

``--webapp`` (issue #18): the people play in the Mini App (``pages``) instead of their hand
messages; ``--pace S`` holds each table to a card per S seconds at most. It adds taps (sent,
refused, unanswered) and tap → new view p50/p99, and every run gives the message calls per
card by kind (group or private, send or edit).

Issue #17's check: ``--mix 0,0,1`` (two people and two computers a table: computers at half
the seats) with ``--computer strong`` and again with ``--computer normal``; the card-press
p99 of the first within 1.5× of the second's (the strong computers think in the bot's
process pool, ``KOZEL_AI_BUDGET_MS`` a decision).

The emulated people are cheap: a subclass of the emulator notices each message the bot sends
or edits (``store`` and ``record_call`` hooks, O(1) per call) and wakes only the game the chat
belongs to; nobody rescans a chat or waits on ``BotApiEmulator.wait_for``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measures import (
    bot_log_summary,
    busiest_second,
    check_move_log,
    count_cards,
    count_leaks,
    flood_summary,
    loop_lag,
    max_in_60s,
    percentile,
    rounded,
    thinking_summary,
)
from benchmarks.players import (
    GRACE,
    KINDS,
    MESSAGE_METHODS,
    PEOPLE_OF_KIND,
    Game,
    LoadEmulator,
    PageRun,
    Person,
    Press,
    card_press,
)
from benchmarks.processes import start_bot, stop_bot
from botapi_emulator import Limits, User
from kozelbot.core.callbacks import parse
from tests import postgres
from tests.e2e import TOKEN


def telegram_limits(overall: int = 30) -> Limits:
    """Telegram's limits, strict reading: 30 message calls in any second overall (or
    ``overall``), 20 per group in any minute, about one a second per private chat with a short
    burst."""
    return Limits(
        group_per_window=20,
        group_window=60,
        private_per_window=3,
        private_window=3,
        global_per_second=overall,
        algorithm="window",
    )


async def open_private_chats(emu: LoadEmulator, users: list[User], timeout: float) -> None:
    """Everyone presses Start in the bot's private chat; wait until each got the greeting."""
    waiters = []
    for user in users:
        waiters.append(emu.next_message(user.id))
        emu.start_private_nowait(user)
    await asyncio.wait_for(asyncio.gather(*waiters), timeout)


def kinds_for(games: int, mix: tuple[float, float, float]) -> list[str]:
    """``games`` kinds in proportion to ``mix`` (largest remainder), interleaved."""
    total = sum(mix)
    exact = [games * weight / total for weight in mix]
    counts = [int(x) for x in exact]
    by_remainder = sorted(range(3), key=lambda i: counts[i] - exact[i])
    for i in by_remainder[: games - sum(counts)]:
        counts[i] += 1
    left = dict(zip(KINDS, counts, strict=True))
    order: list[str] = []
    while len(order) < games:
        for kind in KINDS:
            if left[kind]:
                order.append(kind)
                left[kind] -= 1
    return order


async def run_games(
    games: int,
    seconds: float,
    mix: tuple[float, float, float],
    seed: int,
    computer: str = "strong",
    *,
    webapp: bool = False,
    pace: float = 0.0,
    impatient: float = 0.0,
    think: float = 0.0,
    database_url: str | None = None,
    workers: int = 0,
    overall_limit: int = 30,
) -> dict[str, Any]:
    """One run of ``games`` groups for ``seconds``; its figures. ``workers`` > 0: the bot
    is an intake and that many workers on ``database_url``; ``overall_limit``: the message
    calls a second the emulator allows the bot, and the bot's own ``KOZEL_OVERALL_MAX_RATE``
    (Telegram's 30, unless a bot pays for more)."""
    workdir = Path(tempfile.mkdtemp(prefix="kozel-load-"))
    database = database_url or str(workdir / "load.db")
    rng = random.Random(seed)
    presses: list[Press] = []
    port = free_port()
    extra = (
        {
            "KOZEL_WEBAPP_URL": "https://load.example/webapp/",
            "KOZEL_WEBAPP_PORT": str(port),
            "KOZEL_WEBAPP_LISTEN": "127.0.0.1",
        }
        if webapp
        else {}
    )
    if database_url is not None:
        extra["KOZEL_DATABASE_URL"] = database_url
    extra["KOZEL_OVERALL_MAX_RATE"] = str(overall_limit)
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) if webapp else None
    pages = (
        None if session is None else PageRun(session, f"http://127.0.0.1:{port}/webapp/api", pace)
    )
    async with LoadEmulator(token=TOKEN, limits=telegram_limits(overall_limit)) as emu:
        bot = await start_bot(emu, workdir, extra, workers=workers)
        try:
            rss_idle = bot.rss_mb()
            tables: list[Game] = []
            for index, kind in enumerate(kinds_for(games, mix)):
                users = [
                    emu.add_user(first_name=f"P{index}_{seat}", language_code="ru")
                    for seat in range(PEOPLE_OF_KIND[kind])
                ]
                group = emu.add_group(
                    title=f"Load {index}", members=users, admins=users[:1], creator=users[0]
                )
                tables.append(
                    Game(
                        index,
                        kind,
                        emu,
                        group,
                        [Person(u) for u in users],
                        random.Random(rng.random()),
                        presses,
                        computer=computer,
                        pages=pages,
                        impatient=impatient,
                        think=think,
                    )
                )
            people = [p.user for g in tables for p in g.people]
            setup_start = time.monotonic()
            await open_private_chats(emu, people, timeout=60 + len(people) / 10)
            setup_seconds = time.monotonic() - setup_start
            await emu.quiet(0.5, 30)

            peak = rss_idle
            lags: list[float] = []
            lag_monitor = asyncio.create_task(loop_lag(lags))
            t0 = time.monotonic()
            cpu0 = bot.cpu_seconds()
            deadline = t0 + seconds
            tasks = [asyncio.create_task(g.run(deadline), name=f"game:{g.index}") for g in tables]
            all_done = asyncio.gather(*tasks)
            while not all_done.done():
                peak = max(peak, bot.rss_mb())
                await asyncio.wait([all_done], timeout=0.25)
            await all_done
            settled = await emu.quiet(1.0, GRACE)
            lag_monitor.cancel()
            drain_seconds = time.monotonic() - deadline
            peak = max(peak, bot.rss_mb())
            cpu = bot.cpu_seconds() - cpu0
        finally:
            crashed = await stop_bot(bot)
            if session is not None:
                await session.close()
    cards, game_ids = await count_cards(database)
    leaked = await count_leaks(emu, database, game_ids)
    checked = await check_move_log(database, game_ids, accepted_cards(emu, presses))

    calls = [c for c in emu.history if c.time >= t0]
    message_calls = [c for c in calls if c.ok and c.method.lower() in MESSAGE_METHODS]
    answers = [c for c in calls if c.ok and c.method.lower() == "answercallbackquery"]
    every_message = [c.time for c in emu.history if c.ok and c.method.lower() in MESSAGE_METHODS]
    lobby_waits = [w for g in tables for w in g.lobby_waits]
    latency = [1000 * (p.answered - p.created) for p in presses if p.answered is not None]
    card_latency = [
        1000 * (p.answered - p.created)
        for p in presses
        if p.answered is not None and card_press(emu.queries[p.query_id].data)
    ]
    lobby_latency = [
        1000 * (p.answered - p.created)
        for p in presses
        if p.answered is not None and not card_press(emu.queries[p.query_id].data)
    ]
    tenth = seconds / 10

    def p99_between(start: float, end: float) -> float | None:
        return percentile(
            [
                1000 * (p.answered - p.created)
                for p in presses
                if p.answered is not None and start <= p.created < end
            ],
            99,
        )

    def per_card(amount: float) -> float | None:
        return round(amount / cards, 2) if cards else None

    by_kind = Counter(
        ("group " if int(c.params.get("chat_id", 0)) < 0 else "private ") + c.method
        for c in message_calls
    )
    taps = [] if pages is None else pages.taps
    tap_latency = [1000 * (t.answered - t.created) for t in taps if t.answered is not None]
    in_pages = (
        {}
        if pages is None
        else {
            "webapp": True,
            "pace_s": pace,
            "taps": len(taps),
            "taps_refused": sum(t.refused for t in taps),
            "taps_unanswered": sum(t.answered is None for t in taps),
            "tap_to_view_ms_p50": rounded(percentile(tap_latency, 50)),
            "tap_to_view_ms_p99": rounded(percentile(tap_latency, 99)),
            "message_calls_per_card_in_play": per_card(
                pages.calls_in_play(message_calls, deadline)
            ),
        }
    )
    return {
        "scenario": "games",
        **in_pages,
        "games": games,
        "kinds": {kind: sum(g.kind == kind for g in tables) for kind in KINDS},
        "players": len(people),
        "duration": seconds,
        "computer": computer,
        "setup_seconds": round(setup_seconds, 1),
        "drain_seconds": round(drain_seconds, 1),
        "settled": settled,
        "matches_started": sum(g.matches_started for g in tables),
        "matches_finished": sum(g.matches_finished for g in tables),
        "games_in_db": game_ids,
        "games_stuck": sum(g.stuck is not None for g in tables),
        "stuck_reasons": dict(Counter(g.stuck for g in tables if g.stuck is not None)),
        "lobby_wait_s_p50": rounded(percentile(lobby_waits, 50), 2),
        "lobby_wait_s_max": rounded(max(lobby_waits, default=None), 2),
        "cards_played": cards,
        "leaks": leaked,
        **checked,
        "cards_per_second": round(cards / seconds, 1),
        "presses": len(presses),
        "presses_refused": sum(p.refused for p in presses),
        "presses_unanswered": sum(p.answered is None for p in presses),
        "presses_over_10s": sum(p.answered is None or p.answered - p.created > 10 for p in presses),
        "press_answer_ms_p50": rounded(percentile(latency, 50)),
        "press_answer_ms_p99": rounded(percentile(latency, 99)),
        "press_answer_ms_max": rounded(max(latency, default=None)),
        "card_press_answer_ms_p50": rounded(percentile(card_latency, 50)),
        "card_press_answer_ms_p99": rounded(percentile(card_latency, 99)),
        "lobby_press_answer_ms_p50": rounded(percentile(lobby_latency, 50)),
        "lobby_press_answer_ms_p99": rounded(percentile(lobby_latency, 99)),
        "press_answer_ms_p99_first_10pct": rounded(p99_between(t0, t0 + tenth)),
        "press_answer_ms_p99_last_10pct": rounded(p99_between(deadline - tenth, deadline)),
        "bot_processes": "single" if not workers else f"intake + {workers} workers",
        "bot_cpu_seconds": round(cpu, 2),
        "bot_cpu_ms_per_card": per_card(1000 * cpu),
        "bot_rss_mib_idle": round(rss_idle, 1),
        "bot_rss_mib_peak": round(peak, 1),
        "bot_rss_mib_per_game": round((peak - rss_idle) / games, 3),
        "message_calls_per_card": per_card(len(message_calls)),
        "message_calls_per_card_by_kind": {k: per_card(v) for k, v in sorted(by_kind.items())},
        "callback_answers_per_card": per_card(len(answers)),
        **flood_summary(emu),
        "max_message_calls_1s": busiest_second(every_message),
        "driver_loop_lag_ms_p99": rounded(percentile(lags, 99)),
        "driver_loop_lag_ms_max": rounded(max(lags, default=None)),
        "bot_exit_code_before_stop": crashed,
        **bot_log_summary(bot.logs),
        **thinking_summary(bot.logs),
        "workdir": str(workdir),
    }


async def run_flood(
    seconds: float, commands: int = 300, private_after: int = 100, timeout: float = 180.0
) -> dict[str, Any]:
    """The /help flood; the bot is watched for ``seconds`` from the first command (longer
    if the private answer takes longer, up to ``timeout``)."""
    workdir = Path(tempfile.mkdtemp(prefix="kozel-flood-"))
    async with LoadEmulator(token=TOKEN, limits=telegram_limits()) as emu:
        bot = await start_bot(emu, workdir)
        try:
            spammer = emu.add_user(first_name="Спамер", language_code="ru")
            quiet = emu.add_user(first_name="Тихоня", language_code="ru")
            group = emu.add_group(title="Флуд", members=[spammer], admins=[spammer])
            await open_private_chats(emu, [spammer, quiet], timeout=30)
            await emu.quiet(0.5, 30)
            t0 = time.monotonic()
            answer: asyncio.Future[float] | None = None
            sent_private = t0
            for i in range(commands):
                emu.send_text(spammer, group.id, "/help")
                if i + 1 == private_after:
                    answer = emu.next_message(quiet.id)
                    sent_private = time.monotonic()
                    emu.send_text(quiet, quiet.id, "/help")
                await asyncio.sleep(0)
            assert answer is not None
            waited: float | None = None
            with contextlib.suppress(TimeoutError):
                waited = await asyncio.wait_for(answer, timeout) - sent_private
            answered_by = time.monotonic()
            await asyncio.sleep(t0 + seconds - time.monotonic())
            watched = time.monotonic() - t0
        finally:
            crashed = await stop_bot(bot)
    every_message = [c.time for c in emu.history if c.ok and c.method.lower() in MESSAGE_METHODS]
    group_replies = [
        c.time
        for c in emu.history
        if c.ok
        and c.method.lower() == "sendmessage"
        and c.time >= t0
        and int(c.params.get("chat_id", 0)) == group.id
    ]
    return {
        "scenario": "flood",
        "group_help_commands": commands,
        "private_help_after": private_after,
        "private_help_answer_seconds": rounded(waited, 3),
        "private_help_answered": waited is not None,
        "target_seconds": 1.0,
        "group_help_replies_until_then": sum(t <= answered_by for t in group_replies),
        "watched_seconds": round(watched, 1),
        "group_help_replies_while_watched": len(group_replies),
        "max_group_replies_60s": max_in_60s(group_replies),
        **flood_summary(emu),
        "max_message_calls_1s": busiest_second(every_message),
        "bot_exit_code_before_stop": crashed,
        **bot_log_summary(bot.logs),
        **thinking_summary(bot.logs),
        "workdir": str(workdir),
    }


def accepted_cards(emu: LoadEmulator, presses: list[Press]) -> list[tuple[int, int, int, str]]:
    """The card presses the bot accepted (answered, no alert): (game, person, deal, action)."""
    found = []
    for press in presses:
        query = emu.queries[press.query_id]
        button = parse(query.data)
        action = getattr(button, "action", None)
        if press.answered is None or press.refused or not isinstance(action, str):
            continue
        if action.startswith("play:"):
            game, deal = getattr(button, "game_id"), getattr(button, "deal_no")  # noqa: B009
            found.append((int(game), query.user.id, int(deal), action))
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def parse_mix(text: str) -> tuple[float, float, float]:
    parts = [float(x) for x in text.split(",")]
    if len(parts) != 3 or any(x < 0 for x in parts) or not sum(parts):
        raise argparse.ArgumentTypeError("--mix wants three non-negative weights: people,solo,duo")
    return parts[0], parts[1], parts[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="concurrent groups (300)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="play (or, with --flood, watch) this long (60)"
    )
    parser.add_argument(
        "--mix",
        type=parse_mix,
        default=(1.0, 1.0, 1.0),
        help="weights of 4 people, 1 person + 3 computers, 2 + 2 (1,1,1)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--computer",
        choices=("strong", "normal", "easy"),
        default="strong",
        help="the computer players' level (strong)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke test: 6 games (or the flood), 15 s"
    )
    parser.add_argument(
        "--flood", action="store_true", help="the /help flood scenario instead of games"
    )
    parser.add_argument(
        "--webapp", action="store_true", help="people play in the Mini App, not their hand messages"
    )
    parser.add_argument(
        "--impatient",
        type=float,
        default=0.0,
        help="a waiting table's person presses out of turn every S s",
    )
    parser.add_argument(
        "--pace", type=float, default=0.0, help="--webapp: a table plays a card per PACE s at most"
    )
    parser.add_argument(
        "--postgresql",
        action="store_true",
        help="the bot on a throwaway PostgreSQL (Debian's server, fsync on) instead of SQLite",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="with --postgresql: an intake and N workers instead of one bot process",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="a person takes THINK s (give or take half) to press on their turn (0: at once)",
    )
    parser.add_argument(
        "--overall-limit",
        type=int,
        default=30,
        help="message calls a second the bot may make overall, emulator and bot alike (30)",
    )
    args = parser.parse_args()
    if args.workers and not args.postgresql:
        parser.error("--workers needs --postgresql (the workers share its database)")
    with contextlib.ExitStack() as stack:
        database_url = None
        if args.postgresql:
            database_url = stack.enter_context(postgres.cluster(durable=True)).new_database()
        run(args, database_url)


def run(args: argparse.Namespace, database_url: str | None) -> None:
    """One scenario of ``main``'s arguments, its JSON line printed."""
    if args.flood:
        result = asyncio.run(run_flood(15.0 if args.quick else args.seconds))
    else:
        games, seconds = (6, 15.0) if args.quick else (args.games, args.seconds)
        result = asyncio.run(
            run_games(
                games,
                seconds,
                args.mix,
                args.seed,
                args.computer,
                webapp=args.webapp,
                pace=args.pace,
                impatient=args.impatient,
                think=args.think,
                database_url=database_url,
                workers=args.workers,
                overall_limit=args.overall_limit,
            )
        )
        result["engine"] = "postgresql" if database_url else "sqlite"
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
