"""Variants as data: engine parameters (``Rules``) and the named presets that build them.

A preset has a pydantic model of its *table options* (what a group may choose, with the
names players type: ``deck=32``, ``lyusya=zero`` ...) and a function that turns chosen
options into the engine's ``Rules``. No subclass per variant: the engine reads ``Rules``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kozelbot.cards import DECKS, Card, Rank, Suit, parse_cards

PLAIN_ORDER: tuple[Rank, ...] = (
    Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK,
    Rank.NINE, Rank.EIGHT, Rank.SEVEN, Rank.SIX,
)  # fmt: skip
"""Strength inside a plain suit, high to low: the ten beats the king (RULES.md §0)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Engine parameters of a follow-suit game (RULES.md §1), fixed for a whole match."""

    name: str
    deck: int
    ladder: tuple[Card, ...]
    """Permanent trumps, strongest first; they belong to no suit."""
    trump_suit: Suit | None
    first_lead_card: Card
    """The holder of this card leads the first trick of every deal."""
    catch: tuple[Card, Card] | None
    """(catcher, caught): both in one trick, held by opposing pairs, end the deal."""
    catch_award: int
    redeal_below: int | None
    """A hand with fewer card points may ask for a redeal before the first card."""
    awards: tuple[tuple[int, int], ...]
    """(minimum card points, eyes), best first."""
    lyusya: Literal["win", "zero"]
    lyusya_win_award: int
    target: int
    players: int = 4
    plain_order: tuple[Rank, ...] = PLAIN_ORDER
    strength: Mapping[Card, int] = field(default_factory=dict, compare=False)
    """Every card's strength: trumps 1000 and up, plain cards below 100; bigger wins."""
    suit_of: Mapping[Card, Suit | None] = field(default_factory=dict, compare=False)
    """Every card's effective suit: ``None`` for trumps (precomputed ``effective_suit``)."""

    def __post_init__(self) -> None:
        strength: dict[Card, int] = {}
        deck = DECKS[self.deck]
        trumps_in_suit = [
            Card(rank, self.trump_suit)
            for rank in self.plain_order
            if self.trump_suit is not None and Card(rank, self.trump_suit) not in self.ladder
        ]
        ranked_trumps = [c for c in self.ladder if c in deck] + [
            c for c in trumps_in_suit if c in deck
        ]
        for index, card in enumerate(reversed(ranked_trumps)):
            strength[card] = 1000 + index
        for card in deck:
            if card not in strength:
                strength[card] = 100 - self.plain_order.index(card.rank)
        object.__setattr__(self, "strength", strength)
        suit_of = {card: None if strength[card] >= 1000 else card.suit for card in deck}
        object.__setattr__(self, "suit_of", suit_of)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The deck this match is played with."""
        return DECKS[self.deck]

    def is_trump(self, card: Card) -> bool:
        """A card of the ladder or of the trump suit (RULES.md §1 trick rule 1)."""
        return self.strength[card] >= 1000

    def effective_suit(self, card: Card) -> Suit | None:
        """The suit a card counts as: ``None`` for every trump (a trump has no other suit)."""
        return self.suit_of[card]

    @property
    def has_catch(self) -> bool:
        """Whether the catch rule is in force with this deck."""
        return self.catch is not None and all(c in self.cards for c in self.catch)


MOVE_TIME_CHOICES = (60, 120, 300, 30, 15, 0)
"""What the lobby's timer button cycles through (seconds; 0 = no timer)."""


class OptionError(ValueError):
    """A table option that does not exist or has a value the preset does not allow."""

    def __init__(self, key: str, value: str, allowed: str) -> None:
        super().__init__(f"{key}={value}: allowed {allowed}")
        self.key = key
        self.value = value
        self.allowed = allowed


class HvalenyiOptions(BaseModel):
    """Table options of Хвалёный козёл (RULES.md §1.1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deck: Literal[36, 32] = 36
    """36 cards (9 each) or 32 cards without sixes (8 each)."""
    six_clubs: Literal["top", "ordinary"] = "top"
    """``top``: 6♣ (шамок) is the highest trump and catches Q♣; ``ordinary``: a plain club."""
    lyusya: Literal["win", "zero"] = "win"
    """All tricks to one pair: ``win`` ends the match, ``zero`` wipes the other pair's eyes."""
    seating: Literal["random", "ordered"] = "random"
    """Who sits opposite whom: shuffled at the start, or in join order."""
    move_time: int = Field(default=60)
    """Seconds per move; on time-out the computer moves for the player. 0 switches it off.

    **Decision**: the seed allows a minute to an hour; we allow 10–3600 s (and 0), since
    group tables often want quicker games (the kryuk seed uses 10–15 s)."""

    @field_validator("move_time")
    @classmethod
    def _move_time_range(cls, value: int) -> int:
        if value != 0 and not 10 <= value <= 3600:
            raise ValueError("move_time must be 0 or 10..3600")
        return value


