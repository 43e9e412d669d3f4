"""The game protocol every family of Kozel speaks (OpenSpiel's shape, pokerkit's typed moves).

A *family* (``kozelbot.families.follow``: the follow-suit games of RULES.md §1; ``cover``: the
cover games of §2) owns its presets, rules, state, views, texts and computer players.
Everything outside a family's package — the service, the presenters, the move log,
``simulate``, the benchmarks — sees only what this module names, each user its own side:

- ``GameState[A, E, V]``: a match over the family's actions ``A``, events ``E`` and views
  ``V`` — ``to_act`` / ``legal_actions`` / ``verify`` / ``apply`` → frozen events, the
  chance step (``needs_chance`` / ``seed_context()`` / ``chance(shuffle)``), ``seeds`` (the
  shown deal's shuffle seeds), ``view_for(seat)``, ``dump()`` (JSON). ``AnyState`` is a match
  of a family not known where it is handled.
- ``Rules`` (the tables): presets, new and stored states, the move log's notation, the clock,
  refusals, the deal of a seed text, the players' stats.
- ``Players`` (the computer layer): the simple and the strong level, the time-out move, the
  search playouts.
- ``Reader`` (the views and handlers): texts and keyboards, rendered from states and views.
- ``Family``: the three of one family (``kozelbot.families.registry`` hands each user its own).
- ``advance``: runs chance steps and computer seats until a person must act; ``shuffle_for``
  gives each chance step its ``Shuffle``.

Fair play (``kozelbot.core.fairplay``): in a game with a secret each shuffle deals from a *seed
text*, ``kozel2:<variant>:<context>,n=<n>:<hex>`` (the secret and the players' seed make the
key), whose SHA-256 is shown before the first card and which is revealed with the deal's
result; ``Rules.deal_from_seed`` deals it again for ``kozelbot verify``. Games without a
secret shuffle with ``shuffle_rng(seed, shuffle_no)``.

Results are family-neutral: a deal ends with ``DealScored`` and a match with ``MatchOver``,
both per *side*: pairs 0+2 / 1+3, or one side per seat when each plays for self (the cover
family's ``self`` mode has up to four).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

from kozelbot.core.callbacks import HandButton
from kozelbot.core.decisions import Decision
from kozelbot.core.fairplay import shuffle_seed

if TYPE_CHECKING:
    from kozelbot.core.cards import Card
    from kozelbot.core.i18n import Translator
    from kozelbot.core.options import Preset
    from kozelbot.core.table import Table
    from kozelbot.core.texts import Keyboard


class Action(Protocol):
    """A move; ``str(action)`` is its notation in the move log and in button data."""

    def __str__(self) -> str: ...


class Event(Protocol):
    """Something that happened (frozen dataclasses, family-specific except the two below)."""


class InTrick:
    """Marks a family's event of a move made in a trick (a card played, a cover move): the
    🔍 analysis names a play by its trick (``kozelbot.computer.analysis``), and a move before the
    deal's first trick (a redeal answer, a hand-off) by that."""

    __slots__ = ()


class TrickEnd:
    """Marks a family's event that closes a trick (taken by someone)."""

    __slots__ = ()


class GameError(Exception):
    """An action the rules refuse; nothing was changed. ``code`` names the reason."""

    code = "game_error"


@dataclass(frozen=True, slots=True)
class DealScored:
    """A deal was scored; ``points``, ``tricks_won``, ``award`` and ``score`` are per side.

    ``outcome`` is the family's word for how the deal ended (``normal``, ``eggs``, ``catch``,
    ``lyusya``, ``allTricks``, ``refusedRedeal``, ``royal`` …); ``carry`` is what eggs carried
    into this deal; ``title`` names the losers at the end of a ``sixes`` match."""

    deal_no: int
    outcome: str
    points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    award: tuple[int, ...]
    multiplier: int
    score: tuple[int, ...]
    side: int | None
    """The side the deal went to (``None`` for eggs)."""
    zeroed: int | None = None
    """The side whose score was wiped (Lyusya ``zero``, kryuk all-tricks, sixes Lyusya)."""
    carry: int = 0
    title: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    """Family-specific facts for texts (e.g. the catch award's deal, the demanded redeals)."""
    seeds: tuple[str, ...] = ()
    """The seed texts of the deal's shuffles, revealed with its result (``GameState.seeds``;
    empty in games without fair play)."""


@dataclass(frozen=True, slots=True)
class MatchOver:
    """A side won the match; ``title`` names the losers where the preset does (sixes)."""

    winner: int
    score: tuple[int, ...]
    title: str | None = None


