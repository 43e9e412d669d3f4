"""Family F of RULES.md §1: the follow-suit Kozel games (hvalenyi, kryuk, sixes, belka).

Everything specific to the family lives in this package — engine parameters (``rules``) and
presets (``presets``); the state machine (``state``) with its vocabulary (``vocabulary``),
records (``records``), dealing (``dealing``, ``opening``), one module per step (``call``,
``blind``, ``redeal``, ``handoff``, ``play``; ``step`` says what a step is, ``flow`` orders
them), tricks (``tricks``), scoring (``scoring``), views (``view``) and saved layouts
(``formats``); the computer players (``players``: the simple ``ai``, the searching
``strong`` and its representation ``search``), texts and keyboards (``render``), stats
(``stats``) and traces (``trace``). The rest of the bot reaches it only through ``FAMILY``
(``kozelbot.core.protocol.Family``): its rules, players and reader over the family's own
types, each member one of the modules' functions, named below.
"""

from __future__ import annotations

from kozelbot.core.protocol import Family
from kozelbot.families.follow import dealing, play, players, render, state, stats, vocabulary
from kozelbot.families.follow.buttons import PlayButton, RedealButton
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.render import advice
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.view import View
from kozelbot.families.follow.vocabulary import Action, Event


class _Rules:
    """What the tables need (``Rules``)."""

    presets = PRESETS
    new_state = staticmethod(state.new_state)
    load = staticmethod(MatchState.load)
    parse_action = staticmethod(vocabulary.parse_action)
    move_time = staticmethod(state.move_time)
    after_refusal = staticmethod(play.after_refusal)
    deal_from_seed = staticmethod(dealing.deal_from_seed)
    tally_keys = stats.TALLY_KEYS
    tallies = staticmethod(stats.tallies)


class _Reader:
    """What players see (``Reader``): one card a press, so nothing is multi-selected."""

    hand_buttons = (PlayButton, RedealButton)
    multi_select = False
    table_text = staticmethod(render.table_text)
    final_table_text = staticmethod(render.final_table_text)
    result_text = staticmethod(render.result_text)
    match_over_text = staticmethod(render.match_over_text)
    hand_text = staticmethod(render.hand_text)
    hand_keyboard = staticmethod(render.hand_keyboard)
    from_selection = staticmethod(render.from_selection)
    error_text = staticmethod(render.game_error_text)
    done_text = staticmethod(render.done_text)
    prompt_text = staticmethod(render.prompt_text)
    deal_over_text = staticmethod(render.deal_over_text)
    deal_name = staticmethod(render.deal_name)
    rules_text = staticmethod(render.rules_text)
    title = staticmethod(render.variant_title)
    option_labels = staticmethod(render.option_labels)
    move_label = staticmethod(advice.move_label)
    reason_text = staticmethod(advice.reason_text)
    expected_text = staticmethod(advice.expected_text)
    outcome_label = staticmethod(stats.outcome_label)
    tally_parts = staticmethod(stats.tally_parts)


FAMILY: Family[MatchState, Action, Event, View] = Family("follow", _Rules(), players, _Reader())
