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
    copy = tmp_path / unit.name
    copy.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60, check=False
    )
    return (done.stdout + done.stderr).strip() + ("" if done.returncode == 0 else " (failed)")


def test_there_is_a_unit_for_the_bot() -> None:
    assert [u.name for u in UNITS] == ["kozelbot.service"]


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_every_unit_passes_systemd_analyze_verify(unit: Path, tmp_path: Path) -> None:
    assert INSTALLED + "kozelbot" in unit.read_text(encoding="utf-8")
    assert verify(unit, tmp_path) == ""


def test_the_check_catches_a_mistyped_key(tmp_path: Path) -> None:
    said = verify(UNITS[0], tmp_path, ("Restart=on-failure", "Restrat=on-failure"))
    assert "Unknown key" in said
