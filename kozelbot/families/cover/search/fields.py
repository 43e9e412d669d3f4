"""What a search position of the cover game holds (RULES.md §2), as plain ints: hands, the
stacks' tops, the cards on the table and the face-down ones as piles of bits (``cards``);
the talon as a fixed tuple of card bits with a read position (a determinized search fixes
its order); seats as bits of small masks; the round's registers; the table's seating,
worked out once. ``flow`` plays a round on them, ``position`` makes and unmakes moves.
"""

from __future__ import annotations

from kozelbot.families.cover.presets import CoverRules
from kozelbot.families.cover.search.phases import LEAD
from kozelbot.families.cover.vocabulary import Outcome

Saved = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int]
"""The round's registers before a move (``Fields._registers``)."""
Ints = tuple[int, ...]
More = tuple[
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    bool,
    bool,
    "tuple[Outcome, int] | None",
    Ints,
    Ints,
    Ints,
    Ints,
    Ints,
]
"""What a round's end, the draw or a claim changes beyond the registers (``Flow._save``)."""


Seating = tuple[Ints, Ints, Ints, int, tuple[Ints, ...], tuple[Ints, ...]]
"""Sides, seats out, seats in play, their mask, and clockwise orders (``_seating``)."""
_SEATING: dict[tuple[int, bool, tuple[int, ...]], Seating] = {}


def _seating(rules: CoverRules, out: tuple[int, ...]) -> Seating:
    """Each seat's side, the seats out, the seats in play (a tuple and a mask), and from
    each seat the seats in play clockwise, that seat first, and once round the table after
    it, that seat last: worked out once per table and seats out."""
    players = rules.players
    seats = tuple(seat for seat in range(players) if seat not in out)
    clockwise = tuple(tuple(rules.seats.clockwise(seat, seats)) for seat in range(players))
    circle = tuple(
        tuple(rules.seats.clockwise(rules.seats.after(seat), seats)) for seat in range(players)
    )
    return (
        tuple(rules.side_of(seat) for seat in range(players)),
        tuple(sorted(out)),
        seats,
        sum(1 << seat for seat in seats),
        clockwise,
        circle,
    )


