"""The sandbox as one object: emulator, world, bot, autopilot and page, started and stopped in
order; and ``run``, what ``kozelbot`` without a token (or ``kozelbot sandbox``) does.

Start: the emulator on a free port of 127.0.0.1 (with a token drawn for this run, answering
only requests that name a local host), the world from ``<db>.chats.json`` (or a new one), the
bot on the sandbox's database, then the page on ``KOZEL_SANDBOX_PORT`` (or the next free
port). Stop, in reverse: watch mode, the page (its event streams end), the bot (it sends
what it has queued), one last write of the world, the emulator.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import signal
import sys
from pathlib import Path

from aiohttp import web

from botapi_emulator import AnswerEvent, BotApiEmulator, EmulatorEvent, Limits, MessageEvent, User
from kozelbot.config import Settings
from kozelbot.core import logs

from .api import make_app
from .bot import FIRST_NAME, USERNAME, EmbeddedBot, bot_settings, new_token
from .hub import EventHub
from .watch import Autopilot, GameInfo
from .world import ChatsFile, JsonDict, World

log = logging.getLogger("kozelbot.sandbox")

HOST = "127.0.0.1"
PORT_TRIES = 100
"""Ports tried from ``KOZEL_SANDBOX_PORT`` on when it is taken."""


def chats_path(db_path: Path) -> Path:
    """The file the sandbox's chats are kept in, beside its database."""
    return db_path.with_name(db_path.name + ".chats.json")


