"""The flood journal (``storage.flood``): recent message calls per chat, in a file beside the
database, read back by the next process however the last one ended."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from storage.flood import FloodJournal

HORIZON = 60.2


class WallClock:
    """A settable wall clock."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_the_journal_lives_beside_a_file_database_and_a_memory_one_has_none() -> None:
    journal = FloodJournal.beside("/srv/kozel/kozel.db")
    assert journal is not None and journal.path == Path("/srv/kozel/kozel.db.flood")
    assert FloodJournal.beside(":memory:") is None
    assert FloodJournal.beside("") is None


@pytest.mark.usefixtures("loose_umask")
def test_a_recorded_call_is_in_the_file_at_once_and_read_back_by_the_next_process(
    tmp_path: Path,
) -> None:
    """What a kill -9 leaves: each call is in the OS's hands as soon as it is recorded."""
    path = tmp_path / "kozel.db.flood"
    clock = WallClock()
    first = FloodJournal(path, clock=clock)
    assert first.open(HORIZON) == []
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    first.record(-100)
    clock.now += 1.5
    first.record(42)
    assert path.read_text().splitlines() == ["1700000000.000 -100", "1700000001.500 42"]
    # No close: the process was killed. The next one starts a little later.
    clock.now += 2.0
    second = FloodJournal(path, clock=clock)
    assert second.open(HORIZON) == [(1_700_000_000.0, -100), (1_700_000_001.5, 42)]
    second.close()
    first.close()


def test_only_the_calls_inside_the_horizon_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.flood"
    clock = WallClock()
    journal = FloodJournal(path, clock=clock)
    journal.open(HORIZON)
    journal.record(-1)
    clock.now += 30
    journal.record(-2)
    journal.close()
    clock.now += 40  # the first call is 70 s old now, the second 40 s
    again = FloodJournal(path, clock=clock)
    assert again.open(HORIZON) == [(1_700_000_030.0, -2)]
    again.close()
    assert path.read_text().splitlines() == ["1700000030.000 -2"], "the file was compacted"


def test_torn_and_foreign_lines_are_skipped_and_a_clock_set_back_stays_on_the_safe_side(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.flood"
    now = 1_700_000_000.0
    path.write_text(
        f"{now - 10:.3f} -5\n"
        "garbage\n"
        f"{now - 9:.3f} not-a-chat\n"
        f"{now + 5:.3f} -6\n"  # the wall clock went back 5 s since: counted as just made
        f"{now + 3600:.3f} -7\n"  # an hour ahead: not this bot's last minute
        f"{now - 8:.3f} -8"  # no newline: torn by a power cut
    )
    journal = FloodJournal(path, clock=WallClock(now))
    assert journal.open(HORIZON) == [(now - 10, -5), (now, -6)]
    journal.close()


@pytest.mark.usefixtures("loose_umask")
def test_an_old_journal_readable_by_others_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "j.flood"
    path.write_text("")
    os.chmod(path, 0o644)
    journal = FloodJournal(path)
    journal.open(HORIZON)
    journal.close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_the_file_stays_small_however_long_the_bot_runs(tmp_path: Path) -> None:
    path = tmp_path / "j.flood"
    clock = WallClock()
    journal = FloodJournal(path, clock=clock, compact_lines=100)
    journal.open(10.0)
    for n in range(5000):
        clock.now += 0.5  # 20 calls inside the 10 s horizon at any time
        journal.record(-(n % 3) - 1)
        assert len(path.read_bytes().splitlines()) <= 101
    journal.close()
    again = FloodJournal(path, clock=clock)
    recent = again.open(10.0)
    again.close()
    assert len(recent) == 20 and recent[-1] == (clock.now, -(4999 % 3) - 1)


def test_a_journal_that_cannot_be_written_is_dropped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    journal = FloodJournal(tmp_path / "j.flood")
    journal.open(HORIZON)
    assert journal._fd is not None
    os.close(journal._fd)
    journal._fd = 1 << 20  # a descriptor that fails every write, as a vanished disk would
    with caplog.at_level(logging.WARNING, logger="storage.flood"):
        journal.record(-1)
        journal.record(-1)
    assert not journal.is_open
    assert len([r for r in caplog.records if "going on without it" in r.message]) == 1
    journal.close()
