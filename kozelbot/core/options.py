"""Table options, generically: a preset's pydantic options model and the ways people set it.

Each family declares its presets (``kozelbot.<family>``); this module turns typed
``KEY=VALUE`` words and the lobby's settings buttons into a validated options model, the same
way for every preset, so that the lobby's buttons are derived from the model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

COMMON_KEYS = ("seating", "move_time", "computer")
MOVE_TIME_CHOICES = (60, 120, 300, 30, 15, 0)
"""What the lobby's timer button cycles through (seconds; 0 = no timer)."""


class OptionError(ValueError):
    """A table option that does not exist or has a value the preset does not allow."""

    def __init__(self, key: str, value: str, allowed: str) -> None:
        super().__init__(f"{key}={value}: allowed {allowed}")
        self.key = key
        self.value = value
        self.allowed = allowed


class TableOptions(BaseModel):
    """The options every table has, whatever its variant; each preset's options model
    extends it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seating: Literal["random", "ordered"] = "random"
    """Who sits opposite whom: shuffled at the start, or in join order."""
    move_time: int = Field(default=60)
    """Seconds per move; on time-out the move is made for the player. 0 switches it off.

    **Decision**: the seed allows a minute to an hour; we allow 10–3600 s (and 0), since
    group tables often want quicker games (the kryuk seed uses 10–15 s)."""

    computer: Literal["strong", "normal", "easy"] = "strong"
    """How the computer players play: ``strong`` (a search over the hidden cards, issue
    #17), ``normal`` (the family's rule-based player) or ``easy`` (a random legal move).
    Each level is one fixed-strength pseudo-player in the ratings, so playing with
    computers counts without inflating anyone."""

    @field_validator("move_time")
    @classmethod
    def _move_time_range(cls, value: int) -> int:
        if value != 0 and not 10 <= value <= 3600:
            raise ValueError("move_time must be 0 or 10..3600")
        return value


@dataclass(frozen=True)
class Preset:
    """A named variant: its table options and how they become engine rules."""

    name: str
    options_model: type[BaseModel]
    build: Callable[[BaseModel], Any]

    @property
    def keys(self) -> tuple[str, ...]:
        """The options in the order people see them: the preset's own, then the common ones
        (seating and move time) that every options model inherits."""
        own = [k for k in self.options_model.model_fields if k not in COMMON_KEYS]
        return (*own, *(k for k in COMMON_KEYS if k in self.options_model.model_fields))

    def rules(self, values: Mapping[str, Any]) -> Any:
        """The engine parameters for these (stored or typed) option values."""
        return self.build(self.options_from(values))

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
            return ", ".join(self.keys)
        annotation = info.annotation
        if annotation is bool:
            return "true|false"
        args = getattr(annotation, "__args__", None)
        if args:
            return "|".join(str(a) for a in args)
        if key == "move_time":
            return "0|10..3600"
        return str(annotation)

    def cycle(self, options: BaseModel, key: str) -> BaseModel:
        """``options`` with ``key`` moved to its next value (the lobby's settings buttons)."""
        if key not in self.options_model.model_fields:
            raise OptionError(key, "", ", ".join(self.keys))
        choices = self.choices(key)
        current = getattr(options, key)
        start = choices.index(current) + 1 if current in choices else 0
        values = options.model_dump()
        defaults = self.default_options().model_dump()
        common = {k: values[k] for k in COMMON_KEYS if k in values}
        # A value that another option rules out (cover: pairs need four players) resets that
        # other option to its default (or, failing that, all of them); one that still fails
        # is skipped.
        bases = [values, *({**values, k: defaults[k]} for k in self.keys if k != key)]
        bases.append({**defaults, **common})
        for step in range(len(choices)):
            following = choices[(start + step) % len(choices)]
            for base in bases:
                try:
                    return self.options_from({**base, key: following})
                except OptionError:
                    continue
        raise OptionError(key, str(current), self.allowed(key))

    def choices(self, key: str) -> tuple[Any, ...]:
        """The values the settings buttons cycle through, default first."""
        if key == "move_time":
            return MOVE_TIME_CHOICES
        if self.options_model.model_fields[key].annotation is bool:
            return (False, True)
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
                raise OptionError(key or pair, value, ", ".join(self.keys))
            # ``isdigit`` accepts "²" and "--5", which ``int`` refuses: match plain numbers only.
            values[key] = int(value) if re.fullmatch(r"-?[0-9]{1,9}", value) else value.lower()
        return self.options_from(values)
