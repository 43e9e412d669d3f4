"""A throwaway PostgreSQL cluster for the tests and benchmarks: Debian's own server binaries
(``apt-get install postgresql``, which ``.ci/run`` does), a fresh ``initdb`` in a temporary
folder, listening on 127.0.0.1 at a free port and on a socket in that folder, stopped and
removed at the end.

PostgreSQL refuses to run as root, so when the tests run as root (CI's container) the
server runs as the unprivileged ``nobody`` (its folder handed to it); otherwise as whoever
runs the tests. Nothing is downloaded; without the server binaries ``find_bin`` is ``None``
and the tests that need the server fail with what to install (they are not skipped: CI
installs it).

Each test that wants a database asks the cluster for a new one (``CREATE DATABASE`` from a
template), so tests never see each other's rows.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg

SUPERUSER = "kozel"
PASSWORD = "kozel-test"


def find_bin() -> Path | None:
    """The newest installed server's ``bin`` folder (``/usr/lib/postgresql/N/bin``)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/postgres"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """One running server: ``url(db)`` to reach a database, ``new_database()`` for a fresh one."""

    def __init__(
        self, root: Path, port: int, bin_dir: Path, user: str | None, *, durable: bool = False
    ) -> None:
        self.root = root
        self.durable = durable
        self.port = port
        self.bin_dir = bin_dir
        self.user = user
        self.data = root / "data"
        self._names = itertools.count(1)

    def url(self, database: str = "postgres", *, password: str = PASSWORD) -> str:
        """The address of ``database`` over TCP, as the bot's ``KOZEL_DATABASE_URL``."""
        return f"postgresql://{SUPERUSER}:{password}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database's URL (its name unique in this cluster)."""
        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin_dir / argv[0]), *argv[1:]],
            check=check,
            capture_output=True,
            text=True,
            user=self.user,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
        )

    def start(self) -> None:
        """``initdb`` and start the server; returns once it accepts connections."""
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD)
        self._hand_over(self.root)
        self._hand_over(pwfile)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--pwfile",
            str(pwfile),
            "--auth=scram-sha-256",
            "-E",
            "UTF8",
            "--no-sync",
        )
        pwfile.unlink()
        self.start_again()
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``pg_ctl stop -m fast``)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart_server(self) -> None:
        """Stop the server and start it again on the same port and data."""
        self.stop()
        self.start_again()

    def start_again(self) -> None:
        """Start the (stopped) server on this port and data."""
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            self._options(),
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )

    def _options(self) -> str:
        """The server's settings: a test cluster skips fsync (its data dies with the test);
        a ``durable`` one (the benchmarks) keeps PostgreSQL's defaults, as in production."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1"
            f" -c unix_socket_directories={self.root} -c max_connections=200"
        )
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        return options

    def _hand_over(self, path: Path) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(path, entry.pw_uid, entry.pw_gid)


@contextlib.contextmanager
def cluster(*, durable: bool = False) -> Iterator[Cluster]:
    """A running throwaway cluster, removed afterwards (``durable``: fsync and synchronous
    commits on, PostgreSQL's defaults)."""
    bin_dir = find_bin()
    if bin_dir is None:
        raise RuntimeError(
            "PostgreSQL's server is not installed: apt-get install postgresql (.ci/run does)"
        )
    user = "nobody" if os.geteuid() == 0 else None
    # In /tmp, which every user may cross (a TMPDIR of root's own would shut ``nobody`` out).
    root = Path(tempfile.mkdtemp(prefix="kozel-pg-", dir="/tmp" if user else None))
    os.chmod(root, 0o700)
    running = Cluster(root, free_port(), bin_dir, user, durable=durable)
    try:
        running.start()
        yield running
    finally:
        running.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
