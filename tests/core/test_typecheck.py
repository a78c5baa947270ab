"""Field types are declared once, on the attrs classes, and checked from the declarations."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings

from deepsix import Card, GameState, HandRecord, HandSetup, Seat, Suit
from deepsix.state import make_state
from deepsix.typecheck import type_problem
from tests.support.strategies import examples, reachable_states


@given(reachable_states())
@settings(max_examples=examples(ci=40, deep=400))
def test_every_reachable_state_matches_its_declared_types(state: GameState) -> None:
    assert type_problem(state, GameState) is None


def setup(**fields: object) -> HandSetup:
    """A HandSetup holding whatever it is given (attrs does not check types)."""
    return HandSetup(**fields)  # type: ignore[arg-type]  # wrong types are the point


@pytest.mark.parametrize(
    ("value", "kind", "problem"),
    [
        (HandSetup(bidder=Seat.EAST), HandSetup, None),
        (setup(bidder=1), HandSetup, "bidder: expected Seat | None, got 1"),
        (setup(bid=True), HandSetup, "bid: expected int | None, got True"),
        (setup(invitation=[Card("7S")]), HandSetup, "invitation: expected tuple[Card, ...]"),
        (setup(invitation=(7,)), HandSetup, "invitation[0]: expected Card, got 7"),
        (HandSetup(sunk_suit=Suit.SPADES), HandSetup, None),
        (setup(melds=((), ())), HandSetup, "melds: expected 4 items"),
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
