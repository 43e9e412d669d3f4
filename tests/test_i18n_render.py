"""Translations and rendering: every message is translated with matching placeholders; card
labels, hand keyboards and the short error answers are what players should see."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import kozelbot.tables.service
from kozelbot.core.cards import DECK_36, Card
from kozelbot.core.i18n import Translator, translator
from kozelbot.core.options import OptionError
from kozelbot.core.protocol import GameError
from kozelbot.core.table import Player, Table, TableStatus
from kozelbot.core.texts import is_not_now
from kozelbot.families.follow.render import game_error_text, hand_keyboard
from kozelbot.families.follow.state import MatchState
from kozelbot.families.follow.vocabulary import (
    CardNotInHand,
    MustFollow,
    NotYourTurn,
    Phase,
    PlayCard,
    RedealNotAllowed,
    WrongPhase,
)
from kozelbot.families.registry import preset
from kozelbot.views.general import card_label, option_error_text, table_error_text
from tests.scripted import (
    ROWS_64_56,
    ROWS_LYUSYA,
    deal_and_keep,
    hands_from_rows,
    keep_all,
    new_match,
    play_cards,
)

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "kozelbot" / "locale"
TRANSLATED = ("ru", "uk")
"""Every language but English (the message ids) has a catalog that must be complete."""
KEYWORDS = {"t": None, "n": (1, 2), "p": ((1, "c"), 2)}
"""How the code marks messages: ``t(msg)``, ``t.n(singular, plural, n)``, ``t.p(ctx, msg)``."""
CALLBACK_ANSWER_LIMIT = 200
RU, EN = translator("ru"), translator("en")

Message = tuple[str, int, str | tuple[str, ...], str | None]


def extracted() -> Iterator[Message]:
    """(file, line, message id(s), context) of every message in kozelbot/ and handlers/."""
    for package in ("kozelbot", "handlers"):
        for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT / package, keywords=KEYWORDS
        ):
            yield f"{package}/{filename}", lineno, message, context


@cache
def load_catalog(language: str = "ru") -> Catalog:
    """A language's catalog as Babel reads it."""
    with (LOCALE / language / "LC_MESSAGES" / "kozelbot.po").open("rb") as handle:
        return read_po(handle, locale=language)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


MESSAGES = list(extracted())


def test_messages_are_extracted() -> None:
    """The extraction finds the bot's messages (and so the checks below are not vacuous)."""
    ids = {m[2] if isinstance(m[2], str) else m[2][0] for m in MESSAGES}
    assert len(ids) > 50
    assert "Khvalyony kozel" in ids
    assert "{count} eye" in ids


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(
    "message",
    MESSAGES,
    ids=[f"{m[0]}:{m[1]}" for m in MESSAGES],
)
def test_every_message_has_a_translation_with_the_same_placeholders(
    message: Message, language: str
) -> None:
    """Each extracted message has a non-empty, non-fuzzy Russian and Ukrainian translation,
    and every form of it uses exactly the placeholders of the English message."""
    _file, _line, msgid, context = message
    entry = load_catalog(language).get(msgid, context=context)
    assert entry is not None, f"no {language} entry for {msgid!r}"
    assert not entry.fuzzy
    ids = (msgid,) if isinstance(msgid, str) else msgid
    forms = (entry.string,) if isinstance(entry.string, str) else tuple(entry.string or ())
    assert forms and all(form.strip() for form in forms), f"untranslated: {msgid!r}"
    expected = set().union(*(placeholders(text) for text in ids))
    for form in forms:
        assert placeholders(form) == expected, (msgid, form)


# -- card labels -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "language", "label"),
    [
        ("10H", "ru", "10♥"),
        ("QC", "ru", "Д♣"),
        ("QC", "en", "Q♣"),
        ("JS", "ru", "В♠"),
        ("AD", "ru", "Т♦"),
        ("KH", "en", "K♥"),
        ("6C", "en", "6♣"),
    ],
)
def test_card_labels(card: str, language: str, label: str) -> None:
    """Cards read as rank + suit symbol, ranks in the player's language."""
    assert card_label(Card.parse(card), translator(language)) == label


