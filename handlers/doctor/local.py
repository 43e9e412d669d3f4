"""The checks of ``kozelbot doctor`` on this machine alone: the Mini App's settings, the ports
the bot will listen on (the Mini App, the metrics endpoint, the webhook server), and the free
disk space beside the database.

A port is probed by binding it the way the bot's servers will (``SO_REUSEADDR``, as asyncio
does on POSIX, so a connection of a stopped bot still closing does not count), then released
at once. Two of the bot's own listeners on one port are caught before the probe would say
"free" to each of them.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from handlers.doctor.findings import Finding, Part, Status, amount, finding
from kozelbot.config import Settings

HEALTH_PATIENCE = 8.0
"""Seconds a running bot's ``/healthz`` and ``/readyz`` have to answer the doctor (its
``/readyz`` gives the database 5 s)."""

MB = 1_000_000
DISK_FAIL_BELOW = 100 * MB
"""Less free space than this beside the database fails the disk check."""
DISK_WARN_BELOW = 1000 * MB
"""Less free space than this (and at least ``DISK_FAIL_BELOW``) is a warning."""
WEBAPP_NAME = re.compile(r"^[A-Za-z0-9_]{3,30}$")
"""A Mini App's short name as @BotFather takes it (``/newapp``): 3–30 letters, digits, ``_``."""
_EVERYWHERE = {"", "0.0.0.0", "::"}


@dataclass(frozen=True, slots=True)
class Listener:
    """A server of the bot: what it is, where it listens, and the settings that move it."""

    what: str
    listen: str
    port: int
    listen_setting: str
    port_setting: str

    @property
    def address(self) -> str:
        """``127.0.0.1:8081`` (``[::1]:8081``)."""
        host = f"[{self.listen}]" if ":" in self.listen else self.listen
        return f"{host}:{self.port}"

    def overlaps(self, other: Listener) -> bool:
        """Both would listen on one port of one address."""
        return self.port == other.port and (
            self.listen == other.listen or {self.listen, other.listen} & _EVERYWHERE != set()
        )


def port_part(listener: Listener, claimed: list[Listener]) -> Part:
    """Whether ``listener`` can listen: not on another listener's port of the bot, and the
    port free to bind now; it joins ``claimed`` either way."""
    try:
        for other in claimed:
            if listener.overlaps(other):
                return Part(
                    Status.FAIL,
                    f"{listener.address} is {other.what}'s too — change {listener.port_setting}",
                )
        problem = bind_problem(listener)
    finally:
        claimed.append(listener)
    if problem is None:
        return Part(Status.OK, f"{listener.address} is free")
    return Part(Status.FAIL, problem)


def bind_problem(listener: Listener) -> str | None:
    """Why ``listener`` could not listen now (and what to do), or None if it could."""
    try:
        addresses = socket.getaddrinfo(
            listener.listen or None,
            listener.port,
            type=socket.SOCK_STREAM,
            flags=socket.AI_PASSIVE,
        )
    except socket.gaierror as error:
        return (
            f"{listener.listen!r} is not an address ({error.strerror}) — set "
            f"{listener.listen_setting}"
        )
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                return _bind_error(listener, error)
    return None


