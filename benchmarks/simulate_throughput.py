"""Simulation throughput: games per second in 1 process, 2 processes, and on a Dask cluster.

Plays the same seeded games with ``deepsix.play.simulate.simulate`` three ways
and prints the median of several runs of each:

* ``workers=1`` -- in this process;
* ``workers=2`` -- a local process pool (forkserver), start-up included;
* a Dask ``LocalCluster(n_workers=2, threads_per_worker=1, processes=True)``
  through ``client.get_executor()`` -- the cluster's start-up is reported
  separately; the run time is directly comparable with the process pool's.

It also checks that the three give identical results.  The machine is
shared and noisy: compare medians and ratios, not single figures.

    python benchmarks/simulate_throughput.py [--games 400] [--runs 3] [--lineup heuristic random]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib
import os
import statistics
import sys
import tempfile
import time
from typing import Any

from deepsix.play.simulate import SimulationResult, simulate


def timed(
    games: int, lineup: list[str], seed: int, **options: object
) -> tuple[float, SimulationResult]:
    start = time.perf_counter()
    result = simulate(games, lineup, seed, **options)  # type: ignore[arg-type]  # forwarded as given
    return time.perf_counter() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--lineup", nargs="+", default=["heuristic", "random"])
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    print(
        f"{args.games} games of {' vs '.join(args.lineup)}, {args.runs} runs each, seed {args.seed}"
    )
    serial: list[float] = []
    pooled: list[float] = []
    reference: SimulationResult | None = None
    for _ in range(args.runs):
        seconds, result = timed(args.games, args.lineup, args.seed, workers=1)
        serial.append(seconds)
        reference = result
        seconds, result = timed(args.games, args.lineup, args.seed, workers=2)
        pooled.append(seconds)
        assert result == reference, "2 processes differ from 1 process"
    assert reference is not None
    s1, s2 = statistics.median(serial), statistics.median(pooled)
    pool_startup = statistics.median(_pool_startup() for _ in range(args.runs))
    games = args.games
    hands = reference.summary().mean_hands
    print(f"  average game: {hands:.2f} hands, {reference.summary().mean_actions:.0f} actions")
    print(f"  1 process  : {games / s1:8.1f} games/s  (median {s1:.2f} s; runs {_runs(serial)})")
    print(f"  2 processes: {games / s2:8.1f} games/s  (median {s2:.2f} s; runs {_runs(pooled)}; "
          f"speed-up {s1 / s2:.2f}x)")  # fmt: skip
    if args.no_dask:
        return 0
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        print("  dask: not installed (pip install 'deepsix[distributed]')")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["DASK_TEMPORARY_DIRECTORY"] = scratch
        start = time.perf_counter()
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)
        startup = time.perf_counter() - start
        executor = client.get_executor(pure=False)  # no result caching between runs
        dask_runs: list[float] = []
        for _ in range(args.runs):
            seconds, result = timed(
                args.games, args.lineup, args.seed, executor=executor, workers=2
            )
            dask_runs.append(seconds)
            assert result == reference, "Dask differs from 1 process"
        client.close()
        cluster.close()
    sd = statistics.median(dask_runs)
    chunks = len(range(0, games, max(1, min(50, -(-games // 12)))))
    warm = s2 - pool_startup
    print(f"  dask (2)   : {games / sd:8.1f} games/s  (median {sd:.2f} s; "
          f"runs {_runs(dask_runs)}); cluster start-up {startup:.2f} s, not included")  # fmt: skip
    print(f"  process pool start-up (2 forkserver workers): {pool_startup:.2f} s, included above")
    print(f"  dask overhead vs 2 warm local processes: {sd - warm:+.2f} s per run "
          f"({(sd - warm) / games * 1000:+.2f} ms per game, {(sd - warm) / chunks * 1000:+.1f} ms "
          f"per task of ~{games // chunks} games), plus the one-off cluster start-up")  # fmt: skip
    print("  results identical across 1 process, 2 processes and Dask: yes")
    return 0


def _noop(value: int) -> int:
    return value


def _pool_startup() -> float:
    """Seconds to start a 2-worker forkserver pool (as ``simulate`` does) and reach both workers."""
    import multiprocessing

    start = time.perf_counter()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["deepsix.play.simulate"])
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        list(pool.map(_noop, range(2)))
    return time.perf_counter() - start


def _runs(values: list[float]) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


if __name__ == "__main__":
    sys.exit(main())
