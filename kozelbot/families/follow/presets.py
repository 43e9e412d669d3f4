"""The follow-suit presets of RULES.md §1: each an options model and a ``Rules`` builder."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kozelbot.core.cards import Card, Suit, parse_cards
from kozelbot.core.options import Preset, TableOptions
from kozelbot.families.follow.rules import Rules


class HvalenyiOptions(TableOptions):
    """Table options of Хвалёный козёл (RULES.md §1.1)."""

    players: Literal[4, 2] = 4
    """Four in pairs, or two each for self (a talon, a trump suit per deal, no redeal)."""
    deck: Literal[36, 32] = 36
    """36 cards (9 each) or 32 cards without sixes (8 each)."""
    six_clubs: Literal["top", "ordinary"] = "top"
    """``top``: 6♣ (шамок) is the highest trump and catches Q♣; ``ordinary``: a plain club."""
    lyusya: Literal["win", "zero"] = "win"
    """All tricks to one pair: ``win`` ends the match, ``zero`` wipes the other pair's eyes."""


def build_hvalenyi(options: BaseModel) -> Rules:
    """Rules of Хвалёный козёл for the chosen options (RULES.md §1.1)."""
    assert isinstance(options, HvalenyiOptions)
    top = options.six_clubs == "top" and options.deck == 36
    ladder = parse_cards(("6C " if top else "") + "QC QS QH QD JC JS JH JD")
    catch = (Card.parse("6C"), Card.parse("QC")) if top else None
    if options.players == 2:
        # RULES.md §1.1 "two players": 8 or 9 cards each and a talon; clubs in the first
        # deal, then the suit of the previous deal's last card; the non-dealer leads; no
        # redeal; the catch applies between the two.
        return Rules(
            name="hvalenyi",
            deck=options.deck,
            ladder=tuple(ladder),
            trump_suit=Suit.CLUBS,
            target=12,
            players=2,
            trump_rule="last_card",
            first_lead="non_dealer",
            catch=catch,
            all_tricks=options.lyusya,
        )
    return Rules(
        name="hvalenyi",
        deck=options.deck,
        ladder=tuple(ladder),
        trump_suit=Suit.DIAMONDS,
        target=12,
        first_lead_card=Card.parse("JC"),
        catch=catch,
        redeal_below=14,
        all_tricks=options.lyusya,
    )


class BelkaOptions(TableOptions):
    """Table options of Белка (RULES.md §1.4)."""

    deck: Literal[32, 36] = 32
    """32 cards (8 each) or 36 (9 each)."""
    ace_discard_ban: bool = False
    """Without a card of the led suit, no ace of a suit not yet led may be discarded."""


def build_belka(options: BaseModel) -> Rules:
    """Rules of Белка (RULES.md §1.4): jacks are the only permanent trumps; each seat owns a
    suit from the first deal (J♣'s holder clubs, then clockwise ♠ ♥ ♦) and the trump suit of
    a deal is the suit of the seat holding J♣, whose pair is on obligation and leads; the pair
    on obligation scores 1/2 eyes for 61–89/90+, the other pair 2/3."""
    assert isinstance(options, BelkaOptions)
    return Rules(
        name="belka",
        deck=options.deck,
        ladder=tuple(parse_cards("JC JS JH JD")),
        trump_suit=Suit.CLUBS,
        target=12,
        trump_rule="seat_suits",
        first_lead_card=Card.parse("JC"),
        redeal_below=14,
        awards=((90, 2), (61, 1)),
        defence_awards=((90, 3), (61, 2)),
        ace_discard_ban=options.ace_discard_ban,
    )


class KryukOptions(TableOptions):
    """Table options of Козёл с Крюком (RULES.md §1.2): the seed's 10 s per move (15 s for a
    deal's first move); on time-out a random legal card is played."""

    move_time: int = Field(default=10)


def build_kryuk(options: BaseModel) -> Rules:
    """Rules of Козёл с Крюком (RULES.md §1.2)."""
    assert isinstance(options, KryukOptions)
    return Rules(
        name="kryuk",
        deck=32,
        ladder=tuple(parse_cards("7C QC QS QH QD JC JS JH JD")),
        trump_suit=Suit.CLUBS,
        target=12,
        first_lead="rotate",
        first_lead_card=Card.parse("AD"),
        lead_card_forced=True,
        catch=(Card.parse("7C"), Card.parse("QC")),
        catch_award=4,
        catch_first_deal_award=12,
        awards=((120, 6), (90, 4), (61, 2)),
        scoring="points",
        eggs="carry",
        eggs_carry=2,
        all_tricks="reset",
        all_tricks_nil_award=6,
        lyusya_over_catch=False,
        handoff="hidden",
        handoff_trumps=(1,),
        handoff_points=True,
        lead_ban=True,
        fight_score=10,
        deal_constraints=True,
        opening="hvalyonka",
        timeout_random=True,
        single_card_autoplay=True,
        first_move_bonus=5,
    )


class SixesOptions(TableOptions):
    """Table options of the encyclopaedia's Козёл on a board of sixes (RULES.md §1.3)."""

    no_shamok: bool = False
    """Seed 001: queens and jacks only, diamonds trump (7♦ lowest), no 7♣ шамок."""
    ace_discard_ban: bool = False
    """Without a card of the led suit, no ace of a suit not yet led may be discarded."""
    royal: bool = False
    """Royal kozel: a hand dealt all four aces wins the match at once."""


def build_sixes(options: BaseModel) -> Rules:
    """Rules of Козёл on sixes (RULES.md §1.3): pairs on a board to 6, redeal demands (four
    nines or 12 points or less; the third in a row refused), a hand-off with one or two trumps
    offered aloud and passed face down, the first leader's call of an opening."""
    assert isinstance(options, SixesOptions)
    ladder = "QC QS QH QD JC JS JH JD" if options.no_shamok else "7C QC QS QH QD JC JS JH JD"
    return Rules(
        name="sixes",
        deck=32,
        ladder=tuple(parse_cards(ladder)),
        trump_suit=Suit.DIAMONDS if options.no_shamok else Suit.CLUBS,
        target=6,
        first_lead="winners",
        first_lead_card=Card.parse("7D" if options.no_shamok else "8C"),
        redeal_below=13,
        redeal_nines=True,
        redeal_limit=2,
        refused_redeal_award=1,
        awards=((90, 2), (61, 1)),
        scoring="pairs",
        eggs="carry",
        eggs_carry=1,
        all_tricks="sweep",
        lyusya_over_catch=False,
        titles=True,
        tails_points=90,
        handoff="offered",
        handoff_trumps=(1, 2),
        ace_discard_ban=options.ace_discard_ban,
        opening="called",
        royal=options.royal,
    )


PRESETS: dict[str, Preset] = {
    "hvalenyi": Preset("hvalenyi", HvalenyiOptions, build_hvalenyi),
    "kryuk": Preset("kryuk", KryukOptions, build_kryuk),
    "sixes": Preset("sixes", SixesOptions, build_sixes),
    "belka": Preset("belka", BelkaOptions, build_belka),
}
