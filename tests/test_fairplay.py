"""Fair play (issue #8 item 7, ``kozelbot.core.fairplay``): every deal's shuffle seed is committed
before its first card and revealed with its result; ``kozelbot verify SEED HASH`` checks it
and deals the same cards again; one revealed seed tells nothing of another.

Seeded whole matches of every preset, all seats computers, run through ``advance`` with a
table that has a secret, exactly as the service runs them.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import random
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kozelbot.core import fairplay
from kozelbot.core.cards import Card
from kozelbot.core.i18n import translator
from kozelbot.core.protocol import AnyState, DealScored, advance, shuffle_for, shuffle_rng
from kozelbot.core.records import DealRecord
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.families.cover.state import CoverState
from kozelbot.families.follow.records import DealState
from kozelbot.families.follow.state import MatchState
from kozelbot.families.registry import load_state, new_state, players_of, preset
from kozelbot.tables.service import GameService
from kozelbot.tools.verify import verify
from kozelbot.views import seals
from storage import Storage

ROOT = Path(__file__).resolve().parent.parent
SECRET = "5e" * 32
T = translator("en")

SETUPS: list[tuple[str, tuple[str, ...]]] = [
    ("hvalenyi", ()),
    ("hvalenyi", ("deck=32",)),
    ("hvalenyi", ("players=2",)),
    ("hvalenyi", ("players=2", "deck=32")),
    ("kryuk", ()),
    ("sixes", ()),
    ("sixes", ("no_shamok=true", "royal=true")),
    ("belka", ()),
    ("belka", ("deck=36", "ace_discard_ban=true")),
    ("cover", ()),
    ("cover", ("hand=4",)),
    ("cover", ("mode=self", "players=2")),
    ("cover", ("mode=self", "players=3")),
    ("cover", ("mode=self", "players=3", "poshka=true", "opening=seed000")),
]


def _table(
    variant: str, words: tuple[str, ...], secret: str = SECRET, seed: int = 1, client: str = ""
) -> Table:
    options = preset(variant).parse(words).model_dump()
    return Table(
        chat_id=-1,
        variant=variant,
        options=options,
        creator_id=1,
        seed=seed,
        secret=secret,
        client_seed=client,
    )


@dataclass
class Dealt:
    """One shuffle as the engine made it: its seed text, the commitment the table could show
    right after the chance step, and what the engine dealt (read when the deal is scored)."""

    deal_no: int
    seed: str
    commit: str | None
    piles: Any
    """Follow: the ``DealState`` plus the talon and stock as dealt; cover: the piles."""


@dataclass
class Match:
    shuffles: list[Dealt] = field(default_factory=list)
    traces: list[dict[str, Any]] = field(default_factory=list)
    results: list[DealScored] = field(default_factory=list)


def _play(table: Table) -> tuple[AnyState, Match]:
    """A whole match of computers, recording every shuffle and every deal's trace."""
    state = new_state(table.variant, table.options)
    family = players_of(table.variant)
    record = Match()

    def scored(events: list[Any]) -> None:
        for event in events:
            if isinstance(event, DealScored):
                record.results.append(event)
                record.traces.append(state.deal_trace(event, match=1, players=["a"] * 4))

    def chanced(events: list[Any]) -> None:
        assert state.seeds, "a fair-play chance step keeps its seed text"
        deal_no = state.deal_shown
        assert deal_no is not None
        record.shuffles.append(
            Dealt(
                deal_no,
                state.seeds[-1],
                fairplay.current_commitment(state.seeds),
                _engine_piles(state),
            )
        )
        # Nothing of the seed is revealed while its deal is in play (a royal kozel is scored
        # as it is dealt).
        scored_now = any(isinstance(event, DealScored) for event in events)
        assert bool(seals.revealed_seeds(state)) is scored_now
        scored(events)

    advance(
        state,
        table,
        lambda seat: True,
        family.choose,
        on_move=lambda seat, action, events: scored(events),
        on_events=chanced,
    )
    assert state.over
    return state, record


