"""Benchmark: random complete hands per second through the public API.

Every step calls ``legal_actions``, picks one action at random and
``apply``s it (deals come from ``shuffled_deal``), exactly as a simple
front end or a Monte Carlo search would.  Prints the median of several
runs; the machine is shared and noisy, so read medians and ratios, not
single figures.

    python benchmarks/random_hands.py [--hands 2000] [--runs 5] [--target 2500]

It reports figures and exits 0; ``--target N`` makes N hands/s a gate
(exit status 1 when the median is below it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from deepsix import apply, legal_actions, new_game, shuffled_deal


def run(hands: int, seed: int) -> tuple[float, float]:
    """Play ``hands`` random complete hands; return (hands/s, actions/s)."""
    rng = random.Random(seed)
    choice = rng.choice
    state = new_game()
    done = actions = 0
    start = time.perf_counter()
    while done < hands:
        if state.is_over:
            state = new_game()
        if state.is_chance:
            state = apply(state, shuffled_deal(rng))
        else:
            state = apply(state, choice(legal_actions(state)))
        actions += 1
        if state.is_chance or state.is_over:
            done += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, actions / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--target", type=float, metavar="HANDS_PER_S",
        help="exit with status 1 if the median is below this (a gate; default: report only)",
    )  # fmt: skip
    args = parser.parse_args()
    results = [run(args.hands, seed) for seed in range(args.runs)]
    hands_per_s = statistics.median(r[0] for r in results)
    actions_per_s = statistics.median(r[1] for r in results)
    print(f"random complete hands: {args.runs} runs of {args.hands} hands, one process")
    runs = ", ".join(f"{r[0]:,.0f}" for r in results)
    print(f"  median hands/s   : {hands_per_s:,.0f}  (runs: {runs})")
    print(f"  median actions/s : {actions_per_s:,.0f}")
    if args.target is None:
        return 0
    met = hands_per_s >= args.target
    print(
        f"  target {args.target:,.0f} hands/s: {'met' if met else 'not met'} "
        f"({hands_per_s / args.target:.2f}x)"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
