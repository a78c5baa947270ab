"""Shared games for the views, sampling, serialization and record tests (issue 6).

Whole games are played once per test session (cached) with the cautious
random policy of :mod:`tests.strategies`, so that they last several hands.
"""

from __future__ import annotations

import functools
import random

from deepsix import GameState, Phase, Rules, Seat, new_game
from tests.support.strategies import choose_action

__all__ = ["finished_game", "game_states", "one_state_per_phase"]


@functools.cache
def game_states(seed: int = 2026, rules: Rules | None = None) -> tuple[GameState, ...]:
    """Every state of one complete game, the fresh game first."""
    rng = random.Random(seed)
    state = new_game(rules, Seat(seed % 4))
    states = [state]
    while not state.is_over:
        state = state.apply(choose_action(rng, state, "cautious"))
        states.append(state)
    return tuple(states)


def finished_game() -> GameState:
    """The last state of a complete game of several hands."""
    return game_states()[-1]


def one_state_per_phase(seed: int = 2026) -> dict[Phase, GameState]:
    """For each phase, a state of the game's second hand in it (the end state for game over).

    The play state is the one with three tricks done and two cards on the table.
    """
    found: dict[Phase, GameState] = {}
    for state in game_states(seed):
        if state.hand_number < 2 and not state.is_over:
            continue
        if state.phase is Phase.PLAY:
            if len(state.tricks) == 3 and len(state.trick) == 2:
                found[Phase.PLAY] = state
        else:
            found.setdefault(state.phase, state)
    return found
