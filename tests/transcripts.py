"""What people read, as they read it: a match's chats written out, and the reading checks.

``transcript`` writes the group and every private chat of a match the way the people saw
them: each message in order, every state it was shown in (its edits, keyboard-only edits
included), its keyboard, each press on it and the bot's answer (toast or alert), and whether
it was deleted. ``write`` puts one under ``tests/artifacts/transcripts/`` (a file to read
after a run), and ``problems`` reads it for the faults issue #15 found in whole matches:

- a name's gender guessed both ways («вышел(а)», «вийшов(-ла)»);
- fair-play digits (a seal, a deal's ``kozel2:`` key, the secret: 8 or more hex digits)
  anywhere but the private «🔑 Проверка раздач» a player asked for at the match's end
  (issue #30 item 6: nothing of it per deal, nor in any result, in the match's chat);
- a Ukrainian word in a Russian chat (the cover game's «Відбій»), or an English one (a text
  missing from the catalog);
- an unhelpful refusal («Сейчас это невозможно.»);
- a line of the group's lobby, table or results, or of a hand, wider than a phone's row
  (``PHONE_ROW``), where it can be kept to one (a sentence may wrap);
- the running score with one side unnamed (``Счёт 0 : 2``);
- a hand that after the match names a deal that was never dealt;
- a variant speaking another's words (two players' «прикуп», kryuk's «На обязе»);
- a hand whose cards you may not play now differ from the playable ones only by a faint
  trailing «·», or come before a playable one (issue #30 item 9: they are bracketed, «(К♥)»,
  after the playable ones).

and the faults issue #30 found on a phone:

- a figure glued to a name (``Бот 1+Бот 3 2``, ``Карт на руках: Аня 6``): a number right
  after a name that may end in a number reads as one (``name_figure``); a card after a name
  is no figure (its suit mark sets it apart);
- a line the phone wraps inside an item: a sentence's row ending in ``14 :`` or ``→``, a
  list line starting or ending with its separator (``wraps_inside``);
- a computer's name with a space the phone may wrap at (``🤖 Бот`` / ``1``): its spaces
  must be no-break ones (``breakable_computer``; ``bot`` writes a name as the bot does);

and the words of issue #30 item 11 (``word_problems``, in every language, on the messages
and on the answers to presses — the 💡 hint is an alert):

- a fraction of an eye (of a point, a pair, a loser point), «на 0,1 глаза», or any decimal
  in a 💡 hint or a 🔍 analysis;
- an option by its key outside a command a person may type («players=2:», «no_shamok»);
- a 💡 hint whose move starts in lowercase («💡 зайти К♠: …»);

and, in a Russian match's private chats, a finished hand that says more than its one line
(«Сдача 3 закончена.»: no header above it saying the deal and trump again).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from botapi_emulator import BotApiEmulator, ChatMessage
from botapi_emulator.keyboards import inline_buttons
from tests import phone_pixels
from tests.e2e import NAMES, Players

PHONE_ROW = 34
"""Characters one row of a 360-px phone shows (``benchmarks/line_width.py``). The checks hold
the texts to it on their own, not to ``kozelbot.core.texts.LINE``, so widening ``LINE`` back to 40
fails them."""
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "transcripts"
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")
GUESSED_GENDER = re.compile(r"\w\((?:а|ла|-ла)\)")
UKRAINIAN = re.compile(r"[іїєґІЇЄҐ]|Відбій")
ENGLISH = re.compile(r"(?<![/\w:.@-])[A-Za-z]{3,}\b")
"""A word in Latin letters: a text left untranslated (commands, the bot's name, variant keys
and revealed keys excepted, see ``_wrong_words``)."""
CHECK_HEAD = "🔑 Проверка раздач"
"""The first line of the private answer of «🔑 Проверить раздачи» (``kozelbot.views.seals``)."""
HEXISH = re.compile(r"\b[0-9a-f]{8,}\b")
UNHELPFUL = ("Сейчас это невозможно", "Not possible right now", "Зараз це неможливо")
RESULT_POST = re.compile(r"^(Сдача|Игра|Deal|Game) \d+:")
"""The first line of a deal's (the cover game's: a game's) result post."""
SENTENCE = re.compile(r"[.!?…:;]$")
"""The end of a sentence or clause (a label ending in a colon is one too)."""
CARD_BUTTON = re.compile(r"^(\()?(?:10|[2-9ВДКТ])[♣♠♥♦](·|\))?$")
"""A card's button in a Russian hand: ``К♥``, a bracketed ``(К♥)`` (may not be played now),
or the old faint ``К♥·``."""
FINISHED = re.compile(r"^(?:Сдача|Игра)(?: \d+)?(?:, последняя в партии,)? закончена\.$", re.M)
"""A finished hand's statement (the group's table ends with «Сдача закончена.» too)."""
HAND_DEAL = re.compile(r"· (?:сдача|игра) (\d+)")
"""The deal (game) a hand message's header names."""
COMPUTER = "🤖\u00a0(?:Бот|Bot)\u00a0\\d+"
"""A computer's name as the bot writes it: in one piece (``kozelbot.core.texts.computer_name``)."""
BREAKABLE_COMPUTER = re.compile(r"🤖\s*(?:Бот|Bot)\s*\d+")
"""A computer's name, whatever its spaces (``problems`` says when one may break)."""
FIGURE_AFTER = r"(?![\w]) \+?\d+(?![\d♣♠♥♦])"
"""A space and a number (a score, a count, ``+13``) that is not a card's rank."""
ENDS = ("·", "→", "+")
STARTS = ("·", "+", ":")
"""What stands between the items of a line: a row never ends (starts) with one."""
UNIT_FRACTION = re.compile(
    r"\d[.,]\d+\s*(?:глаз|ок[оа]\b|оч(?:ей|і)|eyes?\b|пар[аиы]?\b|pairs?\b|штрафн|програшн|loser)",
    re.IGNORECASE,
)
"""A decimal fraction of a unit people score in («0,1 глаза», «0.3 eyes», «1,5 пары»)."""
DECIMAL = re.compile(r"\d[.,]\d")
ADVICE = ("💡", "🔍")
"""How the hint (an alert) and the analysis (a message) start: no decimal in either."""
COMMAND = re.compile(r"/[a-z]+\b.*")
"""A command and what follows it on its line: what a person may type («/newgame hvalenyi
players=2»), where an option's key is right."""
OPTION_KEY = re.compile(r"(?<![\w/@-])(?:[a-z]+=\w|[a-z]+_[a-z_]+\b)")
"""An option by its key: ``players=2``, ``no_shamok``, ``ace_discard_ban``."""


