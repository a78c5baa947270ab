"""Benchmark: random play through the framework adapters against the engine's own loop.

Four loops play uniformly random complete hands, alternated in one process
so that they share the machine's state:

* ``engine``: ``legal_actions`` + ``apply``, a deal from ``shuffled_deal``
  (exactly ``benchmarks/random_hands.py``);
* ``openspiel``: a ``python_deep_six`` state, 56 chance steps sampled from
  ``chance_outcomes()`` then ``legal_actions()`` + ``apply_action``;
* ``openspiel+obs``: the same, also reading the acting player's
  ``information_state_tensor`` at every decision (what a learner does);
* ``pettingzoo``: ``env()``'s ``agent_iter`` / ``last`` / ``step`` loop,
  the action drawn from ``action_mask`` (``last`` computes the acting
  agent's observation).

Prints each loop's median hands/s and steps/s, and the median over rounds of
each adapter's hands/s divided by the engine's in the same round.  The
machine is shared and noisy: read medians and ratios, not single figures.

    python benchmarks/adapters_speed.py [--hands 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import deepsix.adapters.openspiel  # noqa: F401  (registers python_deep_six)
from deepsix import apply, legal_actions, new_game, shuffled_deal
from deepsix.adapters.pettingzoo import env

Loop = Callable[[int, int], tuple[float, int]]
"""A loop: (hands, seed) -> (seconds, steps)."""


def engine_loop(hands: int, seed: int) -> tuple[float, int]:
    """The engine's own random-hands loop (``benchmarks/random_hands.py``)."""
    rng = random.Random(seed)
    choice = rng.choice
    state = new_game()
    done = steps = 0
    start = time.perf_counter()
    while done < hands:
        if state.is_over:
            state = new_game()
        if state.is_chance:
            state = apply(state, shuffled_deal(rng))
        else:
            state = apply(state, choice(legal_actions(state)))
        steps += 1
        if state.is_chance or state.is_over:
            done += 1
    return time.perf_counter() - start, steps


def openspiel_loop(observe: bool) -> Loop:
    """Random hands of ``python_deep_six``; with ``observe``, read an information state tensor."""

    def loop(hands: int, seed: int) -> tuple[float, int]:
        game = pyspiel.load_game("python_deep_six")
        rng = random.Random(seed)
        steps = 0
        start = time.perf_counter()
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    if observe:
                        state.information_state_tensor()
                    state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return time.perf_counter() - start, steps

    return loop


def pettingzoo_loop(hands: int, seed: int) -> tuple[float, int]:
    """Random hands through the AEC API, actions drawn from the action mask."""
    table = env()
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for hand in range(hands):
        table.reset(seed=seed * 1_000_003 + hand)
        for _agent in table.agent_iter():
            observation, _, termination, truncation, _ = table.last()
            if termination or truncation:
                table.step(None)
                continue
            table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return time.perf_counter() - start, steps


LOOPS: dict[str, Loop] = {
    "engine": engine_loop,
    "openspiel": openspiel_loop(observe=False),
    "openspiel+obs": openspiel_loop(observe=True),
    "pettingzoo": pettingzoo_loop,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    hands_per_s: dict[str, list[float]] = {name: [] for name in LOOPS}
    steps_per_s: dict[str, list[float]] = {name: [] for name in LOOPS}
    ratios: dict[str, list[float]] = {name: [] for name in LOOPS}
    for round_ in range(args.rounds):
        order = list(LOOPS) if round_ % 2 == 0 else list(reversed(LOOPS))
        measured = {}
        for name in order:
            seconds, steps = LOOPS[name](args.hands, round_)
            measured[name] = args.hands / seconds
            hands_per_s[name].append(args.hands / seconds)
            steps_per_s[name].append(steps / seconds)
        for name in LOOPS:
            ratios[name].append(measured[name] / measured["engine"])
    print(f"random complete hands: {args.rounds} alternated rounds of {args.hands} hands per loop")
    print(f"  {'loop':<14} {'hands/s':>9} {'steps/s':>9} {'vs engine':>10}")
    for name in LOOPS:
        print(
            f"  {name:<14} {statistics.median(hands_per_s[name]):>9,.0f}"
            f" {statistics.median(steps_per_s[name]):>9,.0f}"
            f" {statistics.median(ratios[name]):>9.3f}x"
        )
    print("  (steps: the engine counts a deal as one step; OpenSpiel as 56 chance steps;")
    print("   PettingZoo counts decisions only.  Ratios: medians of per-round hands/s ratios.)")


if __name__ == "__main__":
    main()