def _bind_error(listener: Listener, error: OSError) -> str:
    where, port = listener.address, listener.port
    if error.errno == errno.EADDRINUSE:
        return (
            f"{where} is taken (the bot already running? ss -ltnp 'sport = :{port}' names "
            f"it) — stop it, or change {listener.port_setting}"
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return (
            f"{listener.listen} is not an address of this machine — set {listener.listen_setting}"
        )
    if error.errno == errno.EACCES:
        return (
            f"port {port} is below 1024: only root (or CAP_NET_BIND_SERVICE) may listen on it "
            f"— set another {listener.port_setting}"
        )
    return f"cannot listen on {where}: {error.strerror} — set {listener.port_setting}"


def check_webapp(settings: Settings, claimed: list[Listener]) -> Finding:
    """The Mini App, when ``KOZEL_WEBAPP_URL`` is set: its short name (the group's direct
    link ``t.me/<bot>/<name>``) and its port."""
    if settings.webapp_url is None:
        return Finding(Status.OK, "Mini App", "off (KOZEL_WEBAPP_URL is not set)")
    parts = [Part(Status.OK, settings.webapp_url)]
    name = settings.webapp_name
    if name is None:
        parts.append(
            Part(
                Status.WARN,
                "KOZEL_WEBAPP_NAME unset: no direct link in groups — set the app's short name "
                "(@BotFather: /newapp)",
            )
        )
    elif not WEBAPP_NAME.match(name):
        parts.append(
            Part(
                Status.FAIL,
                f"KOZEL_WEBAPP_NAME {name!r} is not a BotFather short name (3–30 letters, "
                "digits or _) — copy it from @BotFather (/myapps)",
            )
        )
    else:
        parts.append(Part(Status.OK, f"short name {name}"))
    if settings.webapp_port == 0:
        parts.append(
            Part(
                Status.WARN,
                "KOZEL_WEBAPP_PORT=0: the bot serves no page (only the sandbox does) — set "
                "the port the proxy of KOZEL_WEBAPP_URL forwards to",
            )
        )
    else:
        listener = Listener(
            "the Mini App",
            settings.webapp_listen,
            settings.webapp_port,
            "KOZEL_WEBAPP_LISTEN",
            "KOZEL_WEBAPP_PORT",
        )
        parts.append(port_part(listener, claimed))
    return finding("Mini App", parts)


def check_metrics(settings: Settings, claimed: list[Listener]) -> Finding:
    """The metrics endpoint, when ``KOZEL_METRICS_PORT`` is not 0: its port."""
    if settings.metrics_port == 0:
        return Finding(Status.OK, "metrics", "off (KOZEL_METRICS_PORT=0)")
    listener = Listener(
        "the metrics endpoint",
        settings.metrics_listen,
        settings.metrics_port,
        "KOZEL_METRICS_LISTEN",
        "KOZEL_METRICS_PORT",
    )
    part = port_part(listener, claimed)
    if part.status is Status.OK:
        part = Part(Status.OK, f"http://{listener.address}/metrics (the port is free)")
    elif (running := running_bot(listener)) is not None:
        part = running
    return Finding(part.status, "metrics", part.text)


def running_bot(listener: Listener) -> Part | None:
    """The metrics port is taken: if by a running bot (its ``/healthz`` answers), what its
    ``/readyz`` says — ready, or not and why — instead of a port to free; else ``None``."""
    root = f"http://{listener.address}"
    try:
        with urllib.request.urlopen(f"{root}/healthz", timeout=HEALTH_PATIENCE) as answer:
            if answer.read() != b"ok\n":
                return None
    except (OSError, ValueError):
        return None
    try:
        with urllib.request.urlopen(f"{root}/readyz", timeout=HEALTH_PATIENCE) as answer:
            return Part(Status.OK, f"{root}/metrics: a running bot answers, and is ready")
    except urllib.error.HTTPError as refused:
        reasons = "; ".join(refused.read().decode(errors="replace").split("\n")).strip("; ")
        return Part(Status.FAIL, f"{root}: a running bot answers, not ready — {reasons}")
    except OSError as error:
        return Part(Status.WARN, f"{root}: a running bot answers /healthz, not /readyz ({error})")


def check_webhook_server(listen: str, port: int, claimed: list[Listener]) -> Finding:
    """The webhook server (``--webhook URL``): ``--listen:--port`` free."""
    part = port_part(Listener("the webhook server", listen, port, "--listen", "--port"), claimed)
    return Finding(part.status, "webhook server", part.text)


def disk_folder(db_path: str) -> Path:
    """Where the bot writes: the database's folder (also the flood journal's, beside
    ``KOZEL_DB_PATH`` on PostgreSQL too), or its nearest existing parent."""
    folder = Path(os.path.abspath(db_path)).parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def check_disk(
    folder: Path,
    *,
    fail_below: int = DISK_FAIL_BELOW,
    warn_below: int = DISK_WARN_BELOW,
) -> Finding:
    """The free space in ``folder``: a failure under ``fail_below`` bytes, a warning under
    ``warn_below``."""
    free = shutil.disk_usage(folder).free
    if free < fail_below:
        return Finding(
            Status.FAIL,
            "disk",
            f"only {amount(free)} free in {folder}; under {amount(fail_below)} a write may "
            "fail mid-game — make room now",
        )
    if free < warn_below:
        return Finding(
            Status.WARN,
            "disk",
            f"only {amount(free)} free in {folder} — make room: the database grows with "
            "every game, and a backup needs as much again",
        )
    return Finding(Status.OK, "disk", f"{amount(free)} free in {folder}")