class Sandbox:
    """The real bot against the emulator, with the page's HTTP API on ``url``."""

    def __init__(
        self,
        settings: Settings,
        *,
        port: int | None = None,
        db_path: str | Path | None = None,
        seed: int | None = None,
    ) -> None:
        self.settings = settings
        self.port = settings.sandbox_port if port is None else port
        self.db_path = Path(settings.sandbox_db_path if db_path is None else db_path)
        self.chats_path = chats_path(self.db_path)
        self.seed = settings.sandbox_seed if seed is None else seed
        self.rng = random.Random(self.seed) if self.seed is not None else None
        """The bot's games' randomness (kept across the bot's restarts)."""
        self.token = new_token()
        """This run's bot token, the bot's and the emulator's only."""
        self.emu = self._new_emulator()
        self.hub = EventHub()
        self.world: World
        self.autopilot: Autopilot
        self.bot: EmbeddedBot | None = None
        self._file: ChatsFile | None = None
        self._http: web.AppRunner | None = None
        self._bot_lock = asyncio.Lock()
        """Held while the bot restarts (limits switched): nobody reads its storage then."""

    @property
    def url(self) -> str:
        """The page's address, once started."""
        return f"http://{HOST}:{self.port}"

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Start everything; on failure what was started is stopped and the error raised."""
        try:
            await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> None:
        emu = self.emu
        fresh = False
        try:
            data = ChatsFile.read(self.chats_path)
            self.world = World.restore(emu, data) if data is not None else self._new_world()
            fresh = data is None
        except ValueError as error:
            broken = self.chats_path.with_name(self.chats_path.name + ".broken")
            log.warning(
                "%s is unreadable (%s): kept as %s, starting afresh", self.chats_path, error, broken
            )
            self.chats_path.replace(broken)
            emu = self.emu = self._new_emulator()
            self.world = self._new_world()
            fresh = True
        preferences = self.world.preferences
        emu.set_limits(Limits() if preferences.limits else Limits.unlimited())
        await emu.start()
        self._file = ChatsFile(self.chats_path, self.world.to_json)
        self._file.start()
        emu.subscribe(self._on_event)
        self.autopilot = Autopilot(
            emu,
            self.world.group,
            self.world.people,
            self.group_game,
            on_change=self._state_changed,
            delay=preferences.delay,
            seed=self.seed,
            press_burst=self.settings.press_burst,
            press_rate=self.settings.press_rate,
        )
        self.bot = EmbeddedBot(self._bot_settings(), self.rng)
        await self.bot.start()
        if fresh:
            for person in self.world.people:
                emu.start_private_nowait(person)
        self._file.mark()
        await self._serve()

    def _new_emulator(self) -> BotApiEmulator:
        return BotApiEmulator(
            token=self.token, bot_username=USERNAME, bot_first_name=FIRST_NAME, local_only=True
        )

    def _new_world(self) -> World:
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        return World.create(self.emu, self.settings.language)

    def _bot_settings(self) -> Settings:
        return bot_settings(
            self.settings,
            self.emu.api_root,
            self.token,
            str(self.db_path),
            limits=self.world.preferences.limits,
        )

    async def _serve(self) -> None:
        """Serve the page on ``port``, or the next free one (0: any free port)."""
        runner = web.AppRunner(
            make_app(self), access_log=None, handle_signals=False, shutdown_timeout=1.0
        )
        await runner.setup()
        self._http = runner
        tries = 1 if self.port == 0 else min(PORT_TRIES, 65536 - self.port)
        for port in range(self.port, self.port + tries):
            site = web.TCPSite(runner, HOST, port)
            try:
                await site.start()
            except OSError as error:
                last = error
                continue
            self.port = int(runner.addresses[-1][1])
            return
        raise OSError(f"no free port from {self.port} to {self.port + tries - 1}: {last}")

    async def stop(self) -> None:
        """Stop everything that runs, in order; the world is written one last time."""
        if hasattr(self, "autopilot"):
            await self.autopilot.stop()
        self.hub.close()
        if self._http is not None:
            await self._http.cleanup()
            self._http = None
        async with self._bot_lock:
            if self.bot is not None:
                try:
                    await self.bot.stop()
                finally:
                    self.bot = None
        if self._file is not None:
            await self._file.close()
            self._file = None
        await self.emu.stop()

    # ----------------------------------------------------------------- what the page changes

    def change_person(self, person: User, *, name: str | None, language: str | None) -> None:
        """Rename a person or change their language; their next updates carry it."""
        if name is not None:
            person.first_name = name
        if language is not None:
            person.language_code = language
        self._state_changed()

    async def set_limits(self, on: bool) -> None:
        """Switch Telegram's flood limits (the emulator's and the bot's own): the bot restarts
        with the matching settings."""
        async with self._bot_lock:
            preferences = self.world.preferences
            if preferences.limits == on:
                return
            preferences.limits = on
            if not on:  # open the emulator first, so that the bot sends its queue at once
                self.emu.set_limits(Limits.unlimited())
            if self.bot is not None:
                await self.bot.stop()
            self.emu.set_limits(Limits() if on else Limits.unlimited())
            self.bot = EmbeddedBot(self._bot_settings(), self.rng)
            await self.bot.start()
        self._state_changed()

    async def set_watch(self, on: bool, *, delay: float | None, newgame: str) -> None:
        """Start or stop watch mode, or change its delay."""
        if delay is not None:
            self.autopilot.delay = self.world.preferences.delay = delay
        if on:
            self.autopilot.start(newgame)
        else:
            await self.autopilot.stop()
        self._state_changed()

    async def group_game(self) -> GameInfo | None:
        """The group's lobby or match, from the bot's storage (None: there is none)."""
        async with self._bot_lock:
            application = self.bot.application if self.bot is not None else None
            if application is None:
                return None
            for table in await application.bot_data.storage.games.live_games():
                if table.chat_id == self.world.group.id:
                    seated = {seat.user_id for seat in table.seats if seat is not None}
                    return GameInfo(
                        str(table.status), frozenset(s for s in seated if s is not None)
                    )
        return None

    # ----------------------------------------------------------------- what the page reads

    def watch_json(self) -> JsonDict:
        """Watch mode as ``/api/state`` shows it."""
        return {"running": self.autopilot.running, "delay": self.autopilot.delay}

    def state_json(self) -> JsonDict:
        """``GET /api/state``."""
        world = self.world
        return {
            "bot": {"username": self.emu.bot_username, "name": self.emu.bot_first_name},
            "group": {"id": world.group.id, "title": world.group.title},
            "people": [world.person_json(person) for person in world.people],
            "chats": world.chats_json(),
            "commands": world.commands_json(),
            "limits": world.preferences.limits,
            "watch": self.watch_json(),
        }

    def _state_changed(self) -> None:
        if self._file is not None:
            self._file.mark()
        self.hub.publish({"type": "state"})

    def _on_event(self, event: EmulatorEvent) -> None:
        """Every message and answer: to the page's event streams and, soon, to the file."""
        if self._file is not None:
            self._file.mark()
        if isinstance(event, MessageEvent):
            if event.kind != "deleted" and not event.message.is_service:
                message = self.world.message_json(event.message)
                self.hub.publish({"type": "message", "message": message})
        elif isinstance(event, AnswerEvent):
            answer = event.answer
            self.hub.publish(
                {
                    "type": "answer",
                    "person": event.user.id,
                    "text": answer.text,
                    "alert": answer.show_alert,
                }
            )


def run(settings: Settings, *, port: int | None = None, db_path: str | None = None) -> int:
    """Run the sandbox until SIGINT or SIGTERM; the process exit code (0, or 1 if it could not
    start). Prints ``KozelBot sandbox: http://127.0.0.1:PORT`` once ready."""
    logs.configure(settings.log_level, settings.log_format, None)  # its token is its own
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # Every move arms a turn timer; in a terminal next to the page that is only noise.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    return asyncio.run(_serve_until_stopped(settings, port, db_path))


async def _serve_until_stopped(settings: Settings, port: int | None, db_path: str | None) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    sandbox = Sandbox(settings, port=port, db_path=db_path)
    try:
        await sandbox.start()
    except Exception as error:
        log.debug("the sandbox could not start", exc_info=True)
        print(f"kozelbot sandbox: could not start: {error}", file=sys.stderr)
        return 1
    print(f"KozelBot sandbox: {sandbox.url}", flush=True)
    try:
        await stop.wait()
    finally:
        await sandbox.stop()
    return 0
