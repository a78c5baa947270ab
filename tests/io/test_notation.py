"""The compact action notation (issue 6): format and parse round trips, leniency, errors."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deepsix import (
    ALL_MELDS,
    CARDS,
    Action,
    Bid,
    Card,
    Deal,
    DeclareMeld,
    Done,
    NameSunkSuit,
    ParseError,
    Pass,
    PassCard,
    PlayCard,
    Seat,
    ShowCard,
    Suit,
    format_action,
    format_actions,
    new_game,
    parse_action,
    parse_actions,
    shuffled_deal,
)
from deepsix.io.notation import (
    ACTION_PATTERN,
    format_card,
    format_cards_compact,
    parse_card,
    parse_cards_compact,
)
from tests.support.games import game_states
from tests.support.strategies import action_universe

UNIVERSE = action_universe(new_game())
"""Every action of every type and seat (bids on and off the ladder, good and bad deals)."""


def actions() -> st.SearchStrategy[Action]:
    """Any action, deals included."""
    return st.one_of(
        st.sampled_from(UNIVERSE),
        st.integers(0, 2**32).map(shuffled_deal),
        st.builds(Bid, st.sampled_from(tuple(Seat)), st.integers(-999_999, 999_999)),
    )


@given(actions())
def test_parse_inverts_format(action: Action) -> None:
    text = format_action(action)
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


@given(actions())
def test_canonical_notation_is_ascii_url_safe_and_matches_the_pattern(action: Action) -> None:
    text = format_action(action)
    assert text.isascii()
    assert set(text) <= set(string.ascii_uppercase + string.digits + ":-.")
    assert re.fullmatch(ACTION_PATTERN, text), text


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Bid(Seat.NORTH, 90), "N:B90"),
        (Bid(Seat.EAST, -40), "E:B-40"),
        (Bid(Seat.WEST, 0), "W:B0"),
        (Pass(Seat.EAST), "E:P"),
        (NameSunkSuit(Seat.NORTH, Suit.SPADES), "N:SINK:S"),
        (ShowCard(Seat.NORTH, Card("7S")), "N:SHOW:7S"),
        (PassCard(Seat.SOUTH, Card("7S")), "S:GIVE:7S"),
        (DeclareMeld(Seat.NORTH, ALL_MELDS[3]), "N:MELD:GR-S"),
        (DeclareMeld(Seat.EAST, ALL_MELDS[-3]), "E:MELD:8W"),
        (Done(Seat.NORTH), "N:DONE"),
        (PlayCard(Seat.NORTH, Card("7S")), "N:7S"),
        (PlayCard(Seat.WEST, Card("2C")), "W:2C"),
    ],
)
def test_examples(action: Action, text: str) -> None:
    assert format_action(action) == text
    assert parse_action(text) == action


def test_a_deal_is_four_groups_of_fourteen_in_dealing_order() -> None:
    deal = shuffled_deal(3)
    text = format_action(deal)
    head, body = text.split(":")
    assert head == "DEAL"
    groups = body.split(".")
    assert [len(group) for group in groups] == [28] * 4
    assert parse_cards_compact(groups[1]) == deal.cards[14:28]
    # Dots are optional when reading.
    assert parse_action("DEAL:" + body.replace(".", "")) == deal


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  n:b90 ", Bid(Seat.NORTH, 90)),
        ("e:p", Pass(Seat.EAST)),
        ("N:SINK:♠", NameSunkSuit(Seat.NORTH, Suit.SPADES)),
        ("s:give:7♥", PassCard(Seat.SOUTH, Card("7H"))),
        ("W:7♣", PlayCard(Seat.WEST, Card("7C"))),
        ("n:meld:dr-s", DeclareMeld(Seat.NORTH, ALL_MELDS[4 + 3])),
    ],
)
def test_reading_is_lenient_about_case_space_and_symbols(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "write <seat>:<move>"),
        ("N", "write <seat>:<move>"),
        ("X:P", "'X' is not a seat"),
        ("N:B", "is not a bid"),
        ("N:B9x", "is not a bid"),
        ("N:B1234567", "a bid has at most 6 digits, not 7"),
        ("N:B--5", "is not a bid"),
        ("N:SINK:X", "is not a suit"),
        ("N:SHOW:", "is not a card"),
        ("N:GIVE:9S", "is not a card"),
        ("N:MELD:ZZ", "is not a meld"),
        ("N:9S", "is not a move"),
        ("N:FOO:7S", "is not a move"),
        ("DEAL:2C", "lists 1 cards, not 56"),
        ("DEAL:2C3", "each card is two characters"),
        ("DEAL:" + "9Z" * 56, "is not a card"),
        ("N:B" + "9" * 5000, "too long"),
    ],
)
def test_parse_errors_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match=re.escape(fragment)):
        parse_action(text)


@given(st.text(max_size=60))
def test_any_text_parses_or_raises_parse_error(text: str) -> None:
    try:
        action = parse_action(text)
    except ParseError:
        return
    assert parse_action(format_action(action)) == action


@given(st.lists(st.sampled_from(UNIVERSE), max_size=8), st.sampled_from([" ", ",", "\n", " , "]))
def test_action_lists_round_trip(listed: list[Action], separator: str) -> None:
    assert parse_actions(format_actions(listed, separator)) == tuple(listed)


def test_action_list_errors_name_the_position() -> None:
    with pytest.raises(ParseError, match="action 2: 'E:Q'"):
        parse_actions("N:P E:Q S:P")


@pytest.mark.parametrize("value", [None, 7, b"N:P", ["N:P"]])
def test_non_text_is_a_parse_error(value: object) -> None:
    for parse in (parse_action, parse_actions, parse_card, parse_cards_compact):
        with pytest.raises(ParseError):
            parse(value)  # type: ignore[arg-type]  # the point is the wrong type


def test_cards() -> None:
    assert [format_card(card) for card in CARDS[:3]] == ["2C", "3C", "4C"]
    assert all(parse_card(format_card(card)) == card for card in CARDS)
    assert format_cards_compact([Card("7S"), Card("8H")]) == "7S8H"
    assert parse_cards_compact("7s 8♥, 2C") == (Card("7S"), Card("8H"), Card("2C"))


def test_format_rejects_non_actions() -> None:
    with pytest.raises(ParseError):
        format_action("N:P")  # type: ignore[arg-type]  # the point is the wrong type


def test_a_whole_game_written_in_notation_replays() -> None:
    finished_game = game_states()[-1]
    text = format_actions(finished_game.history, "\n")
    state = new_game(finished_game.rules, finished_game.completed_hands[0].dealer)
    for action in parse_actions(text):
        state = state.apply(action)
    assert state == finished_game
    assert type(parse_actions(text)[0]) is Deal