class Fields:
    """What a position holds: every field a plain int, a tuple or a short list of ints."""

    __slots__ = (
        "_saved",
        "_undo",
        "acted",
        "answered",
        "bottom_shown",
        "circle",
        "claim_count",
        "claim_from",
        "claim_seat",
        "classic",
        "clockwise",
        "discarded",
        "down",
        "drawn",
        "drawn_none",
        "eggs",
        "first_leader",
        "four",
        "given",
        "hand_size",
        "hands",
        "in_play",
        "last_beater",
        "last_taker",
        "leader",
        "level",
        "out",
        "over",
        "phase",
        "players",
        "points",
        "poshka",
        "responded",
        "rules",
        "score",
        "seats",
        "side",
        "table",
        "taker",
        "talon",
        "talon_prefix",
        "tops",
        "tpos",
        "trick",
        "tricks",
        "trump",
        "turn",
    )

    # -- the table: fixed for the game
    rules: CoverRules
    players: int
    classic: bool
    poshka: bool
    hand_size: int
    claim_from: int
    side: tuple[int, ...]
    """Each seat's side."""
    in_play: int
    """The seats in play, as a mask."""
    seats: tuple[int, ...]
    """The seats in play, lowest first."""
    clockwise: tuple[tuple[int, ...], ...]
    """From each seat, the seats in play clockwise, that seat first if it plays."""
    circle: tuple[tuple[int, ...], ...]
    """From each seat, the seats in play once round the table after it, that seat last if
    it plays (the order ``_next_turn`` asks them in)."""
    talon: tuple[int, ...]
    """The talon's cards, top first, as bits (``tpos`` of them drawn)."""
    talon_prefix: tuple[int, ...]
    """``talon_prefix[i]``: the pile of the talon's first ``i`` cards."""
    score: tuple[int, ...]
    """The match's loser points before this game."""
    eggs: int
    out: tuple[int, ...]
    # -- the cards
    hands: list[int]
    given: list[int]
    """What each seat put on the table in the round standing (a claim gives it back)."""
    points: list[int]
    """Each side's card points taken this game, face-down cards included."""
    tricks: list[int]
    drawn: tuple[int, ...]
    """What each seat drew at the last draw."""
    drawn_none: tuple[int, ...]
    """Nothing for every seat."""
    tpos: int
    trump: int
    """The trump's suit index (``cards.SUITS``)."""
    bottom_shown: bool
    # -- the round
    phase: int
    leader: int
    first_leader: int
    last_beater: int
    turn: int
    tops: int
    """The stacks' top cards (a beat covers each once, so they are a pile)."""
    table: int
    """Every face-up card on the table."""
    down: int
    """The round's face-down discards."""
    answered: int
    """Seats that answered since the last beat (skipped ones included)."""
    discarded: int
    """Seats that discarded in the round (they may no longer beat)."""
    acted: int
    """Seats with a move standing in the round (they may no longer claim)."""
    responded: int
    """Seats with an answer standing in the round (a quick round asks each once)."""
    claim_seat: int
    claim_count: int
    level: int
    """Seats still to level (after the trick)."""
    trick: int
    """The trick being levelled: every card of it."""
    taker: int
    last_taker: int
    # -- the end
    over: bool
    four: tuple[Outcome, int] | None
    """Four aces or four sixes that ended the match, and the seat holding them."""
    _undo: list[tuple[int, Saved, More | None]]
    _saved: More | None

    def __init__(self, rules: CoverRules, out: tuple[int, ...] = ()) -> None:
        """The table of ``rules`` with these seats out; ``build`` fills in the game."""
        self.rules = rules
        self.players = players = rules.players
        self.classic = rules.classic
        self.poshka = rules.poshka
        self.hand_size = rules.hand
        self.claim_from = rules.claim_from
        key = (players, rules.pairs, out)
        found = _SEATING.get(key)
        if found is None:
            found = _SEATING[key] = _seating(rules, out)
        self.side, self.out, self.seats, self.in_play, self.clockwise, self.circle = found
        self.score = (0,) * rules.sides
        self.eggs = 0
        self.hands = [0] * players
        self.given = [0] * players
        self.points = [0] * rules.sides
        self.tricks = [0] * rules.sides
        self.drawn = self.drawn_none = (0,) * players
        self.set_talon(())
        self.trump = 3
        self.bottom_shown = False
        self.phase = LEAD
        self.leader = self.first_leader = self.last_beater = self.seats[0]
        self.turn = self.taker = self.last_taker = self.claim_seat = -1
        self.tops = self.table = self.down = self.level = self.trick = 0
        self.answered = self.discarded = self.acted = self.responded = self.claim_count = 0
        self.over = False
        self.four = None
        self._undo = []
        self._saved = None

    def set_talon(self, talon: tuple[int, ...]) -> None:
        """The talon's cards (bits), top first, none drawn yet."""
        self.talon = talon
        prefix = [0]
        for card in talon:
            prefix.append(prefix[-1] | card)
        self.talon_prefix = tuple(prefix)
        self.tpos = 0

    # -- reading it --------------------------------------------------------------------

    @property
    def talon_left(self) -> int:
        """Cards left in the talon."""
        return len(self.talon) - self.tpos

    def snapshot(self) -> tuple[object, ...]:
        """Everything that decides the rest of the game, to compare positions (tests): two
        positions with equal snapshots play on alike."""
        return (
            self.phase,
            tuple(self.hands),
            tuple(self.given),
            self.talon[self.tpos :],
            self.trump,
            self.bottom_shown,
            tuple(self.points),
            tuple(self.tricks),
            self._registers(),
            self.first_leader,
            self.claim_seat,
            self.claim_count,
            self.taker,
            self.last_taker,
            self.over,
            self.four,
        )

    def _registers(self) -> Saved:
        """The round's registers, as ``make`` keeps them for ``unmake``."""
        return (
            self.phase,
            self.leader,
            self.last_beater,
            self.turn,
            self.tops,
            self.table,
            self.down,
            self.answered,
            self.discarded,
            self.acted,
            self.responded,
            self.level,
            self.trick,
        )
