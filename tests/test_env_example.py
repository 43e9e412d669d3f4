"""``.env.example`` lists every setting the bot reads (the guide's definition of done), each
with a line that says what it is for."""

from __future__ import annotations

from pathlib import Path

from kozelbot.config import Settings

ROOT = Path(__file__).resolve().parent.parent


def test_every_setting_is_listed_with_a_comment_above_it() -> None:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    missing, bare = [], []
    for name in Settings.model_fields:
        key = f"KOZEL_{name.upper()}="
        at = [i for i, line in enumerate(lines) if line.lstrip("# ").startswith(key)]
        if not at:
            missing.append(key)
        elif not _commented(lines, at[0]):
            bare.append(key)
    assert missing == []
    assert bare == []


def _commented(lines: list[str], at: int) -> bool:
    """A comment stands above the line, in its block (settings of one group share one)."""
    for line in reversed(lines[:at]):
        if not line.strip():
            return False
        if line.startswith("#") and not line.lstrip("# ").startswith("KOZEL_"):
            return True
    return False
