"""Consistent copies of the bot's database while the bot runs (SQLite's online backup API).

``backup_file`` is for another process (``kozelbot backup FILE``): it opens the database
read-only and copies it a few pages per step, all steps reading one snapshot, so the copy
holds exactly the transactions committed before it started and the bot keeps writing
meanwhile (in WAL mode a reader never blocks the writer). ``Storage.backup`` does the same
from inside the bot, holding the storage lock.

Either way the copy goes to a temporary file beside the target, is checked with
``PRAGMA integrity_check``, switched to a single-file journal mode and only then renamed over
the target: a failed or interrupted backup never replaces a good one. The temporary file,
and so the installed copy, has mode 0600 like the database (``storage.files``).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Self

from storage.errors import StorageError
from storage.files import PRIVATE, sync_folder

STEP_PAGES = 256
"""Pages copied per step by ``backup_file`` (1 MiB with SQLite's default 4 KiB pages)."""
BUSY_TIMEOUT_MS = 5000
"""How long the read-only connection waits for a lock before giving up."""

Progress = Callable[[int, int, int], object]
"""``sqlite3``'s progress callback: ``(status, remaining, total)`` after each step."""


class BackupError(StorageError):
    """The copy failed its check; the target was left as it was."""


def backup_file(
    source: str | Path,
    target: str | Path,
    *,
    pages: int = STEP_PAGES,
    progress: Progress | None = None,
) -> int:
    """Copy the database at ``source`` to ``target`` from another process; return its pages."""
    source_path, target_path = Path(source), Path(target)
    if not source_path.is_file():
        raise FileNotFoundError(errno.ENOENT, "no database file", str(source_path))
    if same_file(source_path, target_path):
        raise ValueError(f"the backup would replace the database itself: {target_path}")
    uri = f"{source_path.resolve().as_uri()}?mode=ro"
    src = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        src.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        with TemporaryCopy(target_path) as copy:
            _copy(src, copy.connection, pages, progress)
            return copy.install()
    finally:
        src.close()


def _copy(
    src: sqlite3.Connection, dest: sqlite3.Connection, pages: int, progress: Progress | None
) -> None:
    """Copy ``src`` into ``dest`` in steps of ``pages``, every step from one snapshot if WAL."""
    wal = src.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    if not wal:
        # A read transaction would block the writer for the whole copy here; without one
        # SQLite restarts the copy when another connection writes between two steps.
        src.backup(dest, pages=pages, progress=progress)
        return
    # One read transaction across all steps: every step sees the same snapshot, so a write
    # between two steps neither restarts the copy nor ends up half in it.
    src.execute("BEGIN")
    try:
        src.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        src.backup(dest, pages=pages, progress=progress)
    finally:
        src.execute("ROLLBACK")


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name the same file (for a file that may not exist yet: same path)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


class TemporaryCopy:
    """A fresh database file beside ``target``: fill ``connection``, then ``install`` it.

    Used as a context manager: leaving the block without ``install`` (an error, a
    cancellation) deletes the temporary file and leaves the target untouched.
    """

    def __init__(self, target: Path) -> None:
        """Create the empty temporary file in the target's folder (so the rename is atomic)."""
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, "the backup target is a folder", str(target))
        if not target.parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, "no such folder", str(target.parent))
        self.target = target
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            os.fchmod(fd, PRIVATE)  # mkstemp's mode already; the rename keeps it
        finally:
            os.close(fd)
        self.path = Path(name)
        self._installed = False
        try:
            # Filled on whichever thread runs the backup (aiosqlite's worker, for Storage).
            self.connection = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False
            )
        except BaseException:
            self.path.unlink(missing_ok=True)
            raise

    def install(self) -> int:
        """Check the copy, make it one self-contained file, rename it over the target."""
        db = self.connection
        problems = [row[0] for row in db.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise BackupError(f"the copy failed its integrity check: {'; '.join(problems[:5])}")
        pages = int(db.execute("PRAGMA page_count").fetchone()[0])
        # The copy inherits the source's WAL mode; leave it as one file with no -wal beside.
        db.execute("PRAGMA journal_mode = DELETE")
        db.close()
        os.replace(self.path, self.target)
        self._installed = True
        sync_folder(self.target.parent)
        return pages

    def discard(self) -> None:
        """Close and delete the temporary file (and any journal SQLite left beside it)."""
        self.connection.close()
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def __enter__(self) -> Self:
        """Use as ``with TemporaryCopy(target) as copy``."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Discard the temporary file unless it was installed."""
        if not self._installed:
            self.discard()
