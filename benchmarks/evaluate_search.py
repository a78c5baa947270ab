"""Evaluate SearchBot against HeuristicBot: duplicate hands and whole games.

Not a unit test: it plays thousands of hands on every local core and
prints tables.  Two measurements, as issue 11 asks:

* **Duplicate hands.**  Each seeded deal is played as one hand twice, with
  the search pair North-South and then East-West (the same cards, the same
  dealer, the same bot streams).  Per deal, the difference is the search
  pair's recorded score minus the heuristic pair's, averaged over the two
  seatings (lower is better for the search pair: points are bad); the
  table gives its mean and a 95% interval (normal approximation over
  deals), and each side's share of contracts made.
* **Whole games.**  :func:`deepsix.simulate` with the sides alternating
  seats over paired deals; the search pair's win rate with its 95%
  Wilson interval.

The targets (issue 11): the search pair wins at least 60% of games, and the
duplicate interval excludes 0.  Exit status 1 if either is missed.

Use one seed range while developing and another, fixed one for the
reported figures:

    python benchmarks/evaluate_search.py --deals 40 --games 0 --seed 1   # development
    python benchmarks/evaluate_search.py --deals 500 --games 200 --seed 2026300  # the report
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import os
import random
import sys
import time
from collections.abc import Sequence

import attrs

import deepsix.compiled
from deepsix import Action, PlayerView, Seat, Team, play_game, simulate
from deepsix.search import SearchBot

EVALUATION_BUDGET = SearchBot(
    worlds=10,
    solve_tricks=7,
    node_limit=200_000,
    rollout_worlds=0,
    auction_rollouts=0,
    sunk_rollouts=0,
    exchange_rollouts=0,
)
"""The per-decision budget of the reported evaluation, fixed before the run on the
report's seeds (issue 11; ``SearchBot.endgame()`` since issue 26): endgame solves
from 7 tricks left on 10 sampled deals (a deal needing more than 200,000 nodes does
not vote); every other phase as the heuristic.
Meant for the compiled build, where the solver is fast enough for 500 duplicate deals
and 200 games in well under an hour of two cores.  Override any field from the command
line (``--worlds 12`` ...)."""

REPORT_SEED = 2026300
"""The first deal seed and game master seed of the reported figures (seeds 1 to 80 are
for development; 2026110 onwards was the first wave's report, with an earlier budget)."""


@attrs.define
class _Timed:
    """A bot wrapper that counts decisions and the time spent in them."""

    bot: SearchBot
    decisions: int = 0
    seconds: float = 0.0

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, rng)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


@attrs.frozen
class DealResult:
    """One deal played twice (search pair North-South, then East-West)."""

    seed: int
    difference: float
    """Search pair's recorded score minus the heuristic pair's, averaged over both seatings."""
    search_bids: int
    search_made: int
    heuristic_bids: int
    heuristic_made: int
    decisions: int
    decision_seconds: float


def play_deal(bot: SearchBot, seed: int) -> DealResult:
    """Play deal ``seed`` twice as a single hand with the line-ups swapped."""
    diffs = []
    counts = {"search": [0, 0], "heuristic": [0, 0]}
    decisions = 0
    seconds = 0.0
    for search_team in (Team.NORTH_SOUTH, Team.EAST_WEST):
        timed = _Timed(bot)
        bots = [timed if Seat(seat).team == search_team else "heuristic" for seat in range(4)]
        final = play_game(bots, seed, max_hands=1)
        record = final.completed_hands[0]
        heuristic_team = 1 - search_team
        diffs.append(record.scores[search_team] - record.scores[heuristic_team])
        side = "search" if record.bidder.team == search_team else "heuristic"
        counts[side][0] += 1
        counts[side][1] += record.made
        decisions += timed.decisions
        seconds += timed.seconds
    return DealResult(
        seed=seed,
        difference=sum(diffs) / 2,
        search_bids=counts["search"][0],
        search_made=counts["search"][1],
        heuristic_bids=counts["heuristic"][0],
        heuristic_made=counts["heuristic"][1],
        decisions=decisions,
        decision_seconds=seconds,
    )


