"""How opening cards are drawn from the stock (RULES.md §1.2 hvalyonka, §1.3 called openings).

The stock is the shuffled deck, top first. Each procedure draws batches for one player until
a card arrives that the player may not keep (a plain card; for ``shtany`` a card that is
neither an ace nor a trump). Nobody holds more than a hand (eight cards in these presets):
when the batch that would reach the limit brings no such card, the dealer makes sure one
arrives (RULES.md §1.2 "the dealer makes sure a plain card arrives by the 4th pair") by
swapping the first suitable card further down the stock into the batch.
"""

from __future__ import annotations

from collections.abc import Callable

from kozelbot.core.cards import Card

STYLES: dict[str, tuple[int, int]] = {
    "pairs": (2, 0),  # kryuk's hvalyonka: two from the top
    "shtany": (1, 1),  # one from the top and one from the bottom
    "double_shtany": (2, 2),  # two from the top and two from the bottom
    "mirror": (0, 1),  # one at a time from the bottom of the cut
}
"""Cards taken from the top and from the bottom of the stock per batch."""


def draw(
    stock: list[Card], style: str, kept: Callable[[Card], bool], hand: int, held: int = 0
) -> list[Card]:
    """Take batches from ``stock`` (changed in place) until a card that is not ``kept``
    arrives, never more than ``hand`` cards with the ``held`` ones; return the cards drawn,
    in the order they came."""
    top, bottom = STYLES[style]
    size = top + bottom
    drawn: list[Card] = []
    while True:
        last = held + len(drawn) + size >= hand
        batch_top = [stock.pop(0) for _ in range(min(top, len(stock)))]
        batch_bottom = [stock.pop() for _ in range(min(bottom, len(stock)))]
        batch = batch_top + batch_bottom
        if last and all(kept(card) for card in batch):
            spare = next((i for i, card in enumerate(stock) if not kept(card)), None)
            if spare is not None and batch:
                stock[spare], batch[-1] = batch[-1], stock[spare]
        drawn.extend(batch)
        if not batch or any(not kept(card) for card in batch) or held + len(drawn) >= hand:
            return drawn
