"""What each of the solver's techniques is worth: nodes and time with it switched off.

Not a unit test.  Builds the same positions as ``benchmarks/solver.py``
(deal seeds ``--seed`` onwards, random legal play to ``--tricks`` tricks left,
at the start of a trick) and finds each one's exact value
(``deepsix.search._python.Solver.exact``, the MTD(f) search, without the check
of every root card
that ``solve`` adds) once with every technique on and once with each switched
off in turn.  Prints, per number of tricks left and configuration, the total
and median nodes and CPU seconds (``time.process_time``), and checks that
every value agrees with the all-on search.

    python benchmarks/solver_techniques.py                    # 30 deals, 7 tricks left
    python benchmarks/solver_techniques.py --tricks 7,8 --deals 100
    python benchmarks/solver_techniques.py --tricks 9 --switches guess,bounds
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

from deepsix.search._python import Solver as _Solver  # the switches are the tests' own

SWITCHES = ("bounds", "runs", "killers", "merge", "squeeze", "guess", "deepen")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tricks", default="7", help="tricks left, one or several: '7' or '7,8'")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--switches", default=",".join(SWITCHES), help="which to switch off")
    args = parser.parse_args()
    switches = [name for name in args.switches.split(",") if name]
    unknown = sorted(set(switches) - set(SWITCHES))
    if unknown:
        parser.error(f"unknown switches {unknown}; known: {', '.join(SWITCHES)}")
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    print(f"{args.deals} deals per row, seeds {args.seed} onwards")
    print(f"{'tricks':>6} {'switched off':>12} {'nodes':>10} {'median':>8} {'CPU s':>7} "
          f"{'median s':>9}")  # fmt: skip
    for tricks in (int(part) for part in args.tricks.split(",")):
        states = [position(seed, tricks) for seed in range(args.seed, args.seed + args.deals)]
        reference: list[int] = []
        for switch in ("(none)", *switches):
            nodes: list[int] = []
            seconds: list[float] = []
            values: list[int] = []
            for state in states:
                start = time.process_time()
                solver = _Solver(state, **{name: name != switch for name in SWITCHES})
                values.append(solver.exact())
                seconds.append(time.process_time() - start)
                nodes.append(solver.nodes)
            if not reference:
                reference = values
            agree = "" if values == reference else "  VALUES DIFFER"
            print(
                f"{tricks:>6} {switch:>12} {sum(nodes):>10} {statistics.median(nodes):>8.0f} "
                f"{sum(seconds):>7.2f} {statistics.median(seconds):>9.4f}{agree}",
                flush=True,
            )
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
