"""IS-MCTS from OpenSpiel plays North against three random players.

OpenSpiel's Python IS-MCTS searches over information sets: at each of
North's decisions it draws complete deals consistent with what North has
seen (``DeepSixState.resample_from_infostate``, built on
:func:`deepsix.sample_state`) and runs random rollouts from them.

    python docs/adapters/examples/openspiel_ismcts.py --hands 5 --simulations 50
"""

from __future__ import annotations

import argparse
import random
from typing import NamedTuple

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import deepsix.adapters.openspiel  # noqa: F401  (registers python_deep_six)


class Result(NamedTuple):
    """What :func:`play` played."""

    hands: int
    """Hands played."""
    decisions: int
    """Decisions IS-MCTS took for North."""
    returns: list[float]
    """Each player's returns, summed over the hands (North-South first and third)."""


def play(hands: int = 1, simulations: int = 20, seed: int = 0) -> Result:
    """Play ``hands`` hands: IS-MCTS for North, uniform random play for the others."""
    game = pyspiel.load_game("python_deep_six")
    rng = random.Random(seed)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
    # Draw worlds from a seeded generator, so that a run is reproducible.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng))
    totals = [0.0, 0.0, 0.0, 0.0]
    decisions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            elif state.current_player() == 0:
                state.apply_action(int(bot.step(state)))
                decisions += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        totals = [total + r for total, r in zip(totals, state.returns(), strict=True)]
    return Result(hands, decisions, totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    result = play(args.hands, args.simulations, args.seed)
    print(f"{result.hands} hands, {result.decisions} IS-MCTS decisions for North")
    print(f"North-South margin per hand: {result.returns[0] / result.hands:+.1f} points")


if __name__ == "__main__":
    main()
