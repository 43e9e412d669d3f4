"""Leak scan: no card of a hand ever reaches anyone but its owner before it is played.

Reads every message the bot sent or edited (the emulator's call log) against the database's
move log and deal traces:

- card buttons (``c:<game>:<deal>:<card>``) appear only in the private chat of the person who
  held that card in that deal;
- a card named in a message's text (``10♥``, ``Д♠``, ``Q♣``) is one already played: the text of
  a message about deal N (its header names "Сдача N" / "Deal N") names only cards played in
  deal N before the message went out (a hand's own header names it too: "your turn — on the
  table: …").

Hand-offs (kryuk, sixes): a card held by two people in one deal — a trump handed off, a
card returned — belongs to both, and to nobody else: only the pair's own chats may name it
(kryuk's hand-off is secret; sixes' group hears the offer and learns how many cards passed,
never which). Traces written before issue #14 name one ``card`` and one ``returned`` card
(or null); newer ones list ``cards`` and ``returned``; both are read.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass

from botapi_emulator import BotApiEmulator
from kozelbot.core.cards import Card, Rank, Suit
from kozelbot.core.i18n import LANGUAGES, translator
from kozelbot.core.table import Table
from kozelbot.core.texts import pair_name, seat_name
from kozelbot.views.general import card_label
from storage import Storage
from tests import secret_steps

MESSAGE_CALLS = {"sendMessage", "editMessageText"}
SLACK = 0.05
"""Seconds of clock skew forgiven between a committed move and a message about it."""


def _labels() -> dict[str, set[Card]]:
    found: dict[str, set[Card]] = defaultdict(set)
    for language in LANGUAGES:
        t = translator(language)
        for suit in Suit:
            for rank in Rank:
                found[card_label(Card(rank, suit), t)].add(Card(rank, suit))
    return found


LABELS = _labels()
CARD_RE = re.compile(
    "(?<![0-9A-Za-zА-Яа-яЁё])("
    + "|".join(re.escape(label) for label in sorted(LABELS, key=len, reverse=True))
    + ")"
)
DEAL_RE = re.compile(r"(?:[Сс]дача|[Зз]дача|[Dd]eal|[Ии]гра|[Гг]ра|[Gg]ame) (\d+)")


@dataclass(frozen=True)
class Leak:
    """A message that showed a card to someone who must not see it yet."""

    chat_id: int
    text: str
    why: str


async def scan(emu: BotApiEmulator, storage: Storage, game_ids: list[int]) -> list[Leak]:
    """Every leak in the emulator's log for the given games (run after the bot stopped)."""
    offset = time.time() - time.monotonic()  # emulator times are monotonic, moves wall-clock
    owners: dict[tuple[int, int], dict[Card, set[int]]] = {}
    """(game, deal) → card → user ids of everyone who held it in that deal."""
    announced: dict[tuple[int, int], set[Card]] = {}
    """(game, deal) → cards shown to everyone before they are played (the cover game's
    bottom card)."""
    played: dict[int, list[tuple[float, int, Card]]] = defaultdict(list)
    """game → (time, deal, card) of every card play."""
    redealt: set[tuple[int, int]] = set()
    face_down: set[tuple[int, int]] = set()
    """(game, deal) of kryuk's hvalyonka: its first four cards are shown only together."""
    drawn: dict[tuple[int, int], list[Card]] = {}
    """(game, deal) → the cards of a sixes opening trick, played by the call itself."""
    for game_id in game_ids:
        table = await storage.games.game(game_id)
        if table is None:
            continue
        for deal in await storage.games.deals(game_id):
            trace = deal.trace
            if trace.get("redeals"):
                redealt.add((game_id, deal.deal_no))
            if trace["variant"] == "cover":
                _cover_holders(trace, table, owners.setdefault((game_id, deal.deal_no), {}))
                options = trace["options"]
                if options["hand"] == 6 or options["opening"] == "seed000":  # the bottom card
                    bottom = Card.parse(trace["deck"][-1])  # is shown to all (RULES.md §2)
                    announced.setdefault((game_id, deal.deal_no), set()).add(bottom)
                continue
            if not trace["tricks"]:
                continue
            holders = owners.setdefault((game_id, deal.deal_no), {})
            first = trace["tricks"][0]
            if trace.get("opening") in ("shtany", "double_shtany", "mirror"):
                drawn[(game_id, deal.deal_no)] = [Card.parse(c) for c in first["cards"]]
            if first.get("blind") and trace.get("opening") == "hvalyonka":
                face_down.add((game_id, deal.deal_no))

            def user(seat: int) -> int:
                player = table.seats[seat]  # noqa: B023  (used at once, in this iteration)
                return player.user_id if player and player.user_id else 0

            for seat, hand in enumerate(trace["tricks"][0]["hands"]):
                for code in hand:
                    holders.setdefault(Card.parse(code), set()).add(user(seat))
            for handoff in trace.get("handoffs", []):  # both held both cards in turn
                pair = {user(handoff["from"]), user(handoff["to"])}
                for code in _handoff_cards(handoff):
                    holders.setdefault(Card.parse(code), set()).update(pair)
        for when, deal_no, action in await _plays(storage, game_id):
            if action.startswith(("lead:", "beat:")):  # the cover game's face-up cards
                for code in action.partition(":")[2].split(","):
                    played[game_id].append((when, deal_no, Card.parse(code)))
                continue
            if action.startswith("call:"):
                for card in drawn.get((game_id, deal_no), []):
                    played[game_id].append((when, deal_no, card))
                continue
            played[game_id].append((when, deal_no, Card.parse(action.removeprefix("play:"))))
        for key in face_down:  # the blind trick is revealed when its fourth card is played
            if key[0] != game_id:
                continue
            blind = [i for i, (_, d, _) in enumerate(played[game_id]) if d == key[1]][:4]
            if len(blind) == 4:
                revealed = played[game_id][blind[-1]][0]
                for i in blind:
                    played[game_id][i] = (revealed, key[1], played[game_id][i][2])
    leaks: list[Leak] = []
    for call in emu.history:
        if call.method not in MESSAGE_CALLS or not call.ok:
            continue
        chat_id = call.chat_id or 0
        text = str(call.params.get("text", ""))
        sent = call.time + offset
        for game_id, deal_no, card in _buttons(call.params.get("reply_markup")):
            if game_id not in game_ids or (game_id, deal_no) in redealt:
                continue
            held_by = owners.get((game_id, deal_no), {}).get(card)
            if held_by is not None and chat_id not in held_by:
                leaks.append(Leak(chat_id, text, f"button {card} of users {held_by}"))
        cards = {c for label in CARD_RE.findall(text) for c in LABELS[label]}
        if not cards:
            continue
        deal_match = DEAL_RE.search(text)
        if deal_match is None:
            continue  # lobby, rules, help: they name cards of the rules, not of any hand
        deal_no = int(deal_match.group(1)) - 1
        shown_before = {
            card
            for game_id in game_ids
            for when, d, card in played[game_id]
            if d == deal_no and when <= sent + SLACK
        }
        unplayed = {
            card
            for card in cards - shown_before
            if not any(
                chat_id in owners.get((g, deal_no), {}).get(card, set())
                or card in announced.get((g, deal_no), set())
                for g in game_ids
            )
        }
        if unplayed:
            leaks.append(Leak(chat_id, text, f"unplayed {unplayed} of deal {deal_no + 1}"))
    for game_id in game_ids:
        leaks += await _secret_steps(emu, storage, game_id, offset)
    return leaks


