"""What players of the cover game see, rendered from views: the family's texts and keyboards,
gathered for the family's ``Reader``. One module a job: ``table`` (the group's table message),
``hand`` (the private hand message), ``keyboard`` (the multi-select keyboard and the moves its
verbs make), ``results`` (a scored game, a finished match), ``replies`` (the answer to a
press), ``rules`` (title, options in words, the rules), ``lines`` (what they share)."""

from __future__ import annotations

from kozelbot.core.texts import fit
from kozelbot.families.cover.render.hand import hand_text, prompt, prompt_text
from kozelbot.families.cover.render.keyboard import SELECTED, from_selection, hand_keyboard
from kozelbot.families.cover.render.lines import FACE_DOWN, and_list
from kozelbot.families.cover.render.replies import done_text, error_text
from kozelbot.families.cover.render.results import (
    deal_name,
    deal_over_text,
    match_over_text,
    result_text,
)
from kozelbot.families.cover.render.rules import (
    option_labels,
    rules_text,
    title,
    variant_option_labels,
    variant_rules_text,
    variant_title,
)
from kozelbot.families.cover.render.table import final_table_text, table_text

__all__ = [
    "FACE_DOWN",
    "SELECTED",
    "and_list",
    "deal_name",
    "deal_over_text",
    "done_text",
    "error_text",
    "final_table_text",
    "fit",
    "from_selection",
    "hand_keyboard",
    "hand_text",
    "match_over_text",
    "option_labels",
    "prompt",
    "prompt_text",
    "result_text",
    "rules_text",
    "table_text",
    "title",
    "variant_option_labels",
    "variant_rules_text",
    "variant_title",
]
