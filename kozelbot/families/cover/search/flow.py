"""The flow of a round between the moves of a search position (``turns``, ``draw`` and
``claim`` of the engine, on bits): the turn to the next seat with a decision, the re-beat,
the trick to the last beater, the levelling, the draw from the taker clockwise with the trump
change at the bottom card, four of a kind, the next round or the end of the game; and a
claim taking the round's cards back. Each step that changes more than the round's registers
first keeps what it changes (``_save``), for ``unmake``.
"""

from __future__ import annotations

from kozelbot.families.cover.search.beats import has_beat
from kozelbot.families.cover.search.cards import ACES, SIXES, points
from kozelbot.families.cover.search.fields import Fields
from kozelbot.families.cover.search.phases import ANSWER, LEAD, LEVEL, OVER, REBEAT
from kozelbot.families.cover.vocabulary import Outcome


class Flow(Fields):
    """A position's round played on between moves."""

    __slots__ = ()

    def _save(self) -> None:
        """Keep what a round's end, the draw or a claim changes beyond the registers."""
        self._saved = (
            self.first_leader,
            self.claim_seat,
            self.claim_count,
            self.taker,
            self.last_taker,
            self.tpos,
            self.trump,
            self.bottom_shown,
            self.over,
            self.four,
            self.drawn,
            tuple(self.hands),
            tuple(self.given),
            tuple(self.points),
            tuple(self.tricks),
        )

    # -- the flow of a round -----------------------------------------------------------

    def _next_turn(self) -> None:
        """The turn to the next seat clockwise with a decision (a surplus to shed, or a beat
        it may make); back at the last beater, a classic round offers the re-beat when they
        can beat their own tops, otherwise the round ends (``turns.next_turn``)."""
        hands = self.hands
        last = self.last_beater
        target = hands[last].bit_count()
        classic = self.classic
        quick_end = -1 if classic else self.leader  # quick: each answers once, to the leader
        tops = self.tops
        answered = self.answered
        skip = answered if classic else self.responded
        for seat in self.circle[self.turn]:
            if seat in (last, quick_end):
                break
            bit = 1 << seat
            if skip & bit:
                continue
            hand = hands[seat]
            if hand.bit_count() > target or (
                not self.discarded & bit and has_beat(hand, tops, self.trump, self.poshka)
            ):
                self.answered = answered
                self.turn = seat
                self.phase = ANSWER
                return
            answered |= bit
        self.answered = answered
        if classic and has_beat(hands[last], tops, self.trump, self.poshka):
            self.turn = last
            self.phase = REBEAT
            return
        self._end_round()

    def _end_round(self) -> None:
        """The trick to the last beater (the leader if nobody beat); then the levelling, or
        the draw when nobody must level."""
        self._save()
        taker = self.last_beater
        self.taker = self.last_taker = taker
        self.tricks[self.side[taker]] += 1
        self.trick = self.table | self.down
        self.tops = self.table = self.down = 0
        self.given[:] = self.drawn_none  # the trick is taken: no claim gives these back
        hands = self.hands
        seats = self.seats
        counts = [hands[seat].bit_count() for seat in seats]
        smallest = min(counts)
        level = 0
        for seat, count in zip(seats, counts, strict=True):
            if count > smallest and seat != taker:
                level |= 1 << seat
        self.level = level
        if level:
            self.phase = LEVEL
        else:
            self._draw_and_continue()

    def _claim(self, seat: int, count: int) -> None:
        """The claimant takes the lead; every card of the round goes back to its hand."""
        self._save()
        hands = self.hands
        given = self.given
        for s in self.seats:
            if given[s]:
                hands[s] |= given[s]
                given[s] = 0
        self.tops = self.table = self.down = 0
        self.answered = self.discarded = self.acted = self.responded = 0
        self.claim_seat = seat
        self.claim_count = count
        self.leader = self.last_beater = seat
        self.phase = LEAD

    def _draw_and_continue(self) -> None:
        """Count the trick, draw, check four of a kind, then the next round or the end of
        the game (``draw.draw_and_continue``)."""
        if self._saved is None:
            self._save()
        taker = self.taker
        self.points[self.side[taker]] += points(self.trick)
        self._draw(taker)
        hands = self.hands
        for hand in hands:
            if hand & ACES == ACES or hand & SIXES == SIXES:
                self._four_of_a_kind()
                return
        for seat in self.clockwise[taker]:
            if hands[seat]:
                break
        else:
            self.over = True
            self.phase = OVER
            return
        self.leader = self.first_leader = self.last_beater = seat
        self.turn = self.taker = self.claim_seat = -1
        self.claim_count = 0
        self.tops = self.table = self.down = self.level = self.trick = 0
        self.answered = self.discarded = self.acted = self.responded = 0
        self.phase = LEAD

    def _four_of_a_kind(self) -> None:
        """Four aces (before four sixes) in a hand in play end the game and the match."""
        hands = self.hands
        for outcome, four in ((Outcome.ACES, ACES), (Outcome.SIXES, SIXES)):
            for seat in self.seats:
                if hands[seat] & four == four:
                    self.four = (outcome, seat)
                    self.over = True
                    self.phase = OVER
                    return

    def _draw(self, taker: int) -> None:
        """Each seat in play draws up to the hand size, from the taker clockwise; when the
        talon runs short, one card at a time around the table. Drawing the bottom card
        (classic) makes its suit trump (``draw._draw``)."""
        talon = self.talon
        start = tpos = self.tpos
        end = len(talon)
        if tpos == end:
            self.drawn = self.drawn_none
            return
        hands = self.hands
        order = self.clockwise[taker]
        size = self.hand_size
        needs = [max(0, size - hands[seat].bit_count()) for seat in order]
        drawn = [0] * self.players
        if sum(needs) <= end - tpos:
            prefix = self.talon_prefix
            for seat, need in zip(order, needs, strict=True):
                if need:
                    drawn[seat] = prefix[tpos + need] ^ prefix[tpos]
                    tpos += need
        else:
            while tpos < end and any(needs):
                for index, seat in enumerate(order):
                    if tpos < end and needs[index]:
                        drawn[seat] |= talon[tpos]
                        tpos += 1
                        needs[index] -= 1
        for seat in order:
            hands[seat] |= drawn[seat]
        self.drawn = tuple(drawn)
        self.tpos = tpos
        if tpos == end and start < end and self.classic and not self.bottom_shown:
            self.bottom_shown = True  # the bottom card drawn: shown, and trump at once
            self.trump = (talon[-1].bit_length() - 1) // 9