@pytest.mark.parametrize("language", ["ru", "en"])
def test_card_labels_are_distinct(language: str) -> None:
    """No two cards of the deck share a label."""
    labels = {card_label(card, translator(language)) for card in DECK_36}
    assert len(labels) == 36


# -- hand keyboard -------------------------------------------------------------------------

BIG_GAME_ID = 9_223_372_036_854_775_807  # the largest SQLite integer id


def playing_table(state: MatchState, game_id: int = BIG_GAME_ID) -> Table:
    return Table(
        game_id=game_id,
        chat_id=-1_001_234_567_890,
        variant="hvalenyi",
        options=state.options,
        creator_id=1,
        status=TableStatus.PLAYING,
        seed=1,
        seats=[Player(user_id=100 + seat, name=f"Игрок {seat}") for seat in range(4)],
        state=state.dump(),
    )


def keyboard_cards(table: Table, state: MatchState, seat: int, t: Translator) -> list[str]:
    return [b.text for row in hand_keyboard(table, state, seat, t) for b in row if b.data]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_hand_keyboard_marks_unplayable_cards_on_your_turn(language: str) -> None:
    """On the player's turn every card that may not be played now is bracketed, «(К♥)»,
    after the legal cards, which are not; nobody else's keyboard is marked."""
    t = translator(language)
    state = new_match()
    deal_and_keep(state, hands_from_rows(ROWS_64_56))
    play_cards(state, "JC")  # a trump lead: seat 1 may play only its trumps
    table = playing_table(state)
    legal = {card_label(c, t) for c in state.legal_cards(1)}
    assert state.current is not None
    hand = {card_label(c, t) for c in state.current.hands[1]}
    labels = keyboard_cards(table, state, 1, t)
    assert len(labels) == 9
    for label in labels:
        if is_not_now(label):
            assert label.removeprefix("(").removesuffix(")") in hand - legal
        else:
            assert label in legal
    assert sum(is_not_now(label) for label in labels) == len(hand - legal) == 5
    marks = [is_not_now(label) for label in labels]
    assert marks == sorted(marks), labels  # the playable cards first
    for other in (0, 2, 3):
        assert not any(is_not_now(label) for label in keyboard_cards(table, state, other, t))


@pytest.mark.parametrize("phase", [Phase.REDEAL, Phase.PLAY])
def test_every_callback_data_fits_in_64_bytes(phase: Phase) -> None:
    """Card and redeal buttons stay within Telegram's 64-byte callback data, even with the
    largest game id and a late deal."""
    state = new_match()
    state.deal_no = 9_999
    state.deal_hands(hands_from_rows(ROWS_LYUSYA))
    if phase is Phase.PLAY:
        keep_all(state)
    assert state.phase is phase
    table = playing_table(state)
    data = [
        button.data
        for seat in range(4)
        for row in hand_keyboard(table, state, seat, RU)
        for button in row
        if button.data is not None
    ]
    assert len(data) >= 36
    assert all(1 <= len(item.encode()) <= 64 for item in data), max(data, key=len)
    if phase is Phase.REDEAL:
        assert any(item.startswith("r:") for item in data)


# -- error answers ---------------------------------------------------------------------------


def must_follow_error() -> tuple[MustFollow, MatchState]:
    state = new_match()
    deal_and_keep(state, hands_from_rows(ROWS_64_56))
    play_cards(state, "JC")
    try:
        state.apply(1, PlayCard(Card.parse("10S")))
    except MustFollow as error:
        return error, state
    raise AssertionError("10♠ on a trump lead was accepted")


@pytest.mark.parametrize("language", ["ru", "en"])
def test_must_follow_text_names_the_legal_cards(language: str) -> None:
    """The refusal of a card that breaks the follow rule names every legal card."""
    t = translator(language)
    error, state = must_follow_error()
    text = game_error_text(error, playing_table(state), t)
    assert error.legal
    for legal in error.legal:
        assert card_label(legal, t) in text
    assert len(text) <= CALLBACK_ANSWER_LIMIT


