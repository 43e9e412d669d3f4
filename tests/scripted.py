"""Scripted deals for the engine tests: hands written out card by card, and replayable play.

A deal is written as *trick rows*: row ``k`` holds the card each seat (0, 1, 2, 3) plays in
trick ``k``. The hands are the columns; the engine decides who leads each trick (the holder
of J♣ first, then each trick's winner), and ``play_rows`` plays every seat's card of the row
in that order. Because each seat has exactly one card per row, a row whose four cards share
one effective suit is always legal whoever leads it; the rows below were checked so that the
few mixed rows are legal too (the engine refuses them otherwise, failing the test loudly).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TypeVar

from kozelbot.core.cards import Card, parse_cards
from kozelbot.core.i18n import translator
from kozelbot.core.protocol import DealScored, GameError, MatchOver, shuffle_rng
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.follow import render
from kozelbot.families.follow.ai import choose_action
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import Event, KeepHand, Phase, PlayCard

Rows = list[str]

# Seats 0+2 take 64 card points, seats 1+3 take 56 (seed 004, example 1: 2 eyes).
ROWS_64_56: Rows = [
    "JC JS QC JH",  # J♣ leads; Q♣ (seat 2) wins 9
    "QH QS 6D 7D",  # Q♠ (seat 1) wins 6
    "AD 10D QD JD",  # Q♦ (seat 2) wins 26
    "6C 9D KD 8D",  # 6♣ (seat 0) wins 4; Q♣ fell earlier, so no catch
    "AS 10S KS 9S",  # A♠ (seat 0) wins 25
    "10H AH KH 9H",  # A♥ (seat 1) wins 25
    "10C KC 9C AC",  # A♣ (seat 3) wins 25
    "8H 8S 7S 6S",  # seat 3 leads 6♠, seat 0 is out of spades
    "7H 6H 8C 7C",
]

# Seats 0+2 take 92, seats 1+3 take 28 (seed 004, example 2: 4 eyes).
ROWS_92_28: Rows = [
    "JC JS QC JH",
    "QS 6D QH 7D",
    "AD QD 10D KD",  # Q♦ (seat 1) wins 28, the opponents' only trick
    "6C 9D JD 8D",
    "AS 10S KS 9S",
    "AH 10H KH 9H",
    "AC 10C KC 9C",
    "8S 7S 6S 8H",
    "7H 6H 8C 7C",
]

# 60:60 — eggs (seed 004, example 3).
ROWS_EGGS: Rows = [
    "JC JS QC JH",  # seat 2 wins 9
    "QH QS 6D 7D",  # seat 1 wins 6
    "AD 10D QD JD",  # seat 2 wins 26
    "9D 6C KD 8D",  # seat 1 wins 4
    "9S 10S AS KS",  # seat 2 wins 25
    "10H AH KH 9H",  # seat 1 wins 25
    "10C KC 9C AC",  # seat 3 wins 25
    "8H 8S 7S 6S",
    "7H 6H 8C 7C",
]

# Seats 0+2 take every trick (Люся); seat 3's hand holds 4 points, so it may ask a redeal.
ROWS_LYUSYA: Rows = [
    "JC JS QC JH",
    "QS 6D QH 7D",
    "AD 10D QD JD",
    "6C 9D KD 8D",
    "AS 10S KS 9S",
    "AH 10H KH 9H",
    "AC 10C KC 9C",
    "8S 7S 6S 8H",
    "7H 6H 8C 7C",
]

# The first trick holds 6♣ (seat 1) and Q♣ (seat 2): opposing pairs, the catch fires.
ROWS_CATCH_FIRST_TRICK: Rows = [
    "JC 6C QC JH",
    "QS 6D QH 7D",
    "AD 10D QD JD",
    "JS 9D KD 8D",
    "AS 10S KS 9S",
    "AH 10H KH 9H",
    "AC 10C KC 9C",
    "8S 7S 6S 8H",
    "7H 6H 8C 7C",
]

# The first trick holds 6♣ (seat 1) and Q♣ (seat 3): partners, so an ordinary trick.
ROWS_SAME_PAIR_6C_QC: Rows = [
    "JC 6C JH QC",
    "QS 6D QH 7D",
    "AD 10D QD JD",
    "JS 9D KD 8D",
    "AS 10S KS 9S",
    "AH 10H KH 9H",
    "AC 10C KC 9C",
    "8S 7S 6S 8H",
    "7H 6H 8C 7C",
]

# Seats 0+2 take 92 points in the first eight tricks; the last trick holds Q♣ (seat 0) and
# 6♣ (seat 1). With 6♣ on top that is a catch for seats 1+3; with ``six_clubs=ordinary`` the
# 6♣ is a plain club discard and Q♣ simply takes the trick.
ROWS_LAST_TRICK_6C_QC: Rows = [
    "JC JS JH JD",
    "QS QH QD AD",
    "10D KD 9D 8D",
    "9S AS KS 10S",
    "AH 10H KH 9H",
    "AC 10C KC 9C",
    "8S 7S 6S 8H",
    "7H 6H 8C 7C",
    "QC 6C 7D 6D",
]


NAMES = ("Аня", "Борис", "Вера", "Глеб")
"""The people of ``playing_table``, seat by seat."""


def playing_table(state: MatchState, names: tuple[str, ...] = NAMES) -> Table:
    """A group table playing ``state`` (its variant and options), people in seat order."""
    return Table(
        game_id=1,
        chat_id=-100,
        variant=state.variant,
        options=state.options,
        creator_id=1,
        status=TableStatus.PLAYING,
        seed=1,
        state=state.dump(),
        seats=[Player(user_id=100 + seat, name=names[seat]) for seat in range(state.players)],
    )


def new_match(**options: object) -> MatchState:
    """A fresh ``hvalenyi`` match with these table options."""
    return MatchState("hvalenyi", dict(options))


def hands_from_rows(rows: Rows) -> list[list[Card]]:
    """The four hands that trick rows describe (column ``s`` is seat ``s``'s hand)."""
    hands: list[list[Card]] = [[], [], [], []]
    for row in rows:
        cards = parse_cards(row)
        assert len(cards) == 4, row
        for seat, card in enumerate(cards):
            hands[seat].append(card)
    return hands


def rotate(rows: Rows, by: int) -> Rows:
    """The same deal moved ``by`` seats clockwise (``by=1`` swaps the two pairs' roles)."""
    out: Rows = []
    for row in rows:
        cards = row.split()
        out.append(" ".join(cards[(seat - by) % 4] for seat in range(4)))
    return out


def hands_with(fixed: dict[int, str], deck: Iterable[Card]) -> list[list[Card]]:
    """Hands where the ``fixed`` seats hold exactly these cards; the rest of ``deck`` goes
    in deck order to the other seats, equally."""
    hands: list[list[Card]] = [[], [], [], []]
    used: set[Card] = set()
    for seat, text in fixed.items():
        hands[seat] = parse_cards(text)
        used.update(hands[seat])
    rest = [card for card in deck if card not in used]
    free = [seat for seat in range(4) if seat not in fixed]
    size = len(rest) // len(free) if free else 0
    for index, seat in enumerate(free):
        hands[seat] = rest[index * size : (index + 1) * size]
    return hands


def keep_all(state: MatchState) -> list[Event]:
    """Every seat offered a redeal keeps its hand."""
    events: list[Event] = []
    while state.phase is Phase.REDEAL:
        events.extend(state.apply(state.to_act()[0], KeepHand()))
    return events


def deal_and_keep(state: MatchState, hands: list[list[Card]]) -> list[Event]:
    """Deal these hands and decline every redeal offer, so that play starts."""
    events = state.deal_hands(hands)
    events.extend(keep_all(state))
    return events


def play_cards(state: MatchState, cards: str) -> list[Event]:
    """Play these cards in order, each by whichever seat is to act."""
    events: list[Event] = []
    for card in parse_cards(cards):
        seat = state.to_act()[0]
        events.extend(state.apply(seat, PlayCard(card)))
    return events


def play_rows(state: MatchState, rows: Rows) -> list[Event]:
    """Play trick rows (see the module docstring) until the deal ends."""
    events: list[Event] = []
    for row in rows:
        cards = parse_cards(row)
        for _ in range(4):
            if state.phase is not Phase.PLAY:
                return events
            seat = state.to_act()[0]
            events.extend(state.apply(seat, PlayCard(cards[seat])))
    return events


def play_deal(state: MatchState, rows: Rows) -> list[Event]:
    """Deal the hands of ``rows``, keep them, and play the rows out."""
    events = deal_and_keep(state, hands_from_rows(rows))
    events.extend(play_rows(state, rows))
    return events


def scored(events: list[Event]) -> DealScored:
    """The one ``DealScored`` among ``events``."""
    results = [event for event in events if isinstance(event, DealScored)]
    assert len(results) == 1, events
    return results[0]


def step(state: MatchState, seed: int) -> list[Event]:
    """One step of a computer-only match: a shuffle when dealing, else one action."""
    if state.phase is Phase.DEALING:
        return state.deal(shuffle_rng(seed, state.shuffles))
    seat = state.to_act()[0]
    return state.apply(seat, choose_action(state.view_for(seat)))


def random_hands(seed: int, deck: tuple[Card, ...]) -> list[list[Card]]:
    """A shuffled deal (for invariants that must hold on any deal)."""
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    size = len(cards) // 4
    return [cards[i * size : (i + 1) * size] for i in range(4)]


T = TypeVar("T")


def card(text: str) -> Card:
    """One card from its notation (``"10H"``)."""
    return Card.parse(text)


def cards(text: str) -> set[Card]:
    """A set of cards from space-separated notation."""
    return set(parse_cards(text))


def of_type(events: list[Any], kind: type[T]) -> list[T]:
    """The events of one kind, in order."""
    return [event for event in events if isinstance(event, kind)]


def match_over(events: list[Any]) -> list[tuple[int, tuple[int, int]]]:
    """The winner and final score of every ``MatchOver`` among ``events``."""
    return [(event.winner, event.score) for event in of_type(events, MatchOver)]


def table_text(state: MatchState, language: str = "ru") -> str:
    """The group's table message of ``state`` (seats in order: Аня, Борис, Вера, Глеб)."""
    return render.table_text(playing_table(state), state, translator(language))


def hand_text(state: MatchState, seat: int, language: str = "ru") -> str:
    """A seat's private hand text of ``state``."""
    return render.hand_text(playing_table(state), state, seat, translator(language))


def refusal_text(state: MatchState, seat: int, action: object) -> str:
    """The alert a refused press gets (English); the action must be refused."""
    try:
        state.apply(seat, action)  # type: ignore[arg-type]
    except GameError as error:
        return render.game_error_text(error, playing_table(state), translator("en"))
    raise AssertionError(f"{action} was accepted")


def end_texts(state: MatchState, events: list[Any], language: str = "ru") -> list[str]:
    """What the group is shown when ``events`` end a deal (and the match): the deal's final
    table, its result, and the match result, in that order."""
    table, t = playing_table(state), translator(language)
    texts: list[str] = []
    for event in events:
        if isinstance(event, DealScored):
            texts += [render.final_table_text(table, event, t), render.result_text(table, event, t)]
        elif isinstance(event, MatchOver):
            texts.append(render.match_over_text(table, event, t))
    return texts
