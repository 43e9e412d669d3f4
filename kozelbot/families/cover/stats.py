"""What the cover games count in players' /stats and how their games ended, in words: the
family's own tally (``eggs``: egg games, 60 : 60)."""

from __future__ import annotations

from collections.abc import Mapping

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.vocabulary import Event, Outcome

TALLY_KEYS = ("eggs",)
"""The family's counts, in the order /stats shows them."""


def tallies(event: Event, state: CoverState) -> tuple[tuple[int, str], ...]:
    """(seat, name) pairs an event counts: an egg game for every seat."""
    if isinstance(event, DealScored) and event.outcome == Outcome.EGGS:
        return tuple((seat, "eggs") for seat in range(state.players))
    return ()


def outcome_label(outcome: str, t: Translator) -> str | None:
    """How a game ended, in words; ``None`` for a plain one."""
    labels = {Outcome.EGGS: t("eggs"), Outcome.ACES: t("four aces"), Outcome.SIXES: t("four sixes")}
    return None if outcome == Outcome.NORMAL else labels.get(outcome, outcome)  # type: ignore[call-overload]


def tally_parts(counts: Mapping[str, int], t: Translator) -> list[str]:
    """``eggs 3``."""
    return [t("eggs {n}", n=counts.get("eggs", 0))]
