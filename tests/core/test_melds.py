"""Melds: kinds and values, the sunk-suit run ban, sharing, and the meld finder."""

from __future__ import annotations

import pytest

from deepsix import (
    ALL_MELDS,
    Card,
    Meld,
    MeldFamily,
    MeldKind,
    ParseError,
    Rules,
    Suit,
    best_meld,
    candidate_melds,
    parse_cards,
)
from deepsix.errors import Reason
from deepsix.melds import (
    available_melds,
    can_show,
    meld_blocker,
    meld_value,
    melded_copies,
)

TABLE = {
    MeldKind.GRAND_RUN: -50,
    MeldKind.DEEP_RUN: -30,
    MeldKind.SHALLOW_RUN: -15,
    MeldKind.DEEP_ECHO: -20,
    MeldKind.SHALLOW_ECHO: -15,
    MeldKind.MARK_TWAIN: -10,
    MeldKind.EIGHTS_WIDE: -30,
    MeldKind.SEVENS_WIDE: -20,
    MeldKind.SIXES_WIDE: -10,
}


def counts_of(text: str) -> list[int]:
    counts = [0] * 28
    for card in parse_cards(text):
        counts[card] += 1
    return counts


def test_meld_values_match_the_scoring_table() -> None:
    """R-MELD-1: every meld kind has the value in the rules' scoring table."""
    assert {kind: kind.points for kind in MeldKind} == TABLE


def test_meld_cards() -> None:
    """R-MELD-1: runs are consecutive ranks of a suit, echoes a pair, wides one per suit."""
    assert Meld(MeldKind.GRAND_RUN, Suit.CLUBS).cards == parse_cards("4C 5C 6C 7C 8C")
    assert Meld(MeldKind.DEEP_RUN, Suit.CLUBS).cards == parse_cards("6C 7C 8C")
    assert Meld(MeldKind.SHALLOW_RUN, Suit.CLUBS).cards == parse_cards("5C 6C 7C")
    assert Meld(MeldKind.DEEP_ECHO, Suit.HEARTS).cards == parse_cards("8H 8H")
    assert Meld(MeldKind.MARK_TWAIN, Suit.HEARTS).cards == parse_cards("6H 6H")
    assert Meld(MeldKind.SEVENS_WIDE).cards == parse_cards("7C 7D 7H 7S")
    assert len(ALL_MELDS) == 27


def test_meld_notation_round_trips() -> None:
    """Meld codes parse back to the same meld."""
    for meld in ALL_MELDS:
        assert Meld.parse(meld.code) == meld
        assert Meld.parse(meld.code.lower()) == meld
    assert Meld.parse("DR♠") == Meld(MeldKind.DEEP_RUN, Suit.SPADES)
    for bad in ("", "XX", "DR", "8W-S", "GR-X"):
        with pytest.raises(ParseError):
            Meld.parse(bad)


def test_meld_names() -> None:
    """R-MELD-1: a meld reads as its name, with the suit's symbol for a run or an echo."""
    assert str(Meld(MeldKind.DEEP_RUN, Suit.SPADES)) == "deep run ♠"
    assert str(Meld(MeldKind.SHALLOW_ECHO, Suit.HEARTS)) == "shallow echo ♥"
    assert [str(meld) for meld in ALL_MELDS if meld.suit is None] == [
        "eights wide",
        "sevens wide",
        "sixes wide",
    ]


def test_meld_construction_is_validated() -> None:
    """Runs and echoes need a suit; wides have none."""
    with pytest.raises(ParseError):
        Meld(MeldKind.DEEP_RUN)
    with pytest.raises(ParseError):
        Meld(MeldKind.EIGHTS_WIDE, Suit.CLUBS)
    with pytest.raises(ParseError):
        Meld("DR", Suit.CLUBS)  # type: ignore[arg-type]  # deliberately wrong


def test_no_run_in_sunk_suit() -> None:
    """R-MELD-2: a run can never be melded in the sunk suit; echoes and wides can."""
    hand = parse_cards("4S 5S 6S 7S 8S 8S 8H 8D 8C")
    melds = candidate_melds(hand, Suit.SPADES)
    assert all(m.family is not MeldFamily.RUN for m in melds)
    assert Meld.parse("DE-S") in melds
    assert Meld.parse("8W") in melds
    counts = counts_of("4S 5S 6S 7S 8S")
    reason = meld_blocker(counts, (), Meld.parse("GR-S"), Suit.SPADES)
    assert reason is Reason.RUN_IN_SUNK_SUIT


