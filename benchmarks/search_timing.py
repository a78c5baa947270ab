"""How long SearchBot takes per decision, by phase, with a given budget.

Not a unit test.  Plays ``--hands`` seeded hands with the bot at North and
South and the heuristic at East and West, and prints, per phase (play
split into the endgame the bot solves and the tricks before it), the
number of decisions and the median, 95th percentile and worst CPU time
per decision (``time.process_time``: comparable on a shared machine).

    python benchmarks/search_timing.py --hands 6 --preset quick   # the live tables' budget
    python benchmarks/search_timing.py --hands 6 --preset deep    # analysis and evaluation
    python benchmarks/search_timing.py --hands 6 --preset deep --worlds 12   # a variant
    python benchmarks/search_timing.py --hands 3 --preset deep --card-playouts perfect
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict

import attrs

import deepsix.compiled
from deepsix import Action, PlayerView, play_game
from deepsix.search import SearchBot


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--preset", choices=("quick", "deep", "endgame"), default="quick")
    for field in attrs.fields(SearchBot):
        if field.type in ("int", int, "int | None"):
            parser.add_argument(f"--{field.name.replace('_', '-')}", type=int, default=None)
        elif field.type in ("float", float, "float | None"):
            parser.add_argument(f"--{field.name.replace('_', '-')}", type=float, default=None)
        elif str(field.type).startswith("Literal["):  # a choice of names
            choices = str(field.type).removeprefix("Literal[").removesuffix("]")
            names = [name.strip().strip("'\"") for name in choices.split(",")]
            option = f"--{field.name.replace('_', '-')}"
            parser.add_argument(option, choices=names, default=None)
    args = parser.parse_args()
    changes = {
        field.name: getattr(args, field.name)
        for field in attrs.fields(SearchBot)
        if getattr(args, field.name, None) is not None
    }
    bot: SearchBot = attrs.evolve(getattr(SearchBot, args.preset)(), **changes)
    times: dict[str, list[float]] = defaultdict(list)

    class Timed:
        def choose(self, view: PlayerView, rng: random.Random) -> Action:
            start = time.process_time()
            action = bot.choose(view, rng)
            phase = view.phase.value
            if phase == "play":
                late = 14 - len(view.tricks) <= bot.solve_tricks
                phase = "play (endgame)" if late else "play (earlier)"
            times[phase].append(time.process_time() - start)
            return action

    print(f"build: {deepsix.compiled.BUILD}; budget {args.preset}: {bot}")
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores")
    for seed in range(args.seed, args.seed + args.hands):
        play_game([Timed(), "heuristic", Timed(), "heuristic"], seed, max_hands=1)
    print(f"{'phase':16} {'decisions':>9} {'median s':>9} {'p95 s':>7} {'worst s':>8}")
    total = 0.0
    count = 0
    for phase, values in times.items():
        values.sort()
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        print(
            f"{phase:16} {len(values):>9} {statistics.median(values):>9.3f} {p95:>7.3f} "
            f"{values[-1]:>8.3f}"
        )
        total += sum(values)
        count += len(values)
    print(f"all decisions: {count} in {total:.1f} CPU s = {count / total:.1f} per second")
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
