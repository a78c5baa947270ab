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
average is printed before and after, and the process's peak memory at the end.

``--kernels`` names the solver kernels to run side by side on the same positions
(``python``: :mod:`deepsix.search._core`; ``native``: the C++ kernel of
``deepsix-native``, when installed -- by default both, else ``python`` alone).
Nodes are each kernel's own count.  ``--objectives points,score`` also times
``solve(objective="score")`` (what the hand records) beside the card points.

    python benchmarks/solver.py                       # 100 deals, 1 to 8 tricks left
    python benchmarks/solver.py --tricks 14-9 --deals 10 --node-limit 300000
    python benchmarks/solver.py --tricks 14,12,10 --deals 10 --kernels native
    python benchmarks/solver.py --tricks 8,7 --deals 40 --objectives points,score
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time

from deepsix import GameState, Phase, RandomBot, apply, new_game, shuffled_deal, view
from deepsix.search import KERNEL, SearchBudgetError, solve


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
    parser.add_argument(
        "--kernels",
        default="python,native" if KERNEL == "native" else "python",
        help="solver kernels, side by side: 'python,native'",
    )
    parser.add_argument(
        "--objectives", default="points", help="what to solve, side by side: 'points,score'"
    )
    args = parser.parse_args()
    kernels = args.kernels.split(",")
    objectives = args.objectives.split(",")
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    print(f"{'kernel':>6} {'solves':>6} {'tricks':>6} {'deals':>5} {'unfinished':>10} "
          f"{'median s':>9} {'worst s':>8} {'median nodes':>12} {'nodes/s':>8}")  # fmt: skip
    for tricks in _depths(args.tricks):
        states = [position(seed, tricks) for seed in range(args.seed, args.seed + args.deals)]
        for kernel in kernels:
            for objective in objectives:
                _measure(kernel, objective, tricks, states, args.node_limit)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min); peak memory {peak:.0f} MiB")
    return 0


def _measure(
    kernel: str, objective: str, tricks: int, states: list[GameState], node_limit: int
) -> None:
    """Solve each of ``states`` with ``kernel`` for ``objective``; print one line of figures."""
    times: list[float] = []
    nodes: list[int] = []
    unfinished = 0
    for state in states:
        start = time.process_time()
        try:
            result = solve(state, node_limit=node_limit, kernel=kernel, objective=objective)  # type: ignore[arg-type]  # checked by solve
        except SearchBudgetError:
            unfinished += 1
            times.append(time.process_time() - start)
            nodes.append(node_limit)
            continue
        times.append(time.process_time() - start)
        nodes.append(result.nodes)
    rate = sum(nodes) / sum(times) if sum(times) else 0.0
    worst = f"{max(times):.3f}" + ("+" if unfinished else "")
    print(
        f"{kernel:>6} {objective:>6} {tricks:>6} {len(states):>5} {unfinished:>10} "
        f"{statistics.median(times):>9.4f} {worst:>8} {statistics.median(nodes):>12.0f} "
        f"{rate:>8.0f}",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