async def _secret_steps(
    emu: BotApiEmulator, storage: Storage, game_id: int, offset: float
) -> list[Leak]:
    """Issue #14 items 1–3 (``tests.secret_steps``): the group's table during secret steps,
    and the cover game's open points."""
    table = await storage.games.game(game_id)
    if table is None:
        return []
    shown = []
    for call in emu.history:
        if call.method in MESSAGE_CALLS and call.ok and call.chat_id == table.chat_id:
            text = str(call.params.get("text", ""))
            found = DEAL_RE.search(text)
            when = call.time + offset
            # An earlier match in the same chat has deals of the same numbers: not this one's.
            if found is not None and when >= table.created_at:
                shown.append(secret_steps.Shown(when, int(found.group(1)) - 1, text))
    if table.variant == "cover":
        sides = cover_sides(table)
        why = [
            w
            for d in await storage.games.deals(game_id)
            for w in secret_steps.open_points_leaks(d.trace, shown, sides)
        ]
    else:
        rows = await storage.database.fetchall(  # a test-only look at the raw log, with its times
            "SELECT created_at, deal_no, action FROM moves WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        moves = [
            secret_steps.Logged(float(r["created_at"]), int(r["deal_no"]), str(r["action"]))
            for r in rows
        ]
        why = secret_steps.secret_step_leaks(table.variant, moves, shown)
    return [Leak(table.chat_id, "", reason) for reason in why]


