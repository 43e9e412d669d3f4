"""The families of games the bot hosts, and every preset by name.

Adding a family means adding its package and one line here; adding a variant touches only
its family's package (its ``presets``). Each user of a family gets its own side of it, by
variant: the tables its ``rules_of``, the computer layer its ``players_of``, the views and
handlers its ``reader_of`` — typed over any family's states, actions, events and views
(``Any``: which family plays a variant is known only when the game is running)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from kozelbot.core.callbacks import ActButton, HandButton
from kozelbot.core.options import Preset
from kozelbot.core.protocol import AnyState, Family, Players, Reader, Rules
from kozelbot.families.cover import FAMILY as COVER
from kozelbot.families.follow import FAMILY as FOLLOW

AnyFamily: TypeAlias = Family[Any, Any, Any, Any]
"""A family, whichever: its types are its own business."""

FAMILIES: tuple[AnyFamily, ...] = (FOLLOW, COVER)
DEFAULT_PRESET = "hvalenyi"

PRESETS: dict[str, Preset] = {
    name: chosen for family in FAMILIES for name, chosen in family.rules.presets.items()
}
_FAMILY_OF: dict[str, AnyFamily] = {
    name: family for family in FAMILIES for name in family.rules.presets
}


TABLE_PRESETS: dict[str, Preset] = {
    name: chosen
    for family in FAMILIES
    if family.reader is not None
    for name, chosen in family.rules.presets.items()
}
"""The presets a group can play at a table (lobbies offer these; ``simulate`` plays all)."""


def hand_buttons() -> tuple[type[HandButton], ...]:
    """Every kind of hand button: the core's ``ActButton`` and the ones the families declare."""
    return (
        ActButton,
        *(
            kind
            for family in FAMILIES
            if family.reader is not None
            for kind in family.reader.hand_buttons
        ),
    )


def preset(variant: str) -> Preset:
    """The preset called ``variant`` (``KeyError`` if unknown)."""
    return PRESETS[variant]


def family_of(variant: str) -> AnyFamily:
    """The family that plays ``variant`` (``KeyError`` if none does). A preset a family
    adds later (a test's own, say) is found too: the family's presets are asked."""
    found = _FAMILY_OF.get(variant)
    if found is not None:
        return found
    for family in FAMILIES:
        if variant in family.rules.presets:
            return family
    raise KeyError(variant)


def rules_of(variant: str) -> Rules[Any, Any, Any]:
    """What the tables need of the family that plays ``variant``."""
    return family_of(variant).rules


def players_of(variant: str) -> Players[Any, Any]:
    """The computer players of the family that plays ``variant``."""
    return family_of(variant).players


def reader_of(variant: str) -> Reader[Any, Any, Any]:
    """What a reader sees of a variant playable at a table (``KeyError`` otherwise)."""
    reader = family_of(variant).reader
    if reader is None:
        raise KeyError(variant)
    return reader


def new_state(variant: str, options: Mapping[str, Any]) -> AnyState:
    """A fresh match of ``variant`` with these (validated) options."""
    state: AnyState = rules_of(variant).new_state(variant, options)
    return state


def load_state(data: Mapping[str, Any]) -> AnyState:
    """A saved state, by the variant it names."""
    state: AnyState = rules_of(str(data["variant"])).load(data)
    return state


def seats_of(variant: str, options: Mapping[str, Any]) -> int:
    """How many seats a table of ``variant`` with these options has."""
    return int(options.get("players", 4))