def _engine_piles(state: AnyState) -> Any:
    if isinstance(state, MatchState):
        deal = state.current
        assert deal is not None
        return deal, list(deal.talon), list(deal.stock)
    assert isinstance(state, CoverState) and state.current is not None
    game = state.current
    return [*((f"seat {s}", list(h)) for s, h in enumerate(game.dealt)), ("talon", game.talon[:])]


def _as_piles(dealt: Dealt) -> list[tuple[str, list[Card]]]:
    """What the engine dealt, in ``deal_from_seed``'s labels."""
    if not isinstance(dealt.piles, tuple):
        return list(dealt.piles)
    deal, talon, stock = dealt.piles
    assert isinstance(deal, DealState)
    if fairplay.parse_seed(dealt.seed).context["open"] == "call":
        return [("stock", stock)]  # a called opening: the hands depend on the call
    piles = [(f"seat {s}", list(h)) for s, h in enumerate(deal.initial_hands)]
    return [*piles, ("talon", talon)] if talon else piles


def _unordered(piles: list[tuple[str, list[Card]]], dealt: Dealt) -> Any:
    """A hvalyonka's hands are drawn and played face down in between: the same cards, but
    not in the order drawn. Every other pile is compared card by card."""
    if fairplay.parse_seed(dealt.seed).context.get("open") != "hvalyonka":
        return piles
    return [(label, sorted(map(str, cards))) for label, cards in piles]


@pytest.mark.parametrize(("variant", "words"), SETUPS, ids=lambda v: str(v))
def test_every_deal_is_committed_before_its_first_card_and_verifies_after(
    variant: str, words: tuple[str, ...]
) -> None:
    """Each shuffle's commitment is known right after the chance step; the deal's trace
    reveals a seed whose SHA-256 it is, ``verify`` accepts it and deals exactly the engine's
    cards (every seat, the talon or the stock)."""
    _check_match(_table(variant, words))


def test_a_cover_game_with_a_player_out_verifies() -> None:
    """Each for self, a player at 12 is out: the seed says so (``out=``) and deals past them."""
    match = _check_match(_table("cover", ("mode=self", "players=3"), secret=f"{1:064x}"))
    assert any(",out=" in dealt.seed for dealt in match.shuffles)


def _check_match(table: Table) -> Match:
    variant = table.variant
    _state, match = _play(table)
    assert match.traces and len(match.traces) == len(match.results)
    for dealt in match.shuffles:
        assert dealt.commit is not None
        prefix = "kozel2" if table.client_seed else "kozel1"
        assert dealt.seed.startswith(f"{prefix}:{variant}:")
        result = verify(dealt.seed, dealt.commit)
        assert result.matches
        assert _unordered(result.piles, dealt) == _unordered(_as_piles(dealt), dealt)
    for trace, scored in zip(match.traces, match.results, strict=True):
        seeds = [d.seed for d in match.shuffles if d.deal_no == trace["deal"]]
        commits = [d.commit for d in match.shuffles if d.deal_no == trace["deal"]]
        assert trace["seed"] == seeds[-1] == scored.seeds[-1]
        assert trace["commit"] == commits[-1] == hashlib.sha256(seeds[-1].encode()).hexdigest()
        assert seals.revealed_seeds(trace) == seeds == list(scored.seeds)
        if len(seeds) > 1:  # a redealt deal reveals its earlier shuffles too
            assert [r["commit"] for r in trace["redealt"]] == commits[:-1]
    _check_the_deals_block(table, match)
    return match


