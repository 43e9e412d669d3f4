"""``kozelbot verify``: check a revealed deal against what was shown before it, and deal it.

Given a deal's seed text and the seal shown before its first card, it checks the seal and
deals the seed again (the family's ``deal_from_seed``). Given also the match secret, the
lobby's match seal and the players' seed (all revealed or shown by the bot), it checks that
the secret is the one sealed before anyone joined and that the deal's key comes from it and
from the players' seed — so the operator chose neither the secret after seeing the players
nor the deal (``kozelbot.core.fairplay``).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from kozelbot.core.cards import Card
from kozelbot.core.fairplay import HEX64, SeedError, commitment, key_from, match_seal, parse_seed
from kozelbot.families.registry import rules_of


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """What ``verify`` found: the hash the seed has, the cards the seed deals, and (given
    the secret) whether the secret and the key check out."""

    seed: str
    expected: str
    """The deal's seal that was shown (lower case)."""
    actual: str
    """SHA-256 of the seed text."""
    piles: list[tuple[str, list[Card]]]
    """The dealt cards: ``seat 0``…, then ``talon`` or ``stock`` where the deal has one."""
    secret_sealed: bool | None = None
    """SHA-256 of the secret is the lobby's match seal (``None``: not asked)."""
    key_derived: bool | None = None
    """The seed's key is HMAC(secret, "<players' seed>:<n>") (``None``: not asked, or a
    ``kozel1`` seed, which names no shuffle number)."""

    @property
    def matches(self) -> bool:
        """Everything asked checks out (a ``None`` check was not asked, or cannot be)."""
        return hmac.compare_digest(self.expected, self.actual) and (
            self.secret_sealed is not False and self.key_derived is not False
        )


def _hex64(value: str, what: str) -> str:
    value = value.strip().lower()
    if HEX64.fullmatch(value) is None:
        raise SeedError(f"the {what} must be 64 hex digits (a SHA-256)")
    return value


def verify(
    seed: str,
    digest: str,
    *,
    secret: str | None = None,
    seal: str | None = None,
    client: str | None = None,
) -> VerifyResult:
    """Check a revealed seed text against the seal shown before the deal, deal it again,
    and, given ``secret`` (with the lobby's ``seal`` and the players' seed ``client``),
    check the secret and the key.

    ``SeedError`` for a malformed seed text, an unknown variant, a hash that is not 64 hex
    digits, or a secret given without its seal and players' seed."""
    seed = seed.strip()
    digest = _hex64(digest, "hash")
    fields = parse_seed(seed)
    try:
        family = rules_of(fields.variant)
    except KeyError:
        raise SeedError(f"unknown variant {fields.variant!r}") from None
    try:
        piles = family.deal_from_seed(seed)
    except ValueError as error:
        raise SeedError(str(error)) from None
    sealed = derived = None
    if secret is not None:
        if seal is None or client is None:
            raise SeedError("--secret needs --seal (the lobby's) and --client (the players' seed)")
        secret = _hex64(secret, "secret")
        sealed = hmac.compare_digest(match_seal(secret), _hex64(seal, "seal"))
        derived = key_from(secret, _hex64(client, "players' seed"), fields)
    return VerifyResult(seed, digest, commitment(seed), piles, sealed, derived)
