"""A game's history (``deepsix.history``): a value, equal to another exactly when it holds the
same actions in the same order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from deepsix import Action, Pass, Seat
from deepsix.history import History

CALLS = st.lists(st.sampled_from([Pass(seat) for seat in Seat]), max_size=8)


def history_of(actions: list[Action]) -> History | None:
    node: History | None = None
    for action in actions:
        node = History(node, action)
    return node


@given(CALLS, CALLS)
def test_histories_are_equal_exactly_when_their_actions_are(
    first: list[Action], second: list[Action]
) -> None:
    a, b = history_of(first), history_of(second)
    if a is None or b is None:
        return
    same = first == second
    assert (a == b) is same
    assert (a != b) is not same
    if same:
        assert hash(a) == hash(b)
    assert len(a) == len(first)
    assert tuple(a) == a.to_tuple() == tuple(first)


def test_a_history_is_not_equal_to_a_longer_one_it_begins() -> None:
    one = History(None, Pass(Seat.EAST))
    two = History(one, Pass(Seat.SOUTH))
    assert one != two
    assert two != one
    assert not one == two  # noqa: SIM201  # the == operator itself is under test


def test_a_history_is_not_equal_to_other_values() -> None:
    one = History(None, Pass(Seat.EAST))
    assert one != (Pass(Seat.EAST),)
    assert one != "E passes"
    assert not one == (Pass(Seat.EAST),)  # noqa: SIM201  # as above
    assert History.__eq__(one, 5) is NotImplemented
    assert History.__ne__(one, 5) is NotImplemented
