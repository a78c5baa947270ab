"""What each of the solver's techniques is worth: nodes and time with it switched off.

Not a unit test.  Builds the same positions as ``benchmarks/solver.py``
(deal seeds ``--seed`` onwards, random legal play to ``--tricks`` tricks left,
at the start of a trick) and finds each one's exact value
(``_Solver.exact``, the MTD(f) search, without the check of every root card
that ``solve`` adds) once with every technique on and once with each switched
off in turn.  Prints, per configuration, the total and median nodes and CPU
seconds (``time.process_time``), and checks that every value agrees.

    python benchmarks/solver_techniques.py                    # 30 deals, 7 tricks left
    python benchmarks/solver_techniques.py --tricks 6 --deals 100
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver import position  # the benchmark next door builds the positions

from deepsix.search.solver import _Solver  # the switches are the tests' own

SWITCHES = ("bounds", "runs", "killers", "merge", "squeeze")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tricks", type=int, default=7)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    args = parser.parse_args()
    states = [position(seed, args.tricks) for seed in range(args.seed, args.seed + args.deals)]
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    print(f"{args.deals} deals, {args.tricks} tricks left, seeds {args.seed} onwards")
    print(f"{'switched off':>12} {'nodes':>10} {'median':>8} {'CPU s':>7} {'median s':>9}")
    reference: list[int] = []
    for switch in ("(none)", *SWITCHES):
        nodes: list[int] = []
        seconds: list[float] = []
        values: list[int] = []
        for state in states:
            start = time.process_time()
            solver = _Solver(
                state,
                bounds=switch != "bounds",
                runs=switch != "runs",
                killers=switch != "killers",
                merge=switch != "merge",
                squeeze=switch != "squeeze",
            )
            values.append(solver.exact())
            seconds.append(time.process_time() - start)
            nodes.append(solver.nodes)
        if not reference:
            reference = values
        agree = "" if values == reference else "  VALUES DIFFER"
        print(
            f"{switch:>12} {sum(nodes):>10} {statistics.median(nodes):>8.0f} "
            f"{sum(seconds):>7.2f} {statistics.median(seconds):>9.4f}{agree}",
            flush=True,
        )
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
