"""The value classes' hand-written methods agree with their declared fields.

For the compiled build, ``GameState``, ``HandSetup``, ``Trick`` and ``History`` write their
equality, hashing, pickling and construction out (mypyc drops the methods attrs generates).
The attrs field list stays the one declaration: these tests fail if a field is added to the
class but forgotten by a hand-written method.
"""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest
from hypothesis import given, settings

from deepsix import GameState, HandSetup, Rules, Trick, new_game
from deepsix.state import make_state
from tests.support.games import game_states
from tests.support.strategies import examples, reachable_states


def _differing_pairs(cls: type) -> list[tuple[Any, Any, str]]:
    """Pairs of values of ``cls`` from real games, and a field in which they differ."""
    values: list[Any] = [new_game(Rules(target_score=300)), new_game(Rules(pass_size=2))]
    for state in game_states()[::3]:
        values.append(state if cls is GameState else state.setup)
        if cls is Trick:
            values.extend(state.tricks)
    values = [v for v in values if type(v) is cls]
    pairs = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        for a in values:
            other = next(
                (b for b in values if getattr(b, field.name) != getattr(a, field.name)), None
            )
            if other is not None:
                pairs.append((a, other, field.name))
                break
    return pairs


@pytest.mark.parametrize("cls", [GameState, HandSetup, Trick], ids=lambda c: c.__name__)
def test_every_field_takes_part_in_equality_and_hashing(cls: type) -> None:
    """Changing any one field makes an unequal value; pickling keeps every field."""
    pairs = _differing_pairs(cls)
    fields = {f.name for f in attrs.fields(cls) if f.init}
    assert {name for _, _, name in pairs} == fields, "some field never differs in real games"
    for a, b, name in pairs:
        changed = attrs.evolve(a, **{name.lstrip("_"): getattr(b, name)})
        assert changed != a, f"{cls.__name__}.{name} is ignored by __eq__"
        assert getattr(changed, name) == getattr(b, name)
        again = pickle.loads(pickle.dumps(changed))
        assert again == changed
        assert hash(again) == hash(changed)
        for field in fields:
            assert getattr(again, field) == getattr(changed, field), f"pickling loses {field}"


@given(reachable_states())
@settings(max_examples=examples(ci=30, deep=300))
def test_fast_construction_keeps_every_field(state: GameState) -> None:
    """``make_state`` and ``GameState(...)`` build the same value from the declared fields."""
    values = [getattr(state, f.name) for f in attrs.fields(GameState) if f.init]
    built = make_state(*values)
    assert built == GameState(*values) == state
    assert hash(built) == hash(state)
    assert repr(built) == repr(state)