@dataclass(frozen=True)
class Shown:
    """One state of one message as a chat showed it."""

    chat: str
    message_id: int
    edit: int
    """0 for the message as sent, then 1, 2, … for each edit."""
    from_bot: bool
    text: str
    buttons: tuple[str, ...]
    deleted: bool


def states(emu: BotApiEmulator, chat_id: int, title: str) -> list[Shown]:
    """Every state of every message of a chat, in order."""
    found: list[Shown] = []
    for message in emu.all_messages(chat_id, include_deleted=True):
        if message.is_service:
            continue
        shown = [*message.shown, (message.text, message.reply_markup)]
        for edit, (text, markup) in enumerate(shown):
            found.append(
                Shown(
                    title,
                    message.message_id,
                    edit,
                    message.from_bot,
                    text,
                    tuple(t for row in inline_buttons(markup) for t, _ in row),
                    message.deleted and edit == len(shown) - 1,
                )
            )
    return found


def _message_lines(emu: BotApiEmulator, message: ChatMessage) -> list[str]:
    who = "🤖" if message.from_bot else str(message.sender.get("first_name", "?"))
    lines: list[str] = []
    shown = [*message.shown, (message.text, message.reply_markup)]
    labels: dict[str, str] = {}
    for edit, (text, markup) in enumerate(shown):
        head = f"── #{message.message_id} {who}" + (f" · правка {edit}" if edit else "")
        lines += [head, text]
        rows = inline_buttons(markup)
        labels.update((data, label) for row in rows for label, data in row)
        lines += ["  " + " ".join(f"[{label}]" for label, _ in row) for row in rows]
    for query in sorted(emu.queries.values(), key=lambda q: q.created):
        if query.message is not message:
            continue
        answer = query.answer
        said = "" if answer is None or not answer.text else answer.text
        kind = "⚠️" if answer is not None and answer.show_alert else "💬"
        press = f"  👆 {query.user.first_name}: [{labels.get(query.data, query.data)}]"
        lines.append(press + (f" → {kind} {said}" if said else ""))
    if message.deleted:
        lines.append("  ✖ удалено")
    return lines