def _check_the_deals_block(table: Table, match: Match) -> None:
    """Issue #30 item 6: the «🔑 Check the deals» answer of the finished match holds a
    ``kozelbot verify`` line for every shuffle the engine made, once each, the played one
    last, and ``verify`` (with the match flags it carries) accepts each."""
    records = [
        DealRecord(
            game_id=1,
            deal_no=trace["deal"],
            outcome="normal",
            points=(0, 0),
            award=(0, 0),
            multiplier=1,
            score=(0, 0),
            trace=trace,
        )
        for trace in match.traces
    ]
    assert seals.verify_texts(table, records, T) == [], "nothing while the match is live"
    over = table.model_copy(update={"status": TableStatus.FINISHED})
    texts = seals.verify_texts(over, records, T)
    assert texts and all(len(text) <= 4096 for text in texts)
    body = "\n".join(html.unescape(re.sub(r"<[^>]+>", "", text)) for text in texts)
    values = dict(re.findall(r"^(SECRET|SEAL|PLAYERS)=([0-9a-f]{64})$", body, re.M))
    assert values["SECRET"] == table.secret
    assert values.get("PLAYERS", "") == table.client_seed
    commands = re.findall(r"^kozelbot verify (\S+) ([0-9a-f]{64})(.*)$", body, re.M)
    scored = {trace["deal"] for trace in match.traces}
    assert [seed for seed, _, _ in commands] == [
        d.seed for d in match.shuffles if d.deal_no in scored
    ]
    for seed, digest, flags in commands:
        extra = {}
        if table.client_seed:
            assert flags == ' --secret "$SECRET" --seal "$SEAL" --client "$PLAYERS"'
            extra = {
                "secret": values["SECRET"],
                "seal": values["SEAL"],
                "client": values["PLAYERS"],
            }
        result = verify(seed, digest, **extra)
        assert result.matches and result.key_derived is not False, seed


def test_redealt_shuffles_are_revealed_with_the_deal() -> None:
    """Belka's weak hands ask for redeals: the deal reveals both shuffles, the one played last."""
    match = _check_match(_table("belka", ()))
    assert any("redealt" in trace for trace in match.traces)


def test_a_tampered_seed_or_hash_fails() -> None:
    _state, match = _play(_table("kryuk", ()))
    seed, commit = match.shuffles[1].seed, match.shuffles[1].commit
    assert commit is not None
    flipped = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    assert not verify(flipped, commit).matches
    assert not verify(seed, commit[:-1] + ("0" if commit[-1] != "0" else "1")).matches
    # The context is committed too: the same key claimed for another deal fails.
    first = int(fairplay.parse_seed(seed).context["first"])
    other = seed.replace(f"first={first}", f"first={(first + 1) % 4}")
    assert other != seed and not verify(other, commit).matches
    assert verify(seed, commit.upper()).matches


def test_each_shuffle_has_its_own_seed_from_the_secret_alone() -> None:
    """Seeds are HMAC-SHA256(secret, shuffle number): all differ, none follows from another
    (each needs the secret), and another secret changes every one."""
    _state, first = _play(_table("hvalenyi", ()))
    _state, second = _play(_table("hvalenyi", (), secret="a7" * 32))
    keys = [fairplay.parse_seed(d.seed).key for d in first.shuffles]
    assert len(keys) == len(set(keys)) > 3
    for number, key in enumerate(keys):
        assert key == hmac.new(SECRET.encode(), str(number).encode(), hashlib.sha256).hexdigest()
    other = {fairplay.parse_seed(d.seed).key for d in second.shuffles}
    assert not other & set(keys)
    # The match seed plays no part in fair-play shuffles.
    _state, same = _play(_table("hvalenyi", (), seed=999))
    assert [d.seed for d in same.shuffles] == [d.seed for d in first.shuffles]


def test_a_game_without_a_secret_shuffles_as_before() -> None:
    """Games begun before fair play (empty secret) keep ``shuffle_rng(seed, n)``: the same
    match as a bare seed, with no seed texts and no trace keys."""
    table = _table("belka", (), secret="", seed=42)
    old = new_state("belka", table.options)
    assert shuffle_for(table, old).seed is None
    assert shuffle_for(table, old).rng.random() == random.Random(42 * 1_000_003).random()
    assert shuffle_for(table, old).rng.random() == shuffle_rng(42, 0).random()
    family = players_of("belka")
    traces: list[dict[str, Any]] = []

    def scored(events: list[Any]) -> None:
        traces.extend(
            old.deal_trace(e, match=1, players=[]) for e in events if isinstance(e, DealScored)
        )

    advance(old, table, lambda s: True, family.choose, on_move=lambda s, a, e: scored(e))
    bare = new_state("belka", table.options)
    advance(bare, 42, lambda s: True, family.choose)
    assert old == bare and old.seeds == []
    assert traces and not any("seed" in t or "commit" in t for t in traces)
    assert fairplay.current_commitment(old.seeds) is None
    assert seals.revealed_seeds(traces[-1]) == []