def _deal_chunk(bot: SearchBot, seeds: Sequence[int]) -> list[DealResult]:
    return [play_deal(bot, seed) for seed in seeds]


def duplicate(bot: SearchBot, seeds: Sequence[int], workers: int) -> list[DealResult]:
    """Every deal of ``seeds``, on ``workers`` processes."""
    chunks = [list(seeds[i :: workers * 4]) for i in range(workers * 4)]
    results: list[DealResult] = []
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_deal_chunk, [bot] * len(chunks), chunks):
            results.extend(part)
    return sorted(results, key=lambda result: result.seed)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.959964 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="duplicate deals")
    parser.add_argument("--games", type=int, default=200, help="whole games")
    parser.add_argument("--seed", type=int, default=REPORT_SEED, help="first deal seed / game seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    for field in attrs.fields(SearchBot):
        if field.type in ("int", int):
            parser.add_argument(f"--{field.name.replace('_', '-')}", type=int, default=None)
    args = parser.parse_args()
    changes = {
        field.name: getattr(args, field.name)
        for field in attrs.fields(SearchBot)
        if getattr(args, field.name, None) is not None
    }
    bot = attrs.evolve(EVALUATION_BUDGET, **changes)
    print(f"budget: {bot}")
    print(f"build: {deepsix.compiled.BUILD}; load average {os.getloadavg()[0]:.1f} (1 min)")
    print(f"workers: {args.workers}; deal seeds {args.seed}..{args.seed + args.deals - 1}, "
          f"game master seed {args.seed}")  # fmt: skip
    met = True
    if args.deals:
        start = time.perf_counter()
        results = duplicate(bot, range(args.seed, args.seed + args.deals), args.workers)
        elapsed = time.perf_counter() - start
        mean, low, high = mean_interval([r.difference for r in results])
        sb = sum(r.search_bids for r in results)
        sm = sum(r.search_made for r in results)
        hb = sum(r.heuristic_bids for r in results)
        hm = sum(r.heuristic_made for r in results)
        decisions = sum(r.decisions for r in results)
        seconds = sum(r.decision_seconds for r in results)
        print(
            f"duplicate: {len(results)} deals ({2 * len(results)} hands), "
            f"search minus heuristic per hand {mean:+.1f} (95% CI {low:+.1f} to {high:+.1f}; "
            "negative favours search)"
        )
        print(
            f"  contracts made: search {sm}/{sb} ({sm / max(1, sb):.1%}), "
            f"heuristic {hm}/{hb} ({hm / max(1, hb):.1%})"
        )
        print(
            f"  search decisions {decisions}, {decisions / max(seconds, 1e-9):.1f}/s per core; "
            f"wall {elapsed:.0f} s, compute {seconds:.0f} s in search decisions"
        )
        met = met and high < 0
    if args.games:
        start = time.perf_counter()
        result = simulate(args.games, (bot, "heuristic"), args.seed, workers=args.workers)
        elapsed = time.perf_counter() - start
        summary = result.summary()
        side = summary.sides[0]
        low_w, high_w = side.win_interval
        print(
            f"games: {summary.games} ({summary.unfinished} unfinished), search pair won "
            f"{side.wins} = {side.win_rate:.1%} (95% Wilson {low_w:.1%} to {high_w:.1%}); "
            f"mean hand score search {side.mean_hand_score:.1f} vs heuristic "
            f"{summary.sides[1].mean_hand_score:.1f}; contracts made search "
            f"{side.made_rate:.1%} heuristic {summary.sides[1].made_rate:.1%}; "
            f"{summary.mean_hands:.1f} hands/game; wall {elapsed:.0f} s"
        )
        met = met and side.win_rate >= 0.60
    print(f"load average {os.getloadavg()[0]:.1f} (1 min)")
    print("targets (>= 60% of games, duplicate interval below 0):", "met" if met else "NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