def build_hvalenyi(options: BaseModel) -> Rules:
    """Rules of Хвалёный козёл for the chosen options (RULES.md §1.1)."""
    assert isinstance(options, HvalenyiOptions)
    top = options.six_clubs == "top" and options.deck == 36
    ladder = parse_cards(("6C " if top else "") + "QC QS QH QD JC JS JH JD")
    return Rules(
        name="hvalenyi",
        deck=options.deck,
        ladder=tuple(ladder),
        trump_suit=Suit.DIAMONDS,
        first_lead_card=Card.parse("JC"),
        catch=(Card.parse("6C"), Card.parse("QC")) if top else None,
        catch_award=4,
        redeal_below=14,
        awards=((90, 4), (61, 2)),
        lyusya=options.lyusya,
        lyusya_win_award=12,
        target=12,
    )


@dataclass(frozen=True)
class Preset:
    """A named variant: its table options and how they become engine rules."""

    name: str
    options_model: type[BaseModel]
    build: Callable[[BaseModel], Rules]

    def default_options(self) -> BaseModel:
        """The preset's options with every default."""
        return self.options_model()

    def options_from(self, values: Mapping[str, Any]) -> BaseModel:
        """Validate a stored or typed mapping of options (raises ``OptionError``)."""
        try:
            return self.options_model.model_validate(dict(values))
        except ValidationError as error:
            detail = error.errors()[0]
            key = str(detail["loc"][0]) if detail["loc"] else "?"
            value = str(values.get(key, ""))
            raise OptionError(key, value, self.allowed(key)) from None

    def allowed(self, key: str) -> str:
        """A short human description of the values an option takes."""
        info = self.options_model.model_fields.get(key)
        if info is None:
            return ", ".join(self.options_model.model_fields)
        annotation = info.annotation
        args = getattr(annotation, "__args__", None)
        if args:
            return "|".join(str(a) for a in args)
        if key == "move_time":
            return "0|10..3600"
        return str(annotation)

    def cycle(self, options: BaseModel, key: str) -> BaseModel:
        """``options`` with ``key`` moved to its next value (the lobby's settings buttons)."""
        if key not in self.options_model.model_fields:
            raise OptionError(key, "", ", ".join(self.options_model.model_fields))
        choices = self.choices(key)
        current = getattr(options, key)
        following = choices[(choices.index(current) + 1) % len(choices)] if current in choices \
            else choices[0]  # fmt: skip
        return self.options_from({**options.model_dump(), key: following})

    def choices(self, key: str) -> tuple[Any, ...]:
        """The values the settings buttons cycle through, default first."""
        if key == "move_time":
            return MOVE_TIME_CHOICES
        args = getattr(self.options_model.model_fields[key].annotation, "__args__", ())
        return tuple(args)

    def parse(self, pairs: Iterable[str], base: BaseModel | None = None) -> BaseModel:
        """Apply ``KEY=VALUE`` words (as typed after ``/newgame``) on top of ``base``."""
        values: dict[str, Any] = (base or self.default_options()).model_dump()
        for pair in pairs:
            key, sep, value = pair.partition("=")
            key = key.strip().lower()
            value = value.strip()
            if not sep or key not in self.options_model.model_fields:
                raise OptionError(key or pair, value, ", ".join(self.options_model.model_fields))
            # ``isdigit`` accepts "²" and "--5", which ``int`` refuses: match plain numbers only.
            values[key] = int(value) if re.fullmatch(r"-?[0-9]{1,9}", value) else value.lower()
        return self.options_from(values)


PRESETS: dict[str, Preset] = {
    "hvalenyi": Preset("hvalenyi", HvalenyiOptions, build_hvalenyi),
}
DEFAULT_PRESET = "hvalenyi"


def preset(name: str) -> Preset:
    """The preset called ``name`` (``KeyError`` if unknown)."""
    return PRESETS[name]
