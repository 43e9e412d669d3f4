"""What the follow-suit games count in players' /stats and how their deals ended, in words:
the family's own tallies (``catches``: deals the side won by a catch; ``eggs``: egg deals;
``lyusyas``: deals the side took every trick; ``handoffs``: hand-offs the seat made)."""

from __future__ import annotations

from collections.abc import Mapping

from kozelbot.core.i18n import Translator
from kozelbot.core.protocol import DealScored
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import Event, Exchanged, Outcome

TALLY_KEYS = ("catches", "eggs", "lyusyas", "handoffs")
"""The family's counts, in the order /stats shows them."""


def tallies(event: Event, state: MatchState) -> tuple[tuple[int, str], ...]:
    """(seat, name) pairs an event counts: a completed hand-off for the seat that handed its
    trumps over; an egg deal for every seat; a deal won by a catch or a Lyusya for the
    winning side's seats."""
    if isinstance(event, Exchanged):
        return ((event.giver, "handoffs"),)
    if not isinstance(event, DealScored):
        return ()
    seats = range(state.players)
    if event.outcome == Outcome.EGGS:
        return tuple((seat, "eggs") for seat in seats)
    won = {Outcome.CATCH: "catches", Outcome.LYUSYA: "lyusyas"}.get(Outcome(event.outcome))
    if won is None or event.side is None:
        return ()
    return tuple((seat, won) for seat in seats if state.side_of(seat) == event.side)


def outcome_label(outcome: str, t: Translator) -> str | None:
    """How a deal ended, in words; ``None`` for a plain deal."""
    labels = {
        Outcome.EGGS: t("eggs"),
        Outcome.CATCH: t("a catch"),
        Outcome.LYUSYA: t("Lyusya"),
        Outcome.ALL_TRICKS: t("all the tricks"),
        Outcome.REFUSED_REDEAL: t("redeal refused"),
        Outcome.ROYAL: t("royal kozel"),
    }
    return None if outcome == Outcome.NORMAL else labels.get(outcome, outcome)  # type: ignore[call-overload]


def tally_parts(counts: Mapping[str, int], t: Translator) -> list[str]:
    """``catches 2``, ``eggs 3``, ``Lyusyas 1``, ``hand-offs 4``."""
    return [
        t("catches {n}", n=counts.get("catches", 0)),
        t("eggs {n}", n=counts.get("eggs", 0)),
        t("Lyusyas {n}", n=counts.get("lyusyas", 0)),
        t("hand-offs {n}", n=counts.get("handoffs", 0)),
    ]
