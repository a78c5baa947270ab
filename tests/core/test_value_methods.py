"""The value classes' spelled-out methods follow their declared fields.

For the compiled build, ``GameState``, ``HandSetup`` and ``Trick`` spell out their
equality, hashing, pickling and construction (mypyc drops the methods attrs generates);
``tools/value_methods.py`` writes them from the one field declaration, and these tests
check that the committed files are what it writes.  The same tool writes the properties
``GameState`` and ``PlayerView`` share from their one declaration (``SHARED``).
"""

from __future__ import annotations

import pickle

import attrs
import pytest
from hypothesis import given, settings
from tools import value_methods

from deepsix import DECK, GameState, HandSetup, PlayerView, Seat, Trick, public_view, view
from deepsix.state import make_state
from tests.support.games import game_states
from tests.support.strategies import examples, reachable_states


def test_the_generated_methods_are_current() -> None:
    """The value methods and constructors are generated from the fields
    (``tools/value_methods.py``); the committed files hold what the tool writes now."""
    for path in value_methods.FILES:
        text = path.read_text(encoding="utf-8")
        assert "# <generated: " in text
        assert value_methods.same_code(value_methods.render(text), text), (
            f"{path.name} is out of date: run python tools/value_methods.py"
        )


def test_the_currency_check_can_fail() -> None:
    """A field added to a class, its generated methods not rewritten, is caught; the tool's
    output then holds the field and is current."""
    text = value_methods.FILES[2].read_text(encoding="utf-8")  # tricks.py
    grown = text.replace("    winner: Seat\n", "    winner: Seat\n    extra: int = 0\n", 1)
    assert grown != text
    assert not value_methods.same_code(value_methods.render(grown), grown)
    fresh = value_methods.render(grown)
    assert value_methods.same_code(value_methods.render(fresh), fresh)
    assert 'object.__setattr__(self, "extra", extra)' in fresh


@pytest.mark.parametrize("cls", [GameState, HandSetup, Trick], ids=lambda c: c.__name__)
def test_a_value_pickles_and_hashes_with_every_field(cls: type) -> None:
    """Pickling keeps every declared field; equal values hash alike."""
    state = game_states()[-1]
    value = {
        GameState: state,
        HandSetup: state.setup,
        Trick: state.tricks[0] if state.tricks else Trick(((Seat.NORTH, DECK[0]),), Seat.NORTH),
    }[cls]
    again = pickle.loads(pickle.dumps(value))
    assert again == value
    assert hash(again) == hash(value)
    for field in attrs.fields(cls):
        if field.init:
            assert getattr(again, field.name) == getattr(value, field.name)


@given(reachable_states())
@settings(max_examples=examples(ci=30, deep=300))
def test_fast_construction_keeps_every_field(state: GameState) -> None:
    """``make_state`` and ``GameState(...)`` build the same value from the declared fields."""
    values = [getattr(state, f.name) for f in attrs.fields(GameState) if f.init]
    built = make_state(*values)
    assert built == GameState(*values) == state
    assert hash(built) == hash(state)
    assert repr(built) == repr(state)


@pytest.mark.parametrize("cls", [GameState, PlayerView], ids=lambda c: c.__name__)
def test_the_shared_properties_are_the_declared_ones(cls: type) -> None:
    """Each shared property stands on the state and on the view, documented as declared (the
    compiled build keeps a native class's properties, not their docstrings)."""
    for shared in value_methods.SHARED:
        prop = vars(cls)[shared.name]
        if isinstance(prop, property):
            assert (prop.__doc__ or "").strip() == shared.doc
        else:
            assert cls is GameState
            assert type(prop).__name__ == "getset_descriptor"


@given(reachable_states())
@settings(max_examples=examples(ci=30, deep=300))
def test_every_view_answers_the_shared_properties_as_the_state_does(state: GameState) -> None:
    """What the table shows alike to all (the phase's facts, tricks and points taken, meld)
    reads the same from the state, from each seat's view and from the spectator's."""
    views = [view(state, seat) for seat in Seat] + [public_view(state)]
    for shared in value_methods.SHARED:
        expected = getattr(state, shared.name)
        assert [getattr(seen, shared.name) for seen in views] == [expected] * 5, shared.name
