"""Dealing a cover game (RULES.md §2): the shuffle, the deal one card at a time, the talon and
its bottom card, the trump, and who leads first — and the same deal again from a fair-play
seed text (``kozelbot.core.fairplay``).

**Decisions** where RULES.md §2 is silent:
- ``opening=seed000``: every game's trump is the suit of the cut card, shown to all and left
  at the bottom of the talon (so no trump change at the last draw); the dealer (rotating
  clockwise among the players in play) leads, unless someone holds four trumps (the first such
  seat clockwise from the dealer).
- ``opening=seed000`` with ``hand=4``: the cut decides the trump (the option is chosen to get
  the cut; "quick is always diamonds" is the default opening's rule).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

from kozelbot.core.cards import DECK_36, Card, Suit
from kozelbot.core.fairplay import SeedError, parse_seed
from kozelbot.core.options import Preset
from kozelbot.core.seats import Seats
from kozelbot.families.cover.board import CoverGame, Round
from kozelbot.families.cover.presets import PRESETS
from kozelbot.families.cover.scoring import four_of_a_kind
from kozelbot.families.cover.strength import RANK_OF
from kozelbot.families.cover.vocabulary import Event, GameDealt, IllegalMove, Phase

if TYPE_CHECKING:
    from kozelbot.families.cover.match import CoverMatch

DECK = DECK_36
"""The cover game's deck, in the order a shuffle starts from."""
DECK_NAMES = sorted(map(str, DECK))


def deal_out(
    deck: list[Card], seats: Seats, hand: int, dealer: int, out: list[int]
) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``deck`` (top first): one card at a time to the seats not ``out``, clockwise
    from the dealer's left, ``hand`` each; the rest is the talon (its last card the bottom)."""
    order = [s for s in seats.clockwise(seats.after(dealer)) if s not in out]
    hands: list[list[Card]] = [[] for _ in range(seats.players)]
    stock = list(deck)
    for _ in range(hand):
        for seat in order:
            hands[seat].append(stock.pop(0))
    return hands, stock


def shuffled(rng: random.Random) -> list[Card]:
    """The deck shuffled with ``rng``, top first."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def deal_from_seed(
    seed: str, presets: Mapping[str, Preset] = PRESETS
) -> list[tuple[str, list[Card]]]:
    """The cards a cover seed text deals (``Rules.deal_from_seed``): the hands by seat (an
    empty one for a seat that is out) and the talon, top first. ``ValueError`` if the text
    is not a seed of one of ``presets`` (the family's)."""
    fields = parse_seed(seed)
    if fields.variant not in presets:
        raise SeedError(f"unknown variant {fields.variant!r}")
    players = fields.number("players", range(2, 5))
    hand = fields.number("hand", range(4, 7, 2))
    dealer = fields.number("dealer", range(players))
    out_word = fields.context.get("out", "")
    out = sorted({int(digit) for digit in out_word}) if out_word.isdigit() else []
    if (out_word and not out) or any(seat >= players for seat in out) or players - len(out) < 2:
        raise SeedError("the seed's out= must name seats, leaving two or more in play")
    hands, talon = deal_out(
        shuffled(random.Random(seed)), Seats(players, pairs=False), hand, dealer, out
    )
    return [*((f"seat {seat}", cards) for seat, cards in enumerate(hands)), ("talon", talon)]


def seed_context(state: CoverMatch) -> str:
    """The game's context in its seed text (``kozelbot.core.fairplay``): ``players``, ``hand``,
    ``dealer`` and, when someone is out, ``out`` (their seats as digits)."""
    words = f"players={state.players},hand={state.rules.hand},dealer={state.dealer}"
    if state.out:
        words += ",out=" + "".join(str(seat) for seat in sorted(state.out))
    return words


def deal_game(state: CoverMatch, deck: list[Card]) -> list[Event]:
    """Deal a game from this deck (top first): one card at a time to the players in play,
    clockwise from the dealer's left; the rest is the talon."""
    if state.phase is not Phase.DEALING:
        raise IllegalMove("not dealing")
    if sorted(map(str, deck)) != DECK_NAMES:
        raise ValueError("the deck must hold the 36 cards")
    rules = state.rules
    state.shuffles += 1
    seats = state.in_play()
    hands, stock = deal_out(deck, rules.seats, rules.hand, state.dealer, state.out)
    trump = state.trump if rules.classic else Suit.DIAMONDS
    bottom_shown = False
    if rules.cut_opening:
        trump = stock[-1].suit  # the cut card, shown and left at the bottom
        bottom_shown = True
    first = _first_leader(state, hands, seats, trump)
    state.current = CoverGame(
        game_no=state.game_no,
        deck=tuple(deck),
        dealt=tuple(tuple(h) for h in hands),
        hands=hands,
        talon=stock,
        trump=trump,
        trump_start=trump,
        first_leader=first,
        round=Round(leader=first, first_leader=first, last_beater=first),
        points=[0] * rules.sides,
        tricks_won=[0] * rules.sides,
        bottom_shown=bottom_shown,
        bottom=stock[-1] if bottom_shown else None,
        dealer=state.dealer,
    )
    state.phase = Phase.LEAD
    events: list[Event] = [GameDealt(state.game_no, first, trump)]
    events += four_of_a_kind(state)
    return events


def _first_leader(state: CoverMatch, hands: list[list[Card]], seats: list[int], trump: Suit) -> int:
    """Who leads first (RULES.md §2, and the seed 000 opening): the first game's holder of
    the lowest diamond (nobody: the lowest seat in play), later the last game's last taker
    or the next in play; seed 000: the dealer, unless someone holds four trumps."""
    rules = state.rules
    if rules.cut_opening:
        dealer_order = rules.seats.clockwise(state.dealer, seats)
        for seat in dealer_order:
            if sum(1 for c in hands[seat] if c.suit is trump) >= rules.cut_lead_trumps:
                return seat
        return dealer_order[0]
    if state.next_leader is not None:
        return rules.seats.clockwise(state.next_leader, seats)[0]
    diamonds = [(RANK_OF[c.rank], s) for s in seats for c in hands[s] if c.suit is Suit.DIAMONDS]
    return min(diamonds)[1] if diamonds else min(seats)