A = TypeVar("A", bound=Action)
"""A family's actions (its ``Action`` union)."""
E = TypeVar("E")
"""A family's events (its ``Event`` union, ``DealScored`` and ``MatchOver`` among them)."""
V_co = TypeVar("V_co", covariant=True)
"""What one seat of a family's game may see (its ``View``)."""


class GameState(Protocol[A, E, V_co]):
    """One match in progress of a family whose actions are ``A``, events ``E`` and views
    ``V_co``; a family's own state class is one (``GameState[Action, Event, View]``)."""

    variant: str
    options: dict[str, Any]
    winner: int | None
    shuffles: int
    """Shuffles so far: the next chance step is shuffle number ``shuffles``."""
    seeds: list[str]
    """The seed texts of the shown deal's shuffles, oldest first: the last dealt the cards in
    play, earlier ones were redealt. Empty in games without fair play. Secret until the deal
    is scored: only their commitments (``kozelbot.core.fairplay``) may be shown before."""
    last_result: DealScored | None

    @property
    def over(self) -> bool: ...
    @property
    def players(self) -> int: ...
    @property
    def deal_shown(self) -> int | None:
        """The deal the table shows (in play, or just scored); ``None`` before the first."""

    @property
    def needs_chance(self) -> bool: ...
    @property
    def deals_scored(self) -> int: ...
    @property
    def hidden_turn(self) -> bool:
        """Whether the step now awaited is secret (a redeal offer, a hidden hand-off: who is
        asked depends on cards nobody else may see). Its public view names nobody, its
        refusals are neutral, and a time-out in it is not marked against the seat (a mark on
        the table would name it)."""

    def accepts(self, deal_no: int) -> bool:
        """Whether moves for ``deal_no`` are taken now (else a button is stale)."""

    def side_of(self, seat: int) -> int: ...
    def leader(self) -> int | None:
        """The side ahead on the match score now (``None``: level): a match a tournament's
        clock ends early is decided by it (issue #19)."""

    def seed_context(self) -> str:
        """What the next chance step needs to deal, as the ``<context>`` of its seed text:
        comma-separated ``key=value`` words (no ``:``) that ``Rules.deal_from_seed`` reads."""

    def chance(self, shuffle: Shuffle | random.Random) -> list[E]:
        """Shuffle and deal; a bare RNG is a shuffle without a seed text (tests, old games)."""

    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> list[A]: ...
    def verify(self, seat: int, action: A) -> None:
        """Raise the ``GameError`` that says why ``action`` is illegal; pass if it is legal."""

    def apply(self, seat: int, action: A) -> list[E]:
        """Make a move (verified first) and return what happened."""

    def view_for(self, seat: int | None) -> V_co:
        """All ``seat`` may know (``None``: what everyone may know)."""

    def dump(self) -> dict[str, Any]: ...
    def deal_trace(self, result: DealScored, *, match: int, players: list[str]) -> dict[str, Any]:
        """The trace of the deal just scored (before the next chance step)."""


AnyState: TypeAlias = GameState[Any, Any, Any]
"""A match of a family not known where it is handled (the service, the presenters, the move
log): what its actions, events and views are is the family's business."""

