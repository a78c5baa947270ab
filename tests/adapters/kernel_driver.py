"""The differential driver of the array kernel: N kernel games beside N engine games.

Both are driven with the same actions, drawn from the kernel's masks; at every decision
the masks, the observations (the layout's one-pass encoding of the engine state), the
seat to act, the rewards and the terminal flags must be equal, and each engine game is
dealt the deck the kernel dealt.  ``tests/adapters/test_kernel.py`` runs it on a few
hundred games; ``nox -s kernel_differential`` on 10,000.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from deepsix import IllegalActionError, apply, new_game
from deepsix.actions import Deal
from deepsix.adapters.actions import DONE_ID, PASS_ID
from deepsix.adapters.config import GameConfig
from deepsix.adapters.kernel import Kernel
from deepsix.cards import CARDS
from deepsix.state import GameState, Phase

SIGNS = (1.0, -1.0, 1.0, -1.0)


@dataclass
class Coverage:
    """What the games went through (for the tests to insist on the rare paths)."""

    counts: Counter[str] = field(default_factory=Counter)

    def add(self, name: str, n: int = 1) -> None:
        self.counts[name] += n


def deal_of(kernel: Kernel, i: int) -> Deal:
    return Deal([CARDS[int(c)] for c in kernel.decks[i]])


def fresh(config: GameConfig, kernel: Kernel, i: int) -> GameState:
    return apply(new_game(config.rules, config.dealer), deal_of(kernel, i))


def choose(masks: Any, rng: np.random.Generator, lean: float) -> Any:
    """A random legal action per game; with probability ``lean`` Pass or Done when legal
    (so that auctions of three passes, the forced bid and short invitations happen)."""
    keys = np.where(masks, rng.random(masks.shape), -1.0)
    actions = keys.argmax(axis=1)
    quick = masks[:, PASS_ID] | masks[:, DONE_ID]
    take = quick & (rng.random(len(masks)) < lean)
    actions[take] = np.where(masks[take, PASS_ID], PASS_ID, DONE_ID)
    return actions


def compare(kernel: Kernel, states: list[GameState], config: GameConfig) -> None:
    masks = kernel.masks()
    observations = kernel.observations()
    layout = kernel.layout
    codec = config.codec
    expected = np.zeros(layout.size, dtype=np.float32)
    for i, state in enumerate(states):
        assert state.to_act is not None
        assert int(kernel.to_act[i]) == state.to_act, i
        assert int(kernel.phase[i]) == list(Phase).index(state.phase), i
        assert masks[i].tobytes() == bytes(codec.legal_mask(state)), (i, state.phase)
        layout.fill(expected, layout.state_entries(state, state.to_act))
        assert observations[i].tobytes() == expected.tobytes(), (
            i,
            state.phase,
            np.flatnonzero(observations[i] != expected),
        )


def check_refusals(kernel: Kernel, states: list[GameState], rng: np.random.Generator) -> None:
    """An illegal action in one game of the batch is refused, with the engine's reason, and
    nothing changes."""
    masks = kernel.masks()
    illegal = np.flatnonzero(~masks.all(axis=1))
    if not len(illegal):
        return
    i = int(rng.choice(illegal))
    bad = int(rng.choice(np.flatnonzero(~masks[i])))
    actions = masks.argmax(axis=1)
    actions[i] = bad
    before = {
        name: value.copy() for name, value in vars(kernel).items() if isinstance(value, np.ndarray)
    }
    with pytest.raises(IllegalActionError) as refused:
        kernel.step(actions)
    state = states[i]
    assert state.to_act is not None
    with pytest.raises(IllegalActionError) as engine_refused:
        apply(state, kernel.config.codec.decode(bad, state.to_act))
    assert refused.value.reason is engine_refused.value.reason, (
        refused.value,
        engine_refused.value,
    )
    for name, value in before.items():
        assert np.array_equal(getattr(kernel, name), value), name


def drive(
    config: GameConfig,
    num_games: int,
    steps: int,
    *,
    seed: int = 0,
    observation: str = "information_state",
    lean: float = 0.3,
    refusals: int = 5,
    until_games: int = 0,
) -> Coverage:
    """Run ``num_games`` games side by side for ``steps`` steps (then on until
    ``until_games`` whole games have ended); return what they covered."""
    kernel = Kernel(num_games, config, observation=observation)
    kernel.reset(seed=seed)
    states = [fresh(config, kernel, i) for i in range(num_games)]
    rng = np.random.default_rng(seed)
    coverage = Coverage()
    codec = config.codec
    refuse_at = set(rng.choice(steps, size=min(refusals, steps), replace=False).tolist())
    t = 0
    while t < steps or coverage.counts["terminated"] + coverage.counts["truncated"] < until_games:
        t += 1
        compare(kernel, states, config)
        if t in refuse_at:
            check_refusals(kernel, states, rng)
        actions = choose(kernel.masks(), rng, lean)
        rewards, terminations, truncations = kernel.step(actions)
        for i in range(num_games):
            state = states[i]
            assert state.to_act is not None
            before = len(state.completed_hands)
            state = apply(state, codec.decode(int(actions[i]), state.to_act))
            reward = [0.0] * 4
            done = False
            ended = False
            if len(state.completed_hands) > before:
                record = state.completed_hands[-1]
                ns, ew = record.scores
                reward = [sign * float(ew - ns) for sign in SIGNS]
                coverage.add("hands")
                coverage.add("set" if not record.made else "made")
                if record.bid < 0:
                    coverage.add("negative bid")
                if record.bid == config.rules.lowest_bid:
                    coverage.add("lowest bid")
                if config.is_finished(state):
                    ended = True
                    if config.mode == "hand" or state.is_over:
                        done = True
                        coverage.add("terminated")
                    else:
                        coverage.add("truncated")
                    if state.is_over and record.number > 1:
                        coverage.add("game of several hands")
                    state = fresh(config, kernel, i)
                else:
                    if state.scores[0] == state.scores[1] and config.rules.is_game_over(
                        state.scores
                    ):
                        coverage.add("tie at the target")
                    coverage.add("next hand")
                    state = apply(state, deal_of(kernel, i))
            elif (
                state.phase is Phase.SUNK_SUIT
                and state.setup.bids[:3]
                and all(type(call).__name__ == "Pass" for call in state.setup.bids[:3])
            ):
                coverage.add("forced bid")
            fresh_hand = state.phase is Phase.BIDDING and not state.setup.bids
            assert bool(kernel.dealt[i]) == fresh_hand, i
            assert rewards[i].tolist() == reward, (i, rewards[i], reward)
            assert bool(terminations[i]) == done, i
            assert bool(truncations[i]) == (ended and not done), i
            states[i] = state
    compare(kernel, states, config)
    return coverage
