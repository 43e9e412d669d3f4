"""The flood journal: the bot's recent message calls per chat, kept in a file beside the database.

Telegram counts a group's messages over a minute, whichever process of the bot sent them. A
restarted bot whose flood gate began with empty windows could send a whole window's worth at
once on top of what the killed process sent just before, and draw 429s. So the gate notes every
message call it lets through here *before* the call is made, and a new process starts from the
calls of the last minute (``FloodGate`` in ``handlers.delivery``).

The journal is an append-only text file, ``<database>.flood``, one line per call: the wall-clock
time and the chat id. Each line is one ``os.write`` to a file opened with ``O_APPEND``, so it is
in the OS's hands before the call goes out and survives a kill -9 (it is not ``fsync``-ed: a
power cut may lose the last lines, and a restart after a power cut takes longer than a window
anyway). A line torn by a power cut is skipped when read. The file is rewritten with only the
calls still inside the horizon when it is opened and whenever it has grown to several times
that, so it stays small. Mode 0600, like the database. A ``:memory:`` database has no journal.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from storage.files import PRIVATE, is_file_database, sync_folder, tighten

log = logging.getLogger(__name__)

SUFFIX = ".flood"
"""The journal's name is the database's with this appended."""
COMPACT_LINES = 4096
"""Lines the file may hold before it is rewritten (when fewer than half are still recent)."""

Entry = tuple[float, int]
"""One message call: its wall-clock time (seconds since the epoch) and its chat."""


class FloodJournal:
    """Recent message calls per chat in an append-only file; ``open`` it, then ``record``."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        compact_lines: int = COMPACT_LINES,
    ) -> None:
        """A journal at ``path`` (nothing is read or written before ``open``)."""
        self.path = Path(path)
        self.clock = clock
        """The wall clock the journal's times are read from."""
        self._compact_lines = compact_lines
        self._fd: int | None = None
        self._horizon = 0.0
        self._recent: deque[Entry] = deque()
        """What the file holds that is younger than the horizon, oldest first."""
        self._lines = 0
        """Lines in the file (recent or not)."""

    @classmethod
    def beside(cls, db_path: str | Path) -> FloodJournal | None:
        """The journal of the database at ``db_path``; ``None`` for ``:memory:``."""
        if not is_file_database(db_path):
            return None
        return cls(f"{os.fspath(db_path)}{SUFFIX}")

    @property
    def is_open(self) -> bool:
        """Whether calls are being recorded."""
        return self._fd is not None

    def open(self, horizon: float) -> list[Entry]:
        """Open the file (creating it, mode 0600) and return the calls of the last ``horizon``
        seconds it holds, oldest first; only those are kept."""
        if self._fd is not None:
            raise RuntimeError(f"the flood journal {self.path} is already open")
        self._horizon = horizon
        now = self.clock()
        entries = _read(self.path)
        # A call "in the future" means the wall clock was set back: count it as just made
        # (the safe side), unless it is too far ahead to belong to this bot's last minutes.
        recent = sorted(
            (min(when, now), chat_id)
            for when, chat_id in entries
            if now - horizon < when <= now + horizon
        )
        self._recent = deque(recent)
        self._rewrite()
        return recent

    def record(self, chat_id: int) -> None:
        """Note a message call to ``chat_id`` about to be made (a no-op unless open). A
        journal that cannot be written is closed with a warning: the bot goes on without it."""
        fd = self._fd
        if fd is None:
            return
        now = self.clock()
        try:
            os.write(fd, _line(now, chat_id))
        except OSError as error:
            log.warning("flood journal %s: %s; going on without it", self.path, error)
            self.close()
            return
        self._lines += 1
        recent = self._recent
        recent.append((now, chat_id))
        while recent and recent[0][0] <= now - self._horizon:
            recent.popleft()
        if self._lines > max(self._compact_lines, 2 * len(recent)):
            try:
                self._rewrite()
            except OSError as error:
                log.warning("flood journal %s: %s; going on without it", self.path, error)
                self.close()

    def close(self) -> None:
        """Stop recording; the file stays for the next start."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):  # (a descriptor that failed may be gone)
                os.close(fd)

    def _rewrite(self) -> None:
        """Replace the file by one holding only the recent calls, and append to that."""
        temporary = self.path.with_name(f"{self.path.name}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE)
        try:
            os.fchmod(fd, PRIVATE)
            os.write(fd, b"".join(_line(when, chat_id) for when, chat_id in self._recent))
        finally:
            os.close(fd)
        os.replace(temporary, self.path)
        sync_folder(self.path.parent)
        self.close()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        self._lines = len(self._recent)


def _line(when: float, chat_id: int) -> bytes:
    return f"{when:.3f} {chat_id}\n".encode("ascii")


def _read(path: Path) -> list[Entry]:
    """Every well-formed line of the file (none if there is no file); a last line without its
    newline was torn and is left out."""
    tighten(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    entries = []
    for line in data.split(b"\n")[:-1]:
        fields = line.split()
        if len(fields) != 2:
            continue
        try:
            entries.append((float(fields[0]), int(fields[1])))
        except ValueError:
            continue
    return entries
