"""Leak scan: no card of a hand ever reaches anyone but its owner before it is played.

Reads every message the bot sent or edited (the emulator's call log) against the database's
move log and deal traces:

- card buttons (``c:<game>:<deal>:<card>``) appear only in the private chat of the person who
  held that card in that deal;
- a card named in a message's text (``10♥``, ``Д♠``, ``Q♣``) is one already played: the text of
  a message about deal N (its header names "Сдача N" / "Deal N") names only cards played in
  deal N before the message went out (a hand's own header names it too: "your turn — on the
  table: …").
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass

from botapi_emulator import BotApiEmulator
from kozelbot.cards import Card, Rank, Suit
from kozelbot.i18n import LANGUAGES, translator
from kozelbot.render import card_label
from storage import Storage

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
DEAL_RE = re.compile(r"(?:[Сс]дача|[Зз]дача|[Dd]eal) (\d+)")


@dataclass(frozen=True)
class Leak:
    """A message that showed a card to someone who must not see it yet."""

    chat_id: int
    text: str
    why: str


async def scan(emu: BotApiEmulator, storage: Storage, game_ids: list[int]) -> list[Leak]:
    """Every leak in the emulator's log for the given games (run after the bot stopped)."""
    offset = time.time() - time.monotonic()  # emulator times are monotonic, moves wall-clock
    owners: dict[tuple[int, int], dict[Card, int]] = {}
    """(game, deal) → card → user id of its holder."""
    played: dict[int, list[tuple[float, int, Card]]] = defaultdict(list)
    """game → (time, deal, card) of every card play."""
    redealt: set[tuple[int, int]] = set()
    for game_id in game_ids:
        table = await storage.game(game_id)
        if table is None:
            continue
        for deal in await storage.deals(game_id):
            trace = deal.trace
            if trace.get("redeals"):
                redealt.add((game_id, deal.deal_no))
            if not trace["tricks"]:
                continue
            holders = owners.setdefault((game_id, deal.deal_no), {})
            for seat, hand in enumerate(trace["tricks"][0]["hands"]):
                player = table.seats[seat]
                for code in hand:
                    holders[Card.parse(code)] = player.user_id if player and player.user_id else 0
        for when, deal_no, action in await _plays(storage, game_id):
            played[game_id].append((when, deal_no, Card.parse(action.removeprefix("play:"))))
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
            holder = owners.get((game_id, deal_no), {}).get(card)
            if holder is not None and holder != chat_id:
                leaks.append(Leak(chat_id, text, f"button {card} of user {holder}"))
        cards = {c for label in CARD_RE.findall(text) for c in LABELS[label]}
        if not cards:
            continue
        deal_match = DEAL_RE.search(text)
        if deal_match is None:
            continue  # lobby, rules, help: they name cards of the rules, not of any hand
        deal_no = int(deal_match.group(1)) - 1
        shown_before = {
            card for game_id in game_ids for when, d, card in played[game_id]
            if d == deal_no and when <= sent + SLACK
        }  # fmt: skip
        unplayed = cards - shown_before
        if unplayed:
            leaks.append(Leak(chat_id, text, f"unplayed {unplayed} of deal {deal_no + 1}"))
    return leaks


async def _plays(storage: Storage, game_id: int) -> list[tuple[float, int, str]]:
    """(wall time, deal, action) of every card play of a game."""
    rows = await storage._fetchall(  # a test-only look at the raw log, with its times
        "SELECT created_at, deal_no, action FROM moves WHERE game_id = ? AND action LIKE"
        " 'play:%' ORDER BY seq",
        (game_id,),
    )
    return [(float(r["created_at"]), int(r["deal_no"]), str(r["action"])) for r in rows]


def _buttons(markup: object) -> list[tuple[int, int, Card]]:
    if not isinstance(markup, dict):
        return []
    found = []
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = str(button.get("callback_data", ""))
            parts = data.split(":")
            if len(parts) == 4 and parts[0] == "c":
                found.append((int(parts[1]), int(parts[2]), Card.parse(parts[3])))
    return found