def transcript(emu: BotApiEmulator, chats: Iterable[tuple[int, str]]) -> str:
    """The chats (id, title) written out, one after the other."""
    lines: list[str] = []
    for chat_id, title in chats:
        lines += ["", f"══════ {title} ══════"]
        for message in emu.all_messages(chat_id, include_deleted=True):
            if not message.is_service:
                lines += _message_lines(emu, message)
    return "\n".join(lines).lstrip("\n") + "\n"


def write(name: str, text: str) -> Path:
    """Save a transcript as ``tests/artifacts/transcripts/<name>.txt``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def problems(
    shown: list[Shown], *, group: str, variant: str, players: int, deals: int
) -> list[str]:
    """What reads wrong in a Russian match (see the module docstring); ``deals``: how many
    deals (cover: games) the match had."""
    found: list[str] = []

    def bad(state: Shown, why: str, line: str) -> None:
        found.append(f"{state.chat} #{state.message_id}/{state.edit}: {why}: {line!r}")

    for state in (s for s in shown if s.from_bot):
        checking = state.text.startswith(CHECK_HEAD)  # always private: the presser's
        for line in [*state.text.splitlines(), *state.buttons]:
            for why in _wrong_words(line, variant, players):
                if not (checking and why == "English in Russian"):  # the shell lines
                    bad(state, why, line)
            if (HEXISH.search(line) or "kozel2:" in line) and not checking:
                bad(state, "fair-play digits outside the check of the deals", line)
            if checking:
                continue  # the check's shell lines are for copying, not reading on a phone
            if name_figure(line):
                bad(state, "a figure glued to a name", line)
            if breakable_computer(line):
                bad(state, "a computer's name the phone may break", line)
            if wraps_inside(phone_rows(line), soft=True):
                bad(state, "the phone wraps it inside an item", line)
        lines = [] if checking else state.text.splitlines()
        for pair in itertools.pairwise(lines):
            if wraps_inside(list(pair), soft=False):
                bad(state, "lines break inside an item", " ⏎ ".join(pair))
        in_group = state.chat == group
        if not in_group and FINISHED.search(state.text) and "\n" in state.text.strip():
            bad(state, "a finished hand says more than one thing", " ⏎ ".join(lines))
        numbered = None if in_group else HAND_DEAL.search(state.text)
        if numbered is not None and int(numbered.group(1)) > deals:
            bad(state, f"a deal past the last ({deals})", state.text.splitlines()[0])
        if numbered is not None:
            for why in _hand_marks(state.buttons):
                bad(state, why, " ".join(state.buttons))
        if not (_table_or_result(state.text) if in_group else numbered):
            continue  # the width is checked on tables, lobbies, results and hands
        for line in state.text.splitlines():
            if _too_wide(line, sentences=in_group):
                bad(state, f"wider than a phone's row ({PHONE_ROW})", line)
            if in_group and re.match(r"^Счёт:? \d+ : \d+", line):
                bad(state, "a score that names no side", line)
    return found


def layout_problems(shown: list[Shown], names: Iterable[str]) -> list[str]:
    """What a phone shows wrong in any language (issue #30): a figure glued to one of
    ``names`` (or a computer's), a line the phone wraps inside an item, lines broken inside
    one, and a list line of a table or result wider than ``PHONE_ROW`` (prose wraps freely: the
    phone breaks it between words, which the first checks read)."""
    names = list(names)
    found: list[str] = []
    for state in (s for s in shown if s.from_bot):
        where = f"{state.chat} #{state.message_id}/{state.edit}"
        lines = state.text.splitlines()
        for line in [*lines, *state.buttons]:
            if name_figure(line, names):
                found.append(f"{where}: a figure glued to a name: {line!r}")
            if breakable_computer(line):
                found.append(f"{where}: a computer's name the phone may break: {line!r}")
            if wraps_inside(phone_rows(line), soft=True, names=names):
                found.append(f"{where}: the phone wraps it inside an item: {line!r}")
        for pair in itertools.pairwise(lines):
            if wraps_inside(list(pair), soft=False, names=names):
                found.append(f"{where}: lines break inside an item: {' ⏎ '.join(pair)!r}")
        if _table_or_result(state.text) and "KozelBot" not in lines[0]:  # not the welcome
            found += [
                f"{where}: wider than a phone's row ({PHONE_ROW}): {line!r}"
                for line in lines
                if _too_wide(line, sentences=False)
            ]
    return found


async def phone_problems(
    shown: list[Shown], group: str | None, name: str, *, sentences: bool = True
) -> list[str]:
    """The lines a 360-px phone wraps where it must not, measured in Chromium
    (``tests/phone_pixels.py``; the rows go to ``<name>.rows.jsonl``): a line of a lobby,
    table, result or hand that takes more than one row (a sentence there: with
    ``sentences``, more than two in the group; prose in a hand wraps freely), and any line
    whose rows part an item (``wraps_inside``). ``group``: the group chat's title, if any."""
    lines = {
        (line, phone_pixels.ROW_PX)
        for state in shown
        if state.from_bot and not state.text.startswith(CHECK_HEAD)
        for line in state.text.splitlines()
        if line.strip() and not (HEX64.search(line) or "kozel2:" in line)
    }
    measured = await phone_pixels.rows(lines)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.rows.jsonl").write_text(phone_pixels.dump(measured), encoding="utf-8")
    found: dict[str, None] = {}
    for state in (s for s in shown if s.from_bot and not s.text.startswith(CHECK_HEAD)):
        in_group = state.chat == group
        lines_of = state.text.splitlines()
        listed = (_table_or_result(state.text) and "KozelBot" not in lines_of[0]) or (
            not in_group and HAND_DEAL.search(state.text) is not None
        )
        for line in lines_of:
            rows = measured.get((line, phone_pixels.ROW_PX))
            if rows is None or len(rows) == 1:
                continue
            where = f"{state.chat}: {' ⏎ '.join(rows)!r}"
            if wraps_inside(rows, soft=True):
                found[f"the phone wraps it inside an item: {where}"] = None
            elif listed and not SENTENCE.search(line):
                found[f"a list line the phone wraps: {where}"] = None
            elif listed and sentences and in_group and len(rows) > 2:
                found[f"a sentence the phone wraps more than once: {where}"] = None
    return list(found)


async def read_layout(
    emu: BotApiEmulator,
    chats: list[tuple[int, str]],
    names: Iterable[str],
    name: str,
    group: str | None = None,
) -> None:
    """A finished match's (tournament's) chats, in any language, written to ``<name>.txt``
    and read for ``layout_problems`` and, on a phone, ``phone_problems``."""
    write(name, transcript(emu, chats))
    shown = [s for chat_id, title in chats for s in states(emu, chat_id, title)]
    said = [s for chat_id, title in chats for s in answers(emu, chat_id, title)]
    found = layout_problems(shown, names) + word_problems([*shown, *said])
    found += await phone_problems(shown, group, name, sentences=False)  # prose wraps freely
    assert found == [], "\n".join(found)


def name_figure(line: str, names: Iterable[str] = NAMES) -> bool:
    """A name (a person's, or a computer's ``🤖 Бот 2``) right before a number: ``Аня 6``,
    ``🤖 Бот 1+🤖 Бот 3 2``. **Decision**: a card after a name (``Аня 8♥``) is allowed, its
    suit mark keeps it apart from the name."""
    known = "|".join([COMPUTER, *(re.escape(n) for n in names)])
    return re.search(rf"(?:{known}){FIGURE_AFTER}", line) is not None


def bot(n: int, word: str = "Бот") -> str:
    """The name of computer ``n`` as the bot writes it (``kozelbot.core.texts.computer_name``)."""
    return f"🤖\u00a0{word}\u00a0{n}"


def breakable_computer(line: str) -> bool:
    """A computer's name with a space a phone may wrap at (``🤖 Бот 1``): it must be one
    piece, its spaces no-break ones."""
    return any(" " in found.group() for found in BREAKABLE_COMPUTER.finditer(line))


def phone_rows(line: str, width: int = PHONE_ROW) -> list[str]:
    """How a phone shows ``line``: words (split at spaces) packed greedily into rows of
    ``width`` characters, as Telegram's text view wraps them."""
    rows: list[str] = []
    for word in line.split(" "):
        if rows and len(rows[-1]) + 1 + len(word) <= width:
            rows[-1] += " " + word
        else:
            rows.append(word)
    return rows


def wraps_inside(rows: list[str], *, soft: bool, names: Iterable[str] = NAMES) -> bool:
    """Rows that break inside an item: a message's lines, or (``soft``) one line as the
    phone wraps it. A row ending with a separator (``Вера →`` / ``Глеб``, ``Аня 6 ·``) or
    starting with one, a score's colon parted from its figure (``14 :`` / ``6.``); as the
    phone wraps, a name parted from its card or figure too (``Борис`` / ``7♦``), and a
    computer's name split (``🤖 Бот`` / ``3``).
    **Decision**: a dash may end a row (Russian typesetting keeps it there; ``На столе: —``
    is an empty place), and a line may start with ``→`` (the award of a result)."""
    known = "|".join([COMPUTER, *(re.escape(n) for n in names)])
    for before, after in itertools.pairwise(rows):
        before, after = before.rstrip(), after.lstrip()
        if before.endswith(ENDS) or after.startswith(STARTS):
            return True
        if after[:1].isdigit() and before.endswith(" :"):
            return True
        if soft and re.match(r"[\d+]", after) and re.search(rf"(?:{known})$", before):
            return True
        if soft and re.search(r"🤖(?:\s(?:Бот|Bot))?$", before):  # «🤖 Бот» / «3»
            return True
    return False


def _wrong_words(line: str, variant: str, players: int) -> list[str]:
    """Why the words of a line are wrong for a Russian reader of ``variant``."""
    why = []
    if GUESSED_GENDER.search(line):
        why.append("a guessed gender")
    if UKRAINIAN.search(line):
        why.append("Ukrainian in Russian")
    words = HEXISH.sub("", line.replace("KozelBot", ""))  # seals, seeds and secrets: hex
    words = COMMAND.sub("", words)  # «наберите /newgame hvalenyi players=2»: what to type
    if ENGLISH.search(words) and "kozel2:" not in line and "|" not in line:  # /rules [a|b]
        why.append("English in Russian")
    if any(words in line for words in UNHELPFUL):
        why.append("says nothing useful")
    if players == 2 and "рикуп" in line:
        why.append("a preferans word for the deck")
    if variant == "kryuk" and "На обязе" in line:
        why.append("hvalenyi's word in kryuk")
    return why


def _hand_marks(buttons: tuple[str, ...]) -> list[str]:
    """A hand's card buttons read at a glance: a card you may not play now is bracketed
    (never only a faint trailing «·») and comes after every card you may play."""
    found: dict[str, None] = {}  # each fault once per state, in order
    marked = False
    for label in buttons:
        card = CARD_BUTTON.match(label)
        if card is None:
            continue
        if card.group(2) == "·":
            found["a card you may not play marked only by a faint «·»"] = None
        not_now = card.group(1) is not None or card.group(2) is not None
        if marked and not not_now:
            found["a playable card after one you may not play"] = None
        marked = marked or not_now
    return list(found)


def _too_wide(line: str, *, sentences: bool) -> bool:
    """A list or figures line wider than a phone's row. A sentence may wrap once in the
    group (a result's «Сдача 3: Люся! Аня+Вера взяли все взятки.»), and in a hand, where
    the prompts are instructions, freely; the revealed key and secret are meant to be
    copied whole."""
    if HEX64.search(line) or "kozel2:" in line:
        return False
    if SENTENCE.search(line):
        return sentences and len(line) > 2 * PHONE_ROW
    return len(line) > PHONE_ROW


def _table_or_result(text: str) -> bool:
    """The group's lobby or table message (``🐐 Сдача 3 · …``), or a result post."""
    return text.startswith("🐐 ") or bool(RESULT_POST.match(text)) or text.startswith("🏆")


async def read_through(players: Players, name: str, variant: str, deals: int) -> None:
    """A finished match's chats as its people read them: written to ``<name>.txt``, and
    nothing in them reads wrong (``problems``) or wraps wrong on a phone (``phone_problems``)."""
    emu = players.emu
    chats = [
        (players.group.id, players.group.title),
        *((u.id, u.first_name) for u in players.users),
    ]
    write(name, transcript(emu, chats))
    shown = [s for chat_id, title in chats for s in states(emu, chat_id, title)]
    found = problems(
        shown, group=players.group.title, variant=variant, players=len(players.users), deals=deals
    )
    said = [s for chat_id, title in chats for s in answers(emu, chat_id, title)]
    found += word_problems([*shown, *said])
    found += await phone_problems(shown, players.group.title, name)
    assert found == [], "\n".join(found)


def answers(emu: BotApiEmulator, chat_id: int, title: str) -> list[Shown]:
    """The bot's answers to the presses on a chat's messages (toasts and alerts: the 💡
    hint is one), each as a state of the message pressed (``edit`` -1)."""
    found: list[Shown] = []
    for query in sorted(emu.queries.values(), key=lambda q: q.created):
        message, answer = query.message, query.answer
        if message.chat.get("id") != chat_id or answer is None or not answer.text:
            continue
        found.append(Shown(title, message.message_id, -1, True, answer.text, (), False))
    return found


def word_problems(shown: list[Shown]) -> list[str]:
    """What reads wrong in any language (issue #30 item 11, see the module docstring)."""
    found: list[str] = []
    for state in (s for s in shown if s.from_bot and not s.text.startswith(CHECK_HEAD)):
        where = f"{state.chat} #{state.message_id}/{state.edit}"
        advice = state.text.startswith(ADVICE)
        for line in [*state.text.splitlines(), *state.buttons]:
            if UNIT_FRACTION.search(line) or (advice and DECIMAL.search(line)):
                found.append(f"{where}: a fraction of a unit: {line!r}")
            if OPTION_KEY.search(COMMAND.sub("", line)):
                found.append(f"{where}: an option by its key: {line!r}")
        if re.match(r"💡 [a-zа-яёіїєґ]", state.text):
            found.append(f"{where}: a hint that starts in lowercase: {state.text!r}")
    return found


async def ask_rules(players: Players, variant: str) -> None:
    """Someone at the table sends ``/rules VARIANT`` in the group once the match is over, so
    the chats read after it hold the answer too (issue #30 item 11: no option by its key)."""
    emu, group = players.emu, players.group
    before = max((m.message_id for m in emu.messages(group.id)), default=0)
    emu.send_text(players.users[0], group.id, f"/rules {variant}")
    await emu.wait_for(
        lambda: any(m.from_bot and m.message_id > before for m in emu.messages(group.id)),
        what="/rules",
    )
