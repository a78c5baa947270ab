"""Measure the double-dummy solver: solve time by tricks left, and nodes per second.

Not a unit test.  For each number of tricks left (14 down to 1) it builds
``--deals`` positions -- a seeded deal, a random auction, random passes and
melds, then random legal play until that many tricks are left, at the start
of a trick -- and solves each with :func:`deepsix.search.solve`.  A solve
that needs more than ``--node-limit`` nodes is stopped and counted as
unfinished (its time is then a lower bound).  Prints, per depth: deals,
unfinished, median and worst time, median nodes, and nodes per second.

Times are CPU seconds of this process (``time.process_time``), so that a
machine shared with other work still gives comparable figures; the load
average is printed before and after.

    python benchmarks/solver.py                       # 100 deals, 1 to 8 tricks left
    python benchmarks/solver.py --tricks 14-9 --deals 10 --node-limit 300000
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from deepsix import GameState, Phase, RandomBot, apply, new_game, shuffled_deal, view
from deepsix.search import SearchBudgetError, solve


def position(seed: int, tricks_left: int) -> GameState:
    """Random legal play from deal ``seed`` until ``tricks_left`` tricks are left."""
    rng = random.Random(seed)
    state = apply(new_game(), shuffled_deal(rng))
    bot = RandomBot()
    while state.phase is not Phase.PLAY or 14 - len(state.tricks) > tricks_left or state.trick:
        seat = state.to_act
        assert seat is not None
        state = apply(state, bot.choose(view(state, seat), rng))
    return state


def _depths(text: str) -> list[int]:
    if "-" in text:
        high, low = (int(part) for part in text.split("-"))
        step = -1 if high >= low else 1
        return list(range(high, low + step, step))
    return [int(part) for part in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tricks", default="8-1", help="tricks left: '8-1' or '7,6'")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--node-limit", type=int, default=2_000_000)
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    print(f"{'tricks':>6} {'deals':>5} {'unfinished':>10} {'median s':>9} {'worst s':>8} "
          f"{'median nodes':>12} {'nodes/s':>8}")  # fmt: skip
    for tricks in _depths(args.tricks):
        times: list[float] = []
        nodes: list[int] = []
        unfinished = 0
        for seed in range(args.seed, args.seed + args.deals):
            state = position(seed, tricks)
            start = time.process_time()
            try:
                result = solve(state, node_limit=args.node_limit)
            except SearchBudgetError:
                unfinished += 1
                times.append(time.process_time() - start)
                nodes.append(args.node_limit)
                continue
            times.append(time.process_time() - start)
            nodes.append(result.nodes)
        rate = sum(nodes) / sum(times) if sum(times) else 0.0
        worst = f"{max(times):.3f}" + ("+" if unfinished else "")
        print(
            f"{tricks:>6} {args.deals:>5} {unfinished:>10} {statistics.median(times):>9.4f} "
            f"{worst:>8} {statistics.median(nodes):>12.0f} {rate:>8.0f}",
            flush=True,
        )
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
