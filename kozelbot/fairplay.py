"""Provably fair shuffles: each deal's seed is committed before the first card and revealed
with the deal's result, and anyone can check it (``kozelbot verify SEED HASH``).

A table's ``secret`` (256 random bits) gives shuffle number ``n`` of its match the key
HMAC-SHA256(secret, n): a pseudo-random function, so one revealed key tells nothing of the
others or of the secret. The key's public form, the *seed text*, says what the deal needs::

    kozel1:<variant>:<context>:<key, 64 hex>

where ``<context>`` is the family's comma-separated ``key=value`` words (the follow family:
``deck``, ``players``, ``open`` and, for a hvalyonka, ``first``; the cover family:
``players``, ``hand``, ``dealer`` and ``out``). The chance step deals with
``random.Random(seed_text)``, so the *commitment*, SHA-256 of the whole text, covers the
context too, and ``Family.deal_from_seed`` deals the same cards again without the database.

Games begun before fair play (empty ``secret``) shuffle as before and show nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kozelbot.cards import Card
    from kozelbot.game import DealScored, GameState
    from kozelbot.i18n import Translator
    from kozelbot.table import Table

PREFIX = "kozel1"
"""The seed text format's name and version."""
_SEED = re.compile(r"kozel1:([a-z][a-z0-9_]*):((?:[a-z]+=[0-9a-z]+)(?:,[a-z]+=[0-9a-z]+)*):"
                   r"([0-9a-f]{64})")  # fmt: skip
_HASH = re.compile(r"[0-9a-f]{64}")


class SeedError(ValueError):
    """A seed text or hash that ``verify`` cannot read; the message says why."""


@dataclass(frozen=True, slots=True)
class SeedText:
    """A seed text taken apart: the variant, its context words and the shuffle's key."""

    variant: str
    context: dict[str, str]
    key: str

    def number(self, word: str, allowed: range) -> int:
        """A context word's value as a number in ``allowed`` (``SeedError`` otherwise)."""
        value = self.context.get(word)
        if value is None or not value.isdigit() or int(value) not in allowed:
            raise SeedError(f"the seed's {word}= is missing or out of range")
        return int(value)


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """What ``verify`` found: the hash the seed has, and the cards the seed deals."""

    seed: str
    expected: str
    """The hash that was shown (lower case)."""
    actual: str
    """SHA-256 of the seed text."""
    piles: list[tuple[str, list[Card]]]
    """The dealt cards: ``seat 0``…, then ``talon`` or ``stock`` where the deal has one."""

    @property
    def matches(self) -> bool:
        return hmac.compare_digest(self.expected, self.actual)


def shuffle_seed(secret: str, shuffle_no: int, context: str) -> str:
    """The seed text of shuffle ``shuffle_no`` of a match: ``context`` (``<variant>:<words>``)
    and the key HMAC-SHA256(secret, shuffle number)."""
    key = hmac.new(secret.encode(), str(shuffle_no).encode(), hashlib.sha256).hexdigest()
    return f"{PREFIX}:{context}:{key}"


def commitment(seed: str) -> str:
    """The commitment to a seed text: its SHA-256, 64 hex digits."""
    return hashlib.sha256(seed.encode()).hexdigest()


def parse_seed(seed: str) -> SeedText:
    """Take a seed text apart (``SeedError`` if it is not one)."""
    found = _SEED.fullmatch(seed.strip())
    if found is None:
        raise SeedError(
            "not a seed text: expected kozel1:<variant>:<key=value,...>:<64 hex digits>"
        )
    variant, words, key = found.groups()
    context = dict(word.split("=", 1) for word in words.split(","))
    return SeedText(variant, context, key)


def verify(seed: str, digest: str) -> VerifyResult:
    """Check a revealed seed text against the hash shown before the deal, and deal it again.

    ``SeedError`` for a malformed seed text, an unknown variant, or a hash that is not 64 hex
    digits."""
    seed = seed.strip()
    digest = digest.strip().lower()
    fields = parse_seed(seed)
    if _HASH.fullmatch(digest) is None:
        raise SeedError("the hash must be 64 hex digits (a SHA-256)")
    from kozelbot.games import family_of

    try:
        family = family_of(fields.variant)
    except KeyError:
        raise SeedError(f"unknown variant {fields.variant!r}") from None
    try:
        piles = family.deal_from_seed(seed)
    except ValueError as error:
        raise SeedError(str(error)) from None
    return VerifyResult(seed, digest, commitment(seed), piles)


def current_commitment(state: GameState) -> str | None:
    """The commitment of the shown deal's cards in play (``None`` without fair play)."""
    return commitment(state.seeds[-1]) if state.seeds else None


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


def commit_line(table: Table, state: GameState, t: Translator) -> str | None:
    """The table message's line (HTML) with the commitment of the cards in play: the full
    hash in ``<code>`` (copyable); ``None`` in a game without fair play."""
    digest = current_commitment(state) if table.secret else None
    if digest is None:
        return None
    return seal_line(digest, t)


def seal_line(digest: str, t: Translator) -> str:
    """``🔒 Shuffle seal: <code>HASH</code>`` (HTML): the commitment, full and copyable."""
    label = escape(t("Shuffle seal"))
    return f"🔒 {label}: <code>{digest}</code>"


def revealed_seeds(deal: DealScored | GameState | Mapping[str, Any]) -> list[str]:
    """The seed texts that may be shown for a deal: a result's, a stored deal trace's, or a
    state's when the deal it shows is scored (never a deal still in play)."""
    if isinstance(deal, Mapping):
        if "seed" not in deal:
            return []
        return [*(str(r["seed"]) for r in deal.get("redealt", ())), str(deal["seed"])]
    from kozelbot.game import DealScored

    if isinstance(deal, DealScored):
        return list(deal.seeds)
    last = deal.last_result
    if last is None or last.deal_no != deal.deal_shown:
        return []
    return list(last.seeds)


def reveal(
    table: Table, deal: DealScored | GameState | Mapping[str, Any], t: Translator
) -> str | None:
    """The lines (HTML) revealing a scored deal's seed texts, the played one last, each in
    ``<code>`` to copy into ``kozelbot verify SEED HASH``; ``None`` without fair play."""
    seeds = revealed_seeds(deal) if table.secret else []
    if not seeds:
        return None
    label = escape(t("Shuffle seed"))
    return "\n".join(f"🔓 {label}: <code>{escape(seed)}</code>" for seed in seeds)
