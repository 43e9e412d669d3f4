"""The files an operator installs: every systemd unit under ``deploy/systemd`` passes
``systemd-analyze verify`` (Debian's systemd; ``.ci/run`` installs it), run on a copy whose
``ExecStart`` names this checkout's own ``kozelbot`` (verify checks the program exists)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
INSTALLED = "/opt/kozelbot/.venv/bin/"


def verify(unit: Path, tmp_path: Path, edit: tuple[str, str] | None = None) -> str:
    """What ``systemd-analyze verify`` says of ``unit`` (empty: nothing wrong)."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: apt-get install systemd (.ci/run does)"
    text = unit.read_text(encoding="utf-8").replace(INSTALLED, f"{Path(sys.executable).parent}/")
    if edit is not None:
        assert edit[0] in text
        text = text.replace(*edit)
    copy = tmp_path / unit.name.replace("@.", "@1.")  # a template: verify an instance
    copy.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60, check=False
    )
    return (done.stdout + done.stderr).strip() + ("" if done.returncode == 0 else " (failed)")


def test_there_is_a_unit_for_the_bot_and_for_its_intake_and_workers() -> None:
    assert [u.name for u in UNITS] == [
        "kozelbot-intake.service",
        "kozelbot-worker@.service",
        "kozelbot.service",
    ]


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_every_unit_passes_systemd_analyze_verify(unit: Path, tmp_path: Path) -> None:
    assert INSTALLED + "kozelbot" in unit.read_text(encoding="utf-8")
    assert verify(unit, tmp_path) == ""


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_the_check_catches_a_mistyped_key(unit: Path, tmp_path: Path) -> None:
    said = verify(unit, tmp_path, ("Restart=on-failure", "Restrat=on-failure"))
    assert "Unknown key" in said


def test_the_intake_and_the_workers_run_their_commands() -> None:
    intake, worker = UNITS[0].read_text(), UNITS[1].read_text()
    assert f"ExecStart={INSTALLED}kozelbot intake" in intake
    assert f"ExecStart={INSTALLED}kozelbot worker" in worker
    assert "KOZEL_WORKER_NAME=%H-%i" in worker
