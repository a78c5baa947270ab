"""Field types are declared once, on the attrs classes, and checked from the declarations."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings

from deepsix import Card, GameState, HandRecord, HandSetup, Seat, Suit
from deepsix.errors import WrongTypeError
from deepsix.state import make_state
from deepsix.typecheck import type_problem
from tests.support.strategies import examples, reachable_states


@given(reachable_states())
@settings(max_examples=examples(ci=40, deep=400))
def test_every_reachable_state_matches_its_declared_types(state: GameState) -> None:
    assert type_problem(state, GameState) is None


@attrs.frozen
class Loose:
    """An attrs class declaring some of HandSetup's field types, holding whatever it is given
    (HandSetup itself refuses a value of the wrong kind when built)."""

    bidder: Seat | None = None
    bid: int | None = None
    invitation: tuple[Card, ...] = ()
    melds: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]] = (
        (), (), (), (),
    )  # fmt: skip


def setup(**fields: object) -> Loose:
    return Loose(**fields)  # type: ignore[arg-type]  # wrong types are the point


@pytest.mark.parametrize(
    ("value", "kind", "problem"),
    [
        (HandSetup(bidder=Seat.EAST), HandSetup, None),
        (setup(bidder=1), Loose, "bidder: expected Seat | None, got 1"),
        (HandSetup(bid=True), HandSetup, "bid: expected int | None, got True"),
        (setup(invitation=[Card("7S")]), Loose, "invitation: expected tuple[Card, ...]"),
        (HandSetup(invitation=(7,)), HandSetup, "invitation[0]: expected Card, got 7"),  # type: ignore[arg-type]  # the point
        (HandSetup(sunk_suit=Suit.SPADES), HandSetup, None),
        (setup(melds=((), ())), Loose, "melds: expected 4 items"),
        ((1, 2), tuple[int, int], None),
        ((1, "2"), tuple[int, int], "value[1]: expected int, got '2'"),
    ],
)
def test_type_problems_are_named(value: object, kind: object, problem: str | None) -> None:
    found = type_problem(value, kind)
    if problem is None:
        assert found is None
    else:
        assert found is not None
        assert found.startswith(problem)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"invitation": [Card("7S")]}, "HandSetup.invitation must be a tuple, not [Card('7S')]"),
        ({"melds": ((), ())}, "HandSetup.melds must be a tuple of four tuples, not ((), ())"),
        ({"bid": "90"}, "HandSetup.bid must be an int or None, not '90'"),
        ({"bids": None}, "HandSetup.bids must be a tuple, not None"),
        ({"bidder": 1}, "HandSetup.bidder must be a Seat or None, not 1"),
        ({"sunk_suit": "S"}, "HandSetup.sunk_suit must be a Suit or None, not 'S'"),
    ],
)
def test_a_setup_of_the_wrong_kind_is_refused(fields: dict[str, object], message: str) -> None:
    """HandSetup refuses what its fields cannot hold with the library's error, in both builds."""
    with pytest.raises(WrongTypeError) as caught:
        HandSetup(**fields)  # type: ignore[arg-type]  # wrong types are the point
    assert str(caught.value) == message
    assert isinstance(caught.value, TypeError)


def test_a_record_of_the_wrong_shape() -> None:
    record = HandRecord(1, Seat.NORTH, Seat.EAST, 90, Suit.HEARTS, (100, 150), (0, -30),
                        (100, 120), (100, 70), True, (100, 70))  # fmt: skip
    assert type_problem(record, HandRecord) is None
    bad = attrs.evolve(record, card_points=(100, 150.0))  # type: ignore[arg-type]  # the point
    assert type_problem(bad, HandRecord) == "card_points[1]: expected int, got 150.0"


@given(reachable_states())
@settings(max_examples=examples(ci=30, deep=300))
def test_fast_constructor_builds_what_the_class_builds(state: GameState) -> None:
    """``make_state`` (the engine's positional constructor) equals ``GameState(...)``."""
    values = [getattr(state, field.name) for field in attrs.fields(GameState) if field.init]
    fast = make_state(*values)
    assert fast == GameState(*values) == state
    assert type(fast) is GameState
    assert fast._legal is None  # the legal-action cache starts empty
