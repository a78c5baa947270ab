"""Random allocation of card copies to holders within bounds: a small flow problem.

The sampler (:mod:`deepsix.sampling`) must deal the copies a seat has not
seen to the holders that may have them -- the other seats, and passes in
flight -- so that each holder gets exactly its number of cards and every
per-card bound holds (a void forbids a suit, a meld requires its cards).
That is a transportation problem with bounds; :func:`random_allocation`
solves it at random: it always finds an allocation when one exists (the
greedy placement is repaired by augmenting paths, so the result is a
maximum flow), then mixes the result by random swaps that keep every
bound (a Markov chain whose stationary distribution is uniform over the
allocations).

>>> import random
>>> random_allocation([2, 1], [1, 2], [[0, 0], [0, 1]], [[1, 2], [1, 2]], random.Random(1))
[[1, 1], [0, 1]]
>>> random_allocation([2, 1], [1, 2], [[0, 0], [1, 1]], [[1, 2], [1, 2]], random.Random(1)) is None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

__all__ = ["random_allocation"]

Row = list[int]

_SWAPS_PER_COPY: Final = 8
"""Random swaps per copy placed, to mix the allocation."""


def random_allocation(
    caps: Sequence[int], totals: Sequence[int], lo: list[Row], hi: list[Row], rng: random.Random
) -> list[Row] | None:
    """A random table: one row per holder, ``lo <= x <= hi`` cell by cell, row ``h`` summing
    to ``caps[h]`` and column ``i`` to ``totals[i]``.

    Returns ``None`` when no such table exists.  The lower bounds are
    placed first; the remaining copies are placed in random order, each in a
    random holder with room, repairing dead ends with augmenting paths (so
    the result is a maximum flow and the search is complete); finally random
    swaps of two copies between holders mix the result.
    """
    holders = range(len(caps))
    x = [row[:] for row in lo]
    room = [caps[h] - sum(lo[h]) for h in holders]
    columns = range(len(totals))
    rest = [totals[i] - sum(lo[h][i] for h in holders) for i in columns]
    if min(room, default=0) < 0 or min(rest) < 0 or sum(room) != sum(rest):
        return None
    if any(lo[h][i] > hi[h][i] for h in holders for i in columns):
        return None
    copies = [i for i in columns for _ in range(rest[i])]
    rng.shuffle(copies)
    order = list(holders)
    pending: list[int] = []
    for card in copies:
        rng.shuffle(order)
        for h in order:
            if room[h] > 0 and x[h][card] < hi[h][card]:
                x[h][card] += 1
                room[h] -= 1
                break
        else:
            pending.append(card)
    progress = True
    while pending and progress:
        progress = False
        for card in list(pending):
            if _augment(card, x, room, lo, hi, rng=rng):
                pending.remove(card)
                progress = True
    if pending:
        return None
    _mix(x, lo, hi, rng)
    return x


def _augment(  # noqa: PLR0913  # the flow problem: caps, totals, bounds, rng
    card: int, x: list[Row], room: list[int], lo: list[Row], hi: list[Row], *, rng: random.Random
) -> bool:
    """Place one more copy of ``card`` by shifting other copies along a path of holders."""
    holders = list(range(len(x)))
    rng.shuffle(holders)
    # BFS over holders: reaching holder h means "h can take one extra card".
    parent: dict[int, tuple[int, int]] = {}
    frontier = [h for h in holders if x[h][card] < hi[h][card]]
    for h in frontier:
        parent[h] = (-1, card)
    while frontier:
        following: list[int] = []
        for h in frontier:
            if room[h] > 0:
                # Unwind: the card that enters each holder on the path.
                target = h
                while True:
                    source, moved = parent[target]
                    x[target][moved] += 1
                    if source == -1:
                        break
                    x[source][moved] -= 1
                    target = source
                room[h] -= 1
                return True
            for moved in range(len(x[h])):
                if x[h][moved] <= lo[h][moved]:
                    continue
                for other in holders:
                    if other not in parent and x[other][moved] < hi[other][moved]:
                        parent[other] = (h, moved)
                        following.append(other)
        frontier = following
    return False


def _mix(x: list[Row], lo: list[Row], hi: list[Row], rng: random.Random) -> None:
    """Random swaps of two copies between holders that keep every bound."""
    copies = [(h, i) for h in range(len(x)) for i in range(len(x[h])) for _ in range(x[h][i])]
    if len(copies) < 2:
        return
    for _ in range(_SWAPS_PER_COPY * len(copies)):
        a = rng.randrange(len(copies))
        b = rng.randrange(len(copies))
        (h1, c1), (h2, c2) = copies[a], copies[b]
        if h1 == h2 or c1 == c2:
            continue
        if (
            x[h1][c1] > lo[h1][c1]
            and x[h2][c2] > lo[h2][c2]
            and x[h1][c2] < hi[h1][c2]
            and x[h2][c1] < hi[h2][c1]
        ):
            x[h1][c1] -= 1
            x[h1][c2] += 1
            x[h2][c2] -= 1
            x[h2][c1] += 1
            copies[a] = (h1, c2)
            copies[b] = (h2, c1)
