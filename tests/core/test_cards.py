"""Cards, suits, seats and teams (R-DECK-1, R-SEAT-1)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deepsix import CARDS, DECK, Card, ParseError, Rank, Seat, Suit, Team, parse_cards
from deepsix.cards import format_cards, seat_of
from deepsix.errors import WrongTypeError


def test_deck_composition() -> None:
    """R-DECK-1: ranks 2 to 8 in four suits, each card twice: 56 cards."""
    assert len(CARDS) == 28
    assert len(DECK) == 56
    assert {card.rank for card in CARDS} == set(Rank)
    assert {card.suit for card in CARDS} == set(Suit)
    assert all(DECK.count(card) == 2 for card in CARDS)


@pytest.mark.parametrize("card", CARDS)
def test_parse_and_format_round_trip(card: Card) -> None:
    """Card notation: str() and the ASCII form both parse back to the same interned card."""
    assert Card.parse(str(card)) is card
    assert Card.parse(card.ascii) is card
    assert Card.parse(card.ascii.lower()) is card
    assert Card(card.ascii) is card
    assert CARDS[int(card)] is card
    assert Card(card) is card
    assert Card.of(card.rank, card.suit) is card
    assert eval(repr(card)) is card  # repr is documented to be evaluable
    assert pickle.loads(pickle.dumps(card)) is card


def test_card_examples() -> None:
    """Card notation: letters and symbols, both accepted."""
    seven = Card.parse("7S")
    assert (seven.rank, seven.suit) == (Rank.SEVEN, Suit.SPADES)
    assert Card.parse("7♠") is seven
    assert str(seven) == "7♠"
    assert seven.ascii == "7S"
    assert Card("2H").points == 20
    assert Card("3D").points == 10
    assert Card("8C").points == 0


@pytest.mark.parametrize("text", ["", "9S", "1H", "7X", "77", "S7", "7 S S", "10H", "♠7"])
def test_malformed_cards_raise_parse_error(text: str) -> None:
    """Malformed card text raises the typed ParseError (a ValueError)."""
    with pytest.raises(ParseError):
        Card.parse(text)
    with pytest.raises(ValueError, match="card"):
        Card.parse(text)


@pytest.mark.parametrize("value", [None, 7.0, b"7S", ["7S"], -1, 28, True, 0, 7, 27])
def test_wrong_types_raise_parse_error(value: object) -> None:
    """Bad input never raises an untyped exception."""
    with pytest.raises(ParseError):
        Card(value)  # type: ignore[arg-type]  # deliberately wrong


@given(st.text(max_size=6))
def test_parse_never_crashes(text: str) -> None:
    """Any text either parses to a card or raises ParseError."""
    try:
        card = Card.parse(text)
    except ParseError:
        return
    assert card in CARDS


def test_sorting_by_suit_then_rank() -> None:
    """Hands sort by suit (clubs, diamonds, hearts, spades), then rank."""
    assert parse_cards("2S 8C 3C 7D") == (Card("3C"), Card("8C"), Card("7D"), Card("2S"))
    assert format_cards(parse_cards("2S 8C")) == "8♣ 2♠"
    assert format_cards(parse_cards("2S 8C"), ascii=True) == "8C 2S"


def test_seats_and_teams() -> None:
    """R-SEAT-1: seats 0..3 clockwise; 0 and 2 are team 0, 1 and 3 team 1."""
    assert [seat.team for seat in Seat] == [Team(0), Team(1), Team(0), Team(1)]
    assert [seat.partner for seat in Seat] == [Seat(2), Seat(3), Seat(0), Seat(1)]
    assert [seat.left for seat in Seat] == [Seat(1), Seat(2), Seat(3), Seat(0)]
    assert Team.EAST_WEST.seats == (Seat.EAST, Seat.WEST)
    assert Seat.parse("w") is Seat.WEST
    assert Seat.parse("2") is Seat.SOUTH
    assert str(Seat.NORTH) == "N"
    with pytest.raises(ParseError):
        Seat.parse("X")


def test_suits() -> None:
    """Suit names, letters and symbols all parse."""
    assert Suit.parse("♥") is Suit.HEARTS
    assert Suit.parse("h") is Suit.HEARTS
    assert Suit.parse("hearts") is Suit.HEARTS
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    with pytest.raises(ParseError):
        Suit.parse("X")


def test_enum_hash_matches_int_hash() -> None:
    """Seats, suits and ranks keep int-compatible hashing (usable as dict keys for ints)."""
    keyed: dict[int, str] = {Seat.EAST: "x"}
    assert keyed[1] == "x"
    assert hash(Suit.SPADES) == hash(3)
    assert hash(Rank.EIGHT) == hash(8)


@pytest.mark.parametrize("rank", range(2, 9))
def test_a_bare_number_is_not_taken_for_a_card(rank: int) -> None:
    """``Card(7)`` once meant the card at index 7 (the 2 of diamonds): a trap.  A number that
    reads as a rank is refused, and the message says how to write the card."""
    with pytest.raises(ParseError, match=rf"Card\({rank}\) is ambiguous.*Card\('{rank}S'\)"):
        Card(rank)  # type: ignore[arg-type]  # the point is the number


def test_seats_and_suits_read_their_notation() -> None:
    """``Seat("S")`` and ``Suit("S")`` read the notation as ``parse`` does; the rest is refused
    with the library's ParseError."""
    assert Seat("S") is Seat.SOUTH  # type: ignore[arg-type]  # mypy types an IntEnum's call as int
    assert Seat("north") is Seat.NORTH  # type: ignore[arg-type]  # mypy types an IntEnum's call as int
    assert Seat(2) is Seat.SOUTH
    assert Suit("♠") is Suit.SPADES  # type: ignore[arg-type]  # mypy types an IntEnum's call as int
    assert Suit("h") is Suit.HEARTS  # type: ignore[arg-type]  # mypy types an IntEnum's call as int
    for bad in ("X", "", 7, None):
        with pytest.raises(ParseError, match=r"not a [sS]eat"):
            Seat(bad)  # type: ignore[arg-type]  # deliberately wrong


def test_seat_of_reads_every_spelling_and_refuses_the_rest() -> None:
    assert {seat_of(value) for value in ("S", "s", "south", 2, Seat.SOUTH)} == {Seat.SOUTH}
    with pytest.raises(ParseError, match="'Q' is not a seat"):
        seat_of("Q")
    with pytest.raises(ParseError, match="4 is not a seat"):
        seat_of(4)
    for wrong in (None, 2.0, True, [2]):
        with pytest.raises(WrongTypeError, match="is not a seat"):
            seat_of(wrong)


def test_phases_print_as_the_notation_writes_them() -> None:
    """``str(Phase.BIDDING)`` is ``bidding`` (as ``str(Seat.EAST)`` is ``E``), not the enum's
    ``Phase.BIDDING``."""
    from deepsix import Phase

    assert [str(phase) for phase in Phase] == [phase.value for phase in Phase]
    assert f"{Phase.BIDDING}" == "bidding"