def _handoff_cards(handoff: dict[str, object]) -> list[str]:
    """The cards a traced hand-off moved, both ways: ``cards`` and ``returned`` lists, or
    (traces before issue #14) one ``card`` and one ``returned`` card or null."""
    given = handoff.get("cards")
    if given is None:
        given = [handoff["card"]] if handoff.get("card") else []
    returned = handoff.get("returned")
    if returned is None:
        returned = []
    elif isinstance(returned, str):
        returned = [returned]
    assert isinstance(given, list) and isinstance(returned, list)
    return [str(code) for code in [*given, *returned]]


def cover_sides(table: Table) -> list[list[str]]:
    """Each side's name in every language, as the cover game's table writes it: a pair's
    two names, or one player's."""
    pairs = table.options.get("mode", "pairs") == "pairs"
    count = 2 if pairs else len(table.seats)
    return [
        [
            pair_name(table, side, translator(lang))
            if pairs
            else seat_name(table, side, translator(lang))
            for lang in LANGUAGES
        ]
        for side in range(count)
    ]


async def _plays(storage: Storage, game_id: int) -> list[tuple[float, int, str]]:
    """(wall time, deal, action) of every card play of a game, and of every sixes call
    (an opening's call plays its first trick)."""
    rows = await storage.database.fetchall(  # a test-only look at the raw log, with its times
        "SELECT created_at, deal_no, action FROM moves WHERE game_id = ? AND (action LIKE"
        " 'play:%' OR action LIKE 'call:%' OR action LIKE 'lead:%' OR action LIKE 'beat:%')"
        " ORDER BY seq",
        (game_id,),
    )
    return [(float(r["created_at"]), int(r["deal_no"]), str(r["action"])) for r in rows]


def _cover_holders(trace: dict[str, object], table: object, holders: dict[Card, set[int]]) -> None:
    """The cover game: a card belongs to whoever was dealt or drew it."""
    seats = getattr(table, "seats")  # noqa: B009  (a Table; kept loose for the helper)

    def user(seat: int) -> int:
        player = seats[seat]
        return player.user_id if player and player.user_id else 0

    for seat, hand in enumerate(trace["hands"]):  # type: ignore[arg-type]
        for code in hand:
            holders.setdefault(Card.parse(code), set()).add(user(seat))
    for rnd in trace["rounds"]:  # type: ignore[attr-defined]
        for draw in rnd["draws"]:
            for code in draw["cards"]:
                holders.setdefault(Card.parse(code), set()).add(user(draw["seat"]))


def _buttons(markup: object) -> list[tuple[int, int, Card]]:
    if not isinstance(markup, dict):
        return []
    found = []
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = str(button.get("callback_data", ""))
            parts = data.split(":")
            if len(parts) == 4 and parts[0] in ("c", "x"):
                found.append((int(parts[1]), int(parts[2]), Card.parse(parts[3])))
    return found
