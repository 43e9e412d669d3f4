"""Dealing (RULES.md §1): shuffles, deal constraints, openings, who leads, deals and trumps.

What the chance step needs, and what a fair-play seed text deals again (``deal_from_seed``).

A deal starts *plain* (the deck cut into hands; with two players the rest is a face-down talon)
or with an opening drawn from the stock (``opening``): kryuk's хвалёнка (hvalyonka, the
"praised" first trick: the first leader and then each other player are dealt pairs until a
plain card arrives and play one card face down, ``blind``), or the opening a sixes first
leader calls (``call``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kozelbot.core.cards import Card, Rank, Suit
from kozelbot.core.fairplay import SeedError, parse_seed
from kozelbot.families.follow.opening import draw
from kozelbot.families.follow.presets import PRESETS
from kozelbot.families.follow.records import Draw
from kozelbot.families.follow.rules import Rules
from kozelbot.families.follow.vocabulary import Outcome

if TYPE_CHECKING:
    from kozelbot.families.follow.match import Match

SEAT_SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
"""Belka: suits go to the seats clockwise from the first J♣ holder in this order."""
JACK_OF_CLUBS = Card.parse("JC")
QUEEN = Rank.QUEEN


def hvalyonka_hands(rules: Rules, cards: list[Card], first: int) -> list[list[Card]]:
    """The cards each seat will receive in a hvalyonka dealt from ``cards``: the pairs
    drawn from the praised seat ``first`` on until a plain card, then the top-up. The stock
    alone decides them, not which card anyone plays face down, so the dealing constraints
    can be checked."""
    stock = list(cards)
    table = rules.strengths[rules.trump_suit]
    order = rules.seats.clockwise(first)
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    for seat in order:
        hands[seat] = draw(stock, "pairs", table.is_trump, rules.hand_size)
    for seat in order:
        need = rules.hand_size - len(hands[seat])
        hands[seat].extend(stock[:need])
        stock = stock[need:]
    return hands


def acceptable(rules: Rules, hands: list[list[Card]]) -> bool:
    """Kryuk's dealing constraints (RULES.md §1.2): no hand holds four queens without the
    hook (7♣), nor five plain cards of a suit."""
    table = rules.strengths[rules.trump_suit]
    hook = rules.catch[0] if rules.catch else None
    for hand in hands:
        if sum(1 for c in hand if c.rank is QUEEN) == 4 and hook not in hand:
            return False
        plain: dict[Suit, int] = {}
        for card in hand:
            if not table.is_trump(card):
                plain[card.suit] = plain.get(card.suit, 0) + 1
        if any(count > 4 for count in plain.values()):
            return False
    return True


def shuffle_deck(
    rules: Rules, opening: str, first: int, rng: random.Random
) -> tuple[list[Card], list[list[Card]]]:
    """Shuffle the deck with ``rng``: the deck top first, and the hands it deals (plain: the
    deck cut into hands, the rest the talon; ``hvalyonka``: drawn from ``first`` on; for a
    ``call`` the stock alone counts), re-shuffled until the preset's dealing constraints
    hold. The engine's chance step and ``deal_from_seed`` both deal with it."""
    cards = list(rules.cards)
    rng.shuffle(cards)
    size = rules.hand_size
    hands: list[list[Card]] = []
    for _ in range(1000):
        if opening == "hvalyonka":
            hands = hvalyonka_hands(rules, cards, first)
        else:
            hands = [cards[i * size : (i + 1) * size] for i in range(rules.players)]
        if not rules.deal_constraints or acceptable(rules, hands):
            break
        rng.shuffle(cards)
    return cards, hands


OPENINGS_DEALT = ("plain", "hvalyonka", "call")
"""What a deal's seed text says it starts with (``open=``)."""
OPENING_RULE = {"hvalyonka": "hvalyonka", "call": "called"}
"""The preset's opening rule (``Rules.opening``) under which a deal starts so."""