def test_a_state_saved_before_fair_play_loads_and_deals_as_before() -> None:
    state = new_state("hvalenyi", {})
    state.chance(shuffle_rng(7, 0))
    data = state.dump()
    del data["seeds"]
    restored = load_state(data)
    assert restored == state and restored.seeds == []


def test_a_seed_is_revealed_only_once_its_deal_is_scored() -> None:
    table = _table("hvalenyi", ())
    state = new_state("hvalenyi", table.options)
    state.chance(shuffle_for(table, state))
    assert fairplay.current_commitment(state.seeds) is not None
    assert seals.revealed_seeds(state) == []
    assert state.view_for(None) is not None
    assert state.seeds[-1] not in repr(state.view_for(0))


def test_bad_input_to_verify_is_refused_clearly() -> None:
    good = fairplay.shuffle_seed(SECRET, 0, "hvalenyi:deck=36,players=4,open=plain")
    digest = fairplay.commitment(good)
    assert verify(good, digest).matches
    for seed, message in [
        ("hello", "not a seed text"),
        (good.replace("hvalenyi", "poker"), "unknown variant"),
        (good.replace("deck=36", "deck=35"), "deck"),
        (good.replace("hvalenyi:", "kryuk:"), "not played with"),
        (good.replace("open=plain", "open=hvalyonka"), "first"),
        (good.replace("hvalenyi:deck=36,players=4", "cover:deck=36,players=4"), "hand"),
    ]:
        with pytest.raises(fairplay.SeedError, match=message):
            verify(seed, digest)
    with pytest.raises(fairplay.SeedError, match="64 hex"):
        verify(good, digest[:-1])
    with pytest.raises(fairplay.SeedError, match="--seal"):
        verify(good, digest, secret=SECRET)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kozelbot", "verify", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_verify_command_exit_codes() -> None:
    """0: the hash is the seed's (the hands printed as card labels); 1: it is not; 2: bad
    input with a message."""
    table = _table("cover", ("hand=4",))
    state = new_state("cover", table.options)
    seed = fairplay.shuffle_seed(SECRET, 3, f"cover:{state.seed_context()}")
    digest = fairplay.commitment(seed)
    ok = _cli(seed, digest)
    assert ok.returncode == 0, ok.stderr
    hands = verify(seed, digest).piles
    first = " ".join(f"{c.rank.value}{c.suit.symbol}" for c in hands[0][1])
    assert "OK" in ok.stdout and f"seat 0: {first}" in ok.stdout
    bad = _cli(seed, hashlib.sha256(b"other").hexdigest())
    assert bad.returncode == 1 and "MISMATCH" in bad.stdout
    for args in [
        ("nonsense", digest),
        (seed, "xyz"),
        (seed,),
        (seed.replace("cover", "poker"), digest),
    ]:
        refused = _cli(*args)
        assert refused.returncode == 2 and refused.stderr.strip(), args


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "f.db")
    try:
        yield opened
    finally:
        await opened.close()


CLIENT = hashlib.sha256(b"join:1:m5").hexdigest()


@pytest.mark.parametrize(("variant", "words"), SETUPS[::3], ids=lambda v: str(v))
def test_with_a_players_seed_every_deal_verifies_with_the_revealed_secret(
    variant: str, words: tuple[str, ...]
) -> None:
    """kozel2: the key is HMAC(secret, "<players' seed>:<n>"), the seed names n; with the
    secret, its lobby seal and the players' seed, verify checks all three."""
    match = _check_match(_table(variant, words, client=CLIENT))
    seal = fairplay.match_seal(SECRET)
    for number, dealt in enumerate(match.shuffles):
        fields = fairplay.parse_seed(dealt.seed)
        assert fields.version == "kozel2" and fields.context["n"] == str(number)
        expected = hmac.new(SECRET.encode(), f"{CLIENT}:{number}".encode(), hashlib.sha256)
        assert fields.key == expected.hexdigest()
        assert dealt.commit is not None
        result = verify(dealt.seed, dealt.commit, secret=SECRET, seal=seal, client=CLIENT)
        assert result.secret_sealed and result.key_derived and result.matches