def test_sharing_across_families_not_within() -> None:
    """R-MELD-3: a copy serves one meld per family but may serve several families."""
    counts = counts_of("8S 8S 7S 6S 8H 8D 8C")
    declared = (Meld.parse("DE-S"), Meld.parse("DR-S"))
    assert meld_blocker(counts, declared, Meld.parse("8W"), Suit.HEARTS) is None
    assert meld_blocker(counts, declared, Meld.parse("DR-S"), Suit.HEARTS) is (
        Reason.MELD_UNAVAILABLE
    )
    assert melded_copies((*declared, Meld.parse("8W")))[Card("8S")] == 2
    strict = melded_copies((*declared, Meld.parse("8W")), sharing=False)
    assert strict[Card("8S")] == 4  # would need four copies: impossible without sharing
    with pytest.raises(ParseError):  # that declaration is impossible without sharing
        meld_blocker(counts, declared, Meld.parse("8W"), Suit.HEARTS, sharing=False)
    echo_only = (Meld.parse("DE-S"),)
    assert (
        meld_blocker(counts, echo_only, Meld.parse("8W"), Suit.HEARTS, sharing=False)
        is Reason.MELD_UNAVAILABLE
    )


def test_available_melds_respects_cap() -> None:
    """R-MELD-4: max_melded caps the copies the declaration may tie up."""
    counts = counts_of("8S 7S 6S 8H 8D 8C")
    assert set(available_melds(counts, (), Suit.HEARTS, max_melded=3)) == {Meld.parse("DR-S")}
    assert set(available_melds(counts, (), Suit.HEARTS, max_melded=4)) == {
        Meld.parse("DR-S"),
        Meld.parse("8W"),
    }
    assert (
        meld_blocker(counts, (Meld.parse("DR-S"),), Meld.parse("8W"), Suit.HEARTS, max_melded=5)
        is Reason.TOO_FEW_UNMELDED
    )


def test_best_meld_examples() -> None:
    """R-MELD-1 to R-MELD-3: the finder takes every family's best."""
    hand = parse_cards("8S 8S 7S 7S 6S 6S 5S 4S 8H 8D 8C 2C 3C 7H")
    best = best_meld(hand, Suit.HEARTS)
    assert meld_value(best) == -50 - 30 - 20 - 15 - 10 - 30
    assert best_meld(hand, Suit.SPADES) == tuple(
        Meld.parse(code) for code in ("DE-S", "SE-S", "MT-S", "8W")
    )
    strict = best_meld(hand, Suit.HEARTS, Rules(meld_sharing=False))
    assert meld_value(strict) == -50 - 30 - 30 + 30  # grand + deep only: -80
    assert best_meld(parse_cards("2C 3C 4C"), Suit.HEARTS) == ()


def test_best_meld_prefers_fewer_cards_on_ties() -> None:
    """best_meld breaks value ties by tying up fewer copies."""
    hand = parse_cards("7S 7S 6S 5S")  # shallow run (3 cards) and 7♠ echo (2 cards): -15 each
    best = best_meld(hand, Suit.HEARTS, max_melded=3)
    assert meld_value(best) == -15
    assert best == (Meld.parse("SE-S"),)


def test_can_show() -> None:
    """R-INVITE-2: only cards that could belong to a meld given the sunk suit."""
    assert can_show(Card("8H"), Suit.HEARTS)
    assert can_show(Card("4D"), Suit.HEARTS)
    assert not can_show(Card("4H"), Suit.HEARTS)
    assert not can_show(Card("3D"), Suit.HEARTS)
    assert not can_show(Card("2S"), Suit.CLUBS)


def test_bad_cards_for_the_finder() -> None:
    """Malformed input to the finder raises a typed error."""
    with pytest.raises(ParseError):
        best_meld([Card("8S")] * 3, Suit.HEARTS)
    with pytest.raises(ParseError):
        best_meld([8], Suit.HEARTS)  # type: ignore[list-item]  # deliberately wrong
    with pytest.raises(ParseError):
        available_melds([0] * 27, (), Suit.HEARTS)
