"""Benchmark: deepsix against OpenSpiel's C++ hearts engine, driven the same way, in one process.

Both engines play random games through their public Python API, one step
at a time, keeping every state immutable:

* deepsix: ``legal_actions`` + ``random.choice`` + ``apply`` (a new
  state per step; a deal is one chance action from ``shuffled_deal``);
* OpenSpiel hearts (``pyspiel.load_game("hearts")``, C++): ``clone`` the
  state, then ``legal_actions`` + ``random.choice`` + ``apply_action`` on
  the clone (a copy per step; its deal is 52 chance steps and the pass
  direction one more, all uniform, so a random legal action samples them).

The two alternate, round by round, in the same process, so that the load
on a shared machine falls on both alike.  Each round times ``--hands``
complete deepsix hands and ``--hands`` complete hearts deals; the figure
of merit is the median over rounds of (deepsix hands/s) / (hearts deals/s).
It also prints which deepsix build is loaded (``deepsix.compiled.BUILD``).

    pip install open_spiel        # or the project's `bench` dependency group
    python benchmarks/versus_openspiel.py [--hands 300] [--rounds 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

import deepsix.compiled
from deepsix import apply, legal_actions, new_game, shuffled_deal


def deepsix_hands(hands: int, rng: random.Random) -> float:
    """Play ``hands`` random complete hands; return hands per second."""
    choice = rng.choice
    state = new_game()
    done = 0
    start = time.perf_counter()
    while done < hands:
        if state.is_over:
            state = new_game()
        if state.is_chance:
            state = apply(state, shuffled_deal(rng))
        else:
            state = apply(state, choice(legal_actions(state)))
        if state.is_chance or state.is_over:
            done += 1
    return hands / (time.perf_counter() - start)


def hearts_deals(game: Any, deals: int, rng: random.Random) -> float:
    """Play ``deals`` random hearts deals, a clone per step; return deals per second."""
    choice = rng.choice
    start = time.perf_counter()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.clone()
            state.apply_action(choice(state.legal_actions()))
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands (deals) per engine per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # optional: the bench group
    except ImportError:
        sys.exit(
            "OpenSpiel is not installed: pip install open_spiel (the `bench` dependency group)"
        )
    game = pyspiel.load_game("hearts")
    rng = random.Random(args.seed)
    ours: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    print(
        f"deepsix {deepsix.__version__} ({deepsix.compiled.BUILD} build) against OpenSpiel "
        f"C++ hearts, clone per step; Python {sys.version.split()[0]}, "
        f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(f"{'round':>5}  {'deepsix hands/s':>15}  {'hearts deals/s':>14}  {'ratio':>6}")
    for index in range(args.rounds):
        mine = deepsix_hands(args.hands, rng)
        other = hearts_deals(game, args.hands, rng)
        ours.append(mine)
        theirs.append(other)
        ratios.append(mine / other)
        print(f"{index + 1:>5}  {mine:>15,.0f}  {other:>14,.0f}  {mine / other:>6.2f}")
    print(
        f"median  {statistics.median(ours):>15,.0f}  {statistics.median(theirs):>14,.0f}  "
        f"{statistics.median(ratios):>6.2f}   (ratio: median of the rounds' ratios; "
        f"range {min(ratios):.2f}-{max(ratios):.2f})"
    )


if __name__ == "__main__":
    main()
