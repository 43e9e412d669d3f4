"""What one check of ``kozelbot doctor`` found: a status, a topic and one line of text.

A check may notice several things (a Mini App name missing *and* its port taken); they are
``Part``\\ s, and ``finding`` joins them into the one line the check prints, with the worst
status (when something is wrong, only what is wrong). The line never holds a secret:
``render`` blanks the token and the database password wherever they might have slipped into
an error text.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class Status(enum.IntEnum):
    """How a check ended, ordered from best to worst (``max`` of several is the worst)."""

    SKIPPED = 0
    """Not checked: it needs something another check found broken."""
    OK = 1
    WARN = 2
    """Works, but the operator should look (exit code stays 0)."""
    FAIL = 3
    """The bot will not run, or not as configured (exit code 1)."""

    @property
    def symbol(self) -> str:
        """The line's first character: plain text, one column wide."""
        return {Status.SKIPPED: "-", Status.OK: "✓", Status.WARN: "!", Status.FAIL: "✗"}[self]


@dataclass(frozen=True, slots=True)
class Part:
    """One thing a check noticed."""

    status: Status
    text: str


@dataclass(frozen=True, slots=True)
class Finding:
    """The result of one check: ``✓ token: @kozel_bot answers at https://api.telegram.org``."""

    status: Status
    topic: str
    text: str

    def line(self) -> str:
        """The line printed for it."""
        return f"{self.status.symbol} {self.topic}: {self.text}"


def finding(topic: str, parts: Sequence[Part]) -> Finding:
    """One check's finding from what it noticed: the worst status, and the texts joined by
    "; " — all of them if all is well, else only what to act on, the worst first (the line
    stays short enough to read)."""
    worst = max(part.status for part in parts)
    if worst > Status.OK:
        parts = sorted((p for p in parts if p.status > Status.OK), key=lambda p: -p.status)
    return Finding(worst, topic, "; ".join(part.text for part in parts))


def exit_code(findings: Iterable[Finding]) -> int:
    """1 if any check failed, else 0 (warnings and skipped checks allowed)."""
    return 1 if any(f.status is Status.FAIL for f in findings) else 0


def render(findings: Iterable[Finding], secrets: Iterable[str | None]) -> list[str]:
    """The lines to print, with every secret (the token, a database password) replaced by
    ``***`` should an error text have carried it."""
    hidden = sorted({s for s in secrets if s}, key=len, reverse=True)
    lines = []
    for found in findings:
        text = found.line()
        for secret in hidden:
            text = text.replace(secret, "***")
        lines.append(text)
    return lines


def amount(size: float) -> str:
    """A number of bytes as people read it (decimal units, as ``df -H``): ``812 KB``,
    ``1.2 GB``."""
    units = ("bytes", "KB", "MB", "GB", "TB")
    at = 0
    while size >= 1000 and at < len(units) - 1:
        size /= 1000
        at += 1
    return f"{size:.0f} {units[at]}" if at < 2 or size >= 100 else f"{size:.1f} {units[at]}"