S = TypeVar("S", bound=AnyState)
"""A family's state class."""
V = TypeVar("V")
"""A family's views, where they are neither only given nor only taken (``Family``)."""
S_contra = TypeVar("S_contra", bound=AnyState, contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
"""(The ``_contra`` ones: the same, where a protocol only takes them.)"""


class Rules(Protocol[S, A, E_contra]):
    """What the tables need of a family (states ``S``, actions ``A``, events ``E_contra``):
    its presets, new and stored matches, the move log's notation, the clock, fair play's deal
    check and the players' stats."""

    @property
    def presets(self) -> Mapping[str, Preset]: ...
    def new_state(self, variant: str, options: Mapping[str, Any]) -> S:
        """A fresh match of one of ``presets`` with these (validated) options."""

    def load(self, data: Mapping[str, Any]) -> S:
        """A stored match (``GameState.dump``), by the variant it names."""

    def parse_action(self, text: str) -> A:
        """A move from its notation (``str(action)``); ``ValueError`` if it is none."""

    def move_time(self, state: S, options: Mapping[str, Any]) -> int:
        """Seconds for the move now awaited (0: no timer)."""

    def after_refusal(self, state: S, seat: int, action: A) -> A | None:
        """The move to make instead of a refused one (``kryuk``: the only legal card), or
        ``None`` to refuse it."""

    def deal_from_seed(self, seed: str) -> list[tuple[str, list[Card]]]:
        """The cards a seed text of this family deals, as its chance step deals them:
        labelled piles (``seat 0``…, then ``talon`` or ``stock``). ``ValueError`` if the
        text is not one of this family's."""

    @property
    def tally_keys(self) -> tuple[str, ...]:
        """The names of what the family counts in players' stats, in the order /stats shows
        them (beyond ``kozelbot.core.table.CORE_TALLIES``; a new name needs no migration)."""

    def tallies(self, event: E_contra, state: S) -> tuple[tuple[int, str], ...]:
        """What an event counts in players' match stats by the family's own names
        (``tally_keys``), as (seat, name) pairs: a deal won by a catch, an egg deal, a
        hand-off made … (the core counts deals played, card points and time-outs)."""


class Players(Protocol[S_contra, A]):
    """What the computer layer needs of a family: its players, which see only a seat's view."""

    def choose(self, state: S_contra, seat: int) -> A:
        """The computer's action for ``seat`` (it sees only ``view_for(seat)``)."""

    def searches(self, state: S_contra, seat: int) -> bool:
        """Whether ``decide`` searches for ``seat`` at this step (it has a choice to make in
        a step the strong level searches); if not, it answers at once."""

    def decide(
        self,
        state: S_contra,
        seat: int,
        rng: random.Random,
        budget_ms: float,
        keep: A | None = None,
    ) -> Decision:
        """The strong level's move for ``seat`` with what every legal move is worth and why
        (issue #17): a search over the cards ``seat`` cannot see, from what it may see
        alone, within ``budget_ms`` milliseconds. ``keep``, a legal move, is valued however
        far behind it falls (the analysis compares the move made with the best)."""

    def on_timeout(self, state: S_contra, seat: int, rng: random.Random) -> A:
        """The move made for a person whose time ran out (RULES.md §3)."""

    def search_playout(
        self, variant: str, options: Mapping[str, Any]
    ) -> Callable[[random.Random], int]:
        """A function playing one random deal (a cover game) of the preset through the
        family's search representation at each call, returning the moves made: the
        figure ``benchmarks/playout.py`` sets beside the protocol's playout."""


class Reader(Protocol[S_contra, A, V_contra]):
    """What players see of a family's games: texts and keyboards, rendered from states and
    views (``kozelbot.views``, the handlers)."""

    @property
    def hand_buttons(self) -> tuple[type[HandButton], ...]:
        """The family's own kinds of hand button (``kozelbot.core.callbacks.HandButton``; any
        other move travels as ``ActButton``). A press of another family's button at one of
        its tables is not valid."""

    @property
    def multi_select(self) -> bool:
        """Whether hands select several cards before a verb acts on them (the cover game)."""

    def table_text(self, table: Table, state: S_contra, t: Translator) -> str: ...
    def final_table_text(self, table: Table, result: DealScored, t: Translator) -> str: ...
    def result_text(self, table: Table, result: DealScored, t: Translator) -> str: ...
    def match_over_text(self, table: Table, over: MatchOver, t: Translator) -> str: ...
    def hand_text(self, table: Table, state: S_contra, seat: int, t: Translator) -> str: ...
    def hand_keyboard(
        self,
        table: Table,
        state: S_contra,
        seat: int,
        t: Translator,
        selected: frozenset[Card] = frozenset(),
    ) -> Keyboard:
        """The hand's buttons; ``selected`` are the cards the person has selected (families
        whose moves take several cards at once show and use it)."""

    def from_selection(self, verb: str, selected: frozenset[Card]) -> A:
        """The move a verb button makes of the selected cards (``ValueError`` if the family
        has no such verb)."""

    def error_text(self, error: GameError, table: Table, t: Translator) -> str: ...
    def done_text(self, action: A, t: Translator) -> str: ...
    def move_label(self, action: A, t: Translator) -> str:
        """A move in a few words (the strong level's advice names moves so)."""

    def prompt_text(self, view: V_contra, legal: list[A], t: Translator) -> str | None:
        """What the seat of ``view``, to act with the ``legal`` moves, is asked to do, in the
        hand message's words; ``None`` where "your turn" says enough."""

    def reason_text(self, reason: str, fields: Mapping[str, Any], t: Translator) -> str:
        """Why the strong level makes its move (``Decision.reason`` and ``fields``)."""

    def expected_text(self, variant: str, count: int, t: Translator) -> str:
        """What the better move gains, a whole number of the variant's unit with its sign
        (``+2 глаза``; the cover game: ``−1 штрафное очко``): advice rounds an expected
        award to it, or says a smaller one in words (``kozelbot.views.advice``)."""

    def outcome_label(self, outcome: str, t: Translator) -> str | None:
        """How a deal ended (``DealScored.outcome``), in words; ``None`` for a plain deal."""

    def tally_parts(self, tallies: Mapping[str, int], t: Translator) -> list[str]:
        """The family's counts of a person's /stats (``Rules.tally_keys``), each a short
        ``name N`` part, in order."""

    def deal_over_text(self, deal_no: int, t: Translator) -> str:
        """What an old hand message says once its deal is over (``Сдача 3 закончена.``, the
        cover game: ``Игра 3 …``)."""

    def deal_name(self, deal_no: int, t: Translator) -> str:
        """A deal by its number in the family's own word (``Сдача 3``; the cover game:
        ``Игра 3``), as the 🔍 analysis heads it."""

    def rules_text(self, variant: str, t: Translator) -> str: ...
    def title(self, variant: str, t: Translator) -> str: ...
    def option_labels(
        self, variant: str, options: Mapping[str, Any], t: Translator
    ) -> dict[str, str]: ...


@dataclass(frozen=True, slots=True)
class Family(Generic[S, A, E, V]):
    """A family of games as the rest of the bot meets it: one object for each who uses it
    (``kozelbot.families.registry`` hands each its own), all over the family's own types."""

    name: str
    rules: Rules[S, A, E]
    players: Players[S, A]
    reader: Reader[S, A, V] | None
    """How the family is shown at a Telegram table, or ``None`` while it can only be
    simulated (it is then not offered in lobbies)."""


class SeedSource(Protocol):
    """What a match's shuffles derive from (a ``Table`` is one): ``secret`` when set (fair
    play), else ``seed`` (games begun before fair play)."""

    @property
    def seed(self) -> int: ...
    @property
    def secret(self) -> str: ...
    @property
    def client_seed(self) -> str:
        """The players' seed every shuffle mixes in (empty in games begun before it)."""


@dataclass(frozen=True, slots=True)
class Shuffle:
    """One shuffle's randomness: the RNG the chance step deals with and, in a fair-play game,
    the seed text the RNG is made from (``random.Random(seed)``)."""

    rng: random.Random
    seed: str | None = None


def shuffle_rng(seed: int, shuffle_no: int) -> random.Random:
    """The RNG of one shuffle of a match without fair play: its seed and the shuffle number
    reproduce it (but one shuffle's RNG tells another's: they share the seed)."""
    return random.Random(seed * 1_000_003 + shuffle_no)


def shuffle_for(source: int | SeedSource, state: AnyState) -> Shuffle:
    """The next chance step's shuffle: from the secret's seed text for this shuffle number
    and context, or (an ``int`` seed, or an empty secret) from ``shuffle_rng``."""
    if isinstance(source, int):
        return Shuffle(shuffle_rng(source, state.shuffles))
    if not source.secret:
        return Shuffle(shuffle_rng(source.seed, state.shuffles))
    context = f"{state.variant}:{state.seed_context()}"
    text = shuffle_seed(source.secret, state.shuffles, context, source.client_seed)
    return Shuffle(random.Random(text), text)


def advance(
    state: S,
    seeds: int | SeedSource,
    is_computer: Callable[[int], bool],
    choose: Callable[[S, int], A],
    *,
    on_move: Callable[[int, A, list[E]], None] | None = None,
    on_events: Callable[[list[E]], None] | None = None,
    before_chance: Callable[[], None] | None = None,
    limit: int = 100_000,
) -> None:
    """Run chance steps and computer seats until a person must act or the match is over.

    ``seeds`` is the table (fair play when it has a secret) or a bare match seed (``simulate``,
    tests). ``on_move(seat, action, events)`` sees every computer move, ``on_events`` every
    chance step's events; ``before_chance`` runs before each chance step, between deals
    (who sits where may change there: ``is_computer`` is asked afresh)."""
    for _ in range(limit):
        if state.over:
            return
        if state.needs_chance:
            if before_chance is not None:
                before_chance()
            events = state.chance(shuffle_for(seeds, state))
            if on_events is not None:
                on_events(events)
            continue
        bots = [seat for seat in state.to_act() if is_computer(seat)]
        if not bots:
            return
        action = choose(state, bots[0])
        events = state.apply(bots[0], action)
        if on_move is not None:
            on_move(bots[0], action, events)
    raise RuntimeError("the game did not come to a person or an end")
