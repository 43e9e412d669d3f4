"""``kozelbot intake --webhook URL`` (issue #32): Telegram POSTs each update, and the intake
answers 200 only once the update is kept in the inbox with its place.

Unlike PTB's webhook server, which answers before the update is handled, this answer is the
promise: Telegram sends again any update not answered 200, so an update is in the database
or still Telegram's — a crash of the intake loses none. A POST without the secret token set
with the webhook is refused (403); a body that is not an update is refused (400) and kept
nowhere; an inbox that cannot be written answers 503, and Telegram tries again later.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Bot, Update

from handlers.routing import place_of
from kozelbot.tables.queries import PlaceLeases

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20
"""Bytes an update's POST may carry (Telegram's are a few kilobytes)."""


class IntakeHook:
    """The webhook's endpoint (see the module)."""

    def __init__(self, bot: Bot, places: PlaceLeases, secret: str) -> None:
        self.bot = bot
        self.places = places
        self.secret = secret
        self.kept = 0
        """Updates written to the inbox since the start."""

    def app(self, path: str) -> web.Application:
        """The HTTP application: POST ``path``."""
        application = web.Application(client_max_size=MAX_BODY)
        application.router.add_post(path, self.receive)
        return application

    async def receive(self, request: web.Request) -> web.Response:
        """One update: refused (403, 400), kept (200), or to be sent again (503)."""
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            return web.Response(status=403, text="wrong secret token")
        try:
            body = json.loads(await request.read())
            update = Update.de_json(body, self.bot) if isinstance(body, dict) else None
        except (ValueError, TypeError, KeyError, RecursionError):
            update = None
        if update is None or not isinstance(body.get("update_id"), int):
            return web.Response(status=400, text="not an update")
        payload = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        try:
            place = await place_of(update, self.places)
            await self.places.keep([(update.update_id, payload, place)])
        except Exception as error:  # the database away: Telegram sends it again
            log.warning("intake: could not keep update %d: %s", update.update_id, error)
            return web.Response(status=503, text="try again")
        self.kept += 1
        return web.Response(text="kept")


async def serve(
    bot: Bot, places: PlaceLeases, webhook: str, port: int, listen: str, allowed: list[str]
) -> None:
    """Serve the webhook (``handlers.intake_hook``) and point Telegram at it, with a secret
    token drawn afresh at each start; until cancelled."""
    secret = secrets.token_urlsafe(32)
    hook = IntakeHook(bot, places, secret)
    runner = web.AppRunner(hook.app("/" + urlsplit(webhook).path.lstrip("/")))
    await runner.setup()
    try:
        await web.TCPSite(runner, listen, port).start()
        await bot.set_webhook(webhook, secret_token=secret, allowed_updates=allowed)
        log.info("intake: %s (served on %s:%d) into the inbox", webhook, listen, port)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
