"""Family C of RULES.md §2: the cover games («Козёл с прикупом», seeds 003 and 000); the rest
of the bot reaches it through ``FAMILY`` (``kozelbot.core.protocol.Family``): its rules,
players and reader over the family's own types, each member one of the modules' functions,
named below.

The package, one job a module:
- ``presets``: table options and the rules value (``CoverRules``) they make;
- ``vocabulary``: phases, actions and their notation, events, errors;
- ``strength``: which card covers which; ``board``: the game's data (hands, talon, round);
- ``dealing``: the shuffle, the deal, the talon, the first leader, seed texts dealt again;
- the steps, each ``to_act`` / ``legal`` / ``verify`` / ``apply`` for its phase: ``lead``,
  ``answer``, ``rebeat``, ``level`` (``step``: what they share; ``claim``: the claim they
  take; ``hands``: the hand rule; ``turns``: who answers next and the end of a round;
  ``draw``: the automatic draw after a trick);
- ``scoring``: loser points, eggs, four of a kind, who is out, the match winner;
- ``view``: what one seat may know; ``trace``: the game's trace; ``stats``: what it counts;
- ``state``: the match's fields, the phase table, the chance step, dump and load;
- ``players``: the computer players (the simple ``ai``, the searching ``strong``);
  ``render``: texts and multi-select keyboards, from views;
- ``search``: the game in play as bits with make/unmake, for a searching computer player.
"""

from __future__ import annotations

from kozelbot.core.protocol import Family
from kozelbot.families.cover import dealing, players, render, state, stats, vocabulary
from kozelbot.families.cover.buttons import ChosenButton, SelectButton
from kozelbot.families.cover.presets import PRESETS
from kozelbot.families.cover.render import advice
from kozelbot.families.cover.state import CoverState
from kozelbot.families.cover.view import View
from kozelbot.families.cover.vocabulary import Action, Event


class _Rules:
    """What the tables need (``Rules``)."""

    presets = PRESETS
    new_state = staticmethod(state.new_state)
    load = staticmethod(state.load_state)
    parse_action = staticmethod(vocabulary.parse_action)
    move_time = staticmethod(state.move_time)
    after_refusal = staticmethod(state.after_refusal)
    deal_from_seed = staticmethod(dealing.deal_from_seed)
    tally_keys = stats.TALLY_KEYS
    tallies = staticmethod(stats.tallies)


class _Reader:
    """What players see (``Reader``): hands select several cards, then a verb acts."""

    hand_buttons = (SelectButton, ChosenButton)
    multi_select = True
    table_text = staticmethod(render.table_text)
    final_table_text = staticmethod(render.final_table_text)
    result_text = staticmethod(render.result_text)
    match_over_text = staticmethod(render.match_over_text)
    hand_text = staticmethod(render.hand_text)
    hand_keyboard = staticmethod(render.hand_keyboard)
    from_selection = staticmethod(render.from_selection)
    error_text = staticmethod(render.error_text)
    done_text = staticmethod(render.done_text)
    prompt_text = staticmethod(render.prompt_text)
    deal_over_text = staticmethod(render.deal_over_text)
    deal_name = staticmethod(render.deal_name)
    rules_text = staticmethod(render.variant_rules_text)
    title = staticmethod(render.variant_title)
    option_labels = staticmethod(render.variant_option_labels)
    move_label = staticmethod(advice.move_label)
    reason_text = staticmethod(advice.reason_text)
    expected_text = staticmethod(advice.expected_text)
    outcome_label = staticmethod(stats.outcome_label)
    tally_parts = staticmethod(stats.tally_parts)


FAMILY: Family[CoverState, Action, Event, View] = Family("cover", _Rules(), players, _Reader())
