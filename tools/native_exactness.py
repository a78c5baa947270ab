"""The native kernel against the Python solver on many fresh positions (issue 40 item 2).

For ``--count`` positions -- seeded deals (from ``--seed``, seeds no test uses), a random
cautious auction, passes and melds, random legal play to one to nine tricks left and any
card of the trick, either play-over rule -- it solves each with both kernels and checks
that the points and the set of best cards are the same.  Deep positions cost the Python
solver most, so they are drawn less often (the ``WEIGHTS`` below); every depth from one
to nine is drawn.  Exits 1 on any difference (and prints the seed to reproduce it).

    python tools/native_exactness.py --count 10000 --jobs 2     # nox -s native_exactness
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path

from deepsix import PlayOver, Rules
from deepsix.search import _native, solve

ROOT = Path(__file__).resolve().parents[1]
"""The checkout (the positions come from ``tests.search.endgames``)."""
WEIGHTS = {1: 14, 2: 14, 3: 14, 4: 14, 5: 14, 6: 14, 7: 8, 8: 4, 9: 1}
"""How often each number of tricks left is drawn (per 97 positions)."""


def _case(seed: int) -> tuple[int, int, str]:
    """Solve position ``seed`` with both kernels: (seed, tricks left, '' or the difference)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.search.endgames import endgame  # the tests' own reachable positions

    rng = random.Random(seed)
    depths = [depth for depth, weight in WEIGHTS.items() for _ in range(weight)]
    tricks = rng.choice(depths)
    rules = Rules(play_over=rng.choice(list(PlayOver)))
    state = endgame(rules, seed, tricks, rng.randrange(4))
    python = solve(state, kernel="python")
    native = solve(state, kernel="native")
    if (python.points, python.best) != (native.points, native.best):
        return (
            seed,
            tricks,
            f"python {python.points} {python.best}, native {native.points} {native.best}",
        )
    return seed, tricks, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=9_400_000, help="first seed")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if not _native.AVAILABLE:
        print("the native kernel is not installed (pip install ./native)")
        return 1
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.count)
    by_depth: Counter[int] = Counter()
    failures = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for done, (seed, tricks, difference) in enumerate(pool.imap_unordered(_case, seeds), 1):
            by_depth[tricks] += 1
            if difference:
                failures += 1
                print(f"seed {seed} ({tricks} tricks left): {difference}", flush=True)
            if done % 500 == 0:
                print(f"{done} positions, {failures} different, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip
    depths = ", ".join(f"{depth}: {by_depth[depth]}" for depth in sorted(by_depth))
    print(f"{args.count} positions (tricks left: {depths}), {failures} different, "
          f"{time.perf_counter() - start:.0f} s")  # fmt: skip
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
