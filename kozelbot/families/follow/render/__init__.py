"""What players of the follow-suit family see: one module per text, named here.

The table (``table``), the hand and its buttons (``hand``, ``keyboards``), results
(``results``), answers to presses (``answers``), the variant described (``variant``);
``common`` holds what they share.

Hands and tables are rendered only from ``view_for(seat)`` (or the public ``view_for(None)``),
never from the full state, so no text can leak a card its reader may not see. This package
names the functions the family's ``Reader`` is made of (``kozelbot.families.follow``).
"""

from __future__ import annotations

from kozelbot.families.follow.render.answers import done_text, game_error_text
from kozelbot.families.follow.render.common import sort_hand, units, variant_title, waiting_line
from kozelbot.families.follow.render.hand import deal_name, deal_over_text, hand_text, prompt_text
from kozelbot.families.follow.render.keyboards import from_selection, hand_keyboard
from kozelbot.families.follow.render.results import match_over_text, result_text
from kozelbot.families.follow.render.table import final_table_text, table_text
from kozelbot.families.follow.render.variant import option_label, option_labels, rules_text

__all__ = [
    "deal_name",
    "deal_over_text",
    "done_text",
    "final_table_text",
    "from_selection",
    "game_error_text",
    "hand_keyboard",
    "hand_text",
    "match_over_text",
    "option_label",
    "option_labels",
    "prompt_text",
    "result_text",
    "rules_text",
    "sort_hand",
    "table_text",
    "units",
    "variant_title",
    "waiting_line",
]
