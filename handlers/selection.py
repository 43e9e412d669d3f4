"""The cards a person has selected in a hand whose moves take several cards (the cover game).

A selection is only what the hand's keyboard shows between presses: never a move, kept in
memory and lost with the process (the person selects again). The hand message renders it
(``kozelbot.views.screens.hand_screen``); a verb button turns it into a move
(``Reader.from_selection``).
"""

from __future__ import annotations

from kozelbot.core.cards import Card


class Selections:
    """(game, seat) → the cards selected in that seat's hand."""

    def __init__(self) -> None:
        self._selected: dict[tuple[int, int], frozenset[Card]] = {}

    def of(self, game_id: int, seat: int) -> frozenset[Card]:
        """The cards a seat has selected (none: empty)."""
        return self._selected.get((game_id, seat), frozenset())

    def toggle(self, game_id: int, seat: int, card: Card) -> frozenset[Card]:
        """Select a card, or unselect it if it was selected; the new selection."""
        chosen = self.of(game_id, seat) ^ {card}
        self._selected[(game_id, seat)] = chosen
        return chosen

    def clear(self, game_id: int, seat: int) -> None:
        """Forget a seat's selection (after its move, or once its game is over)."""
        self._selected.pop((game_id, seat), None)
