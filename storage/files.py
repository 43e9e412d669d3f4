"""Files only the bot's own user may read: the database holds every live hand and match secret.

The database, its ``-wal`` and ``-shm`` files, every backup and the flood journal are created
with mode 0600 without touching the process-wide umask (other threads run meanwhile): the
file is created with that mode and ``fchmod``-ed to it, whatever the umask. SQLite creates
``-wal`` and ``-shm`` with the permissions of the database file, so they follow. A file found
readable or writable by others (created before this rule) is tightened when it is opened.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE = 0o600
"""Read and write for the owner, nothing for anyone else."""
OTHERS = 0o077
"""The mode bits of the group and of everybody else."""
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
"""What SQLite keeps beside a database file."""


def create_private(path: Path) -> bool:
    """Create ``path`` empty with mode 0600 if it does not exist (``True`` if it was created);
    an existing file keeps its content and is tightened."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, PRIVATE)
    except FileExistsError:
        tighten(path)
        return False
    try:
        os.fchmod(fd, PRIVATE)  # the umask may have taken the owner's bits too
        os.fsync(fd)
    finally:
        os.close(fd)
    sync_folder(path.parent)
    return True


def tighten(path: Path) -> None:
    """Take the group's and everybody's permissions off ``path`` if it is a file (a file
    not ours to change is left as it is, with a warning; a folder or a device named by
    mistake is never touched: SQLite refuses it anyway)."""
    try:
        found = os.stat(path)
        mode = stat.S_IMODE(found.st_mode)
        if stat.S_ISREG(found.st_mode) and mode & OTHERS:
            os.chmod(path, mode & ~OTHERS)
    except FileNotFoundError:
        return
    except PermissionError as error:
        log.warning("cannot make %s private (mode 0600): %s", path, error)


def open_private_database(path: Path) -> None:
    """Before SQLite opens the database at ``path``: create it with mode 0600 (so that its
    ``-wal`` and ``-shm`` get that mode too), or tighten it and the files beside it."""
    if create_private(path):
        return
    for suffix in SQLITE_SIDE_FILES:
        tighten(Path(f"{path}{suffix}"))


def sync_folder(folder: Path) -> None:
    """Make a new name or a rename in ``folder`` durable (POSIX; elsewhere a no-op)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def is_file_database(path: str | Path) -> bool:
    """Whether SQLite would keep ``path`` in a file (not ``:memory:`` nor a temporary one)."""
    text = os.fspath(path)
    return text not in ("", ":memory:") and not text.startswith("file:")
