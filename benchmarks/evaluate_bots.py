"""Evaluate the bots: many seeded games per line-up, win rates with 95% Wilson intervals.

Not a unit test: it plays thousands of games (on every local core) and
prints a table, and the requirement of the original issue beside it: the
heuristic pair beats the random pair in at least 90% of games over at
least 1,000 games.  It reports figures and exits 0; ``--require`` makes
the requirement a gate (exit status 1 when it is not met).

Line-ups (sides alternate seats between paired games with the same deals):

* ``heuristic`` vs ``random`` -- the requirement;
* ``heuristic`` vs ``cautious-random`` -- random play, but an auction that
  passes whenever it may: it measures card play and melding rather than the
  random bot's suicidal bidding;
* ``heuristic`` vs ``heuristic`` and ``random`` vs ``random`` -- sanity
  checks; with deterministic bots and paired deals the first splits 50/50.

    python benchmarks/evaluate_bots.py [-n 2000] [--seed 2026] [--workers K] [--require]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import attrs

from deepsix import Action, Pass, Phase, PlayerView
from deepsix.play.bots import Bot, RandomBot
from deepsix.play.heuristic import HeuristicBot
from deepsix.play.simulate import simulate


@attrs.frozen
class CautiousRandomBot:
    """Random legal actions, except that it passes in the auction whenever it may."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Pass if the auction allows it, else a random legal action."""
        if view.phase is Phase.BIDDING:
            for action in view.legal_actions:
                if isinstance(action, Pass):
                    return action
        return RandomBot().choose(view, rng)


LINEUPS: dict[str, tuple[tuple[Bot | str, Bot | str], int]] = {
    # name: (the two sides, divisor of --games: the long sanity line-ups play fewer games)
    "heuristic vs random": (("heuristic", "random"), 1),
    "heuristic vs cautious-random": ((HeuristicBot(), CautiousRandomBot()), 2),
    "heuristic vs heuristic": (("heuristic", "heuristic"), 10),
    "random vs random": (("random", "random"), 1),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=2000, help="games per line-up")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--only", choices=list(LINEUPS), help="run one line-up")
    parser.add_argument(
        "--require", action="store_true",
        help="exit with status 1 unless the requirement is met (a gate; default: report only)",
    )  # fmt: skip
    args = parser.parse_args()
    print(f"up to {args.games} games per line-up, master seed {args.seed}, seats alternated")
    header = f"{'line-up':30} {'games':>6} {'side A wins':>11} {'win rate':>9} {'95% CI':>17}"
    print(header + f" {'hands/game':>10} {'A bids made':>11} {'time':>7}")
    verdict = None
    for name, (lineup, divisor) in LINEUPS.items():
        if args.only and name != args.only:
            continue
        games = max(2, args.games // divisor)
        start = time.perf_counter()
        result = simulate(games, lineup, args.seed, workers=args.workers)
        elapsed = time.perf_counter() - start
        summary = result.summary()
        side = summary.sides[0]
        low, high = side.win_interval
        made = f"{side.made_rate:.1%}" if side.bids_won else "-"
        print(
            f"{name:30} {summary.games:>6} {side.wins:>11} {side.win_rate:>9.1%} "
            f"{low:>8.1%}-{high:<8.1%} {summary.mean_hands:>10.2f} {made:>11} {elapsed:>6.1f}s"
        )
        if name == "heuristic vs random":
            verdict = (summary.games >= 1000 and side.win_rate >= 0.90, side.win_rate, low)
    if verdict is None:
        return 0
    met, rate, low = verdict
    status = "met" if met else "not met"
    print(
        f"requirement (heuristic pair wins >= 90% of >= 1,000 games vs the random pair): {status} "
        f"({rate:.1%}, 95% CI lower bound {low:.1%})"
    )
    return 1 if args.require and not met else 0


if __name__ == "__main__":
    sys.exit(main())