def game_errors() -> list[GameError]:
    error, _ = must_follow_error()
    return [
        error,
        MustFollow(Card.parse("7H"), Card.parse("AS").suit, tuple(DECK_36[9:17])),
        NotYourTurn((2,)),
        NotYourTurn(()),
        CardNotInHand(Card.parse("QC")),
        RedealNotAllowed("no redeal now"),
        WrongPhase(Phase.OVER),
        GameError("anything"),
    ]


@pytest.mark.parametrize("error", game_errors(), ids=lambda e: f"{type(e).__name__}")
def test_game_error_texts_exist_in_both_languages_and_fit_an_answer(error: GameError) -> None:
    """Every refused move has a short text (≤ 200 characters), translated into Russian."""
    state = new_match()
    table = playing_table(state)
    table.seats[2] = Player(user_id=None, name="bot")
    ru, en = game_error_text(error, table, RU), game_error_text(error, table, EN)
    assert ru and en
    assert ru != en
    assert len(ru) <= CALLBACK_ANSWER_LIMIT and len(en) <= CALLBACK_ANSWER_LIMIT


def codes_used() -> set[str]:
    """Every TableError code the code raises, and every code handlers ask a text for."""
    pattern = re.compile(r"""(?:TableError|table_error_text)\(\s*["']([a-z_]+)["']""")
    codes: set[str] = set()
    for package in ("kozelbot", "handlers"):
        for path in (ROOT / package).rglob("*.py"):
            codes.update(pattern.findall(path.read_text(encoding="utf-8")))
    return codes


def codes_documented() -> set[str]:
    """The codes listed in ``TableError``'s docstring."""
    doc = kozelbot.tables.service.TableError.__doc__ or ""
    return set(re.findall(r"``([a-z_]+)``", doc))


def assert_table_error_text(code: str) -> None:
    fallback_ru = table_error_text("no-such-code", RU)
    fallback_en = table_error_text("no-such-code", EN)
    ru, en = table_error_text(code, RU), table_error_text(code, EN)
    assert ru != fallback_ru and en != fallback_en, f"{code}: only the generic text"
    assert ru != en, f"{code}: not translated"
    assert len(ru) <= CALLBACK_ANSWER_LIMIT and len(en) <= CALLBACK_ANSWER_LIMIT


def test_table_error_codes_are_found() -> None:
    """The source scan finds the codes (so the next test is not vacuous)."""
    assert {"no_game", "stale", "full", "not_seated"} <= codes_used()


@pytest.mark.parametrize("code", sorted(codes_used()))
def test_every_table_error_code_has_a_short_text_in_both_languages(code: str) -> None:
    """Every TableError code raised has its own text in Russian and English, short enough
    for a callback answer (≤ 200 characters)."""
    assert_table_error_text(code)


def test_every_documented_table_error_code_has_a_text() -> None:
    """The codes ``TableError`` documents have texts too."""
    for code in sorted(codes_documented()):
        assert_table_error_text(code)


def test_an_option_error_echoes_only_the_start_of_a_long_word() -> None:
    word = "x" * 4000
    with pytest.raises(OptionError) as caught:
        preset("hvalenyi").parse(["deck=36", word])
    text = option_error_text(caught.value, translator("ru"))
    assert len(text) < 400 and "…" in text


@pytest.mark.parametrize("word", ["deck=²", "move_time=--5", "move_time=99999999999999"])
def test_options_that_only_look_like_numbers_are_refused_as_options(word: str) -> None:
    with pytest.raises(OptionError):
        preset("hvalenyi").parse([word])


def test_no_text_is_translated_inside_an_f_string() -> None:
    """gettext extraction does not look inside f-strings: ``f"{t('Seal')}"`` would never
    reach the catalogs (and the message would stay English)."""
    import ast

    root = Path(__file__).resolve().parent.parent
    hidden = []
    for package in ("kozelbot", "handlers"):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for inner in ast.walk(node):
                    if not isinstance(inner, ast.Call) or not inner.args:
                        continue
                    name = getattr(inner.func, "id", None) or getattr(inner.func, "attr", None)
                    if name in ("t", "n", "p") and isinstance(inner.args[0], ast.Constant):
                        hidden.append(f"{path.relative_to(root)}:{inner.lineno}")
    assert hidden == []
