"""Why the strong cover player's move is good, in one line (the 💡 hint): a key of the
family's hint texts and its fields, from the seat's view and the move alone."""

from __future__ import annotations

from typing import Any

from kozelbot.families.cover.view import View
from kozelbot.families.cover.vocabulary import (
    Action,
    Beat,
    Claim,
    Discard,
    Lead,
    Level,
    Otboy,
    Pass,
)


def reason_for(view: View, action: Action) -> tuple[str, dict[str, Any]]:
    """(key, fields): ``cover_lead`` (how many cards), ``cover_beat`` (the points on the
    table it takes), ``cover_shed`` (cards given face down), ``cover_pass``,
    ``cover_otboy``, ``cover_level``, ``cover_claim``."""
    if isinstance(action, Lead):
        return "cover_lead", {"count": len(action.cards)}
    if isinstance(action, Beat):
        on_table = sum(card.points for stack in view.stacks for card in stack)
        return "cover_beat", {"points": on_table + sum(c.points for c in action.cards)}
    if isinstance(action, Discard):
        return "cover_shed", {"count": len(action.cards)}
    if isinstance(action, Level):
        return "cover_level", {"count": len(action.cards)}
    if isinstance(action, Claim):
        return "cover_claim", {"count": action.count}
    if isinstance(action, Otboy):
        return "cover_otboy", {}
    if isinstance(action, Pass):
        return "cover_pass", {}
    return "rule", {}
