"""Provably fair shuffles: the hashing behind them, pure (no game, no text).

The scheme (issue #14), in the order a match meets it:

1. **Commit first.** A new table draws a 256-bit *match secret* (``secrets``, never the
   table's reproducible RNG). Its *match seal*, SHA-256 of the secret's hex text, is fixed
   and stored when the lobby opens, before anyone can join, and anyone may read it whole
   from the lobby's 🔒 button; the secret itself stays hidden until the match ends.
2. **Then let the players in.** Every join and every ``/seed WORD`` adds a line to the
   table's *contributions* (``join:<user>:<id Telegram gave the join message or press>``,
   ``seed:<user>:<word>``): things the operator does not choose, and which arrive only after
   the seal was shown. When the match starts, the *players' seed* is SHA-256 of those lines
   (``players_seed``), behind the same button («Вклад игроков»); seating is drawn from
   HMAC(secret, players' seed).
3. **Each deal.** Shuffle number ``n`` deals from the *seed text*
   ``kozel2:<variant>:<context>,n=<n>:<key>`` with key = HMAC-SHA256(secret, "<players'
   seed>:<n>"); its SHA-256 is the deal's seal (kept in the deal's trace). Neither is shown
   in the group while the match runs (issue #30 item 6: the match seal and the players'
   seed already fix every key); one revealed key tells nothing of another.
4. **At the end** the match's result offers «🔑 Проверить раздачи», which sends the presser
   the secret, the seal, the players' seed and every deal's key and seal
   (``kozelbot.views.seals.verify_texts``). Anyone can then check, without the bot
   (``kozelbot verify SEED HASH --secret S --seal L --client C``): SHA-256(S) is the lobby's
   seal L, HMAC(S, "C:n") is the seed's key, SHA-256(seed) is the deal's seal, and the seed
   deals the cards that were played.

``<context>`` is the family's comma-separated ``key=value`` words (the follow family:
``deck``, ``players``, ``open`` and, for a hvalyonka, ``first``; the cover family:
``players``, ``hand``, ``dealer`` and ``out``). The chance step deals with
``random.Random(seed_text)``, so the seal covers the context too, and
``Rules.deal_from_seed`` deals the same cards again without the database.

Older games keep verifying: ``kozel1`` seed texts (key = HMAC(secret, n), no players' seed)
check against their seals as before; games begun before fair play (empty secret) shuffle
from the table seed and show nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Any

PREFIX = "kozel2"
"""The seed text format of games with a players' seed."""
LEGACY_PREFIX = "kozel1"
"""Seed texts of games begun before the players' seed (key = HMAC(secret, n))."""
_SEED = re.compile(
    r"(kozel[12]):([a-z][a-z0-9_]*):((?:[a-z]+=[0-9a-z]+)(?:,[a-z]+=[0-9a-z]+)*):"
    r"([0-9a-f]{64})"
)
HEX64 = re.compile(r"[0-9a-f]{64}")
SEED_WORD_LIMIT = 64
"""Characters of one ``/seed`` word kept."""


class SeedError(ValueError):
    """A seed text or hash that ``verify`` cannot read; the message says why."""


@dataclass(frozen=True, slots=True)
class SeedText:
    """A seed text taken apart: its format, the variant, its context words and the key."""

    version: str
    variant: str
    context: dict[str, str]
    key: str

    def number(self, word: str, allowed: range) -> int:
        """A context word's value as a number in ``allowed`` (``SeedError`` otherwise)."""
        value = self.context.get(word)
        if value is None or not value.isdigit() or int(value) not in allowed:
            raise SeedError(f"the seed's {word}= is missing or out of range")
        return int(value)


def _hmac(secret: str, message: str) -> str:
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def shuffle_seed(secret: str, shuffle_no: int, context: str, client: str = "") -> str:
    """The seed text of shuffle ``shuffle_no`` of a match: ``context`` (``<variant>:<words>``)
    and the key HMAC-SHA256(secret, "<players' seed>:<n>"); without a players' seed (games
    begun before it) the ``kozel1`` key HMAC-SHA256(secret, n)."""
    if not client:
        return f"{LEGACY_PREFIX}:{context}:{_hmac(secret, str(shuffle_no))}"
    return f"{PREFIX}:{context},n={shuffle_no}:{_hmac(secret, f'{client}:{shuffle_no}')}"


def commitment(text: str) -> str:
    """The seal of a text (a seed text, a match secret): its SHA-256, 64 hex digits."""
    return hashlib.sha256(text.encode()).hexdigest()


def match_seal(secret: str) -> str:
    """The lobby's seal of a match secret."""
    return commitment(secret)


def players_seed(contributions: list[str]) -> str:
    """The players' seed: SHA-256 of the contributions, one a line, in the order made."""
    return commitment("\n".join(contributions))


def seating_seed(secret: str, client: str) -> str:
    """What a fair-play match's seating is drawn from (``random.Random`` of it): neither the
    operator nor the players alone choose it."""
    return f"{PREFIX}:seating:{_hmac(secret, f'{client}:seating')}"


def seed_word(word: str) -> str:
    """A ``/seed`` word as kept: printable, at most ``SEED_WORD_LIMIT`` characters."""
    kept = "".join(c for c in word if c.isprintable() and not c.isspace())
    return kept[:SEED_WORD_LIMIT]


def parse_seed(seed: str) -> SeedText:
    """Take a seed text apart (``SeedError`` if it is not one)."""
    found = _SEED.fullmatch(seed.strip())
    if found is None:
        raise SeedError(
            "not a seed text: expected kozel2:<variant>:<key=value,...>:<64 hex digits>"
        )
    version, variant, words, key = found.groups()
    context = dict(word.split("=", 1) for word in words.split(","))
    return SeedText(version, variant, context, key)


def key_from(secret: str, client: str, fields: SeedText) -> bool | None:
    """Whether a seed's key is HMAC(secret, "<client>:<n>"): ``None`` when the seed cannot
    say (a ``kozel1`` seed names no shuffle number)."""
    if fields.version != PREFIX or not fields.context.get("n", "").isdigit():
        return None
    return hmac.compare_digest(_hmac(secret, f"{client}:{fields.context['n']}"), fields.key)


def current_commitment(seeds: list[str]) -> str | None:
    """The seal of the cards in play: the last seed text of the shown deal, if any."""
    return commitment(seeds[-1]) if seeds else None


def seed_trace(seeds: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The deal trace's fair-play keys: ``seed`` and ``commit`` of the shuffle played, and
    ``redealt`` (``[{"seed", "commit"}]``) for earlier shuffles of a redealt deal; nothing
    without fair play."""
    if not seeds:
        return {}
    trace: dict[str, Any] = {"seed": seeds[-1], "commit": commitment(seeds[-1])}
    if len(seeds) > 1:
        trace["redealt"] = [{"seed": s, "commit": commitment(s)} for s in seeds[:-1]]
    return trace
