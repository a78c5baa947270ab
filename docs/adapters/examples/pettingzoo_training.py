"""A short training loop: North-South learn with REINFORCE against random East-West.

The policy is linear and shared by the two partners: the logits are
``weights @ x``, where ``x`` is the observation scaled to [0, 1] by its
space's upper bound, and illegal actions are masked out with
``action_mask``.  After each hand every decision the partners took is
pushed towards (or away from) what it led to: the hand's margin (the
reward) minus a running average of it.

    python docs/adapters/examples/pettingzoo_training.py --hands 2000
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from deepsix.adapters.pettingzoo import env

LEARNERS = ("player_0", "player_2")


def train(hands: int = 200, seed: int = 0, learning_rate: float = 0.05) -> list[float]:
    """Train for ``hands`` hands; return North-South's margin in each hand."""
    table = env()
    rng = np.random.default_rng(seed)
    space: Any = table.observation_space(LEARNERS[0])
    scale = 1.0 / space["observation"].high
    actions = int(table.action_space(LEARNERS[0]).n)
    weights = np.zeros((actions, scale.shape[0]))
    baseline = 0.0
    margins = []
    for hand in range(hands):
        table.reset(seed=seed * 100_003 + hand)
        decisions = []  # (x, probabilities, action) of the learners' decisions
        margin = 0.0
        for agent in table.agent_iter():
            observation, reward, termination, truncation, _ = table.last()
            if termination or truncation:
                if agent == LEARNERS[0]:
                    margin = float(reward)
                table.step(None)
                continue
            mask = observation["action_mask"].astype(bool)
            if agent in LEARNERS:
                x = observation["observation"] * scale
                logits = weights @ x
                logits[~mask] = -np.inf
                probabilities = np.exp(logits - logits.max())
                probabilities /= probabilities.sum()
                action = int(rng.choice(actions, p=probabilities))
                decisions.append((x, probabilities, action))
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            table.step(action)
        advantage = (margin - baseline) / 100.0
        baseline += 0.05 * (margin - baseline)
        for x, probabilities, action in decisions:
            gradient = -probabilities
            gradient[action] += 1.0
            weights += learning_rate * advantage * np.outer(gradient, x)
        margins.append(margin)
    table.close()
    return margins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    margins = train(args.hands, args.seed)
    tenth = max(1, len(margins) // 10)
    print(f"North-South margin per hand, first {tenth} hands: {np.mean(margins[:tenth]):+.1f}")
    print(f"North-South margin per hand, last {tenth} hands:  {np.mean(margins[-tenth:]):+.1f}")


if __name__ == "__main__":
    main()