def deal_from_seed(seed: str) -> list[tuple[str, list[Card]]]:
    """The cards a follow-suit seed text deals (``Rules.deal_from_seed``): the hands by
    seat and the talon (two players), or the stock, top first, for a called opening (whose
    hands depend on the call). ``ValueError`` if the text is not a follow-suit seed."""
    fields = parse_seed(seed)
    chosen = PRESETS.get(fields.variant)
    if chosen is None:
        raise SeedError(f"unknown variant {fields.variant!r}")
    deck = fields.number("deck", range(32, 37, 4))
    players = fields.number("players", range(2, 5, 2))
    opening = fields.context.get("open", "")
    if opening not in OPENINGS_DEALT:
        raise SeedError(f"the seed's open= must be one of {', '.join(OPENINGS_DEALT)}")
    first = fields.number("first", range(players)) if opening == "hvalyonka" else 0
    words = {"deck": deck, "players": players}
    rules: Rules = chosen.rules(
        {key: value for key, value in words.items() if key in chosen.options_model.model_fields}
    )
    if (rules.deck, rules.players) != (deck, players):
        raise SeedError(f"{fields.variant} is not played with deck={deck}, players={players}")
    if opening != "plain" and rules.opening != OPENING_RULE[opening]:
        raise SeedError(f"{fields.variant} has no {opening} deal")
    cards, hands = shuffle_deck(rules, opening, first, random.Random(seed))
    if opening == "call":
        return [("stock", cards)]
    piles = [(f"seat {seat}", hand) for seat, hand in enumerate(hands)]
    talon = cards[rules.hand_size * players :] if opening == "plain" else []
    return [*piles, ("talon", talon)] if talon else piles


# -- the deal about to be dealt ------------------------------------------------------------


def opening_due(state: Match) -> str:
    """``plain``, or the opening the next deal starts with: kryuk's hvalyonka in every deal
    but the match's first and one right after eggs; sixes' call likewise, and never
    right after a redeal (RULES.md §1.2, §1.3)."""
    rules = state.rules
    if rules.opening == "plain" or state.deal_no == 0 or state.redeals:
        return "plain"
    last = state.last_result
    if last is not None and last.outcome == Outcome.EGGS:
        return "plain"
    return "hvalyonka" if rules.opening == "hvalyonka" else "call"


def leader_by_card(state: Match) -> bool:
    """Whether this deal's first leader is the holder of ``Rules.first_lead_card``."""
    rule = state.rules.first_lead
    return rule == "holder" or (rule in ("rotate", "winners") and state.lead_right is None)


def first_leader(state: Match, hands: list[list[Card]] | None) -> int:
    """Who leads the deal's first trick (the preset's first-lead rule)."""
    rule = state.rules.first_lead
    if rule == "non_dealer":
        return state.seats.after(state.dealer)
    if not leader_by_card(state):
        return state.lead_right if state.lead_right is not None else 0
    card = state.rules.first_lead_card
    assert hands is not None, "the first deal of a match is a plain deal"
    return next(s for s, hand in enumerate(hands) if card in hand)


def trump_of_deal(state: Match, hands: list[list[Card]]) -> Suit | None:
    """This deal's trump suit (RULES.md §1.1 two players, §1.4 belka); belka's seat suits are
    assigned in the match's first deal."""
    rule = state.rules.trump_rule
    if rule == "seat_suits":
        holder = next(s for s, hand in enumerate(hands) if JACK_OF_CLUBS in hand)
        if state.seat_suits is None:
            state.seat_suits = [
                SEAT_SUIT_ORDER[state.seats.distance(holder, seat)] for seat in range(state.players)
            ]
        return state.seat_suits[holder]
    if rule == "last_card" and state.last_card is not None:
        return state.last_card.suit
    return state.rules.trump_suit


def dealer_of(state: Match, first: int) -> int:
    """The deal's dealer: where the non-dealer leads (two players), the dealer the match
    keeps; otherwise (RULES.md names no dealer) the seat before the first leader, as sixes'
    "dealing pair" rule has it."""
    if state.rules.first_lead == "non_dealer":
        return state.dealer
    return state.seats.before(first)


def pass_lead(state: Match, outcome: Outcome, side: int | None) -> None:
    """Who leads the next deal: kryuk passes the right clockwise (it stays after eggs);
    sixes gives it to the winners' player first clockwise after the last first leader
    (the same leader after eggs)."""
    deal = state.current
    assert deal is not None
    rule = state.rules.first_lead
    first = deal.first_leader
    seats = state.seats
    if rule == "rotate":
        state.lead_right = first if outcome == Outcome.EGGS else seats.after(first)
    elif rule == "winners":
        if side is None:
            state.lead_right = first
        else:
            state.lead_right = next(
                seat for seat in seats.clockwise(seats.after(first)) if seats.side_of(seat) == side
            )


def draw_blind(state: Match, seat: int) -> None:
    """Kryuk's hvalyonka: ``seat`` is dealt pairs from the stock until a plain card arrives."""
    deal = state.current
    assert deal is not None
    deal.hands[seat] = draw(deal.stock, "pairs", state.strength.is_trump, state.rules.hand_size)
    deal.draws.append(Draw(seat, tuple(deal.hands[seat])))
