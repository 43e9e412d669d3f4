"""The families of games the bot hosts, and every preset by name.

Adding a family means adding its package and one line here; adding a variant touches only
its family's package (its ``presets``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kozelbot.core.callbacks import ActButton, HandButton
from kozelbot.core.options import Preset
from kozelbot.core.protocol import Family, FamilyTexts, GameState
from kozelbot.families.cover import FAMILY as COVER
from kozelbot.families.follow import FAMILY as FOLLOW

FAMILIES: tuple[Family, ...] = (FOLLOW, COVER)
DEFAULT_PRESET = "hvalenyi"

PRESETS: dict[str, Preset] = {
    name: chosen for family in FAMILIES for name, chosen in family.presets.items()
}
_FAMILY_OF: dict[str, Family] = {name: family for family in FAMILIES for name in family.presets}


TABLE_PRESETS: dict[str, Preset] = {
    name: chosen
    for family in FAMILIES
    if family.texts is not None
    for name, chosen in family.presets.items()
}
"""The presets a group can play at a table (lobbies offer these; ``simulate`` plays all)."""


def hand_buttons() -> tuple[type[HandButton], ...]:
    """Every kind of hand button: the core's ``ActButton`` and the ones the families declare."""
    return (ActButton, *(kind for family in FAMILIES for kind in family.hand_buttons))


def texts_of(variant: str) -> FamilyTexts:
    """The texts of a variant playable at a table (``KeyError`` otherwise)."""
    texts = _FAMILY_OF[variant].texts
    if texts is None:
        raise KeyError(variant)
    return texts


def preset(variant: str) -> Preset:
    """The preset called ``variant`` (``KeyError`` if unknown)."""
    return PRESETS[variant]


def family_of(variant: str) -> Family:
    """The family that plays ``variant`` (``KeyError`` if none does). A preset a family
    adds later (a test's own, say) is found too: the family's presets are asked."""
    found = _FAMILY_OF.get(variant)
    if found is not None:
        return found
    for family in FAMILIES:
        if variant in family.presets:
            return family
    raise KeyError(variant)


def new_state(variant: str, options: Mapping[str, Any]) -> GameState:
    """A fresh match of ``variant`` with these (validated) options."""
    return family_of(variant).new_state(variant, options)


def load_state(data: Mapping[str, Any]) -> GameState:
    """A saved state, by the variant it names."""
    return family_of(str(data["variant"])).load(data)


def seats_of(variant: str, options: Mapping[str, Any]) -> int:
    """How many seats a table of ``variant`` with these options has."""
    return int(options.get("players", 4))
