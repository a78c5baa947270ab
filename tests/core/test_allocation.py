"""The sampler's flow solver finds an allocation exactly when one exists, within every bound."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from deepsix.allocation import random_allocation
from tests.support.strategies import examples


def _exists(caps: list[int], totals: list[int], lo: list[list[int]], hi: list[list[int]]) -> bool:
    """Brute force: does any table within the bounds have these row and column sums?"""
    ranges = [range(lo[h][i], hi[h][i] + 1) for h in range(len(caps)) for i in range(len(totals))]
    width = len(totals)
    for cells in itertools.product(*ranges):
        rows = [cells[h * width : (h + 1) * width] for h in range(len(caps))]
        if [sum(row) for row in rows] == caps and [
            sum(row[i] for row in rows) for i in range(width)
        ] == totals:
            return True
    return False


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[int], list[int], list[list[int]], list[list[int]]]:
    holders = draw(st.integers(1, 3))
    width = draw(st.integers(1, 3))
    hi = [[draw(st.integers(0, 2)) for _ in range(width)] for _ in range(holders)]
    lo = [[draw(st.integers(0, cell)) for cell in row] for row in hi]
    totals = [draw(st.integers(0, 3)) for _ in range(width)]
    caps = [draw(st.integers(0, 4)) for _ in range(holders)]
    return caps, totals, lo, hi


@settings(max_examples=examples(ci=200, deep=3000))
@given(problems(), st.integers(0, 2**32 - 1))
def test_an_allocation_is_found_exactly_when_one_exists(
    problem: tuple[list[int], list[int], list[list[int]], list[list[int]]], seed: int
) -> None:
    caps, totals, lo, hi = problem
    table = random_allocation(caps, totals, lo, hi, random.Random(seed))
    assert (table is not None) == _exists(caps, totals, lo, hi)
    if table is not None:
        assert [sum(row) for row in table] == caps
        assert [sum(row[i] for row in table) for i in range(len(totals))] == totals
        for h, row in enumerate(table):
            assert all(lo[h][i] <= row[i] <= hi[h][i] for i in range(len(totals)))


def test_every_allocation_is_reached() -> None:
    """The random swaps mix: over many seeds, every allocation of a small problem occurs."""
    caps, totals = [2, 2], [2, 1, 1]
    lo = [[0, 0, 0], [0, 0, 0]]
    hi = [[2, 1, 1], [2, 1, 1]]
    seen = set()
    for seed in range(200):
        table = random_allocation(caps, totals, lo, hi, random.Random(seed))
        assert table is not None
        seen.add(tuple(map(tuple, table)))
    # first row: two copies of card 0; or one of card 0 and one of 1 or 2; or cards 1 and 2
    assert len(seen) == 4
