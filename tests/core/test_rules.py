"""The Rules record and the derivation of the lowest bid (R-BID-6)."""

from __future__ import annotations

import itertools
import math

import attrs
import pytest

from deepsix import InvalidStateError, PlayOver, Rules
from deepsix.rules import LARGEST_PARTNERSHIP_MELD, LOWEST_BID


def test_defaults_are_the_standard_game() -> None:
    """The default Rules are the rulings of the rules issue."""
    rules = Rules()
    assert rules.target_score == 500
    assert rules.end_at_target
    assert (rules.opening_bid_limit, rules.forced_bid, rules.bid_step) == (120, 120, 10)
    assert rules.failed_bid_score == 200
    assert rules.pass_size == 3
    assert rules.meld_sharing
    assert rules.play_over is PlayOver.WIN_TRICK


def test_lowest_bid_is_the_lowest_reachable_net() -> None:
    """R-BID-6: the floor is the lowest net a partnership can reach, rounded to 10.

    The lowest net takes no card points (the opponents take all 250) and
    declares the largest partnership meld, -410 (recomputed exhaustively in
    tests/core/test_meld_optimality.py).  A bid below that could never be made,
    so the floor rounds *up* to the next multiple of the bid step.
    """
    lowest_net = 0 + LARGEST_PARTNERSHIP_MELD
    floor = math.ceil(lowest_net / 10) * 10
    assert floor == LOWEST_BID == Rules().lowest_bid == -410


def test_bid_amounts_range() -> None:
    """R-BID-3, R-BID-4, R-BID-6: the legal amounts run from 120 down to the floor by 10."""
    amounts = list(Rules().bid_amounts)
    assert amounts[0] == 120
    assert amounts[-1] == -410
    assert all(a - b == 10 for a, b in itertools.pairwise(amounts))


@pytest.mark.parametrize(
    "changes",
    [
        {"bid_step": 0},
        {"opening_bid_limit": 125},
        {"forced_bid": 130},
        {"lowest_bid": 200},
        {"pass_size": 0},
        {"pass_size": 8},
        {"meld_sharing": 1},
        {"target_score": "500"},
        {"play_over": "win-trick"},
        {"failed_bid_score": 50},
    ],
)
def test_invalid_rules_are_refused(changes: dict[str, object]) -> None:
    """Rules validate every field at construction with a typed error."""
    with pytest.raises(InvalidStateError):
        Rules(**changes)  # type: ignore[arg-type]  # deliberately wrong values


def test_rules_are_frozen_and_hashable() -> None:
    """Rules are immutable values."""
    rules = Rules()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.target_score = 100  # type: ignore[misc]  # assigning to frozen rules on purpose
    assert hash(Rules()) == hash(rules)
    assert attrs.evolve(rules, target_score=300) == Rules(target_score=300)
