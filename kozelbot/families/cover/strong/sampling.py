"""The cards a seat of the cover game cannot see, placed at random consistently with what it
knows (``search.Public``): the other hands, the talon (its shown bottom card kept at the
bottom while it is there; once drawn, it may be in any hand), the face-down cards of the
round and those in the tricks taken — each pile as large as the table saw it."""

from __future__ import annotations

import random

from kozelbot.core.cards import Card
from kozelbot.families.cover.search import Hidden, Public


def sample(public: Public, rng: random.Random) -> Hidden:
    """One placement of ``public.unseen`` (``search.from_public`` builds its position)."""
    bottom = public.bottom is not None and public.talon > 0
    unseen = sorted(public.unseen - ({public.bottom} if bottom else set()), key=str)
    rng.shuffle(unseen)
    at = 0

    def take(count: int) -> tuple[Card, ...]:
        nonlocal at
        taken = tuple(unseen[at : at + count])
        at += count
        return taken

    hands = tuple(
        tuple(public.hand) if seat == public.seat else take(size)
        for seat, size in enumerate(public.hand_sizes)
    )
    talon = take(public.talon - bottom)
    if bottom and public.bottom is not None:
        talon += (public.bottom,)
    face_down = tuple(take(count) for count in public.face_down)
    taken = tuple(take(count) for count in public.face_down_taken)
    assert at == len(unseen), "the piles hold every unseen card"
    return Hidden(hands=hands, talon=talon, face_down=face_down, taken=taken)
