"""Benchmark: how long ``deepsix analyze`` takes per hand, by budget.

Plays ``--hands`` one-hand games with the heuristic bot at every seat
(seeds 1, 2, ...) and analyses each with every named budget
(:data:`deepsix.search.analysis.BUDGETS`), on one core.  Prints, per
budget, each hand's decisions and seconds (CPU time of this process and
wall clock: on a shared machine the wall clock also counts waiting for a
core), how many decisions were solved exactly, then the median and the
range, and the load average before and after.  Read medians, not single
figures; the build (pure or compiled) is printed too.

    python benchmarks/analysis_speed.py [--hands 5] [--budgets quick,normal]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import deepsix.compiled
from deepsix import play_game
from deepsix.search.analysis import BUDGETS, Method, analyze_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5, help="hands per budget (default 5)")
    parser.add_argument("--budgets", default="quick,normal", help="comma-separated budget names")
    args = parser.parse_args()
    names = [name.strip() for name in args.budgets.split(",") if name.strip()]
    unknown = [name for name in names if name not in BUDGETS]
    if unknown:
        parser.error(f"unknown budget(s) {', '.join(unknown)}: one of {', '.join(BUDGETS)}")
    print(f"build {deepsix.compiled.BUILD}; load average before {os.getloadavg()}")
    games = [
        play_game(["heuristic"] * 4, seed=seed, max_hands=1) for seed in range(1, args.hands + 1)
    ]
    for name in names:
        cpu_times, wall_times = [], []
        for seed, game in enumerate(games, 1):
            cpu, wall = time.process_time(), time.perf_counter()
            hand = analyze_game(game, budget=name, seed=seed).hands[0]
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            exact = sum(1 for d in hand.decisions if d.method is Method.EXACT)
            cpu_times.append(cpu)
            wall_times.append(wall)
            print(
                f"{name:>7} hand seed {seed}: {len(hand.decisions)} decisions ({exact} exact), "
                f"{cpu:.1f} s CPU, {wall:.1f} s wall, {len(hand.costly())} costly"
            )
        print(
            f"{name:>7}: median {statistics.median(cpu_times):.1f} s CPU per hand "
            f"(range {min(cpu_times):.1f}-{max(cpu_times):.1f}), median "
            f"{statistics.median(wall_times):.1f} s wall"
        )
    print(f"load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