def test_a_wrong_secret_seal_or_players_seed_is_caught() -> None:
    _state, match = _play(_table("hvalenyi", (), client=CLIENT))
    dealt = match.shuffles[0]
    assert dealt.commit is not None
    seal, other = fairplay.match_seal(SECRET), "a7" * 32
    # The operator cannot show another secret than the one sealed in the lobby…
    wrong = verify(dealt.seed, dealt.commit, secret=other, seal=seal, client=CLIENT)
    assert wrong.secret_sealed is False and not wrong.matches
    # …nor claim a players' seed the deal did not use.
    wrong = verify(dealt.seed, dealt.commit, secret=SECRET, seal=seal, client="0" * 64)
    assert wrong.secret_sealed and wrong.key_derived is False and not wrong.matches


def test_a_players_seed_changes_every_shuffle_and_the_seating() -> None:
    _state, plain = _play(_table("hvalenyi", (), client=CLIENT))
    _state, other = _play(_table("hvalenyi", (), client="1" * 64))
    assert not {d.seed for d in plain.shuffles} & {d.seed for d in other.shuffles}
    assert fairplay.seating_seed(SECRET, CLIENT) != fairplay.seating_seed(SECRET, "1" * 64)
    assert fairplay.seating_seed(SECRET, CLIENT) != fairplay.seating_seed("a7" * 32, CLIENT)


def test_the_verify_command_checks_the_secret(tmp_path: Path) -> None:
    _state, match = _play(_table("kryuk", (), client=CLIENT))
    dealt = match.shuffles[0]
    assert dealt.commit is not None
    seal = fairplay.match_seal(SECRET)
    ok = _cli(dealt.seed, dealt.commit, "--secret", SECRET, "--seal", seal, "--client", CLIENT)
    assert ok.returncode == 0, ok.stderr
    assert "sealed in the lobby" in ok.stdout and "players' seed:n" in ok.stdout
    bad = _cli(dealt.seed, dealt.commit, "--secret", "a7" * 32, "--seal", seal, "--client", CLIENT)
    assert bad.returncode == 1 and "MISMATCH" in bad.stdout
    refused = _cli(dealt.seed, dealt.commit, "--secret")
    assert refused.returncode == 2


async def test_a_new_game_draws_its_secret_and_invite_from_the_entropy_source(
    storage: Storage,
) -> None:
    """Secrets come from ``secrets`` by default (the table's reproducible RNG plays no part);
    the same entropy reproduces a match: the same secret, the same committed first deal."""
    default = GameService(storage.games, rng=random.Random(11), clock=lambda: 1000.0)
    one = await default.lobby.new_game(-3, 3, [])
    two = await default.lobby.new_game(-4, 4, [])
    assert one.secret != two.secret and one.invite != two.invite
    seeds = []
    for chat, token in ((-5, "m1"), (-6, "m1"), (-7, "m2")):
        service = GameService(
            storage.games,
            rng=random.Random(11),
            clock=lambda: 1000.0,
            entropy=random.Random(11).randbytes,
        )
        table = await service.lobby.new_game(chat, 7, ["seating=ordered"])
        assert len(table.secret) == 64 and int(table.secret, 16) >= 0
        await service.lobby.join(table.game_id, Player(user_id=7, name="Аня"), token=token)
        change = await service.lobby.start(table.game_id, 7)
        state = change.state
        assert state is not None and state.seeds
        assert change.table.client_seed == fairplay.players_seed([f"join:7:{token}"])
        assert verify(state.seeds[-1], fairplay.commitment(state.seeds[-1])).matches
        seeds.append(state.seeds[-1])
        await service.stop(table.game_id)
    assert seeds[0] == seeds[1]  # the same secret and the same joins: the same deal
    assert seeds[2] != seeds[0]  # a join Telegram numbered otherwise: another deal
